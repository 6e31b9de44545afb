import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Button, Group, NativeSelect, Paper, Stack, TextInput, Title } from "@mantine/core";
import { IconArrowLeft, IconCheck } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { userAccountCharge as def, userInfo } from "../../../resources/zhct/ledger";
import { chargeFormSchema } from "../../../resources/zhct/ledgerForms";
import type { Route } from "./+types/charge-form";
import { optionLabel, relationSource } from "~/components/resource/relation-search";
import { RelationSelect } from "~/components/resource/RelationSelect";
import { apiCall } from "~/lib/api.server";
import { formReply, requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";

const BASE = `${def.screenBase}/${def.screen}`;
type Page = { records: Array<Record<string, unknown>> };

/** 充值 and 退款 at the counter: one form, the path says which (`charge` or `refund`). */

/** The diner picker searches the diners (人员管理). */
const DINER_SOURCE = relationSource(userInfo);

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const url = new URL(request.url);
  const kind = params.kind === "refund" ? "refund" : "charge";
  const chosen = url.searchParams.get("userInfoId") ?? "";
  const page = await apiCall<Page>(request, context, "GET", "/api/v1/zhct/userInfo/findPage", { query: { pageSize: 100 } });
  requirePermitted(page);
  const diners = (page.data?.records ?? []).map((r) => ({ value: String(r.id), label: optionLabel(DINER_SOURCE, r) }));
  if (chosen && !diners.some((o) => o.value === chosen)) {
    const one = await apiCall<Record<string, unknown>>(request, context, "GET", "/api/v1/zhct/userInfo/getInfo", { query: { id: chosen } });
    if (one.status === 200) diners.unshift({ value: chosen, label: optionLabel(DINER_SOURCE, one.data) });
  }
  // One key per form shown: a second click or a resent form does not move the money twice.
  return { kind, diners, chosen, idempotencyKey: crypto.randomUUID() };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const kind = params.kind === "refund" ? "refund" : "charge";
  const submission = parseWithZod(await request.formData(), { schema: chargeFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { idempotencyKey, ...body } = submission.value;
  const result = await apiCall<{ id: number; balance: number }>(request, context, "POST", `/api/v1/zhct/userAccountCharge/${kind === "refund" ? "refund" : "create"}`, {
    body,
    headers: { "Idempotency-Key": idempotencyKey },
  });
  if (result.status !== 200) {
    // The form's key already moved money with other values (resent after going back): a new form is a new key.
    const message = /Idempotency-Key/.test(result.message) ? "此表单已办理过一笔业务，请重新打开充值或退款页面再办理" : result.message || "Error";
    return formReply(submission, result, { message });
  }
  return redirect(`${BASE}/receipt/${result.data.id}`, { headers: { "Set-Cookie": flashCookie(kind === "refund" ? "退款成功" : "充值成功") } });
}

export function meta({ params }: Route.MetaArgs) {
  return [{ title: `${params.kind === "refund" ? "退款" : "充值"} - ${t.appTitle}` }];
}

export default function ChargeForm({ loaderData, actionData }: Route.ComponentProps) {
  const { kind, diners, chosen, idempotencyKey } = loaderData;
  const dicts = useDicts();
  const navigation = useNavigation();
  const title = kind === "refund" ? "退款" : "充值";
  const [form, fields] = useForm({
    id: `charge-${kind}`,
    lastResult: actionData,
    defaultValue: { userInfoId: chosen, accountType: "cash", payFlag: "0", idempotencyKey },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: chargeFormSchema }),
  });
  return (
    <Stack gap="md" maw={640}>
      <Group justify="space-between">
        <Title order={3}>{title}</Title>
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
            <TextInput {...getInputProps(fields.amount, { type: "text" })} label={`${title}金额`} withAsterisk inputMode="decimal" rightSection="元" placeholder="0.00" error={fields.amount.errors?.[0]} description="最多两位小数" />
            <NativeSelect {...getSelectProps(fields.accountType)} label="账户" withAsterisk data={dicts.accountType ?? []} error={fields.accountType.errors?.[0]} />
            <NativeSelect {...getSelectProps(fields.payFlag)} label="支付方式" withAsterisk data={dicts.userAccountFlag ?? []} error={fields.payFlag.errors?.[0]} />
            <TextInput {...getInputProps(fields.remark, { type: "text" })} label="备注" error={fields.remark.errors?.[0]} />
            <Group justify="flex-end">
              <Button type="submit" color={kind === "refund" ? "orange" : undefined} leftSection={<IconCheck size={16} />} loading={navigation.state === "submitting"}>
                确认{title}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
    </Stack>
  );
}
