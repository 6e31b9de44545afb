import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Textarea, Title } from "@mantine/core";
import { IconArrowLeft, IconCheck, IconX } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { permissionCode } from "../../../resources/define";
import { allowedFrom, resourceTransition, statusColor } from "../../../resources/workflow";
import { mealTicket as def } from "../../../resources/zhct/tickets";
import { z } from "../../../resources/z";
import type { Route } from "./+types/ticket-approve";
import { Permission } from "~/components/shell/Permission";
import { Fact } from "~/components/resource/Fact";
import { apiCall } from "~/lib/api.server";
import { formReply, requirePermitted } from "~/lib/api-answer.server";
import { dictLabel } from "../../../resources/dicts";
import { useDicts } from "~/lib/dicts";
import { formatTime } from "~/lib/format";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";
import { useFocusOnRefusal } from "~/lib/form-focus";

export const APPROVE_CODE = permissionCode(def, "approve");
const LIST_PATH = `${def.screenBase}/${def.screen}/index`;

interface Ticket {
  id: number;
  userInfoIdLabel: string | null;
  ticketType: string;
  ticketCount: number;
  validFrom: string;
  validTo: string | null;
  reason: string;
  applicantName: string | null;
  appliedAt: number;
  approvedStatus: string;
  approverName: string | null;
  approvedAt: number | null;
  approveRemark: string | null;
  usedCount: number;
  usedStatus: string;
}

// 驳回 needs a reason; 审批通过 may carry a remark.
const schema = z
  .object({
    decision: z.enum(["approve", "reject"], { error: "请选择审批通过或驳回" }),
    remark: z.string().trim().max(500, "审批意见不能超过 500 个字符").optional(),
  })
  .refine((v) => v.decision !== "reject" || Boolean(v.remark), { path: ["remark"], message: "请填写驳回理由" });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const result = await apiCall<Ticket>(request, context, "GET", "/api/v1/zhct/mealTicket/getInfo", { query: { id: params.id } });
  requirePermitted(result);
  if (result.status !== 200) throw data(result.message, { status: 404 });
  return { ticket: result.data };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { decision, remark } = submission.value;
  const result = await apiCall(request, context, "POST", `/api/v1/zhct/mealTicket/${decision}`, {
    body: { id: Number(params.id), ...(remark ? { remark } : {}) },
  });
  if (result.status !== 200) return formReply(submission, result, { kept: [403, 409] });
  return redirect(LIST_PATH, { headers: { "Set-Cookie": flashCookie(decision === "approve" ? "餐券已审批通过" : "餐券申请已驳回") } });
}

export function meta() {
  return [{ title: `审批餐券 - ${t.appTitle}` }];
}

/** The statuses' colours and the statuses a decision starts from are the declaration's (decision 070). */
const approveStep = resourceTransition(def, "approve");

export default function TicketApprove({ loaderData, actionData }: Route.ComponentProps) {
  const { ticket } = loaderData;
  const dicts = useDicts();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: actionData,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const focusOnRefusal = useFocusOnRefusal(actionData);
  const pending = approveStep !== undefined && allowedFrom(approveStep, ticket.approvedStatus);
  const busy = navigation.state === "submitting";
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={3}>审批餐券</Title>
        <Button component={Link} to={LIST_PATH} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <Card withBorder radius="md" padding="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Fact label="就餐人员">{ticket.userInfoIdLabel}</Fact>
          <Fact label="餐券类型">{dictLabel(dicts, "ticketType", ticket.ticketType)}</Fact>
          <Fact label="张数">
            {ticket.ticketCount}（已用 {ticket.usedCount}）
          </Fact>
          <Fact label="有效期">
            {ticket.validFrom} 至 {ticket.validTo}
          </Fact>
          <Fact label="申请人">{ticket.applicantName}</Fact>
          <Fact label="申请时间">{formatTime(ticket.appliedAt)}</Fact>
          <Fact label="审批状态">
            <Badge color={statusColor(def.workflow, ticket.approvedStatus)} variant="light" data-testid="ticket-status">
              {dictLabel(dicts, "approvedStatus", ticket.approvedStatus)}
            </Badge>
          </Fact>
          <Fact label="使用状态">{dictLabel(dicts, "usedStatus", ticket.usedStatus)}</Fact>
        </SimpleGrid>
        <Text size="sm" mt="md" c="dimmed">
          申请事由
        </Text>
        <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
          {ticket.reason}
        </Text>
        {!pending && (
          <Alert mt="md" color={statusColor(def.workflow, ticket.approvedStatus)} variant="light" title={`${ticket.approverName ?? ""} · ${formatTime(ticket.approvedAt)}`}>
            {ticket.approveRemark || dictLabel(dicts, "approvedStatus", ticket.approvedStatus)}
          </Alert>
        )}
      </Card>
      {pending && (
        <Permission code={APPROVE_CODE}>
          <Card withBorder radius="md" padding="lg" data-testid="approve-form">
            <Form method="post" {...focusOnRefusal(getFormProps(form))}>
              <Stack>
                {form.errors?.[0] && (
                  <Alert color="red" variant="light" role="alert">
                    {form.errors[0]}
                  </Alert>
                )}
                <Textarea
                  {...getTextareaProps(fields.remark)}
                  label="审批意见"
                  description="驳回时必填"
                  autosize
                  minRows={3}
                  error={fields.remark.errors?.[0]}
                />
                <Group justify="flex-end">
                  <Button type="submit" name="decision" value="reject" color="red" variant="light" leftSection={<IconX size={16} />} disabled={busy}>
                    驳回
                  </Button>
                  <Button type="submit" name="decision" value="approve" leftSection={<IconCheck size={16} />} loading={busy}>
                    审批通过
                  </Button>
                </Group>
              </Stack>
            </Form>
          </Card>
        </Permission>
      )}
    </Stack>
  );
}
