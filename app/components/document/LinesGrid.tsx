import { ActionIcon, Button, Text, Tooltip } from "@mantine/core";
import { MantineReactTable, useMantineReactTable, type MRT_ColumnDef } from "mantine-react-table";
import { MRT_Localization_ZH_HANS } from "mantine-react-table/locales/zh-Hans/index.esm.mjs";
import "mantine-react-table/styles.css";
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { blankLineValues, lineInputName } from "../../../resources/document-form";
import { IconPlus, IconTrash } from "~/components/icons";
import { LineCell } from "./LineCell";
import { showsKey, shownText, typedUnits, unitsText, type LinesProps } from "./lines";

interface GridRow {
  /** The row's own key: rows keep their values and their messages when one above them is removed. */
  key: number;
  values: Record<string, string>;
  errors: Record<string, string | undefined>;
}

/**
 * The lines grid (decision 061): mantine-react-table with every cell editing at once (`editDisplayMode: "table"`),
 * each cell the field's input named for the form, so the page's one form posts the lines as it does without scripts.
 * Tab moves through the cells; Enter moves to the next cell, and past the last cell adds a row. Loaded only by a
 * document's editor (a chunk of its own), after the page came up as the plain table.
 */
export function LinesGrid({ fields, rows: initial, errors, dicts, options, sources, header, title, totalled }: LinesProps & { totalled: string[] }) {
  const nextKey = useRef(initial.length);
  const [rows, setRows] = useState<GridRow[]>(() =>
    initial.map((values, i) => ({ key: i, values, errors: Object.fromEntries(fields.map((f) => [f.name, errors[lineInputName(i, f.name)]?.[0]])) })),
  );
  // A refused save brings new messages for the rows as they were posted.
  useEffect(() => {
    setRows((current) => current.map((row, i) => ({ ...row, errors: Object.fromEntries(fields.map((f) => [f.name, errors[lineInputName(i, f.name)]?.[0]])) })));
  }, [errors, fields]);
  const focusRow = useRef<number | null>(null);
  const container = useRef<HTMLDivElement>(null);

  const addRow = (focus: boolean) => {
    const key = nextKey.current++;
    if (focus) focusRow.current = key;
    setRows((current) => [...current, { key, values: blankLineValues(fields), errors: {} }]);
  };
  const removeRow = (key: number) => setRows((current) => current.filter((row) => row.key !== key));
  const setValue = (key: number, field: string, value: string) =>
    setRows((current) => current.map((row) => (row.key === key ? { ...row, values: { ...row.values, [field]: value }, errors: { ...row.errors, [field]: undefined } } : row)));

  useEffect(() => {
    if (focusRow.current === null) return;
    const cells = container.current?.querySelectorAll<HTMLElement>(`[data-row-key="${focusRow.current}"] [data-line-cell]`);
    focusRow.current = null;
    cells?.[0]?.focus();
  }, [rows]);

  // Enter in a cell is the next cell (not a submit); in the last cell it opens a new row. A picker keeps Enter for
  // opening its list and choosing an option (Tab leaves it).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (event.key !== "Enter" || !target.matches("input[data-line-cell], select[data-line-cell]") || target.hasAttribute("aria-haspopup")) return;
    event.preventDefault();
    const cells = [...(container.current?.querySelectorAll<HTMLElement>("input[data-line-cell], select[data-line-cell]") ?? [])];
    const next = cells[cells.indexOf(target) + 1];
    if (next) next.focus();
    else addRow(true);
  };

  const columns = useMemo<MRT_ColumnDef<GridRow>[]>(
    () =>
      fields.flatMap((field): MRT_ColumnDef<GridRow>[] => [{
        id: field.name,
        header: field.required ? `${field.label} *` : field.label,
        accessorFn: (row) => row.values[field.name] ?? "",
        size: field.type === "relation" ? 220 : field.type === "text" ? 180 : 130,
        Edit: ({ row }) => (
          <LineCell
            field={field}
            name={lineInputName(row.index, field.name)}
            row={row.index + 1}
            value={row.original.values[field.name] ?? ""}
            onChange={(value) => setValue(row.original.key, field.name, value)}
            error={row.original.errors[field.name]}
            dicts={dicts}
            options={options[field.name] ?? []}
            source={sources[field.name] ?? null}
            narrowedTo={field.narrowedBy ? header?.[field.narrowedBy] : undefined}
            onShows={field.narrowedShows ? (shows) => setValue(row.original.key, showsKey(field.name), shows || "—") : undefined}
          />
        ),
        Footer: totalled.includes(field.name)
          ? ({ table }) => {
              const sum = table.getRowModel().rows.reduce((total, row) => total + (typedUnits(field, row.original.values[field.name] ?? "") ?? 0), 0);
              return (
                <Text size="sm" fw={600} ta="right" data-testid={`total-${field.name}`}>
                  {unitsText(field, sum)}
                </Text>
              );
            }
          : undefined,
      },
      // A return's goods and batch, read-only beside its source line: what the chosen line brings.
      ...(field.narrowedShows
        ? [
            {
              id: showsKey(field.name),
              header: field.narrowedShows,
              size: 220,
              enableEditing: false,
              accessorFn: (row: GridRow) => row.values[showsKey(field.name)] ?? shownText(options[field.name] ?? [], row.values[field.name]),
              Cell: ({ cell }: { cell: { getValue: () => unknown } }) => (
                <Text size="sm" data-testid={`shows-${field.name}`}>
                  {String(cell.getValue())}
                </Text>
              ),
            } satisfies MRT_ColumnDef<GridRow>,
          ]
        : []),
      ]),
    [fields, dicts, options, sources, header, totalled],
  );

  const table = useMantineReactTable({
    columns,
    data: rows,
    getRowId: (row) => String(row.key),
    localization: { ...MRT_Localization_ZH_HANS, rowNumber: "行号", actions: "" },
    initialState: { density: "xs" },
    enableEditing: true,
    editDisplayMode: "table",
    enableRowNumbers: true,
    rowNumberDisplayMode: "static",
    enableRowActions: true,
    positionActionsColumn: "last",
    displayColumnDefOptions: { "mrt-row-actions": { header: "", size: 56 }, "mrt-row-numbers": { header: "行号", size: 56, Footer: () => (totalled.length ? "合计" : null) } },
    renderRowActions: ({ row }) => (
      <Tooltip label="删除此行">
        <ActionIcon variant="subtle" color="red" onClick={() => removeRow(row.original.key)} aria-label={`删除第 ${row.index + 1} 行`} tabIndex={-1}>
          <IconTrash size={16} />
        </ActionIcon>
      </Tooltip>
    ),
    renderTopToolbarCustomActions: () => (
      <Text size="xs" c="dimmed">
        Tab 或 Enter 到下一格；最后一格按 Enter 增加一行
      </Text>
    ),
    renderBottomToolbarCustomActions: () => (
      <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => addRow(true)}>
        增加一行
      </Button>
    ),
    enableSorting: false,
    enableColumnActions: false,
    enableColumnFilters: false,
    enableGlobalFilter: false,
    enableFilters: false,
    enablePagination: false,
    enableHiding: false,
    enableDensityToggle: false,
    enableFullScreenToggle: false,
    enableToolbarInternalActions: false,
    enableTableFooter: totalled.length > 0,
    mantinePaperProps: { withBorder: true, radius: "md", shadow: "none" },
    mantineTableProps: { striped: false, withColumnBorders: true },
    mantineTableBodyRowProps: ({ row }) => ({ "data-row-key": row.original.key }) as Record<string, unknown>,
    mantineTableContainerProps: { ref: container, onKeyDown, "aria-label": title } as Record<string, unknown>,
  });

  return (
    <div data-testid="lines-grid">
      <input type="hidden" name="rowCount" value={rows.length} />
      {rows.map((row, i) => row.values.id && <input key={row.key} type="hidden" name={lineInputName(i, "id")} value={row.values.id} />)}
      <MantineReactTable table={table} />
    </div>
  );
}
