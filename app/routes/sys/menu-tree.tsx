import { Alert, Button, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { IconChevronRight, IconPlus } from "~/components/icons";
import cellClasses from "~/components/resource/cells.module.css";
import { FilterForm, FilterInput } from "~/components/resource/FilterBar";
import { RowActions, useAppLinkNavigation } from "~/components/resource/RowActions";
import tableClasses from "~/components/resource/table.module.css";
import { data, Form, Link, redirect } from "react-router";
import { apiPath, permissionCode } from "../../../resources/define";
import { dictLabel } from "../../../resources/dicts";
import { menu, type MenuIndexRow, type MenuIndexView } from "../../../resources/sys/menu";
import { subsystem } from "../../../resources/sys/subsystem";
import type { Route } from "./+types/menu-tree";
import classes from "./menu-tree.module.css";
import { apiCall } from "~/lib/api.server";
import { errorReply, requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { t } from "~/lib/messages";
import { usePermissions } from "~/lib/permissions";
import { flashCookie } from "~/lib/session.server";
import { ts } from "~/lib/sys-messages";

const BASE = `${menu.screenBase}/${menu.screen}`;

/** The entry `?delete=` asks about: a row shown, or an entry of this subsystem not drawn, read by its id. */
async function deleteTarget(request: Request, context: Route.LoaderArgs["context"], rows: MenuIndexRow[], subsystemId: number, id: string | null) {
  if (!id) return null;
  const shown = rows.find((r) => String(r.id) === id);
  if (shown) return { id: shown.id, menuName: shown.menuName };
  if (!/^\d+$/.test(id)) return null;
  const entry = await apiCall<{ id: number; menuName: string; subsystemId: number }>(request, context, "GET", apiPath(menu, "getInfo"), { query: { id } });
  return entry.status === 200 && entry.data && Number(entry.data.subsystemId) === subsystemId ? { id: entry.data.id, menuName: entry.data.menuName } : null;
}

/**
 * Spec §2 menu index: one subsystem's menu tree at a time (`?subsystemId=`), drawn as a list is (issue 38, decision
 * 092): the levels that fit a list page, what `?open=` opens (a folder's entries, a page's buttons; comma-separated
 * ids, or `all`), or what `?keyword=` finds, each match under its folders. The server chooses the rows.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const subsystems = await apiCall<{ records: Array<{ id: number; sysName: string }> }>(request, context, "GET", apiPath(subsystem, "findPage"), {
    query: { pageSize: 100, sort: "sort,asc" },
  });
  requirePermitted(subsystems);
  const list = subsystems.data?.records ?? [];
  const subsystemId = Number(url.searchParams.get("subsystemId") ?? list[0]?.id);
  const open = url.searchParams.get("open");
  const keyword = url.searchParams.get("keyword")?.trim() ?? "";
  const view = list.length
    ? await apiCall<MenuIndexView>(request, context, "GET", apiPath(menu, "treeRows"), { query: { subsystemId, ...(open ? { open } : {}), ...(keyword ? { keyword } : {}) } })
    : null;
  if (view && view.status === 404) throw data(null, { status: 404 });
  const shown = view?.status === 200 ? view.data : null;
  const rows = shown?.rows ?? [];
  const target = await deleteTarget(request, context, rows, subsystemId, url.searchParams.get("delete"));
  return {
    subsystems: list.map((s) => ({ id: s.id, name: s.sysName })),
    subsystemId,
    keyword,
    levels: shown?.levels ?? 1,
    open,
    /** The entries opened: `open` as the server read it. */
    opened: shown?.open ?? [],
    rows,
    total: shown?.total ?? 0,
    search: shown?.search ?? null,
    error: view && view.status !== 200 ? view.message : null,
    target,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await apiCall(request, context, "GET", apiPath(menu, "delete"), { query: { id: String(form.get("id")) } });
  if (result.status !== 200) return errorReply(result);
  const back = new URL(request.url);
  back.searchParams.delete("delete");
  return redirect(back.pathname + back.search, { headers: { "Set-Cookie": flashCookie(ts.deleted) } });
}

export function meta() {
  return [{ title: `${ts.menu.title} - ${t.appTitle}` }];
}

/** The index's address with these entries opened (none: the levels that fit), landing at `at`'s row. */
function openedHref(index: string, open: readonly number[] | "all", at?: number) {
  const ids = open === "all" ? "all" : open.join(",");
  return `${index}${ids ? `&open=${ids}` : ""}${at === undefined ? "" : `#menu-${at}`}`;
}

/**
 * Where a row's fold leads: opened, it closes with everything opened under it (an entry is opened with its folders,
 * so what stays open under it would keep it open); closed, it opens beside what is open. A search's rows open in the
 * tree, at their place.
 */
function toggleHref(index: string, rows: MenuIndexRow[], open: number[], row: MenuIndexRow, searching: boolean) {
  if (searching) return openedHref(index, [row.id], row.id);
  if (!row.open) return openedHref(index, [...open, row.id], row.id);
  const parentOf = new Map(rows.map((r) => [r.id, r.parentId]));
  const under = (id: number) => {
    for (let at = parentOf.get(id); at !== null && at !== undefined; at = parentOf.get(at)) if (at === row.id) return true;
    return false;
  };
  return openedHref(index, open.filter((id) => id !== row.id && !under(id)), row.id);
}

export default function MenuTree({ loaderData, actionData }: Route.ComponentProps) {
  const { subsystems, subsystemId, keyword, levels, opened: open, rows, total, search, error, target } = loaderData;
  const dicts = useDicts();
  const can = usePermissions();
  const index = `${BASE}/index?subsystemId=${subsystemId}`;
  const searching = search !== null;
  const searched = keyword ? `&keyword=${encodeURIComponent(keyword)}` : "";
  const here = searching ? `${index}${searched}` : openedHref(index, open);
  const explicit = open === "all" ? [] : open;
  const problem = actionData?.error ?? error;
  const c = ts.menu.columns;
  const mayCreate = can(permissionCode(menu, "create"));
  const mayUpdate = can(permissionCode(menu, "update"));
  const mayDelete = can(permissionCode(menu, "delete"));
  const navigateInApp = useAppLinkNavigation();

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={3}>{ts.menu.title}</Title>
        {mayCreate && (
          <Button component={Link} to={`${BASE}/create/${subsystemId}`} leftSection={<IconPlus size={16} />}>
            {ts.menu.add}
          </Button>
        )}
      </Group>
      <Group gap="xs" role="tablist" aria-label={ts.menu.subsystem}>
        {subsystems.map((s) => (
          <Button
            key={s.id}
            component={Link}
            to={`${BASE}/index?subsystemId=${s.id}${searched}`}
            role="tab"
            aria-selected={s.id === subsystemId}
            variant={s.id === subsystemId ? "filled" : "default"}
            size="xs"
          >
            {s.name}
          </Button>
        ))}
      </Group>
      <FilterForm label={ts.menu.search} params={{ subsystemId: String(subsystemId), keyword }} resetTo={index}>
        <input type="hidden" name="subsystemId" value={subsystemId} />
        <FilterInput label={ts.menu.keyword} name="keyword" value={keyword} placeholder={ts.menu.searchHint} width={280} />
      </FilterForm>
      {problem && (
        <Alert color="red" variant="light" role="alert">
          {problem}
        </Alert>
      )}
      {target && (
        <Alert color="orange" variant="light" title={ts.menu.confirmDelete} data-testid="confirm-delete">
          <Text size="sm" mb="sm">
            {ts.menu.confirm(target.menuName)}
          </Text>
          <Group gap="xs">
            <Form method="post">
              <input type="hidden" name="id" value={target.id} />
              <Button type="submit" color="red" size="xs">
                {ts.menu.confirmDelete}
              </Button>
            </Form>
            <Button component={Link} to={here} variant="default" size="xs">
              {ts.cancel}
            </Button>
          </Group>
        </Alert>
      )}
      <Group justify="space-between" gap="xs" mih={30}>
        <Text size="sm" c="dimmed" role="status">
          {search ? ts.menu.found(search.matches, search.shown) : ts.menu.shown(rows.length, total)}
        </Text>
        {!searching && (open === "all" || rows.length < total) && (
          <Button component={Link} to={open === "all" ? index : openedHref(index, "all")} variant="subtle" size="xs" preventScrollReset>
            {open === "all" ? ts.menu.foldAll : ts.menu.unfoldAll}
          </Button>
        )}
      </Group>
      <Paper withBorder radius="md">
        {/* Plain rows under Mantine's table classes, as a list's (decision 031), and no more of them than a list's
            unless asked for (issue 38, decision 092). */}
        <div className={tableClasses.scroll} data-app-links onClick={navigateInApp}>
          <table className={`${Table.classes.table} ${tableClasses.table}`} data-density="xs">
            <thead>
              <tr>
                <th>{c.name}</th>
                <th>{c.type}</th>
                <th>{c.path}</th>
                <th>{c.permission}</th>
                <th>{c.sort}</th>
                <th>{c.status}</th>
                <th>{c.actions}</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={7} className={tableClasses.empty}>
                    {searching ? ts.menu.noMatch(keyword) : ts.menu.empty}
                  </td>
                </tr>
              ) : (
                rows.map((row) => {
                  // Folders down to the levels drawn anyway stay open; deeper ones open and close.
                  const folds = !searching && open !== "all" && row.entries > 0 && row.depth >= levels - 1;
                  const toggle = toggleHref(index, rows, explicit, row, searching);
                  return (
                    <tr key={row.id} id={`menu-${row.id}`} data-match={searching ? row.match : undefined}>
                      <td className={classes.name} style={{ paddingLeft: 12 + row.depth * 24 }}>
                        {folds ? (
                          <a className={classes.folder} href={toggle} aria-expanded={row.open} data-keep-scroll>
                            <IconChevronRight size={14} className={classes.chevron} aria-hidden />
                            <Marked text={row.menuName} words={keyword} />
                          </a>
                        ) : (
                          <span className={searching && !row.match ? `${classes.leaf} ${cellClasses.dimmed}` : classes.leaf}>
                            <Marked text={row.menuName} words={keyword} />
                          </span>
                        )}
                        {folds && !row.open && <span className={classes.count}>{ts.menu.entries(row.entries)}</span>}
                        {row.buttons > 0 && open !== "all" && (
                          <a className={classes.fold} href={toggle} aria-expanded={row.open} data-keep-scroll>
                            {row.open ? ts.menu.fold : ts.menu.unfold(row.buttons)}
                          </a>
                        )}
                      </td>
                      <td>
                        <span className={cellClasses.badge} data-tone={row.menuType === "button" ? "gray" : undefined}>
                          {dictLabel(dicts, "menuType", row.menuType)}
                        </span>
                      </td>
                      <td className={row.menuPath ? undefined : cellClasses.dimmed}>{row.menuPath ? <Marked text={row.menuPath} words={keyword} /> : "—"}</td>
                      <td className={row.permission ? undefined : cellClasses.dimmed}>{row.permission ? <Marked text={row.permission} words={keyword} /> : "—"}</td>
                      <td>{row.sort}</td>
                      <td>
                        <span className={cellClasses.badge} data-tone={row.status === 1 ? undefined : "gray"}>
                          {dictLabel(dicts, "status", row.status)}
                        </span>
                      </td>
                      <td>
                        <RowActions
                          actions={[
                            ...(row.menuType !== "button" && mayCreate ? [{ key: "child", label: ts.menu.addChild, to: `${BASE}/create/${subsystemId}?parentId=${row.id}` }] : []),
                            ...(mayUpdate ? [{ key: "edit", label: ts.menu.edit, to: `${BASE}/edit/${row.id}` }] : []),
                            ...(mayDelete ? [{ key: "delete", label: ts.menu.delete, to: `${here}&delete=${row.id}`, danger: true }] : []),
                          ]}
                        />
                      </td>
                    </tr>
                  );
                })
              )}
            </tbody>
          </table>
        </div>
      </Paper>
    </Stack>
  );
}

/** The text with the searched words marked where they occur (compared without case, as the server matched). */
function Marked({ text, words }: { text: string; words: string }) {
  const at = words ? text.toLowerCase().indexOf(words.toLowerCase()) : -1;
  if (at < 0) return text;
  return (
    <>
      {text.slice(0, at)}
      <mark className={classes.mark}>{text.slice(at, at + words.length)}</mark>
      {text.slice(at + words.length)}
    </>
  );
}
