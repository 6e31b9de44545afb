import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Button, Checkbox, Group, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { role } from "../../../resources/auth/role";
import { user } from "../../../resources/auth/user";
import { apiPath } from "../../../resources/define";
import { z } from "../../../resources/z";
import type { Route } from "./+types/user-assign";
import { apiCall } from "~/lib/api.server";
import { refusalStatus, requirePermitted } from "~/lib/api-answer.server";
import { ta } from "~/lib/auth-messages";
import { t } from "~/lib/messages";
import { flashCookie } from "~/lib/session.server";
import { useFocusOnRefusal } from "~/lib/form-focus";

type Row = Record<string, unknown>;
type Kind = "assignRole" | "assignWarehouse" | "assignRestaurant";
interface Option {
  id: number;
  name: string;
  disabled: boolean;
}

const LIST = `${user.screenBase}/${user.screen}/index`;
/** What each screen saves: the call and the name of its id list. */
const SAVE: Record<Kind, { path: string; field: string }> = {
  assignRole: { path: apiPath(user, "assignRole"), field: "roleIds" },
  assignWarehouse: { path: apiPath(user, "assignWarehouse"), field: "warehouseIds" },
  assignRestaurant: { path: apiPath(user, "assignRestaurant"), field: "restaurantIds" },
};

const schema = z.object({ ids: z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.coerce.number().int())) });

function kindOf(request: Request): Kind {
  const kind = new URL(request.url).pathname.split("/")[4];
  if (kind === "assignRole" || kind === "assignWarehouse" || kind === "assignRestaurant") return kind;
  throw data(null, { status: 404 });
}

async function choices(request: Request, context: Route.LoaderArgs["context"], kind: Kind, id: string): Promise<{ options: Option[]; selectedIds: number[] }> {
  if (kind === "assignRole") {
    const [roles, mine] = await Promise.all([
      apiCall<{ records: Row[] }>(request, context, "GET", apiPath(role, "findPage"), { query: { pageSize: 100, sort: "roleCode,asc" } }),
      apiCall<Row[]>(request, context, "GET", apiPath(user, "getUserRoleList"), { query: { id } }),
    ]);
    return {
      options: (roles.data?.records ?? []).map((r) => ({ id: Number(r.id), name: `${r.roleName}（${r.roleCode}）`, disabled: String(r.status) !== "1" })),
      selectedIds: (mine.data ?? []).map((r) => Number(r.id)),
    };
  }
  const result = await apiCall<{ options: Array<{ id: number; name: string; status: string }>; selectedIds: number[] }>(
    request,
    context,
    "GET",
    apiPath(user, kind === "assignWarehouse" ? "getUserWarehouseList" : "getUserRestaurantList"),
    { query: { id } },
  );
  return {
    options: (result.data?.options ?? []).map((o) => ({ id: o.id, name: o.name, disabled: o.status !== "1" })),
    selectedIds: result.data?.selectedIds ?? [],
  };
}

/** Spec §2 user assignRole/{id}, assignWarehouse/{id}, assignRestaurant/{id}: tick what the user gets, save, done. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const kind = kindOf(request);
  const found = await apiCall<Row>(request, context, "GET", apiPath(user, "getInfo"), { query: { id: params.id } });
  requirePermitted(found);
  if (found.status !== 200) throw data(null, { status: 404 });
  const name = `${found.data.realName ?? ""}（${found.data.userName}）`;
  return { kind, userName: name, ...(await choices(request, context, kind, params.id)) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const kind = kindOf(request);
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const save = SAVE[kind];
  const result = await apiCall(request, context, "POST", save.path, { body: { userId: Number(params.id), [save.field]: submission.value.ids } });
  if (result.status !== 200) return data(submission.reply({ formErrors: [result.message || "Error"] }), { status: refusalStatus(result) });
  return redirect(LIST, { headers: { "Set-Cookie": flashCookie(ta.saved) } });
}

const titles: Record<Kind, (user: string) => string> = {
  assignRole: ta.assignRole.title,
  assignWarehouse: ta.links.warehouse.title,
  assignRestaurant: ta.links.restaurant.title,
};
const hints: Record<Kind, { hint: string; empty: string }> = {
  assignRole: { hint: ta.assignRole.hint, empty: ta.assignRole.empty },
  assignWarehouse: ta.links.warehouse,
  assignRestaurant: ta.links.restaurant,
};

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `${loaderData ? titles[loaderData.kind](loaderData.userName) : ""} - ${t.appTitle}` }];
}

export default function UserAssign({ loaderData, actionData }: Route.ComponentProps) {
  const { kind, userName, options, selectedIds } = loaderData;
  const navigation = useNavigation();
  const [form] = useForm({ id: `user-${kind}`, lastResult: actionData, onValidate: ({ formData }) => parseWithZod(formData, { schema }) });
  const focusOnRefusal = useFocusOnRefusal(actionData);
  const chosen = new Set(selectedIds);
  return (
    <Stack gap="md" maw={960}>
      <Title order={3}>{titles[kind](userName)}</Title>
      <Text c="dimmed" size="sm">
        {hints[kind].hint}
      </Text>
      <Paper withBorder radius="md" p="lg">
        <Form method="post" {...focusOnRefusal(getFormProps(form))}>
          <Stack gap="md">
            {form.errors?.[0] && (
              <Alert color="red" variant="light" role="alert">
                {form.errors[0]}
              </Alert>
            )}
            {options.length === 0 && <Text c="dimmed">{hints[kind].empty}</Text>}
            <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
              {options.map((o) => (
                <Checkbox
                  key={o.id}
                  name="ids"
                  value={String(o.id)}
                  defaultChecked={chosen.has(o.id)}
                  label={o.disabled ? `${o.name}${ta.links.disabled}` : o.name}
                />
              ))}
            </SimpleGrid>
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
