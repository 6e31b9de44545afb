import "mantine-react-table/styles.css";
import { ResourceTable } from "#resource-table";
import { Alert, Button, Group, Paper, Progress, Stack, Text, Title } from "@mantine/core";
import { IconDownload, IconPlus } from "@tabler/icons-react";
import { Suspense, useEffect, useRef } from "react";
import { data, Form, Link, redirect, useFetcher, useLocation } from "react-router";
import { apiPath, permissionCode, resourceKey } from "../../../resources/define";
import { findResource } from "../../../resources/index";
import type { Route } from "./+types/list";
import { FilterBar } from "~/components/resource/FilterBar";
import { ListPagination } from "~/components/resource/ListPagination";
import { useAppLinkNavigation, type RowAction } from "~/components/resource/RowActions";
import type { Row } from "~/components/resource/ResourceTable";
import { useExport } from "~/components/resource/useExport";
import { apiCall } from "~/lib/api.server";
import { useDicts } from "~/lib/dicts";
import { t } from "~/lib/messages";
import { useCurrentUser, usePermissions } from "~/lib/permissions";
import { listQuery, requireResource } from "~/lib/resource.server";
import { hrefWith } from "~/lib/list-url";
import { flashCookie } from "~/lib/session.server";

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
  if (result.status === 403) throw data(null, { status: 401 });
  const options: Record<string, { value: string; label: string }[]> = {};
  for (const field of def.fields.filter((f) => f.filter === "eq" && (f.type === "relation" || f.type === "treeParent") && f.relation)) {
    const target = findResource(field.relation as string);
    if (!target) continue;
    const page = await apiCall<Page>(request, context, "GET", apiPath(target, "findPage"), { query: { pageSize: 100 } });
    options[field.name] = (page.data?.records ?? []).map((r) => ({ value: String(r.id), label: String(r[target.labelField]) }));
  }
  const exportQuery = new URLSearchParams(Object.entries(query).filter(([k]) => k !== "pageNum" && k !== "pageSize"));
  return data(
    {
      // The declaration travels with the data, so the page does not load every resource's (see `pageTitle`).
      def,
      page: result.status === 200 ? result.data : { records: [], total: 0, pageNum: 1, pageSize: 20 },
      error: result.status === 200 ? null : result.message || "Error",
      params: Object.fromEntries(url.searchParams),
      options,
      exportQuery: exportQuery.toString(),
      confirmDelete: url.searchParams.get("delete"),
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
  if (intent === "delete") {
    const result = await apiCall(request, context, "GET", apiPath(def, "delete"), { query: { id: String(form.get("id")) } });
    if (result.status !== 200) return data({ error: result.message || "Error" }, { status: result.status === 409 ? 409 : 400 });
    return redirect(back.pathname + back.search, { headers: { "Set-Cookie": flashCookie("删除成功") } });
  }
  if (intent === "deleteBatch") {
    const ids = String(form.get("ids") ?? "").split(",").filter(Boolean).map(Number);
    const result = await apiCall(request, context, "POST", apiPath(def, "deleteBatch"), { body: { ids } });
    if (result.status !== 200) return data({ error: result.message || "Error" }, { status: result.status === 409 ? 409 : 400 });
    return redirect(back.pathname + back.search, { headers: { "Set-Cookie": flashCookie(`已删除 ${ids.length} 条记录`) } });
  }
  return data({ error: "未知操作" }, { status: 400 });
}

export function meta({ loaderData }: Route.MetaArgs) {
  const def = loaderData?.def;
  return [{ title: `${def?.menuTitle ?? def?.title ?? ""} - ${t.appTitle}` }];
}

export default function ResourceList({ loaderData, actionData }: Route.ComponentProps) {
  const { def, page, params, options, error, confirmDelete, exportQuery } = loaderData;
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
  const rowActions = (id: number): RowAction[] => [
    ...rowLinks.map((link) => ({
      key: link.action,
      label: link.label ?? def.workflowActions?.[link.action] ?? link.action,
      to: link.path.startsWith("/") ? link.path.replace(":id", String(id)) : `${base}/${link.path.replace(":id", String(id))}`,
    })),
    ...(canUpdate ? [{ key: "edit", label: "编辑", to: `${base}/edit/${id}` }] : []),
    ...(canDelete ? [{ key: "delete", label: "删除", to: hrefFor({ delete: String(id) }), danger: true }] : []),
  ];

  const target = confirmDelete ? page.records.find((r) => String(r.id) === confirmDelete) : undefined;
  // The confirmation opens above the table: focus goes to it, or a keyboard user would be left in the row.
  const confirmRef = useRef<HTMLDivElement>(null);
  const targetId = target?.id;
  useEffect(() => {
    if (targetId !== undefined) confirmRef.current?.focus();
  }, [targetId]);
  const problem = actionData?.error ?? batch.data?.error ?? error;
  const exportHref = (format: string) => `${apiPath(def, "export")}?format=${format}${exportQuery ? `&${exportQuery}` : ""}`;

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={3}>{def.menuTitle ?? def.title}</Title>
        <Group gap="xs">
          {def.actions.includes("export") && can(permissionCode(def, "export")) && (
            <>
              <Button component="a" href={exportHref("xlsx")} onClick={(e) => exporter.start(e, `${def.title}.xlsx`)} variant="default" leftSection={<IconDownload size={16} />}>
                导出 Excel
              </Button>
              <Button component="a" href={exportHref("csv")} onClick={(e) => exporter.start(e, `${def.title}.csv`)} variant="default" leftSection={<IconDownload size={16} />}>
                导出 CSV
              </Button>
            </>
          )}
          {(def.headerLinks ?? [])
            .filter((link) => can(permissionCode(def, link.action)))
            .map((link) => (
              <Button key={link.action} component={Link} to={`${base}/${link.path}`} variant={link.action === def.headerLinks?.[0]?.action ? "filled" : "light"}>
                {link.label ?? def.workflowActions?.[link.action] ?? link.action}
              </Button>
            ))}
          {def.actions.includes("create") && can(permissionCode(def, "create")) && (
            <Button component={Link} to={`${base}/create`} leftSection={<IconPlus size={16} />}>
              新增
            </Button>
          )}
        </Group>
      </Group>
      {exporter.progress && (
        <Paper withBorder p="sm" radius="md" data-testid="export-progress">
          <Text size="sm" mb={6}>
            {exporter.progress.done
              ? `导出完成：共 ${exporter.progress.total} 条`
              : `正在导出 ${exporter.progress.total} 条……已接收 ${Math.round(exporter.progress.bytes / 1024)} KB`}
          </Text>
          <Progress value={100} animated={!exporter.progress.done} striped={!exporter.progress.done} />
        </Paper>
      )}
      {problem && (
        <Alert color="red" variant="light" role="alert">
          {problem}
        </Alert>
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
      <FilterBar def={def} params={params} dicts={dicts} options={options} resetTo={location.pathname} />
      <Paper withBorder radius="md" style={{ overflow: "hidden" }} onClick={onAppLinkClick}>
        <Suspense>
          <ResourceTable
            def={def}
            prefsKey={resourceKey(def)}
            records={page.records as Row[]}
            total={page.total}
            failed={!!error}
            dicts={dicts}
            prefs={user?.settings.tables?.[resourceKey(def)]}
            canDelete={canDelete}
            rowActions={canUpdate || canDelete || rowLinks.length > 0 ? rowActions : null}
            batch={batch}
          />
        </Suspense>
        <ListPagination total={page.total} capped={page.totalCapped} pageNum={page.pageNum} pageSize={page.pageSize} hrefFor={hrefFor} />
      </Paper>
    </Stack>
  );
}
