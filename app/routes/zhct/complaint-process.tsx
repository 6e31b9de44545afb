import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Anchor, Badge, Button, Card, Group, Radio, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from "@mantine/core";
import { IconArrowLeft, IconCheck } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { permissionCode } from "../../../resources/define";
import { allowedFrom, resourceTransition, statusColor } from "../../../resources/workflow";
import { mealOrderComplaints as def } from "../../../resources/zhct/mealOrderComplaints";
import { z } from "../../../resources/z";
import type { Route } from "./+types/complaint-process";
import { ConfirmAction } from "~/components/ConfirmAction";
import { Permission } from "~/components/shell/Permission";
import { apiCall } from "~/lib/api.server";
import { confirmedOf } from "~/lib/confirm.server";
import { refusalStatus, replyOf, requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { formatFen, formatTime } from "~/lib/format";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";
import { useFocusOnRefusal } from "~/lib/form-focus";

export const PROCESS_CODE = permissionCode(def, "process");
const LIST_PATH = `${def.screenBase}/${def.screen}/index`;

interface Complaint {
  id: number;
  orderNo: string;
  orderId: number | null;
  refundAmount: number | null;
  content: string;
  images: string | null;
  status: string;
  complainantName: string | null;
  reply: string | null;
  handlerName: string | null;
  handledAt: number | null;
  revokedAt: number | null;
  createdAt: number;
}

/** The complained-about order (GET …/mealOrderComplaints/order): fen; refundable = paid − refunded. */
interface ComplaintOrder {
  orderId: number;
  orderNo: string;
  orderDate: string;
  orderStatus: string;
  userName: string | null;
  userCode: string | null;
  paidAmount: number;
  refundedAmount: number;
  refundable: number;
}

const schema = z.object({
  result: z.enum(["processed", "rejected"], { error: "请选择处理结果" }),
  reply: z.string({ error: "请填写处理回复" }).trim().min(1, "请填写处理回复").max(1000, "处理回复不能超过 1000 个字符"),
  // Yuan as typed (at most two decimals), sent as fen; empty is no refund.
  refundAmount: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      if (!/^\d{1,7}(\.\d{1,2})?$/.test(v)) {
        ctx.addIssue({ code: "custom", message: "退款金额应为以元为单位的数字，最多两位小数" });
        return z.NEVER;
      }
      const fen = Math.round(Number(v) * 100);
      return fen > 0 ? fen : undefined;
    }),
});

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const result = await apiCall<Complaint>(request, context, "GET", "/api/v1/zhct/mealOrderComplaints/getInfo", { query: { id: params.id } });
  requirePermitted(result);
  if (result.status !== 200) throw data(result.message, { status: 404 });
  const order = await apiCall<ComplaintOrder | null>(request, context, "GET", "/api/v1/zhct/mealOrderComplaints/order", { query: { id: params.id } });
  return { complaint: result.data, order: order.status === 200 ? order.data : null };
}

/** What a complaint's refund would do, for its confirmation (decision 055): how much goes back to whom, from which order. */
interface RefundReview {
  amount: number;
  orderNo: string;
  diner: string;
  refundable: number;
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data({ ...submission.reply(), review: null }, { status: 400 });
  const { refundAmount, result: outcome } = submission.value;
  // Money goes back only when a refund is upheld: that submit is confirmed first, in a step naming the amount and
  // the diner; the reply typed in the form is its reason.
  if (refundAmount && outcome === "processed" && !confirmedOf(formData, "refund")) {
    const order = await apiCall<ComplaintOrder | null>(request, context, "GET", "/api/v1/zhct/mealOrderComplaints/order", { query: { id: params.id } });
    if (order.status === 200 && order.data) {
      const { orderNo, userName, userCode, refundable } = order.data;
      const review: RefundReview = { amount: refundAmount, orderNo, diner: `${userName ?? "该人员"}${userCode ? `（${userCode}）` : ""}`, refundable };
      return { ...submission.reply(), review };
    }
  }
  const result = await apiCall(request, context, "POST", "/api/v1/zhct/mealOrderComplaints/process", {
    body: { id: Number(params.id), ...submission.value },
  });
  if (result.status !== 200) return data({ ...replyOf(submission, result), review: null }, { status: refusalStatus(result) });
  const refunded = submission.value.refundAmount;
  return redirect(LIST_PATH, { headers: { "Set-Cookie": flashCookie(refunded ? `申诉已处理，已退款 ${formatFen(refunded)} 元` : "申诉已处理") } });
}

export function meta() {
  return [{ title: `处理订餐申诉 - ${t.appTitle}` }];
}

/** The statuses' colours and the statuses 处理 starts from are the declaration's (decision 070). */
const processStep = resourceTransition(def, "process");

export default function ComplaintProcess({ loaderData, actionData }: Route.ComponentProps) {
  const { complaint, order } = loaderData;
  // Who complained: as recorded, else the diner of the order (complaints recorded without one).
  const complainant = complaint.complainantName || (order?.userName ? `${order.userName}（${order.userCode ?? ""}）` : "");
  const dicts = useDicts();
  const navigation = useNavigation();
  const review = actionData?.review ?? null;
  const [form, fields] = useForm({
    lastResult: actionData,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const focusOnRefusal = useFocusOnRefusal(actionData);
  const statusLabel = dicts.mealOrderComplaintsProcessStatus?.find((o) => o.value === complaint.status)?.label ?? complaint.status;
  const unprocessed = processStep !== undefined && allowedFrom(processStep, complaint.status);
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={3}>处理订餐申诉</Title>
        <Button component={Link} to={LIST_PATH} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <Card withBorder radius="md" padding="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Text size="sm">
            <Text span c="dimmed">订单号：</Text>
            {complaint.orderId ? (
              <Anchor component={Link} to={`/zhct/mealorder/detail/${complaint.orderId}`} size="sm">
                {complaint.orderNo}
              </Anchor>
            ) : (
              complaint.orderNo
            )}
          </Text>
          <Text size="sm" component="div">
            <Text span c="dimmed">处理状态：</Text>
            <Badge color={statusColor(def.workflow, complaint.status)} variant="light" data-testid="complaint-status">
              {statusLabel}
            </Badge>
          </Text>
          <Text size="sm">
            <Text span c="dimmed">申诉人：</Text>
            <span data-testid="complainant">{complainant}</span>
          </Text>
          <Text size="sm">
            <Text span c="dimmed">申诉时间：</Text>
            {formatTime(complaint.createdAt)}
          </Text>
        </SimpleGrid>
        <Text size="sm" mt="md" c="dimmed">
          申诉内容
        </Text>
        <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
          {complaint.content}
        </Text>
        {order && (
          <Card withBorder radius="sm" padding="sm" mt="md" data-testid="complaint-order">
            <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="xs">
              <Text size="sm">
                <Text span c="dimmed" display="block">订单</Text>
                <Anchor component={Link} to={`/zhct/mealorder/detail/${order.orderId}`} size="sm">
                  {order.orderNo}
                </Anchor>
              </Text>
              <Text size="sm">
                <Text span c="dimmed" display="block">就餐人员</Text>
                {order.userName}
                {order.userCode ? `（${order.userCode}）` : ""}
              </Text>
              <Text size="sm">
                <Text span c="dimmed" display="block">实付</Text>
                {formatFen(order.paidAmount)} 元
              </Text>
              <Text size="sm">
                <Text span c="dimmed" display="block">已退</Text>
                {formatFen(order.refundedAmount)} 元
              </Text>
              <Text size="sm">
                <Text span c="dimmed" display="block">可退</Text>
                <Text span fw={700} data-testid="order-refundable">
                  {formatFen(order.refundable)}
                </Text>{" "}
                元
              </Text>
            </SimpleGrid>
          </Card>
        )}
        {complaint.refundAmount ? (
          <Text size="sm" mt="md">
            <Text span c="dimmed">已退款：</Text>
            {formatFen(complaint.refundAmount)} 元
          </Text>
        ) : null}
        {complaint.reply && (
          <Alert mt="md" color={statusColor(def.workflow, complaint.status)} variant="light" title={`${complaint.handlerName ?? ""} · ${formatTime(complaint.handledAt)}`}>
            {complaint.reply}
          </Alert>
        )}
      </Card>
      {unprocessed && (
        <Permission code={PROCESS_CODE}>
          <Card withBorder radius="md" padding="lg" data-testid="process-form">
            <Form method="post" {...focusOnRefusal(getFormProps(form))}>
              <Stack>
                {form.errors?.[0] && (
                  <Alert color="red" variant="light" role="alert">
                    {form.errors[0]}
                  </Alert>
                )}
                <Radio.Group name={fields.result.name} label="处理结果" withAsterisk error={fields.result.errors?.[0]} defaultValue="processed">
                  <Group mt={6}>
                    <Radio value="processed" label="已处理" />
                    <Radio value="rejected" label="驳回" />
                  </Group>
                </Radio.Group>
                <Textarea {...getTextareaProps(fields.reply)} label="处理回复" withAsterisk autosize minRows={3} error={fields.reply.errors?.[0]} />
                <TextInput
                  name={fields.refundAmount.name}
                  label="退款金额"
                  rightSection="元"
                  inputMode="decimal"
                  placeholder="0.00"
                  description={`申诉属实（已处理）时可退回订单的全部或部分金额（至多可退 ${formatFen(order?.refundable ?? 0)} 元），按原支付账户退回；不填则不退款`}
                  error={fields.refundAmount.errors?.[0]}
                  w={320}
                />
                <Group justify="flex-end">
                  <Button type="submit" leftSection={<IconCheck size={16} />} loading={navigation.state === "submitting"}>
                    提交处理
                  </Button>
                </Group>
              </Stack>
            </Form>
            <ConfirmAction
              form={form.id}
              review={review}
              name="refund"
              title="申诉退款"
              confirmLabel="确认退款"
              color="orange"
              summary={
                review && (
                  <>
                    将退回{" "}
                    <Text span fw={700} data-testid="confirm-amount">
                      {formatFen(review.amount)}
                    </Text>{" "}
                    元到 {review.diner} 的原支付账户（订单 {review.orderNo}，可退 {formatFen(review.refundable)} 元），申诉标记为已处理，处理回复即退款原因。退款后不能撤销。
                  </>
                )
              }
            />
          </Card>
        </Permission>
      )}
    </Stack>
  );
}
