import { Alert, Badge, Button, Group, Paper, ScrollArea, Table, Text, Title, Stack } from "@mantine/core";
import { IconDownload, IconPencil, IconPlus, IconTrash, IconUserPlus, IconUsers } from "~/components/icons";
import { Form, Link, redirect } from "react-router";
import { org } from "../../../resources/auth/org";
import { user } from "../../../resources/auth/user";
import { apiPath, permissionCode } from "../../../resources/define";
import { dictLabel } from "../../../resources/dicts";
import type { Route } from "./+types/org-tree";
import { apiCall } from "~/lib/api.server";
import { errorReply, requirePermitted } from "~/lib/api-answer.server";
import { ta } from "~/lib/auth-messages";
import { useDicts } from "~/lib/dicts";
import { t } from "~/lib/messages";
import { usePermissions } from "~/lib/permissions";
import { flashCookie } from "~/lib/session.server";

interface OrgNode {
  id: number;
  orgName: string;
  orgCode: string | null;
  orgType: string;
  sort: number;
  status: string;
  children: OrgNode[];
}

const BASE = `${org.screenBase}/${org.screen}`;
const USERS = `${user.screenBase}/${user.screen}`;

/** Spec §2 org index: the tenant's org tree, with its users and a new user under each org one click away. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const tree = await apiCall<OrgNode[]>(request, context, "GET", apiPath(org, "tree"));
  requirePermitted(tree);
  return {
    tree: tree.status === 200 ? tree.data : [],
    error: tree.status === 200 ? null : tree.message,
    confirmDelete: new URL(request.url).searchParams.get("delete"),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await apiCall(request, context, "GET", apiPath(org, "delete"), { query: { id: String(form.get("id")) } });
  if (result.status !== 200) return errorReply(result);
  return redirect(`${BASE}/index`, { headers: { "Set-Cookie": flashCookie(ta.deleted) } });
}

export function meta() {
  return [{ title: `${ta.org.title} - ${t.appTitle}` }];
}

function flatten(nodes: OrgNode[], depth = 0): Array<OrgNode & { depth: number }> {
  return nodes.flatMap((node) => [{ ...node, depth }, ...flatten(node.children, depth + 1)]);
}

export default function OrgTree({ loaderData, actionData }: Route.ComponentProps) {
  const { tree, error, confirmDelete } = loaderData;
  const dicts = useDicts();
  const can = usePermissions();
  const rows = flatten(tree);
  const target = confirmDelete ? rows.find((r) => String(r.id) === confirmDelete) : undefined;
  const problem = actionData?.error ?? error;
  const c = ta.org.columns;

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={3}>{ta.org.title}</Title>
        <Group gap="xs">
          {can(permissionCode(org, "export")) && (
            <Button component="a" href={`${apiPath(org, "export")}?format=xlsx`} variant="default" leftSection={<IconDownload size={16} />}>
              {ta.org.export}
            </Button>
          )}
          {can(permissionCode(org, "create")) && (
            <Button component={Link} to={`${BASE}/create`} leftSection={<IconPlus size={16} />}>
              {ta.org.add}
            </Button>
          )}
        </Group>
      </Group>
      {problem && (
        <Alert color="red" variant="light" role="alert">
          {problem}
        </Alert>
      )}
      {target && (
        <Alert color="orange" variant="light" title={ta.org.confirmDelete} data-testid="confirm-delete">
          <Text size="sm" mb="sm">
            {ta.org.confirm(target.orgName)}
          </Text>
          <Group gap="xs">
            <Form method="post">
              <input type="hidden" name="id" value={target.id} />
              <Button type="submit" color="red" size="xs">
                {ta.org.confirmDelete}
              </Button>
            </Form>
            <Button component={Link} to={`${BASE}/index`} variant="default" size="xs">
              {ta.cancel}
            </Button>
          </Group>
        </Alert>
      )}
      <Paper withBorder radius="md">
        <ScrollArea>
          <Table striped highlightOnHover verticalSpacing="xs" aria-label={ta.org.title}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{c.name}</Table.Th>
                <Table.Th>{c.code}</Table.Th>
                <Table.Th>{c.type}</Table.Th>
                <Table.Th>{c.sort}</Table.Th>
                <Table.Th>{c.status}</Table.Th>
                <Table.Th>{c.actions}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={6}>
                    <Text c="dimmed" ta="center" py="lg">
                      {ta.org.empty}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {rows.map((row) => (
                <Table.Tr key={row.id} data-org-id={row.id}>
                  <Table.Td style={{ paddingLeft: 12 + row.depth * 24 }}>{row.orgName}</Table.Td>
                  <Table.Td>{row.orgCode ?? "—"}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" radius="sm">
                      {dictLabel(dicts, "orgType", row.orgType)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{row.sort}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={row.status === "1" ? "green" : "gray"} radius="sm">
                      {dictLabel(dicts, "status", row.status)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      {can(permissionCode(user, "view")) && (
                        <Button component={Link} to={`${USERS}/index?orgId=${row.id}`} size="compact-sm" variant="subtle" leftSection={<IconUsers size={14} />}>
                          {ta.org.users}
                        </Button>
                      )}
                      {can(permissionCode(user, "create")) && (
                        <Button component={Link} to={`${USERS}/create/${row.id}`} size="compact-sm" variant="subtle" leftSection={<IconUserPlus size={14} />}>
                          {ta.org.addUser}
                        </Button>
                      )}
                      {can(permissionCode(org, "update")) && (
                        <Button component={Link} to={`${BASE}/edit/${row.id}`} size="compact-sm" variant="subtle" leftSection={<IconPencil size={14} />}>
                          {ta.org.edit}
                        </Button>
                      )}
                      {can(permissionCode(org, "delete")) && (
                        <Button component={Link} to={`${BASE}/index?delete=${row.id}`} size="compact-sm" variant="subtle" color="red" leftSection={<IconTrash size={14} />}>
                          {ta.org.delete}
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      </Paper>
    </Stack>
  );
}
