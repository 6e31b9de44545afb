import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Anchor, Box, Button, Center, Group, Image, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { encodeLoginField, type LoginConfig } from "../../resources/auth";
import { z } from "../../resources/z";
import type { Route } from "./+types/login";
import { apiCall, headersWithCookies } from "~/lib/api.server";
import { t } from "~/lib/messages";
import { useNonce } from "~/lib/nonce";
import { readFlash, safeRedirect } from "~/lib/session.server";

function loginSchema(captchaEnabled: boolean) {
  return z.object({
    username: z.string({ error: t.login.userNameRequired }).trim().min(1, t.login.userNameRequired),
    password: z.string({ error: t.login.passwordRequired }).min(1, t.login.passwordRequired),
    captcha: captchaEnabled ? z.string({ error: t.login.captchaRequired }).trim().min(1, t.login.captchaRequired) : z.string().optional(),
    checkKey: z.string().optional(),
    redirect: z.string().optional(),
  });
}

async function loginConfig(request: Request, context: Route.LoaderArgs["context"]) {
  const result = await apiCall<LoginConfig>(request, context, "GET", "/api/v1/auth/loginConfig");
  return { captchaEnabled: result.data?.captchaEnabled ?? true };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { captchaEnabled } = await loginConfig(request, context);
  const flash = readFlash(request);
  return data(
    {
      captchaEnabled,
      checkKey: crypto.randomUUID(),
      redirectTo: new URL(request.url).searchParams.get("redirect") ?? "",
      flash: flash.message,
    },
    flash.clear ? { headers: { "Set-Cookie": flash.clear } } : undefined,
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const { captchaEnabled } = await loginConfig(request, context);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: loginSchema(captchaEnabled) });
  const retry = (result: ReturnType<typeof submission.reply>) =>
    data({ result, checkKey: crypto.randomUUID() }, { status: 400 });
  if (submission.status !== "success") return retry(submission.reply({ hideFields: ["password", "captcha"] }));

  const { username, password, captcha, checkKey } = submission.value;
  const response = await apiCall<{ token: string }>(request, context, "POST", "/login", {
    query: { captcha, checkKey },
    body: { username: encodeLoginField(username), password: encodeLoginField(password) },
  });
  if (response.status !== 200) {
    return retry(submission.reply({ formErrors: [response.message || "Error"], hideFields: ["password", "captcha"] }));
  }
  return redirect(safeRedirect(submission.value.redirect), { headers: headersWithCookies(response.setCookies) });
}

export function meta() {
  return [{ title: `登录 - ${t.appTitle}` }];
}

/**
 * A document load of the sign-in page sends no JavaScript (decision 019): it is one form the server validates and
 * answers, so React's and the app's code (about 200 KB gzip) would buy nothing before the user signs in. Reached by
 * a client navigation (logging out) it renders as any route. The captcha's refresh is the one thing that needs a
 * script; this one, with the page's nonce, does it for the server's HTML.
 */
export const handle = { hydrate: false };

const CAPTCHA_REFRESH =
  'document.addEventListener("click",function(e){var t=e.target instanceof Element&&e.target.closest("[data-captcha-refresh]");' +
  'if(!t)return;e.preventDefault();var i=document.querySelector("[data-testid=captcha-image]");if(!i)return;' +
  'var u=new URL(i.src,location.href);u.searchParams.set("v",String(Date.now()));i.src=u.pathname+u.search})';

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { captchaEnabled, redirectTo, flash } = loaderData;
  const checkKey = actionData?.checkKey ?? loaderData.checkKey;
  const [captchaVersion, setCaptchaVersion] = useState(0);
  const navigation = useNavigation();
  const nonce = useNonce();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema(captchaEnabled) }),
  });
  const captchaSrc = `/api/v1/auth/captcha?checkKey=${encodeURIComponent(checkKey)}${captchaVersion ? `&v=${captchaVersion}` : ""}`;
  const refreshHref = redirectTo ? `/login?redirect=${encodeURIComponent(redirectTo)}` : "/login";

  return (
    <Box mih="100vh" style={{ background: "linear-gradient(135deg, #001529 0%, #0b3d70 55%, #1890ff 100%)" }}>
      <Center mih="100vh" p="md">
        <Paper shadow="xl" radius="md" p={36} w="100%" maw={420}>
          <Stack gap={4} align="center" mb="lg">
            <Image src="/logo.svg" alt="" w={48} h={48} />
            <Title order={2} ta="center">
              {t.login.title}
            </Title>
            <Text c="dimmed" size="sm">
              {t.login.subtitle}
            </Text>
          </Stack>
          <Form method="post" {...getFormProps(form)} action={redirectTo ? `/login?redirect=${encodeURIComponent(redirectTo)}` : "/login"}>
            <Stack gap="md">
              {(form.errors?.[0] || flash) && (
                <Alert color="red" variant="light" role="alert" id={form.errorId}>
                  {form.errors?.[0] ?? flash}
                </Alert>
              )}
              <input type="hidden" name="redirect" value={redirectTo} />
              <input type="hidden" name="checkKey" value={checkKey} />
              <TextInput
                {...getInputProps(fields.username, { type: "text" })}
                label={t.login.userName}
                autoComplete="username"
                autoFocus
                error={fields.username.errors?.[0]}
              />
              <TextInput
                {...getInputProps(fields.password, { type: "password" })}
                label={t.login.password}
                autoComplete="current-password"
                error={fields.password.errors?.[0]}
              />
              {captchaEnabled && (
                <Group align="flex-start" gap="sm" wrap="nowrap">
                  <TextInput
                    {...getInputProps(fields.captcha, { type: "text" })}
                    key={checkKey}
                    label={t.login.captcha}
                    autoComplete="off"
                    maxLength={8}
                    style={{ flex: 1 }}
                    error={fields.captcha.errors?.[0]}
                  />
                  <Stack gap={2} mt={25}>
                    <img
                      src={captchaSrc}
                      alt={t.login.captcha}
                      width={120}
                      height={40}
                      title="点击刷新"
                      data-testid="captcha-image"
                      style={{ cursor: "pointer", borderRadius: 4, border: "1px solid var(--mantine-color-gray-3)" }}
                      data-captcha-refresh
                      onClick={() => setCaptchaVersion(Date.now())}
                    />
                    <Anchor href={refreshHref} size="xs" data-captcha-refresh onClick={(e) => (e.preventDefault(), setCaptchaVersion(Date.now()))}>
                      {t.login.captchaRefresh}
                    </Anchor>
                  </Stack>
                </Group>
              )}
              <Button type="submit" fullWidth size="md" loading={navigation.state === "submitting"}>
                {t.login.submit}
              </Button>
            </Stack>
          </Form>
          {captchaEnabled && typeof document === "undefined" && <script nonce={nonce} dangerouslySetInnerHTML={{ __html: CAPTCHA_REFRESH }} />}
        </Paper>
      </Center>
    </Box>
  );
}
