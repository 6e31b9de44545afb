import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Avatar, Button, Card, Grid, Group, SegmentedControl, Stack, Text, TextInput, Title } from "@mantine/core";
import { IconKey } from "~/components/icons";
import { useState } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { z } from "../../resources/z";
import { ImageUpload } from "~/components/resource/ImageUpload";
import type { Route } from "./+types/profile";
import { apiCall } from "~/lib/api.server";
import { formReply } from "~/lib/api-answer.server";
import { t } from "~/lib/messages";
import { CHANGE_PASSWORD_PATH } from "~/lib/paths";
import { flashCookie, requireUserInfo } from "~/lib/session.server";
import { useFocusOnRefusal } from "~/lib/form-focus";

interface Profile {
  userName: string;
  realName: string | null;
  avatar: string | null;
  phone: string | null;
  navigationMode: "top" | "left";
}

const schema = z.object({
  realName: z.string().trim().max(50, "姓名不能超过 50 个字符").optional(),
  avatar: z
    .string()
    .trim()
    .max(500)
    .refine((v) => /^(\/|https?:\/\/)/.test(v), "头像地址不正确")
    .optional(),
  phone: z
    .string()
    .trim()
    .refine((v) => /^[0-9+\-() ]{5,30}$/.test(v), "请输入有效的电话号码")
    .optional(),
  navigationMode: z.enum(["top", "left"]),
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUserInfo(request, context);
  const profile = await apiCall<Profile>(request, context, "GET", "/api/v1/auth/user/profile");
  if (profile.status !== 200) throw data(profile.message, { status: 500 });
  return { profile: profile.data, roles: user.roles, tenantName: user.tenantName };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { realName, avatar, phone, navigationMode } = submission.value;
  const result = await apiCall(request, context, "POST", "/api/v1/auth/user/updateProfile", {
    body: { realName: realName ?? "", avatar: avatar ?? "", phone: phone ?? "", navigationMode },
  });
  if (result.status !== 200) return formReply(submission, result, { kept: [] });
  return redirect("/profile/index", { headers: { "Set-Cookie": flashCookie("个人资料已保存") } });
}

export function meta() {
  return [{ title: `个人中心 - ${t.appTitle}` }];
}

export default function ProfilePage({ loaderData, actionData }: Route.ComponentProps) {
  const { profile, roles, tenantName } = loaderData;
  const navigation = useNavigation();
  const [mode, setMode] = useState(profile.navigationMode);
  const [form, fields] = useForm({
    lastResult: actionData,
    defaultValue: { realName: profile.realName ?? "", avatar: profile.avatar ?? "", phone: profile.phone ?? "", navigationMode: profile.navigationMode },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const focusOnRefusal = useFocusOnRefusal(actionData);
  const name = profile.realName || profile.userName;
  return (
    <Grid gutter="md">
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Card withBorder radius="md" padding="xl">
          <Stack align="center" gap={6}>
            <Avatar src={profile.avatar || null} size={96} radius={96} color="brand" variant="filled" alt={name}>
              {name.slice(0, 1).toUpperCase()}
            </Avatar>
            <Title order={4} mt="sm">
              {name}
            </Title>
            <Text size="sm" c="dimmed">
              {profile.userName} · {tenantName}
            </Text>
            <Text size="sm" c="dimmed">
              角色：{roles.join("、")}
            </Text>
            <Button component={Link} to={CHANGE_PASSWORD_PATH} variant="light" leftSection={<IconKey size={16} />} mt="md">
              {t.shell.changePassword}
            </Button>
          </Stack>
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Card withBorder radius="md" padding="xl">
          <Title order={4} mb="md">
            个人资料
          </Title>
          <Form method="post" {...focusOnRefusal(getFormProps(form))}>
            <Stack>
              {form.errors?.[0] && (
                <Alert color="red" variant="light" role="alert">
                  {form.errors[0]}
                </Alert>
              )}
              <TextInput {...getInputProps(fields.realName, { type: "text" })} label="姓名" error={fields.realName.errors?.[0]} />
              <ImageUpload name={fields.avatar.name} label="头像" defaultValue={profile.avatar ?? ""} error={fields.avatar.errors?.[0]} />
              <TextInput {...getInputProps(fields.phone, { type: "tel" })} label="手机号" error={fields.phone.errors?.[0]} />
              <div>
                <Text size="sm" fw={500} mb={4}>
                  导航模式
                </Text>
                <input type="hidden" name={fields.navigationMode.name} value={mode} />
                <SegmentedControl
                  value={mode}
                  onChange={(value) => setMode(value as "top" | "left")}
                  data={[
                    { value: "top", label: "顶部菜单" },
                    { value: "left", label: "侧边菜单" },
                  ]}
                  aria-label="导航模式"
                />
              </div>
              <Group justify="flex-end">
                <Button type="submit" loading={navigation.state === "submitting"}>
                  保存
                </Button>
              </Group>
            </Stack>
          </Form>
        </Card>
      </Grid.Col>
    </Grid>
  );
}
