import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, TextInput, Title } from "@mantine/core";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { apiPath, formFields } from "../../../resources/define";
import { formSchema, recordToForm } from "../../../resources/forms";
import { menu, type MenuIndexView } from "../../../resources/sys/menu";
import type { Route } from "./+types/menu-form";
import { ResourceFields } from "~/components/resource/ResourceFields";
import { apiCall } from "~/lib/api.server";
import { formReply } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { t } from "~/lib/messages";
import { flashCookie } from "~/lib/session.server";
import { ts } from "~/lib/sys-messages";
import { useFocusOnRefusal } from "~/lib/form-focus";

type Row = Record<string, unknown>;
interface TreeNode {
  id: number;
  menuName: string;
  menuType: string;
  children: TreeNode[];
}

const BASE = `${menu.screenBase}/${menu.screen}`;
/** The subsystem is fixed by the URL and the parent is picked from that subsystem's tree; the rest are the declared fields. */
const OWN_FIELDS = new Set(["subsystemId", "parentId"]);
const otherFields = formFields(menu).filter((f) => !OWN_FIELDS.has(f.name));

/** Entries that may hold the one edited: not buttons, not the entry itself nor anything below it. */
function parentOptions(nodes: TreeNode[], exclude: number | null, depth = 0): Array<{ value: string; label: string }> {
  return nodes
    .filter((n) => n.menuType !== "button" && n.id !== exclude)
    .flatMap((n) => [{ value: String(n.id), label: `${"　".repeat(depth)}${n.menuName}` }, ...parentOptions(n.children, exclude, depth + 1)]);
}

/** Spec §2 menu create/{subsystemId} and edit/{id}. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  let record: Row | null = null;
  if (params.id) {
    const result = await apiCall<Row>(request, context, "GET", apiPath(menu, "getInfo"), { query: { id: params.id } });
    if (result.status === 404 || result.status === 400) throw data(null, { status: 404 });
    if (result.status !== 200) throw data(null, { status: 401 });
    record = result.data;
  }
  const subsystemId = record ? Number(record.subsystemId) : Number(params.subsystemId);
  const tree = await apiCall<{ subsystem: { id: number; sysName: string }; tree: TreeNode[] }>(request, context, "GET", apiPath(menu, "tree"), {
    // A button is never a parent: the form reads no button codes.
    query: { subsystemId, buttons: "none" },
  });
  if (tree.status === 404 || tree.status === 400) throw data(null, { status: 404 });
  if (tree.status !== 200) throw data(null, { status: 401 });
  const parentId = new URL(request.url).searchParams.get("parentId");
  return {
    mode: (record ? "edit" : "create") as "create" | "edit",
    record,
    subsystem: { id: subsystemId, name: tree.data.subsystem.sysName },
    parents: parentOptions(tree.data.tree, record ? Number(record.id) : null),
    parentId: record ? (record.parentId === null ? "" : String(record.parentId)) : (parentId ?? ""),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const mode = params.id ? "edit" : "create";
  const submission = parseWithZod(await request.formData(), { schema: formSchema(menu, mode) });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  // A field emptied in the form arrives absent; in an edit that means "clear it", not "leave it".
  const body: Row = { ...submission.value };
  if (mode === "edit") for (const field of formFields(menu)) body[field.name] ??= null;
  const result = await apiCall(request, context, "POST", apiPath(menu, mode === "create" ? "create" : "update"), { body });
  if (result.status !== 200) return formReply(submission, result);
  const index = `${BASE}/index?subsystemId=${body.subsystemId}`;
  return redirect(`${index}${await shownAt(request, context, body, Number((result.data as Row).id ?? body.id))}`, { headers: { "Set-Cookie": flashCookie(ts.saved) } });
}

/**
 * How the index shows the entry just saved (it folds, issue 38): a button under its page opened; another entry where
 * the index opens anyway, or else in its folder opened.
 */
async function shownAt(request: Request, context: Route.ActionArgs["context"], body: Row, id: number): Promise<string> {
  if (!body.parentId) return "";
  const opened = `&open=${body.parentId}#menu-${body.menuType === "button" ? body.parentId : id}`;
  if (body.menuType === "button") return opened;
  const view = await apiCall<MenuIndexView>(request, context, "GET", apiPath(menu, "treeRows"), { query: { subsystemId: Number(body.subsystemId) } });
  return view.status === 200 && view.data.rows.some((row) => row.id === id) ? "" : opened;
}

export function meta({ loaderData }: Route.MetaArgs) {
  const name = loaderData?.subsystem.name ?? "";
  return [{ title: `${loaderData?.mode === "edit" ? ts.menu.editTitle(name) : ts.menu.createTitle(name)} - ${t.appTitle}` }];
}

export default function MenuForm({ loaderData, actionData }: Route.ComponentProps) {
  const { mode, record, subsystem, parents, parentId } = loaderData;
  const dicts = useDicts();
  const navigation = useNavigation();
  const schema = formSchema(menu, mode);
  const [form, fields] = useForm({
    id: `sys-menu-${mode}-${record?.id ?? subsystem.id}`,
    lastResult: actionData,
    defaultValue: { ...recordToForm(menu, record), subsystemId: String(subsystem.id), parentId },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const focusOnRefusal = useFocusOnRefusal(actionData);
  const metas = fields as unknown as Parameters<typeof ResourceFields>[0]["metas"];
  return (
    <Stack gap="md" maw={960}>
      <Title order={3}>{mode === "edit" ? ts.menu.editTitle(subsystem.name) : ts.menu.createTitle(subsystem.name)}</Title>
      <Paper withBorder radius="md" p="lg">
        <Form method="post" {...focusOnRefusal(getFormProps(form))}>
          <Stack gap="md">
            {form.errors?.[0] && (
              <Alert color="red" variant="light" role="alert">
                {form.errors[0]}
              </Alert>
            )}
            {record && (
              <>
                <input type="hidden" name="id" value={String(record.id)} />
                <input type="hidden" name="updatedAt" value={String(record.updatedAt)} />
              </>
            )}
            <input type="hidden" name="subsystemId" value={String(subsystem.id)} />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
              <TextInput label={ts.menu.subsystem} value={subsystem.name} readOnly variant="filled" />
              <NativeSelect
                {...getInputProps(fields.parentId, { type: "text" })}
                label={menu.fields.find((f) => f.name === "parentId")?.label}
                error={fields.parentId.errors?.[0] ?? fields.subsystemId.errors?.[0]}
                data={[{ value: "", label: ts.menu.topLevel }, ...parents]}
              />
            </SimpleGrid>
            <ResourceFields fields={otherFields} metas={metas} dicts={dicts} options={{}} />
            <Group justify="flex-end" gap="sm" mt="md">
              <Button component={Link} to={`${BASE}/index?subsystemId=${subsystem.id}`} variant="default">
                {ts.cancel}
              </Button>
              <Button type="submit" loading={navigation.state === "submitting"}>
                {ts.save}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
    </Stack>
  );
}
