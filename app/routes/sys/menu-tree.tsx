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
  children: TreeNode[];
}

const BASE = `${menu.screenBase}/${menu.screen}`;

/** Spec §2 menu index: the menu tree of one subsystem at a time, chosen by `?subsystemId=`. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const subsystems = await apiCall<{ records: Array<{ id: number; sysName: string }> }>(request, context, "GET", apiPath(subsystem, "findPage"), {
    query: { pageSize: 100, sort: "sort,asc" },
  });
  requirePermitted(subsystems);
  const list = subsystems.data?.records ?? [];
  const subsystemId = Number(url.searchParams.get("subsystemId") ?? list[0]?.id);
  const tree = list.length
    ? await apiCall<{ tree: TreeNode[] }>(request, context, "GET", apiPath(menu, "tree"), { query: { subsystemId } })
    : null;
  if (tree && tree.status === 404) throw data(null, { status: 404 });
  return {
    subsystems: list.map((s) => ({ id: s.id, name: s.sysName })),
    subsystemId,
    tree: tree?.data?.tree ?? [],
    error: tree && tree.status !== 200 ? tree.message : null,
    confirmDelete: url.searchParams.get("delete"),
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

function flatten(nodes: TreeNode[], depth = 0): Array<TreeNode & { depth: number }> {
  return nodes.flatMap((node) => [{ ...node, depth }, ...flatten(node.children, depth + 1)]);
}

export default function MenuTree({ loaderData, actionData }: Route.ComponentProps) {
  const { subsystems, subsystemId, tree, error, confirmDelete } = loaderData;
  const dicts = useDicts();
  const can = usePermissions();
  const rows = flatten(tree);
  const target = confirmDelete ? rows.find((r) => String(r.id) === confirmDelete) : undefined;
  const here = `${BASE}/index?subsystemId=${subsystemId}`;
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
                  <tr key={row.id} data-menu-id={row.id}>
                    <td style={{ paddingLeft: 12 + row.depth * 24 }}>{row.menuName}</td>
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
