import type { SubmissionResult } from "@conform-to/react";
import { Alert, Button, Group, Paper, Progress, Text, Title } from "@mantine/core";
import { IconDownload, IconFileImport, IconPlus } from "~/components/icons";
import { useEffect, useRef } from "react";
import { data, Form, Link, redirect, useFetcher, useLocation } from "react-router";
import { apiPath, listView, permissionCode, resourceKey } from "../../../resources/define";
import { importMessages, type ImportReport } from "../../../resources/imports";
import type { Route } from "./+types/list";
import { FilterBar } from "~/components/resource/FilterBar";
import { ImportPanel } from "~/components/resource/ImportPanel";
import { ResourceEditor } from "~/components/resource/ResourceEditor";
import { ListPagination } from "~/components/resource/ListPagination";
import { useAppLinkNavigation, type RowAction } from "~/components/resource/RowActions";
import { ResourceTable, type Row } from "~/components/resource/ResourceTable";
import { useExport } from "~/components/resource/useExport";
import { apiCall } from "~/lib/api.server";
import { errorReply, requirePermitted } from "~/lib/api-answer.server";
import { formatCount } from "~/lib/format";
import { useDicts } from "~/lib/dicts";
import { t } from "~/lib/messages";
import { useCurrentUser, usePermissions } from "~/lib/permissions";
import { loadForm, saveForm } from "~/lib/resource-form.server";
import { listQuery, relationFilters, requireResource, tableRow } from "~/lib/resource.server";
import { hrefWith, relativeTo } from "~/lib/list-url";
import { flashCookie } from "~/lib/session.server";
import { PlainButton } from "~/components/PlainButton";
import classes from "./list.module.css";

interface Page {
  records: Row[];
  total: number;
  totalCapped?: boolean;
  pageNum: number;
  pageSize: number;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const def = requireResource(request);
  const url = new URL(request.url);
  const query = listQuery(def, url);
  const result = await apiCall<Page>(request, context, "GET", apiPath(def, "findPage"), { query });
  requirePermitted(result);
  const relations = await relationFilters(request, context, def, url);
  const exportQuery = new URLSearchParams(Object.entries(query).filter(([k]) => k !== "pageNum" && k !== "pageSize"));
  // An index-only resource (spec §2) is created and edited in a form above its rows: `?create=1`, `?edit=<id>`.
  const editId = url.searchParams.get("edit");
  const editing = editId !== null || url.searchParams.has("create");
  const editor = def.indexOnly && editing && def.actions.includes(editId !== null ? "update" : "create") ? await loadForm(request, context, def, editId ?? undefined) : null;
  return data(
    {
      // The declaration travels with the data, so the page does not load every resource's (see `pageTitle`); only
      // what a list draws of it.
      def: listView(def),
      page: result.status === 200 ? { ...result.data, records: result.data.records.map(tableRow(def)) } : { records: [], total: 0, pageNum: 1, pageSize: 20 },
      error: result.status === 200 ? null : result.message || "Error",
      params: Object.fromEntries(url.searchParams),
      relations,
      exportQuery: exportQuery.toString(),
      confirmDelete: url.searchParams.get("delete"),
      // The list's data carries the declaration once.
      editor: editor && { key: editor.key, mode: editor.mode, record: editor.record, options: editor.options, sources: editor.sources },
      importOpen: url.searchParams.get("import") === "1" && def.actions.includes("import"),
    },
    { status: result.status === 400 ? 400 : 200 },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const def = requireResource(request);
  const form = await request.formData();
  const intent = form.get("intent");
  const back = new URL(request.url);
  back.searchParams.delete("delete");
  back.searchParams.delete("index");
  if (def.indexOnly && (intent === "create" || intent === "edit") && def.actions.includes(intent === "create" ? "create" : "update")) {
    form.delete("intent");
    back.searchParams.delete("create");
    back.searchParams.delete("edit");
    return saveForm(request, context, def, intent, form, back.pathname + back.search);
  }
  if (intent === "delete") {
    const result = await apiCall(request, context, "GET", apiPath(def, "delete"), { query: { id: String(form.get("id")) } });
    if (result.status !== 200) return errorReply(result);
    return redirect(back.pathname + back.search, { headers: { "Set-Cookie": flashCookie("删除成功") } });
  }
  if (intent === "deleteBatch") {
    const ids = String(form.get("ids") ?? "").split(",").filter(Boolean).map(Number);
    const result = await apiCall(request, context, "POST", apiPath(def, "deleteBatch"), { body: { ids } });
    if (result.status !== 200) return errorReply(result);
    return redirect(back.pathname + back.search, { headers: { "Set-Cookie": flashCookie(`已删除 ${ids.length} 条记录`) } });
  }
  if (intent === "importCheck" || intent === "import") {
    const file = form.get("file");
    if (!file || typeof file === "string" || file.size === 0) return data({ importError: importMessages.missing }, { status: 400 });
    const result = await apiCall<ImportReport>(request, context, "POST", apiPath(def, "import"), {
      query: { dryRun: intent === "importCheck" ? "1" : "0" },
      rawBody: { bytes: new Uint8Array(await file.arrayBuffer()), type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" },
    });
    if (result.status === 200 && intent === "import") {
      back.searchParams.delete("import");
      return redirect(back.pathname + back.search, { headers: { "Set-Cookie": flashCookie(importMessages.done(result.data.imported)) } });
    }
    if (result.status === 200) return data({ importReport: result.data });
    // A refused import carries its report; a refused file only its message.
    const report = result.data && typeof result.data === "object" && "errors" in result.data ? result.data : null;
    return data({ importReport: report, importError: report ? null : result.message || "Error" }, { status: result.status === 403 ? 403 : 400 });
  }
  return data({ error: "未知操作" }, { status: 400 });
}

export function meta({ loaderData }: Route.MetaArgs) {
  const def = loaderData?.def;
  return [{ title: `${def?.menuTitle ?? def?.title ?? ""} - ${t.appTitle}` }];
}

/** A row link's path with the row's values for its `:name` parts (`:id`; a drill-down's `?goodsId=:goodsId`). */
const fillPath = (path: string, record: Row) => path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(record[name] ?? "")));

export default function ResourceList({ loaderData, actionData }: Route.ComponentProps) {
  const { def, page, params, relations, error, confirmDelete, exportQuery, editor, importOpen } = loaderData;
  const location = useLocation();
  const dicts = useDicts();
  const can = usePermissions();
  const user = useCurrentUser();
  const batch = useFetcher<typeof action>();
  const exporter = useExport();
  const onAppLinkClick = useAppLinkNavigation();
  const hrefFor = (changes: Record<string, string | null>) => hrefWith(location, changes);
  const base = `${def.screenBase}/${def.screen}`;
  const canUpdate = def.actions.includes("update") && can(permissionCode(def, "update"));
  const canDelete = def.actions.includes("delete") && can(permissionCode(def, "delete"));
  const rowLinks = (def.rowLinks ?? []).filter((link) => can(permissionCode({ module: def.module, entity: link.entity ?? def.entity }, link.action)));
  const changeable = (record: Record<string, unknown>) => !def.changeableWhen || def.changeableWhen.values.includes(String(record[def.changeableWhen.field]));
  const rowActions = ({ id, ...record }: Row): RowAction[] => [
    // Only the steps the row's state allows (a lost card: 解挂, 补卡, 注销); the API refuses the others with 409.
    ...rowLinks
      .filter((link) => !link.when || link.when.values.includes(String(record[link.when.field])))
      .map((link) => ({
        key: link.action,
        label: link.label ?? def.workflowActions?.[link.action] ?? link.action,
        to: relativeTo(location.pathname, link.path.startsWith("/") ? fillPath(link.path, { id, ...record }) : `${base}/${fillPath(link.path, { id, ...record })}`),
      })),
    ...(canUpdate && changeable(record) ? [{ key: "edit", label: "编辑", to: relativeTo(location.pathname, def.indexOnly ? hrefFor({ edit: String(id), create: null, delete: null }) : `${base}/edit/${id}`) }] : []),
    ...(canDelete && changeable(record) ? [{ key: "delete", label: "删除", to: relativeTo(location.pathname, hrefFor({ delete: String(id) })), danger: true }] : []),
  ];

  const target = confirmDelete ? page.records.find((r) => String(r.id) === confirmDelete) : undefined;
  // The confirmation opens above the table: focus goes to it, or a keyboard user would be left in the row.
  const confirmRef = useRef<HTMLDivElement>(null);
  const targetId = target?.id;
  useEffect(() => {
    if (targetId !== undefined) confirmRef.current?.focus();
  }, [targetId]);
  // The index-only form opens above the rows: the focus goes to it, as to the delete confirmation.
  const editorRef = useRef<HTMLDivElement>(null);
  const editorFor = editor ? `${editor.mode}-${editor.record?.id ?? "new"}` : null;
  useEffect(() => {
    if (editorFor) editorRef.current?.focus();
  }, [editorFor]);
  // The delete intents answer `{ error }` (a message); a refused save answers conform's reply.
  const listError = (value: unknown) => (value && typeof (value as { error?: unknown }).error === "string" ? ((value as { error: string }).error) : undefined);
  const saveResult = actionData && !listError(actionData) && !("importReport" in actionData) ? (actionData as unknown as SubmissionResult<string[]>) : undefined;
  const problem = listError(actionData) ?? listError(batch.data) ?? error;
  const actionResult = actionData as { importReport?: ImportReport | null; importError?: string | null } | undefined;
  const exportHref = (format: string) => `${apiPath(def, "export")}?format=${format}${exportQuery ? `&${exportQuery}` : ""}`;

  return (
    <div className={classes.page}>
      <div className={classes.head}>
        <h3 className={classes.title}>{def.menuTitle ?? def.title}</h3>
        <div className={classes.actions}>
          {def.actions.includes("export") && can(permissionCode(def, "export")) && (
            <>
              <PlainButton href={exportHref("xlsx")} onClick={(e: React.MouseEvent<HTMLAnchorElement>) => exporter.start(e, `${def.title}.xlsx`)} variant="default" leftSection={<IconDownload size={16} />}>
                导出 Excel
              </PlainButton>
              <PlainButton href={exportHref("csv")} onClick={(e: React.MouseEvent<HTMLAnchorElement>) => exporter.start(e, `${def.title}.csv`)} variant="default" leftSection={<IconDownload size={16} />}>
                导出 CSV
              </PlainButton>
            </>
          )}
          {(def.headerLinks ?? [])
            .filter((link) => can(permissionCode(def, link.action)))
            .map((link) => (
              <PlainButton key={link.action} to={`${base}/${link.path}`} variant={link.action === def.headerLinks?.[0]?.action ? "filled" : "light"}>
                {link.label ?? def.workflowActions?.[link.action] ?? link.action}
              </PlainButton>
            ))}
          {def.actions.includes("import") && can(permissionCode(def, "import")) && (
            <PlainButton to={hrefFor({ import: "1" })} variant="default" leftSection={<IconFileImport size={16} />}>
              导入
            </PlainButton>
          )}
          {def.actions.includes("create") && can(permissionCode(def, "create")) && (
            <PlainButton to={def.indexOnly ? hrefFor({ create: "1", edit: null, delete: null }) : `${base}/create`} leftSection={<IconPlus size={16} />}>
              新增
            </PlainButton>
          )}
        </div>
      </div>
      {exporter.progress && (
        <Paper withBorder p="sm" radius="md" data-testid="export-progress">
          <Text size="sm" mb={6}>
            {exporter.progress.done
              ? `导出完成：共 ${formatCount(exporter.progress.total)} 条`
              : `正在导出 ${formatCount(exporter.progress.total)} 条……已接收 ${formatCount(Math.round(exporter.progress.bytes / 1024))} KB`}
          </Text>
          <Progress value={100} animated={!exporter.progress.done} striped={!exporter.progress.done} />
        </Paper>
      )}
      {problem && (
        <Alert color="red" variant="light" role="alert">
          {problem}
        </Alert>
      )}
      {importOpen && can(permissionCode(def, "import")) && (
        <ImportPanel def={def} report={actionResult?.importReport ?? null} error={actionResult?.importError ?? null} closeHref={hrefFor({ import: null })} />
      )}
      {target && (
        <Alert ref={confirmRef} tabIndex={-1} color="orange" variant="light" title="确认删除" data-testid="confirm-delete">
          <Text size="sm" mb="sm">
            确定删除{def.title}「{String(target[def.labelField] ?? target.id)}」吗？删除后不可恢复。
          </Text>
          <Group gap="xs">
            <Form method="post">
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="id" value={target.id} />
              <Button type="submit" color="red" size="xs">
                确认删除
              </Button>
            </Form>
            <Button component={Link} to={hrefFor({ delete: null })} variant="default" size="xs">
              取消
            </Button>
          </Group>
        </Alert>
      )}
      {editor && (
        <Paper ref={editorRef} tabIndex={-1} withBorder radius="md" p="lg" aria-labelledby="index-editor-title" component="section" data-testid="index-editor">
          <Title order={4} id="index-editor-title" mb="md">
            {editor.mode === "edit" ? `编辑${def.title}` : `新增${def.title}`}
          </Title>
          <ResourceEditor
            def={def}
            formKey={editor.key}
            mode={editor.mode}
            record={editor.record}
            options={editor.options}
            sources={editor.sources}
            lastResult={saveResult}
            cancelTo={hrefFor({ create: null, edit: null })}
            intent={editor.mode}
          />
        </Paper>
      )}
      <FilterBar def={def} params={params} dicts={dicts} relations={relations} resetTo={location.pathname} />
      <Paper withBorder radius="md" style={{ overflow: "hidden" }} onClick={onAppLinkClick} data-app-links>
        <ResourceTable
          def={def}
          prefsKey={resourceKey(def)}
          records={page.records as Row[]}
          failed={!!error}
          dicts={dicts}
          prefs={user?.settings.tables?.[resourceKey(def)]}
          canDelete={canDelete}
          rowActions={canUpdate || canDelete || rowLinks.length > 0 ? rowActions : null}
          batch={batch}
        />
        <ListPagination total={page.total} capped={page.totalCapped} pageNum={page.pageNum} pageSize={page.pageSize} hrefFor={(changes) => relativeTo(location.pathname, hrefFor(changes))} />
      </Paper>
    </div>
  );
}
