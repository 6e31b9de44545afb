import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Button, Card, Group, PasswordInput, Stack, Text, Title } from "@mantine/core";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { user } from "../../../resources/auth/user";
import { apiPath } from "../../../resources/define";
import { z } from "../../../resources/z";
import type { Route } from "./+types/user-reset-password";
import { apiCall } from "~/lib/api.server";
import { formReply, requirePermitted } from "~/lib/api-answer.server";
import { ta } from "~/lib/auth-messages";
import { t } from "~/lib/messages";
import { flashCookie } from "~/lib/session.server";
import { useFocusOnRefusal } from "~/lib/form-focus";

const LIST = `${user.screenBase}/${user.screen}/index`;

const schema = z
  .object({
    password: z.string({ error: "请输入新密码" }).min(8, "密码至少 8 个字符").max(64, "密码不能超过 64 个字符"),
    confirmPassword: z.string({ error: "请再次输入新密码" }),
  })
  .refine((v) => v.password === v.confirmPassword, { message: ta.resetPassword.mismatch, path: ["confirmPassword"] });

/** An admin sets another user's password; that user changes it at the next sign-in. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const found = await apiCall<Record<string, unknown>>(request, context, "GET", apiPath(user, "getInfo"), { query: { id: params.id } });
  requirePermitted(found);
  if (found.status !== 200) throw data(null, { status: 404 });
  return { userName: `${found.data.realName ?? ""}（${found.data.userName}）` };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password", "confirmPassword"] }), { status: 400 });
  const result = await apiCall(request, context, "POST", apiPath(user, "resetPasswd"), { body: { id: Number(params.id), password: submission.value.password } });
  if (result.status !== 200) return formReply(submission, result, { kept: [] });
  return redirect(LIST, { headers: { "Set-Cookie": flashCookie(ta.resetPassword.done) } });
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `${loaderData ? ta.resetPassword.title(loaderData.userName) : ""} - ${t.appTitle}` }];
}

export default function UserResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: actionData,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const focusOnRefusal = useFocusOnRefusal(actionData);
  return (
    <Card withBorder radius="md" padding="xl" maw={520}>
      <Title order={3} mb="xs">
        {ta.resetPassword.title(loaderData.userName)}
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        {ta.resetPassword.hint}
      </Text>
      <Form method="post" {...focusOnRefusal(getFormProps(form))}>
        <Stack>
          {form.errors?.[0] && (
            <Alert color="red" variant="light" role="alert">
              {form.errors[0]}
            </Alert>
          )}
          <PasswordInput
            {...getInputProps(fields.password, { type: "password" })}
            label={ta.resetPassword.password}
            description={t.password.hint}
            autoComplete="new-password"
            error={fields.password.errors?.[0]}
          />
          <PasswordInput
            {...getInputProps(fields.confirmPassword, { type: "password" })}
            label={ta.resetPassword.confirm}
            autoComplete="new-password"
            error={fields.confirmPassword.errors?.[0]}
          />
          <Group justify="flex-end" gap="sm">
            <Button component={Link} to={LIST} variant="default">
              {ta.cancel}
            </Button>
            <Button type="submit" loading={navigation.state === "submitting"}>
              {ta.save}
            </Button>
          </Group>
        </Stack>
      </Form>
    </Card>
  );
}
