import { Button, Menu, Table } from "@mantine/core";
import { LiveMenu, LiveTooltip } from "~/lib/hydrated";
import { IconBaselineDensityLarge, IconBaselineDensityMedium, IconBaselineDensitySmall, IconCheck, IconColumns, IconTrash } from "~/components/icons";
import { useState, type ReactNode } from "react";
import { useLocation, type FetcherWithComponents } from "react-router";
import { listFields, sortableFields, type FieldDef, type ResourceDef } from "../../../resources/define";
import { findResource } from "../../../resources/index";
import type { TablePrefs } from "../../../resources/auth";
import type { DictOption } from "../../../resources/dicts";
import { FieldValue, blankCellClass, isBlank } from "./cells";
import classes from "./table.module.css";
import { RowActions, SelectCheckbox, type RowAction } from "./RowActions";
import { hrefWith, relativeTo } from "~/lib/list-url";
import { PlainIconButton } from "~/components/PlainButton";

export type Row = Record<string, unknown> & { id: number };
type Density = TablePrefs["density"];

export interface ResourceTableProps {
  def: ResourceDef;
  /** The resource key, under which the user's column and density choices are saved. */
  prefsKey: string;
  records: Row[];
  failed: boolean;
  dicts: Record<string, DictOption[]>;
  prefs?: Partial<TablePrefs>;
  canDelete: boolean;
  /** A row's links, or null when the user may do nothing to a row. */
  rowActions: ((record: Row) => RowAction[]) | null;
  batch: FetcherWithComponents<unknown>;
  /** A page's own cell for a field (a document's number as its link, its status as a coloured badge); else the value. */
  renderCell?: (field: FieldDef, record: Row) => ReactNode | undefined;
}

/** The density button cycles as mantine-react-table's did: default → compact → spacious. */
const NEXT_DENSITY: Record<Density, Density> = { md: "xs", xs: "xl", xl: "md" };
const DENSITY_ICON = { xs: IconBaselineDensitySmall, md: IconBaselineDensityMedium, xl: IconBaselineDensityLarge };
const ACTIONS_WIDTH = (def: ResourceDef) => 170 + 90 * (def.rowLinks?.length ?? 0);

function currentSort(search: string): [string, string] {
  const [field = "", dir = ""] = (new URLSearchParams(search).get("sort") ?? "").split(",");
  return [field, dir];
}

/**
 * A list's table (decision 031): plain `table` elements with Mantine's table classes, a
 * column menu, a density button and row selection. The rows, the header and the toolbar were mantine-react-table's
 * until the list page had to fit 40 KB (issue 17): its header alone was 12 KB of nested Flex boxes for twelve
 * labels, and its code a third of a list page's JavaScript, for features the lists turn off (sorting, filtering and
 * paging live in the URL, decision 003). Sort headers and row links are plain anchors that work before JavaScript
 * loads; the list's `useAppLinkNavigation` routes their clicks in the app.
 */
export function ResourceTable({ def, prefsKey, records, failed, dicts, prefs, canDelete, rowActions, batch, renderCell }: ResourceTableProps) {
  const location = useLocation();
  const [sortField, sortDir] = currentSort(location.search);
  const [hidden, setHidden] = useState<string[]>(() => prefs?.hidden ?? []);
  const [density, setDensity] = useState<Density>(prefs?.density ?? "md");
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());

  // A field's `show` (the operation log's words for its codes) is a function, which loader data does not carry.
  const declared = findResource(prefsKey)?.fields;
  const allFields = listFields(def).map((field) => ({ ...field, show: declared?.find((f) => f.name === field.name)?.show }));
  const fields = allFields.filter((field) => !hidden.includes(field.name));
  const sortable = new Set(sortableFields(def));
  const ids = records.map((record) => record.id);
  const chosen = ids.filter((id) => selected.has(id));
  const columns = fields.length + (canDelete ? 1 : 0) + (rowActions ? 1 : 0);

  const savePrefs = (next: TablePrefs) => {
    void fetch("/api/v1/auth/user/saveSettings", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ tables: { [prefsKey]: next } }),
    }).catch(() => undefined);
  };
  const showColumns = (next: string[]) => {
    setHidden(next);
    savePrefs({ hidden: next, density });
  };
  const changeDensity = () => {
    const next = NEXT_DENSITY[density];
    setDensity(next);
    savePrefs({ hidden, density: next });
  };
  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const DensityIcon = DENSITY_ICON[density];
  const edge = `${classes.sticky} ${classes.edge}`;

  return (
    <>
      <div className={classes.toolbar}>
        {canDelete && chosen.length > 0 ? (
          <batch.Form method="post" onSubmit={(e) => (window.confirm(`确定删除选中的 ${chosen.length} 条${def.title}吗？`) ? undefined : e.preventDefault())}>
            <input type="hidden" name="intent" value="deleteBatch" />
            <input type="hidden" name="ids" value={chosen.join(",")} />
            <Button type="submit" color="red" variant="light" size="xs" leftSection={<IconTrash size={14} />} loading={batch.state !== "idle"}>
              批量删除（{chosen.length}）
            </Button>
          </batch.Form>
        ) : (
          <span />
        )}
        <div className={classes.tools}>
          <LiveMenu
            closeOnItemClick={false}
            position="bottom-end"
            shadow="md"
            target={
              <LiveTooltip label="显示/隐藏 列">
                <PlainIconButton color="gray" aria-label="显示/隐藏 列">
                  <IconColumns size={20} />
                </PlainIconButton>
              </LiveTooltip>
            }
          >
            <Menu.Dropdown>
              <Menu.Item disabled={hidden.length === 0} onClick={() => showColumns([])}>
                显示全部
              </Menu.Item>
              <Menu.Divider />
              {allFields.map((field) => {
                const shown = !hidden.includes(field.name);
                return (
                  <Menu.Item
                    key={field.name}
                    leftSection={<IconCheck size={14} style={{ visibility: shown ? "visible" : "hidden" }} />}
                    aria-label={`${field.label}（${shown ? "显示" : "隐藏"}）`}
                    onClick={() => showColumns(shown ? [...hidden, field.name] : hidden.filter((name) => name !== field.name))}
                  >
                    {field.label}
                  </Menu.Item>
                );
              })}
            </Menu.Dropdown>
          </LiveMenu>
          <LiveTooltip label="切换间距">
            <PlainIconButton color="gray" aria-label="切换间距" onClick={changeDensity}>
              <DensityIcon size={20} />
            </PlainIconButton>
          </LiveTooltip>
        </div>
      </div>
      <div className={classes.scroll} data-testid="table-scroll">
        <table className={`${Table.classes.table} ${classes.table}`} data-density={density} data-select={canDelete || undefined}>
          <thead>
            <tr>
              {canDelete && (
                <th className={`${classes.narrow} ${classes.sticky}`}>
                  <SelectCheckbox
                    label="全选本页"
                    checked={ids.length > 0 && chosen.length === ids.length}
                    indeterminate={chosen.length > 0 && chosen.length < ids.length}
                    onChange={(e) => setSelected(new Set(e.target.checked ? ids : []))}
                  />
                </th>
              )}
              {fields.map((field, i) => (
                <th key={field.name} className={i === 0 ? edge : undefined} aria-sort={field.name === sortField ? (sortDir === "asc" ? "ascending" : "descending") : undefined}>
                  {sortable.has(field.name) ? <SortLink field={field} active={field.name === sortField} dir={sortDir} /> : field.label}
                </th>
              ))}
              {rowActions && <th style={{ width: ACTIONS_WIDTH(def) }}>操作</th>}
            </tr>
          </thead>
          <tbody>
            {records.length === 0 ? (
              <tr>
                <td colSpan={columns} className={classes.empty}>
                  {failed ? "加载失败" : "暂无数据"}
                </td>
              </tr>
            ) : (
              records.map((record) => (
                <tr key={record.id} data-selected={selected.has(record.id) || undefined}>
                  {canDelete && (
                    <td className={`${classes.narrow} ${classes.sticky}`}>
                      <SelectCheckbox label="选择此行" checked={selected.has(record.id)} onChange={() => toggle(record.id)} />
                    </td>
                  )}
                  {fields.map((field, i) =>
                    isBlank(record[field.name]) ? (
                      <td key={field.name} className={i === 0 ? `${blankCellClass} ${edge}` : blankCellClass}>
                        —
                      </td>
                    ) : (
                      <td key={field.name} className={i === 0 ? edge : undefined}>
                        {renderCell?.(field, record) ?? <FieldValue field={field} record={record} dicts={dicts} />}
                      </td>
                    ),
                  )}
                  {rowActions && (
                    <td>
                      <RowActions actions={rowActions(record)} />
                    </td>
                  )}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** A sort header: a plain anchor to the list sorted by this column (the other way when it already is). */
function SortLink({ field, active, dir }: { field: FieldDef; active: boolean; dir: string }) {
  const location = useLocation();
  const next = active && dir === "asc" ? "desc" : "asc";
  // The arrow is decoration: the header's aria-sort tells the order.
  return (
    <a href={relativeTo(location.pathname, hrefWith(location, { sort: `${field.name},${next}`, pageNum: null }))} className={classes.sort}>
      {field.label}
      <span aria-hidden data-active={active || undefined}>
        {active ? (dir === "asc" ? "▲" : "▼") : "⇅"}
      </span>
    </a>
  );
}
