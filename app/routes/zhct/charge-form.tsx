import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Button, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { IconArrowLeft, IconCheck } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { userAccountCharge as def, userInfo } from "../../../resources/zhct/ledger";
import { chargeFormSchema } from "../../../resources/zhct/ledgerForms";
import type { Route } from "./+types/charge-form";
import { optionLabel, relationSource } from "~/components/resource/relation-search";
import { RelationSelect } from "~/components/resource/RelationSelect";
import { ConfirmAction } from "~/components/ConfirmAction";
import { apiCall } from "~/lib/api.server";
import { confirmedOf, reasonOf } from "~/lib/confirm.server";
import { formatFen } from "~/lib/format";
import { fieldErrorsOf, refusalStatus, replyOf, requirePermitted } from "~/lib/api-answer.server";
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

/** What a refund's confirmation states (decision 055): whose account, which, how much, and what it holds now. */
interface RefundReview {
  diner: string;
  account: string;
  amount: number;
  balance: number | null;
}

async function refundReview(request: Request, context: Route.ActionArgs["context"], value: { userInfoId: number; accountType: string; amount: number }): Promise<RefundReview> {
  const [diner, accounts] = await Promise.all([
    apiCall<Record<string, unknown>>(request, context, "GET", "/api/v1/zhct/userInfo/getInfo", { query: { id: String(value.userInfoId) } }),
    apiCall<Page>(request, context, "GET", "/api/v1/zhct/userAccount/findPage", { query: { userInfoId: String(value.userInfoId) } }),
  ]);
  const account = accounts.data?.records.find((r) => r.accountType === value.accountType);
  return {
    diner: diner.status === 200 ? optionLabel(DINER_SOURCE, diner.data) : "该人员",
    account: value.accountType === "subsidy" ? "补贴账户" : "现金账户",
    amount: value.amount,
    balance: account ? Number(account.balance) : null,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const kind = params.kind === "refund" ? "refund" : "charge";
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: chargeFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { idempotencyKey, ...body } = submission.value;
  // A refund is confirmed first, in a step stating what it moves; the step sends the form again with its reason.
  const review = kind === "refund" ? await refundReview(request, context, body) : null;
  if (review && !confirmedOf(formData, "refund")) return { ...submission.reply(), review, reasonError: null };
  const reason = reasonOf(formData);
  const result = await apiCall<{ id: number; balance: number }>(request, context, "POST", `/api/v1/zhct/userAccountCharge/${kind === "refund" ? "refund" : "create"}`, {
    body: kind === "refund" ? { ...body, reason } : body,
    headers: { "Idempotency-Key": idempotencyKey },
  });
  if (result.status !== 200) {
    const fieldErrors = fieldErrorsOf(result);
    // No reason: the step stays open, saying so on its field.
    if (fieldErrors?.reason) return data({ ...submission.reply(), review, reasonError: fieldErrors.reason[0] }, { status: 400 });
    // The form's key already moved money with other values (resent after going back): a new form is a new key.
    const message = /Idempotency-Key/.test(result.message) ? "此表单已办理过一笔业务，请重新打开充值或退款页面再办理" : result.message || "Error";
    return data({ ...replyOf(submission, result, message), review: null, reasonError: null }, { status: refusalStatus(result) });
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
  const review = actionData && "review" in actionData ? actionData.review : null;
  const [form, fields] = useForm({
    id: `charge-${kind}`,
    lastResult: actionData,
    defaultValue: { userInfoId: chosen, accountType: "cash", channel: dicts.topUpChannel?.[0]?.value ?? "", idempotencyKey },
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
            {/* How the money came in (a refund: went out): the tenant's channels in use, not the consumption methods. */}
            <NativeSelect {...getSelectProps(fields.channel)} label={kind === "refund" ? "退款渠道" : "充值渠道"} withAsterisk data={dicts.topUpChannel ?? []} error={fields.channel.errors?.[0]} />
            <TextInput {...getInputProps(fields.remark, { type: "text" })} label="备注" error={fields.remark.errors?.[0]} />
            <Group justify="flex-end">
              <Button type="submit" color={kind === "refund" ? "orange" : undefined} leftSection={<IconCheck size={16} />} loading={navigation.state === "submitting"}>
                {kind === "refund" ? "退款" : `确认${title}`}
              </Button>
            </Group>
            {kind === "refund" && (
              <ConfirmAction
                form={form.id}
                review={review}
                name="refund"
                title="退款"
                confirmLabel="确认退款"
                color="orange"
                reasonLabel="退款原因"
                refusal={actionData && "reasonError" in actionData ? { reasonError: actionData.reasonError } : null}
                summary={
                  review && (
                    <>
                      将从 {review.diner} 的{review.account}退回{" "}
                      <Text span fw={700} data-testid="confirm-amount">
                        {formatFen(review.amount)}
                      </Text>{" "}
                      元{review.balance === null ? "" : `（当前余额 ${formatFen(review.balance)} 元）`}。退款后不能撤销。
                    </>
                  )
                }
              />
            )}
          </Stack>
        </Form>
      </Paper>
    </Stack>
  );
}
