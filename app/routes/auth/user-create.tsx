import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Button, Checkbox, Code, Group, Input, Paper, PasswordInput, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { org } from "../../../resources/auth/org";
import { role } from "../../../resources/auth/role";
import { user } from "../../../resources/auth/user";
import { apiPath, formFields } from "../../../resources/define";
import { createSchema } from "../../../resources/schemas";
import { formToPayload, recordToForm } from "../../../resources/forms";
import { z } from "../../../resources/z";
import type { Route } from "./+types/user-create";
import { relationSource } from "~/components/resource/relation-search";
import { ResourceFields } from "~/components/resource/ResourceFields";
import { apiCall } from "~/lib/api.server";
import { refusalStatus, replyOf, requirePermitted } from "~/lib/api-answer.server";
import { ta } from "~/lib/auth-messages";
import { useDicts } from "~/lib/dicts";
import { useFocusOnRefusal } from "~/lib/form-focus";
import { t } from "~/lib/messages";
import { flashCookie } from "~/lib/session.server";

type Row = Record<string, unknown>;
const LIST = `${user.screenBase}/${user.screen}/index`;

const asList = (v: unknown) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]);

/** The declared user fields, plus the initial password (optional) and the roles, as one schema for browser and server. */
const schema = z.preprocess(
  (raw) => {
    const form = (raw ?? {}) as Row;
    return { ...formToPayload(user, form), password: form.password, confirmPassword: form.confirmPassword, roleIds: asList(form.roleIds) };
  },
  createSchema(user)
    .extend({
      password: z.string().max(64, "密码不能超过 64 个字符").optional(),
      confirmPassword: z.string().optional(),
      roleIds: z.array(z.coerce.number().int()).default([]),
    })
    // Checked even while other fields are wrong, so every message shows at once.
    .refine((v) => (v.password ?? "") === (v.confirmPassword ?? ""), { message: ta.userCreate.mismatch, path: ["confirmPassword"], when: () => true })
    .refine((v) => !v.password || String(v.password).length >= 8, { message: "密码至少 8 个字符", path: ["password"], when: () => true }),
);

/** Spec §2 user create/{orgId}: a new user under an org (or none), with roles and an initial password. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  let orgRecord: Row | null = null;
  if (params.orgId) {
    const found = await apiCall<Row>(request, context, "GET", apiPath(org, "getInfo"), { query: { id: params.orgId } });
    requirePermitted(found);
    if (found.status !== 200) throw data(null, { status: 404 });
    orgRecord = found.data;
  }
  const [roles, orgs] = await Promise.all([
    apiCall<{ records: Row[] }>(request, context, "GET", apiPath(role, "findPage"), { query: { pageSize: 100, status: "1", sort: "roleCode,asc" } }),
    apiCall<{ records: Row[] }>(request, context, "GET", apiPath(org, "findPage"), { query: { pageSize: 100 } }),
  ]);
  const orgOptions = (orgs.data?.records ?? []).map((o) => ({ value: String(o.id), label: String(o.orgName) }));
  if (orgRecord && !orgOptions.some((o) => o.value === String(orgRecord.id))) orgOptions.unshift({ value: String(orgRecord.id), label: String(orgRecord.orgName) });
  return {
    org: orgRecord ? { id: Number(orgRecord.id), name: String(orgRecord.orgName) } : null,
    roles: (roles.data?.records ?? []).map((r) => ({ id: Number(r.id), name: String(r.roleName), code: String(r.roleCode) })),
    options: { orgId: orgOptions },
    sources: { orgId: relationSource(org) },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { password, roleIds, ...values } = submission.value;
  const result = await apiCall<{ userName: string; initialPassword?: string }>(request, context, "POST", apiPath(user, "create"), {
    body: { user: { ...values, password: password || undefined }, roleIds },
  });
  if (result.status !== 200) return data({ result: replyOf(submission, result) }, { status: refusalStatus(result) });
  if (result.data.initialPassword) return { created: { userName: result.data.userName, initialPassword: result.data.initialPassword } };
  return redirect(LIST, { headers: { "Set-Cookie": flashCookie(ta.userCreate.created) } });
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `${loaderData?.org ? ta.userCreate.underOrg(loaderData.org.name) : ta.userCreate.title} - ${t.appTitle}` }];
}

export default function UserCreate({ loaderData, actionData }: Route.ComponentProps) {
  const { org: underOrg, roles, options, sources } = loaderData;
  const dicts = useDicts();
  const navigation = useNavigation();
  const created = actionData && "created" in actionData ? actionData.created : null;
  const lastResult = actionData && "result" in actionData ? (actionData.result as SubmissionResult<string[]>) : undefined;
  const [form, fields] = useForm({
    id: `user-create-${underOrg?.id ?? "any"}`,
    lastResult,
    defaultValue: { ...recordToForm(user, null), orgId: underOrg ? String(underOrg.id) : "" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const focusOnRefusal = useFocusOnRefusal(lastResult);
  const title = underOrg ? ta.userCreate.underOrg(underOrg.name) : ta.userCreate.title;

  if (created) {
    return (
      <Stack gap="md" maw={720}>
        <Title order={3}>{title}</Title>
        <Alert color="green" variant="light" title={ta.userCreate.created} data-testid="initial-password">
          <Text size="sm" mb="xs">
            {ta.userCreate.generated(created.userName)}
          </Text>
          <Code fz="lg">{created.initialPassword}</Code>
        </Alert>
        <Group>
          <Button component={Link} to={LIST}>
            {ta.userCreate.toList}
          </Button>
          <Button component={Link} to={underOrg ? `${user.screenBase}/${user.screen}/create/${underOrg.id}` : `${user.screenBase}/${user.screen}/create`} variant="default" reloadDocument>
            {ta.userCreate.createAnother}
          </Button>
        </Group>
      </Stack>
    );
  }

  const metas = fields as unknown as Parameters<typeof ResourceFields>[0]["metas"];
  const roleErrors = fields.roleIds.errors;
  return (
    <Stack gap="md" maw={960}>
      <Title order={3}>{title}</Title>
      <Paper withBorder radius="md" p="lg">
        <Form method="post" {...focusOnRefusal(getFormProps(form))}>
          <Stack gap="md">
            {form.errors?.[0] && (
              <Alert color="red" variant="light" role="alert">
                {form.errors[0]}
              </Alert>
            )}
            <ResourceFields fields={formFields(user)} metas={metas} dicts={dicts} options={options} sources={sources} />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <PasswordInput
                {...getInputProps(fields.password, { type: "password" })}
                label={ta.userCreate.password}
                description={ta.userCreate.passwordHint}
                autoComplete="new-password"
                error={fields.password.errors?.[0]}
              />
              <PasswordInput
                {...getInputProps(fields.confirmPassword, { type: "password" })}
                label={ta.userCreate.confirmPassword}
                autoComplete="new-password"
                error={fields.confirmPassword.errors?.[0]}
              />
            </SimpleGrid>
            <Input.Wrapper label={ta.userCreate.roles} error={roleErrors?.[0]}>
              <Group gap="lg" mt="xs">
                {roles.length === 0 && <Text c="dimmed" size="sm">{ta.userCreate.noRoles}</Text>}
                {roles.map((r) => (
                  <Checkbox key={r.id} name="roleIds" value={String(r.id)} label={`${r.name}（${r.code}）`} />
                ))}
              </Group>
            </Input.Wrapper>
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
