import { Alert, Badge, Button, Group, Paper, ScrollArea, Stack, Table, Text, Title } from "@mantine/core";
import { IconPencil, IconPlus, IconTrash } from "~/components/icons";
import { data, Form, Link, redirect } from "react-router";
import { apiPath, permissionCode } from "../../../resources/define";
import { dictLabel } from "../../../resources/dicts";
import { menu } from "../../../resources/sys/menu";
import { subsystem } from "../../../resources/sys/subsystem";
import type { Route } from "./+types/menu-tree";
import { apiCall } from "~/lib/api.server";
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
  if (subsystems.status === 403) throw data(null, { status: 401 });
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
  if (result.status !== 200) return data({ error: result.message || "Error" }, { status: result.status === 409 ? 409 : 400 });
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

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={3}>{ts.menu.title}</Title>
        {can(permissionCode(menu, "create")) && (
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
        <ScrollArea>
          <Table striped highlightOnHover verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{c.name}</Table.Th>
                <Table.Th>{c.type}</Table.Th>
                <Table.Th>{c.path}</Table.Th>
                <Table.Th>{c.permission}</Table.Th>
                <Table.Th>{c.sort}</Table.Th>
                <Table.Th>{c.status}</Table.Th>
                <Table.Th>{c.actions}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.id} data-menu-id={row.id}>
                  <Table.Td style={{ paddingLeft: 12 + row.depth * 24 }}>{row.menuName}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={row.menuType === "button" ? "gray" : "brand"} radius="sm">
                      {dictLabel(dicts, "menuType", row.menuType)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{row.menuPath ?? "—"}</Table.Td>
                  <Table.Td>{row.permission ?? "—"}</Table.Td>
                  <Table.Td>{row.sort}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={row.status === 1 ? "brand" : "gray"} radius="sm">
                      {dictLabel(dicts, "status", row.status)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      {row.menuType !== "button" && can(permissionCode(menu, "create")) && (
                        <Button component={Link} to={`${BASE}/create/${subsystemId}?parentId=${row.id}`} size="compact-sm" variant="subtle" leftSection={<IconPlus size={14} />}>
                          {ts.menu.addChild}
                        </Button>
                      )}
                      {can(permissionCode(menu, "update")) && (
                        <Button component={Link} to={`${BASE}/edit/${row.id}`} size="compact-sm" variant="subtle" leftSection={<IconPencil size={14} />}>
                          {ts.menu.edit}
                        </Button>
                      )}
                      {can(permissionCode(menu, "delete")) && (
                        <Button component={Link} to={`${here}&delete=${row.id}`} size="compact-sm" variant="subtle" color="red" leftSection={<IconTrash size={14} />}>
                          {ts.menu.delete}
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {!rows.length && (
            <Text c="dimmed" ta="center" py="xl">
              {ts.menu.empty}
            </Text>
          )}
        </ScrollArea>
      </Paper>
    </Stack>
  );
}
