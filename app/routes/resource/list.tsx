import "mantine-react-table/styles.css";
import { Alert, Button, Group, Paper, Progress, Stack, Text, Title } from "@mantine/core";
import { IconDownload, IconPencil, IconPlus, IconTrash } from "@tabler/icons-react";
import { MantineReactTable, useMantineReactTable, type MRT_ColumnDef, type MRT_DensityState, type MRT_VisibilityState } from "mantine-react-table";
import { MRT_Localization_ZH_HANS } from "mantine-react-table/locales/zh-Hans/index.esm.mjs";
import { useMemo, useState } from "react";
import { data, Form, Link, redirect, useFetcher, useLocation, useNavigation } from "react-router";
import { apiPath, listFields, permissionCode, resourceKey, sortableFields, type FieldDef, type ResourceDef } from "../../../resources/define";
import { findResource } from "../../../resources/index";
import type { Route } from "./+types/list";
import { FieldValue } from "~/components/resource/cells";
import { FilterBar } from "~/components/resource/FilterBar";
import { ListPagination } from "~/components/resource/ListPagination";
import { useExport } from "~/components/resource/useExport";
import { apiCall } from "~/lib/api.server";
import { useDicts } from "~/lib/dicts";
import { t } from "~/lib/messages";
import { useCurrentUser, usePermissions } from "~/lib/permissions";
import { listQuery, requireResource } from "~/lib/resource.server";
import { flashCookie } from "~/lib/session.server";

type Row = Record<string, unknown> & { id: number };
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
      key: resourceKey(def),
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
  const def = loaderData ? findResource(loaderData.key) : undefined;
  return [{ title: `${def?.menuTitle ?? def?.title ?? ""} - ${t.appTitle}` }];
}

function hrefWith(location: { pathname: string; search: string }, changes: Record<string, string | null>) {
  const params = new URLSearchParams(location.search);
  params.delete("delete");
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  const search = params.toString();
  return search ? `${location.pathname}?${search}` : location.pathname;
}

/** Reads the current URL itself, so the link keeps every filter even when the table memoises its headers. */
function SortHeader({ field }: { field: FieldDef }) {
  const location = useLocation();
  const sort = new URLSearchParams(location.search).get("sort") ?? "";
  const [current, dir] = sort.split(",");
  const active = current === field.name;
  const next = active && dir === "asc" ? "desc" : "asc";
  return (
    <Link to={hrefWith(location, { sort: `${field.name},${next}`, pageNum: null })} style={{ color: "inherit", textDecoration: "none" }} aria-sort={active ? (dir === "asc" ? "ascending" : "descending") : undefined}>
      {field.label}
      <Text span c={active ? "brand" : "dimmed"} ml={4} size="xs">
        {active ? (dir === "asc" ? "▲" : "▼") : "⇅"}
      </Text>
    </Link>
  );
}

export default function ResourceList({ loaderData, actionData }: Route.ComponentProps) {
  const def = findResource(loaderData.key) as ResourceDef;
  const { page, params, options, error, confirmDelete, exportQuery } = loaderData;
  const location = useLocation();
  const navigation = useNavigation();
  const dicts = useDicts();
  const can = usePermissions();
  const user = useCurrentUser();
  const prefs = user?.settings.tables?.[loaderData.key];
  const [columnVisibility, setColumnVisibility] = useState<MRT_VisibilityState>(() =>
    Object.fromEntries((prefs?.hidden ?? []).map((c) => [c, false])),
  );
  const [density, setDensity] = useState<MRT_DensityState>(prefs?.density ?? "md");
  const [selection, setSelection] = useState<Record<string, boolean>>({});
  const batch = useFetcher<typeof action>();
  const exporter = useExport();
  const hrefFor = (changes: Record<string, string | null>) => hrefWith(location, changes);
  const base = `${def.screenBase}/${def.screen}`;
  const canUpdate = def.actions.includes("update") && can(permissionCode(def, "update"));
  const canDelete = def.actions.includes("delete") && can(permissionCode(def, "delete"));
  const rowLinks = (def.rowLinks ?? []).filter((link) => can(permissionCode(def, link.action)));

  const columns = useMemo<MRT_ColumnDef<Row>[]>(() => {
    const sortable = new Set(sortableFields(def));
    return listFields(def).map((field) => ({
      id: field.name,
      accessorKey: field.name,
      header: field.label,
      Header: sortable.has(field.name) ? () => <SortHeader field={field} /> : undefined,
      Cell: ({ row }) => <FieldValue field={field} record={row.original} dicts={dicts} />,
    }));
  }, [def, dicts]);

  const savePrefs = (next: { hidden?: string[]; density?: MRT_DensityState }) => {
    const hidden = next.hidden ?? Object.keys(columnVisibility).filter((k) => columnVisibility[k] === false);
    const body = { tables: { [loaderData.key]: { hidden, density: next.density ?? density } } };
    void fetch("/api/v1/auth/user/saveSettings", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).catch(() => undefined);
  };

  const table = useMantineReactTable({
    columns,
    data: page.records,
    getRowId: (row) => String(row.id),
    localization: MRT_Localization_ZH_HANS,
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    rowCount: page.total,
    enableSorting: false,
    enableColumnFilters: false,
    enableGlobalFilter: false,
    enableColumnActions: false,
    enableFullScreenToggle: false,
    // Features the lists do not use: each one costs work in every cell of every render.
    enableFilters: false,
    enableGrouping: false,
    enableExpanding: false,
    enableColumnDragging: false,
    enableColumnOrdering: false,
    enableColumnPinning: false,
    enableRowPinning: false,
    enableColumnResizing: false,
    enableFacetedValues: false,
    enableEditing: false,
    enableStickyHeader: false,
    enablePagination: false,
    enableBottomToolbar: false,
    enableRowSelection: canDelete,
    enableRowActions: canUpdate || canDelete || rowLinks.length > 0,
    positionActionsColumn: "last",
    displayColumnDefOptions: { "mrt-row-actions": { header: "操作", size: 170 + 90 * (def.rowLinks?.length ?? 0) }, "mrt-row-select": { size: 48 } },
    defaultColumn: { size: 140, minSize: 80 },
    mantineTableContainerProps: { style: { overflowX: "auto" } },
    state: { columnVisibility, density, rowSelection: selection, showProgressBars: navigation.state === "loading" },
    onRowSelectionChange: setSelection,
    onColumnVisibilityChange: (updater) => {
      const next = typeof updater === "function" ? updater(columnVisibility) : updater;
      setColumnVisibility(next);
      savePrefs({ hidden: Object.keys(next).filter((k) => next[k] === false) });
    },
    onDensityChange: (updater) => {
      const next = typeof updater === "function" ? updater(density) : updater;
      setDensity(next);
      savePrefs({ density: next });
    },
    mantineTableProps: { striped: true, highlightOnHover: true },
    mantinePaperProps: { withBorder: false, shadow: "none" },
    renderEmptyRowsFallback: () => (
      <Text c="dimmed" ta="center" py="xl">
        {error ? "加载失败" : "暂无数据"}
      </Text>
    ),
    renderTopToolbarCustomActions: () => {
      const ids = Object.keys(selection).filter((id) => selection[id]);
      return canDelete && ids.length ? (
        <batch.Form method="post" onSubmit={(e) => (window.confirm(`确定删除选中的 ${ids.length} 条${def.title}吗？`) ? undefined : e.preventDefault())}>
          <input type="hidden" name="intent" value="deleteBatch" />
          <input type="hidden" name="ids" value={ids.join(",")} />
          <Button type="submit" color="red" variant="light" size="xs" leftSection={<IconTrash size={14} />} loading={batch.state !== "idle"}>
            批量删除（{ids.length}）
          </Button>
        </batch.Form>
      ) : null;
    },
    renderRowActions: ({ row }) => (
      <Group gap={4} wrap="nowrap">
        {rowLinks.map((link) => (
          <Button key={link.action} component={Link} to={`${base}/${link.path.replace(":id", String(row.original.id))}`} size="compact-sm" variant="subtle">
            {def.workflowActions?.[link.action] ?? link.action}
          </Button>
        ))}
        {canUpdate && (
          <Button component={Link} to={`${base}/edit/${row.original.id}`} size="compact-sm" variant="subtle" leftSection={<IconPencil size={14} />}>
            编辑
          </Button>
        )}
        {canDelete && (
          <Button component={Link} to={hrefFor({ delete: String(row.original.id) })} size="compact-sm" variant="subtle" color="red" leftSection={<IconTrash size={14} />}>
            删除
          </Button>
        )}
      </Group>
    ),
  });

  const target = confirmDelete ? page.records.find((r) => String(r.id) === confirmDelete) : undefined;
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
        <Alert color="orange" variant="light" title="确认删除" data-testid="confirm-delete">
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
      <Paper withBorder radius="md" style={{ overflow: "hidden" }}>
        <MantineReactTable table={table} />
        <ListPagination total={page.total} capped={page.totalCapped} pageNum={page.pageNum} pageSize={page.pageSize} hrefFor={hrefFor} />
      </Paper>
    </Stack>
  );
}
