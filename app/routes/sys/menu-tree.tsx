import { Alert, Button, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { IconPlus } from "~/components/icons";
import cellClasses from "~/components/resource/cells.module.css";
import { RowActions, useAppLinkNavigation } from "~/components/resource/RowActions";
import tableClasses from "~/components/resource/table.module.css";
import { data, Form, Link, redirect } from "react-router";
import { apiPath, permissionCode } from "../../../resources/define";
import { dictLabel } from "../../../resources/dicts";
import { menu } from "../../../resources/sys/menu";
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

interface TreeNode {
  id: number;
  menuName: string;
  menuType: string;
  menuPath: string | null;
  permission: string | null;
  sort: number;
  status: number;
  buttonCount: number;
  children: TreeNode[];
}

const BASE = `${menu.screenBase}/${menu.screen}`;

/** A row of the index: an entry at its depth, with the number of button codes folded under it (pages). */
type IndexRow = Omit<TreeNode, "children" | "buttonCount"> & { depth: number; buttons: number };

/**
 * The index's rows: every folder and page, and the buttons of the page `open` names (`all`: every page's), as the
 * tree endpoint read them. A subsystem holds hundreds of pages with thousands of button codes; drawn all at once they
 * cost a page seconds on the server (issue 38), so a page's buttons are folded under it until asked for, by a link
 * that works without scripts, and neither read nor drawn until then.
 */
function indexRows(nodes: TreeNode[], depth = 0): IndexRow[] {
  return nodes.flatMap(({ children, id, menuName, menuType, menuPath, permission, sort, status, buttonCount }) => {
    // Only what the row draws: the page's data carries every row again for hydration.
    const row: IndexRow = { id, menuName, menuType, menuPath, permission, sort, status, depth, buttons: buttonCount };
    return [row, ...indexRows(children, depth + 1)];
  });
}

/** The entry `?delete=` asks about: a row shown, or a folded button of this subsystem read by its id. */
async function deleteTarget(request: Request, context: Route.LoaderArgs["context"], rows: IndexRow[], subsystemId: number, id: string | null) {
  if (!id) return null;
  const shown = rows.find((r) => String(r.id) === id);
  if (shown) return { id: shown.id, menuName: shown.menuName };
  if (!/^\d+$/.test(id)) return null;
  const entry = await apiCall<{ id: number; menuName: string; subsystemId: number }>(request, context, "GET", apiPath(menu, "getInfo"), { query: { id } });
  return entry.status === 200 && entry.data && Number(entry.data.subsystemId) === subsystemId ? { id: entry.data.id, menuName: entry.data.menuName } : null;
}

/** Spec §2 menu index: the menu tree of one subsystem at a time, chosen by `?subsystemId=`; `?open=` a page's buttons. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const subsystems = await apiCall<{ records: Array<{ id: number; sysName: string }> }>(request, context, "GET", apiPath(subsystem, "findPage"), {
    query: { pageSize: 100, sort: "sort,asc" },
  });
  requirePermitted(subsystems);
  const list = subsystems.data?.records ?? [];
  const subsystemId = Number(url.searchParams.get("subsystemId") ?? list[0]?.id);
  const open = url.searchParams.get("open");
  const buttons = open === "all" ? "all" : open && /^\d+$/.test(open) ? open : "none";
  const tree = list.length
    ? await apiCall<{ tree: TreeNode[] }>(request, context, "GET", apiPath(menu, "tree"), { query: { subsystemId, buttons } })
    : null;
  if (tree && tree.status === 404) throw data(null, { status: 404 });
  const rows = indexRows(tree?.data?.tree ?? []);
  const target = await deleteTarget(request, context, rows, subsystemId, url.searchParams.get("delete"));
  return {
    subsystems: list.map((s) => ({ id: s.id, name: s.sysName })),
    subsystemId,
    open,
    rows,
    error: tree && tree.status !== 200 ? tree.message : null,
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

export default function MenuTree({ loaderData, actionData }: Route.ComponentProps) {
  const { subsystems, subsystemId, open, rows, error, target } = loaderData;
  const dicts = useDicts();
  const can = usePermissions();
  const index = `${BASE}/index?subsystemId=${subsystemId}`;
  const here = open ? `${index}&open=${encodeURIComponent(open)}` : index;
  const anyButtons = rows.some((r) => r.buttons > 0);
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
      <Group justify="space-between" gap="xs">
        <Group gap="xs" role="tablist" aria-label={ts.menu.subsystem}>
          {subsystems.map((s) => (
            <Button
              key={s.id}
              component={Link}
              to={`${BASE}/index?subsystemId=${s.id}`}
              role="tab"
              aria-selected={s.id === subsystemId}
              variant={s.id === subsystemId ? "filled" : "default"}
              size="xs"
            >
              {s.name}
            </Button>
          ))}
        </Group>
        {anyButtons && (
          <Button component={Link} to={open === "all" ? index : `${index}&open=all`} variant="subtle" size="xs" preventScrollReset>
            {open === "all" ? ts.menu.foldAll : ts.menu.unfoldAll}
          </Button>
        )}
      </Group>
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
      <Paper withBorder radius="md">
        {/* Plain rows under Mantine's table classes, as a list's (decision 031): a subsystem holds hundreds of entries
            with their buttons, and a Badge and three Buttons a row cost seconds of rendering on the server (issue 38). */}
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
                    {ts.menu.empty}
                  </td>
                </tr>
              ) : (
                rows.map((row) => (
                  <tr key={row.id} id={`menu-${row.id}`}>
                    <td style={{ paddingLeft: 12 + row.depth * 24 }}>
                      {row.menuName}
                      {row.buttons > 0 && open !== "all" && <FoldLink index={index} row={row} unfolded={open === String(row.id)} />}
                    </td>
                    <td>
                      <span className={cellClasses.badge} data-tone={row.menuType === "button" ? "gray" : undefined}>
                        {dictLabel(dicts, "menuType", row.menuType)}
                      </span>
                    </td>
                    <td className={row.menuPath ? undefined : cellClasses.dimmed}>{row.menuPath ?? "—"}</td>
                    <td className={row.permission ? undefined : cellClasses.dimmed}>{row.permission ?? "—"}</td>
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
                ))
              )}
            </tbody>
          </table>
        </div>
      </Paper>
    </Stack>
  );
}

/**
 * Shows or hides one page's button codes: a plain link (`?open=<page>#menu-<page>`), so it works before scripts load
 * and lands at the row; with scripts it is routed in the app and the page keeps its scroll.
 */
function FoldLink({ index, row, unfolded }: { index: string; row: IndexRow; unfolded: boolean }) {
  return (
    <a
      className={classes.fold}
      href={unfolded ? `${index}#menu-${row.id}` : `${index}&open=${row.id}#menu-${row.id}`}
      aria-expanded={unfolded}
      data-keep-scroll
    >
      {unfolded ? ts.menu.fold : ts.menu.unfold(row.buttons)}
    </a>
  );
}
