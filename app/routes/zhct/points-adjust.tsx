import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { IconArrowLeft, IconCheck } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { pointsAdjustFormSchema, userAccountIntegralDetail as def } from "../../../resources/zhct/points";
import { userInfo } from "../../../resources/zhct/ledger";
import type { Route } from "./+types/points-adjust";
import { optionLabel, relationSource } from "~/components/resource/relation-search";
import { RelationSelect } from "~/components/resource/RelationSelect";
import { apiCall } from "~/lib/api.server";
import { formReply, requirePermitted } from "~/lib/api-answer.server";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";

const BASE = `${def.screenBase}/${def.screen}`;
type Row = Record<string, unknown>;
type Page = { records: Row[] };

/** 积分调整: staff add or take a diner's points, with a reason (the diner may be chosen beforehand by `?userInfoId=`). */

/** The diner picker searches the diners (人员管理). */
const DINER_SOURCE = relationSource(userInfo);

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const chosen = new URL(request.url).searchParams.get("userInfoId") ?? "";
  const page = await apiCall<Page>(request, context, "GET", "/api/v1/zhct/userInfo/findPage", { query: { pageSize: 50 } });
  requirePermitted(page);
  const label = (r: Row) => optionLabel(DINER_SOURCE, r);
  const diners = (page.data?.records ?? []).map((r) => ({ value: String(r.id), label: label(r) }));
  let balance: number | null = null;
  if (/^\d{1,16}$/.test(chosen)) {
    if (!diners.some((o) => o.value === chosen)) {
      const one = await apiCall<Row>(request, context, "GET", "/api/v1/zhct/userInfo/getInfo", { query: { id: chosen } });
      if (one.status === 200) diners.unshift({ value: chosen, label: label(one.data) });
    }
    const account = await apiCall<Page>(request, context, "GET", "/api/v1/zhct/userIntegralAccount/findPage", { query: { userInfoId: chosen } });
    if (account.status === 200) balance = Number(account.data.records[0]?.balance ?? 0);
  }
  // One key per form shown: a second click or a resent form does not adjust twice.
  return { diners, chosen, balance, idempotencyKey: crypto.randomUUID() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: pointsAdjustFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { idempotencyKey, ...body } = submission.value;
  const result = await apiCall<{ id: number; balance: number }>(request, context, "POST", "/api/v1/zhct/userAccountIntegralDetail/adjust", {
    body,
    headers: { "Idempotency-Key": idempotencyKey },
  });
  if (result.status !== 200) {
    const message = /Idempotency-Key/.test(result.message) ? "此表单已提交过一次调整，请重新打开积分调整页面" : result.message || "调整失败";
    return formReply(submission, result, { message });
  }
  return redirect(`${BASE}/index?userInfoId=${body.userInfoId}`, { headers: { "Set-Cookie": flashCookie(`积分调整成功，当前积分 ${result.data.balance}`) } });
}

export function meta() {
  return [{ title: `积分调整 - ${t.appTitle}` }];
}

export default function PointsAdjust({ loaderData, actionData }: Route.ComponentProps) {
  const { diners, chosen, balance, idempotencyKey } = loaderData;
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "points-adjust",
    lastResult: actionData,
    defaultValue: { userInfoId: chosen, idempotencyKey },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: pointsAdjustFormSchema }),
  });
  return (
    <Stack gap="md" maw={640}>
      <Group justify="space-between">
        <Title order={3}>积分调整</Title>
        <Button component={Link} to={`${BASE}/index`} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <Paper withBorder radius="md" p="lg">
        <Form method="post" {...getFormProps(form)}>
          <input type="hidden" name={fields.idempotencyKey.name} value={idempotencyKey} />
          <Stack>
            {form.errors?.[0] && (
              <Alert color="red" variant="light" role="alert">
                {form.errors[0]}
              </Alert>
            )}
            <RelationSelect name={fields.userInfoId.name} label="人员" source={DINER_SOURCE} defaultValue={String(fields.userInfoId.initialValue ?? "")} initialOptions={diners} required error={fields.userInfoId.errors?.[0]} />
            {balance !== null && (
              <Text size="sm" c="dimmed" data-testid="points-balance">
                当前积分：{balance}
              </Text>
            )}
            <TextInput {...getInputProps(fields.points, { type: "text" })} label="调整积分" withAsterisk inputMode="numeric" placeholder="如 100 或 -50" description="增加填正数，扣减填负数；扣减不能超过当前积分" error={fields.points.errors?.[0]} />
            <TextInput {...getInputProps(fields.reason, { type: "text" })} label="调整原因" withAsterisk maxLength={200} error={fields.reason.errors?.[0]} />
            <Group justify="flex-end">
              <Button type="submit" leftSection={<IconCheck size={16} />} loading={navigation.state === "submitting"}>
                确认调整
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
    </Stack>
  );
}
