import { Button, Table, Text } from "@mantine/core";
import { IconTrash } from "@tabler/icons-react";
import {
  MantineReactTable,
  useMantineReactTable,
  type MRT_ColumnDef,
  type MRT_DensityState,
  type MRT_TableInstance,
  type MRT_VisibilityState,
} from "mantine-react-table";
import { MRT_Localization_ZH_HANS } from "mantine-react-table/locales/zh-Hans/index.esm.mjs";
import { useMemo, useState } from "react";
import { useLocation, useNavigation, type FetcherWithComponents } from "react-router";
import { listFields, sortableFields, type FieldDef, type ResourceDef } from "../../../resources/define";
import type { DictOption } from "../../../resources/dicts";
import { FieldValue } from "./cells";
import rowClasses from "./rows.module.css";
import { RowActions, SelectCheckbox, type RowAction } from "./RowActions";
import { hrefWith } from "~/lib/list-url";

export type Row = Record<string, unknown> & { id: number };

export interface ResourceTableProps {
  def: ResourceDef;
  /** The resource key, under which the user's column and density choices are saved. */
  prefsKey: string;
  records: Row[];
  total: number;
  failed: boolean;
  dicts: Record<string, DictOption[]>;
  prefs?: { hidden?: string[]; density?: MRT_DensityState };
  canDelete: boolean;
  /** A row's links, or null when the user may do nothing to a row. */
  rowActions: ((id: number) => RowAction[]) | null;
  batch: FetcherWithComponents<unknown>;
}

/**
 * Reads the current URL itself, so the link keeps every filter even when the table memoises its headers. A plain
 * anchor, routed in the app by the list's `useAppLinkNavigation`.
 */
function SortHeader({ field }: { field: FieldDef }) {
  const location = useLocation();
  const [current, dir] = currentSort(location.search);
  const active = current === field.name;
  const next = active && dir === "asc" ? "desc" : "asc";
  // The arrow is decoration: the column header's aria-sort tells the order (see mantineTableHeadCellProps).
  return (
    <a href={hrefWith(location, { sort: `${field.name},${next}`, pageNum: null })} data-app-link style={{ color: "inherit", textDecoration: "none" }}>
      {field.label}
      <Text span c={active ? "brand" : "dimmed"} ml={4} size="xs" aria-hidden>
        {active ? (dir === "asc" ? "▲" : "▼") : "⇅"}
      </Text>
    </a>
  );
}

function currentSort(search: string): [string, string] {
  const [field = "", dir = ""] = (new URLSearchParams(search).get("sort") ?? "").split(",");
  return [field, dir];
}

const TR_CLASS = `${Table.classes.tr} mantine-Table-tr ${rowClasses.row}`;

/**
 * The table's body rows, drawn here rather than by MRT (through `mantineTableBodyProps.children`). MRT draws each
 * cell as a Mantine `Table.Td` (a Box resolving its props and styles) with a few dozen checks for features the lists
 * turn off; for 20 rows of 10 columns that was a fifth of a list page's server render. These are plain `tr`/`td`
 * with Mantine's table classes and MRT's row look (`rows.module.css`); MRT still holds the rows, the selection,
 * column visibility and density, so its toolbar and header work on them as before.
 */
function BodyRows({ table, fields, dicts, rowActions }: { table: MRT_TableInstance<Row>; fields: Map<string, FieldDef>; dicts: Record<string, DictOption[]>; rowActions: ResourceTableProps["rowActions"] }) {
  const nowrap = table.getState().density === "xs";
  return table.getRowModel().rows.map((row, index) => (
    <tr key={row.id} className={TR_CLASS} data-with-row-border data-hover data-striped={index % 2 === 0 ? "odd" : "false"} data-selected={row.getIsSelected() || undefined} data-nowrap={nowrap || undefined}>
      {row.getVisibleCells().map((cell) => {
        const { id } = cell.column;
        const field = fields.get(id);
        return (
          <td key={id}>
            {field ? (
              <FieldValue field={field} record={row.original} dicts={dicts} />
            ) : id === "mrt-row-select" ? (
              <SelectCheckbox label="选择此行" checked={row.getIsSelected()} onChange={row.getToggleSelectedHandler()} />
            ) : id === "mrt-row-actions" ? (
              <RowActions actions={rowActions?.(row.original.id) ?? []} />
            ) : null}
          </td>
        );
      })}
    </tr>
  ));
}

/**
 * The list's mantine-react-table, in a module of its own: list pages load it after the rest of the page so a
 * slow terminal can read and use the server-rendered rows first (see decision 007).
 */
export function ResourceTable({ def, prefsKey, records, total, failed, dicts, prefs, canDelete, rowActions, batch }: ResourceTableProps) {
  const navigation = useNavigation();
  const [sortField, sortDir] = currentSort(useLocation().search);
  const [columnVisibility, setColumnVisibility] = useState<MRT_VisibilityState>(() => Object.fromEntries((prefs?.hidden ?? []).map((c) => [c, false])));
  const [density, setDensity] = useState<MRT_DensityState>(prefs?.density ?? "md");
  const [selection, setSelection] = useState<Record<string, boolean>>({});

  const columns = useMemo<MRT_ColumnDef<Row>[]>(() => {
    const sortable = new Set(sortableFields(def));
    return listFields(def).map((field) => ({
      id: field.name,
      accessorKey: field.name,
      header: field.label,
      Header: sortable.has(field.name) ? () => <SortHeader field={field} /> : undefined,
    }));
  }, [def]);
  const fieldsByName = useMemo(() => new Map(listFields(def).map((field) => [field.name, field])), [def]);

  const savePrefs = (next: { hidden?: string[]; density?: MRT_DensityState }) => {
    const hidden = next.hidden ?? Object.keys(columnVisibility).filter((k) => columnVisibility[k] === false);
    const body = { tables: { [prefsKey]: { hidden, density: next.density ?? density } } };
    void fetch("/api/v1/auth/user/saveSettings", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).catch(() => undefined);
  };

  const table = useMantineReactTable({
    columns,
    data: records,
    getRowId: (row) => String(row.id),
    localization: MRT_Localization_ZH_HANS,
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    rowCount: total,
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
    enableRowActions: rowActions !== null,
    positionActionsColumn: "last",
    // The batch-delete button says how many rows are selected; MRT's own banner would cover the toolbar.
    positionToolbarAlertBanner: "none",
    displayColumnDefOptions: {
      "mrt-row-actions": { header: "操作", size: 170 + 90 * (def.rowLinks?.length ?? 0) },
      "mrt-row-select": {
        size: 48,
        Header: ({ table }) => (
          <SelectCheckbox
            label="全选本页"
            checked={table.getIsAllPageRowsSelected()}
            indeterminate={table.getIsSomePageRowsSelected()}
            onChange={table.getToggleAllPageRowsSelectedHandler()}
          />
        ),
      },
    },
    defaultColumn: { size: 140, minSize: 80 },
    mantineTableContainerProps: { style: { overflowX: "auto" } },
    // With no rows, MRT draws its empty-rows fallback below.
    mantineTableBodyProps: ({ table }) =>
      records.length ? { children: <BodyRows table={table} fields={fieldsByName} dicts={dicts} rowActions={rowActions} /> } : {},
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
    mantineTableHeadCellProps: ({ column }) => (column.id === sortField ? { "aria-sort": sortDir === "asc" ? "ascending" : "descending" } : {}),
    mantineTableProps: { striped: true, highlightOnHover: true },
    // MRT names its loading bar in English whatever the localization.
    mantineProgressProps: { value: 100, "aria-label": "数据加载中" },
    mantinePaperProps: { withBorder: false, shadow: "none" },
    renderEmptyRowsFallback: () => (
      <Text c="dimmed" ta="center" py="xl">
        {failed ? "加载失败" : "暂无数据"}
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
  });

  return <MantineReactTable table={table} />;
}
