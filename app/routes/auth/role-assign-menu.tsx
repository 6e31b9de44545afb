import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Badge, Box, Button, Checkbox, Group, Paper, Stack, Text, Title } from "@mantine/core";
import type { ChangeEvent, MouseEvent } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { MenuNode } from "../../../resources/auth";
import { role } from "../../../resources/auth/role";
import { apiPath } from "../../../resources/define";
import { z } from "../../../resources/z";
import type { Route } from "./+types/role-assign-menu";
import { apiCall } from "~/lib/api.server";
import { refusalStatus, requirePermitted } from "~/lib/api-answer.server";
import { ta } from "~/lib/auth-messages";
import { t } from "~/lib/messages";
import { flashCookie } from "~/lib/session.server";
import { useFocusOnRefusal } from "~/lib/form-focus";

const LIST = `${role.screenBase}/${role.screen}/index`;

const schema = z.object({ menuIds: z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.coerce.number().int())) });

/** Spec §2 role assignMenu/{id}: the menu tree with its buttons as checkboxes; a plain form post saves it. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const [found, tree, chosen] = await Promise.all([
    apiCall<Record<string, unknown>>(request, context, "GET", apiPath(role, "getInfo"), { query: { id: params.id } }),
    apiCall<MenuNode[]>(request, context, "GET", apiPath(role, "getMenuTree")),
    apiCall<number[]>(request, context, "GET", apiPath(role, "getRoleMenuIds"), { query: { id: params.id } }),
  ]);
  requirePermitted(found);
  requirePermitted(tree);
  if (found.status !== 200) throw data(null, { status: 404 });
  return { roleName: `${found.data.roleName}（${found.data.roleCode}）`, tree: tree.data ?? [], selectedIds: chosen.data ?? [] };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await apiCall(request, context, "POST", apiPath(role, "assignMenu"), { body: { roleId: Number(params.id), menuIds: submission.value.menuIds } });
  if (result.status !== 200) return data(submission.reply({ formErrors: [result.message || "Error"] }), { status: refusalStatus(result) });
  return redirect(LIST, { headers: { "Set-Cookie": flashCookie(ta.saved) } });
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `${loaderData ? ta.assignMenu.title(loaderData.roleName) : ""} - ${t.appTitle}` }];
}

const boxesOf = (form: HTMLFormElement) => [...form.querySelectorAll<HTMLInputElement>('input[name="menuIds"]')];
const ancestorsOf = (box: HTMLInputElement) => (box.dataset.ancestors ?? "").split(",").filter(Boolean);

/** With scripts on, a ticked entry ticks what is above it and everything below; an unticked one clears what is below. */
function cascade(event: ChangeEvent<HTMLFormElement>) {
  const changed = event.target as unknown as HTMLInputElement;
  if (changed.name !== "menuIds") return;
  const boxes = boxesOf(event.currentTarget);
  for (const box of boxes) if (ancestorsOf(box).includes(changed.value)) box.checked = changed.checked;
  if (changed.checked) for (const box of boxes) if (ancestorsOf(changed).includes(box.value)) box.checked = true;
}

function setAll(event: MouseEvent<HTMLButtonElement>, checked: boolean) {
  const form = event.currentTarget.form;
  if (form) for (const box of boxesOf(form)) box.checked = checked;
}

function MenuBranch({ nodes, selected, depth }: { nodes: MenuNode[]; selected: Set<number>; depth: number }) {
  const buttons = nodes.filter((n) => n.menuType === "button");
  const entries = nodes.filter((n) => n.menuType !== "button");
  return (
    <>
      {buttons.length > 0 && (
        <Group gap="md" pl={depth * 24} py={4} data-testid="menu-buttons">
          <Badge variant="light" color="gray" radius="sm">
            {ta.assignMenu.button}
          </Badge>
          {buttons.map((b) => (
            <Checkbox key={b.id} size="xs" name="menuIds" value={String(b.id)} defaultChecked={selected.has(b.id)} data-ancestors={b.parentIds.join(",")} label={b.menuName} />
          ))}
        </Group>
      )}
      {entries.map((node) => (
        <Box key={node.id} pl={depth * 24} py={4}>
          <Checkbox
            name="menuIds"
            value={String(node.id)}
            defaultChecked={selected.has(node.id)}
            data-ancestors={node.parentIds.join(",")}
            label={
              <Text span fw={node.children.length && node.menuType !== "page" ? 600 : 400} size="sm">
                {node.menuName}
                {node.menuPath && (
                  <Text span c="dimmed" size="xs" ml="xs">
                    {node.menuPath}
                  </Text>
                )}
              </Text>
            }
          />
          {node.children.length > 0 && <MenuBranch nodes={node.children} selected={selected} depth={1} />}
        </Box>
      ))}
    </>
  );
}

export default function RoleAssignMenu({ loaderData, actionData }: Route.ComponentProps) {
  const { roleName, tree, selectedIds } = loaderData;
  const navigation = useNavigation();
  const [form] = useForm({ id: "role-assign-menu", lastResult: actionData, onValidate: ({ formData }) => parseWithZod(formData, { schema }) });
  const focusOnRefusal = useFocusOnRefusal(actionData);
  const selected = new Set(selectedIds);
  return (
    <Stack gap="md" maw={960}>
      <Title order={3}>{ta.assignMenu.title(roleName)}</Title>
      <Text c="dimmed" size="sm">
        {ta.assignMenu.hint}
      </Text>
      <Paper withBorder radius="md" p="lg">
        <Form method="post" {...focusOnRefusal(getFormProps(form))} onChange={cascade}>
          <Stack gap="xs">
            {form.errors?.[0] && (
              <Alert color="red" variant="light" role="alert">
                {form.errors[0]}
              </Alert>
            )}
            <Group gap="xs">
              <Button type="button" size="xs" variant="default" onClick={(e) => setAll(e, true)}>
                {ta.assignMenu.all}
              </Button>
              <Button type="button" size="xs" variant="default" onClick={(e) => setAll(e, false)}>
                {ta.assignMenu.none}
              </Button>
            </Group>
            {tree.length === 0 && <Text c="dimmed">{ta.assignMenu.empty}</Text>}
            <div role="group" aria-label={ta.assignMenu.title(roleName)}>
              <MenuBranch nodes={tree} selected={selected} depth={0} />
            </div>
            <Group justify="flex-end" gap="sm" mt="md">
              <Button component={Link} to={LIST} variant="default">
                {ta.cancel}
              </Button>
              <Button type="submit" loading={navigation.state === "submitting"}>
                {ta.save}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
    </Stack>
  );
}
