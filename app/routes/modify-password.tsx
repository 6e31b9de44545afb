import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Button, Card, PasswordInput, Stack, Title } from "@mantine/core";
import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "../../resources/z";
import type { Route } from "./+types/modify-password";
import { apiCall } from "~/lib/api.server";
import { formReply } from "~/lib/api-answer.server";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";
import { useFocusOnRefusal } from "~/lib/form-focus";

const schema = z
  .object({
    oldPassword: z.string({ error: "请输入原密码" }).min(1, "请输入原密码"),
    newPassword: z.string({ error: "请输入新密码" }).min(8, "新密码至少 8 个字符"),
    confirmPassword: z.string({ error: "请再次输入新密码" }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: t.password.mismatch, path: ["confirmPassword"] });

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUserInfo(request, context);
  return { firstLogin: user.pwdSecurityLevel === 0 };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await apiCall(request, context, "POST", "/api/v1/auth/user/modifyPasswd", {
    body: { oldPassword: submission.value.oldPassword, newPassword: submission.value.newPassword },
  });
  if (result.status !== 200) return formReply(submission, result, { kept: [] });
  // `/` leads to the subsystem the user works in (a first sign-in passes here).
  return redirect("/", { headers: { "Set-Cookie": flashCookie(t.password.changed) } });
}

export function meta() {
  return [{ title: `${t.password.title} - ${t.appTitle}` }];
}

export default function ModifyPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: actionData,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const focusOnRefusal = useFocusOnRefusal(actionData);
  return (
    <Card withBorder radius="md" padding="xl" maw={520} mx="auto" mt="xl">
      <Title order={3} mb="md">
        {t.password.title}
      </Title>
      {loaderData.firstLogin && (
        <Alert color="orange" title={t.password.title} mb="md" data-testid="first-login-alert">
          {t.password.firstLogin}
        </Alert>
      )}
      <Form method="post" {...focusOnRefusal(getFormProps(form))}>
        <Stack>
          {form.errors?.[0] && (
            <Alert color="red" variant="light" role="alert">
              {form.errors[0]}
            </Alert>
          )}
          <PasswordInput
            {...getInputProps(fields.oldPassword, { type: "password" })}
            label={t.password.old}
            autoComplete="current-password"
            error={fields.oldPassword.errors?.[0]}
          />
          <PasswordInput
            {...getInputProps(fields.newPassword, { type: "password" })}
            label={t.password.new}
            description={t.password.hint}
            autoComplete="new-password"
            error={fields.newPassword.errors?.[0]}
          />
          <PasswordInput
            {...getInputProps(fields.confirmPassword, { type: "password" })}
            label={t.password.confirm}
            autoComplete="new-password"
            error={fields.confirmPassword.errors?.[0]}
          />
          <Button type="submit" loading={navigation.state === "submitting"}>
            {t.password.submit}
          </Button>
        </Stack>
      </Form>
    </Card>
  );
}
