import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Badge, Button, Card, Group, Image, NativeSelect, SimpleGrid, Stack, Table, Text, Textarea, Title } from "@mantine/core";
import { IconArrowLeft, IconCheck } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { dictLabel } from "../../../resources/dicts";
import { permissionCode } from "../../../resources/define";
import { z } from "../../../resources/z";
import { imageDetectLog as def } from "../../../resources/zhct/surveys";
import type { Route } from "./+types/detect-mark";
import { Fact } from "~/components/resource/Fact";
import { Permission } from "~/components/shell/Permission";
import { apiCall } from "~/lib/api.server";
import { formReply, requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { useFocusOnRefusal } from "~/lib/form-focus";
import { formatFen, formatTime } from "~/lib/format";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";

const MARK_CODE = permissionCode(def, "mark");
const LIST_PATH = `${def.screenBase}/${def.screen}/index`;

interface Detail {
  id: number;
  updatedAt: number;
  deviceIdLabel: string | null;
  imageUrl: string;
  orderIdLabel: string | null;
  confidence: number;
  foodCount: number;
  amount: number;
  detectStatus: string;
  detectedAt: number;
  markedBy: string | null;
  markedAt: number | null;
  remark: string | null;
  foods: Array<{ id: number; foodName: string; foodCount: number; price: number; amount: number }>;
}

const schema = z
  .object({
    updatedAt: z.coerce.number().int(),
    detectStatus: z.enum(["1", "2", "3", "4"], { error: "请选择识别状态" }),
    remark: z.string().trim().max(500, "备注不能超过 500 个字符").optional(),
  })
  .refine((v) => v.detectStatus === "1" || Boolean(v.remark), { path: ["remark"], message: "识别状态不是正常时，请在备注中说明" });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const result = await apiCall<Detail>(request, context, "GET", "/api/v1/zhct/imageDetectLog/getDetail", { query: { id: params.id } });
  requirePermitted(result);
  if (result.status !== 200) throw data(result.message, { status: 404 });
  return { log: result.data };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { updatedAt, detectStatus, remark } = submission.value;
  const result = await apiCall(request, context, "POST", "/api/v1/zhct/imageDetectLog/mark", { body: { id: Number(params.id), updatedAt, detectStatus, remark: remark || null } });
  if (result.status !== 200) return formReply(submission, result, { kept: [403, 409] });
  return redirect(LIST_PATH, { headers: { "Set-Cookie": flashCookie("识别状态已标记") } });
}

export function meta() {
  return [{ title: `标记识别状态 - ${t.appTitle}` }];
}

const statusColor: Record<string, string> = { "1": "green", "2": "orange", "3": "yellow", "4": "red" };

export default function DetectMark({ loaderData, actionData }: Route.ComponentProps) {
  const { log } = loaderData;
  const dicts = useDicts();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: `detect-mark-${log.id}-${log.updatedAt}`,
    lastResult: actionData,
    defaultValue: { updatedAt: String(log.updatedAt), detectStatus: log.detectStatus, remark: log.remark ?? "" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const focusOnRefusal = useFocusOnRefusal(actionData);
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={3}>标记识别状态</Title>
        <Button component={Link} to={LIST_PATH} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Card withBorder radius="md" padding="lg">
          <Image src={log.imageUrl} alt="识别图片" radius="sm" fit="contain" mah={360} />
        </Card>
        <Card withBorder radius="md" padding="lg">
          <Stack gap="xs">
            <Fact label="识别设备">{log.deviceIdLabel}</Fact>
            <Fact label="识别时间">{formatTime(log.detectedAt)}</Fact>
            <Fact label="置信度">{(log.confidence / 10).toFixed(1)}%</Fact>
            <Fact label="关联订单">{log.orderIdLabel ?? "—"}</Fact>
            <Fact label="识别状态">
              <Badge color={statusColor[log.detectStatus] ?? "gray"} variant="light" data-testid="detect-status">
                {dictLabel(dicts, "detectStatus", log.detectStatus)}
              </Badge>
            </Fact>
            {log.markedBy && (
              <Fact label="标记">
                {log.markedBy} · {formatTime(log.markedAt)}
              </Fact>
            )}
          </Stack>
          <Table mt="md" striped withTableBorder data-testid="detect-foods">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>菜品</Table.Th>
                <Table.Th ta="right">份数</Table.Th>
                <Table.Th ta="right">单价（元）</Table.Th>
                <Table.Th ta="right">小计（元）</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {log.foods.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={4}>
                    <Text size="sm" c="dimmed" ta="center">
                      未识别到菜品
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {log.foods.map((f) => (
                <Table.Tr key={f.id}>
                  <Table.Td>{f.foodName}</Table.Td>
                  <Table.Td ta="right">{f.foodCount}</Table.Td>
                  <Table.Td ta="right">{formatFen(f.price)}</Table.Td>
                  <Table.Td ta="right">{formatFen(f.amount)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th>合计</Table.Th>
                <Table.Th ta="right">{log.foodCount}</Table.Th>
                <Table.Th />
                <Table.Th ta="right">{formatFen(log.amount)}</Table.Th>
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Card>
      </SimpleGrid>
      <Permission code={MARK_CODE}>
        <Card withBorder radius="md" padding="lg" data-testid="mark-form">
          <Form method="post" {...focusOnRefusal(getFormProps(form))}>
            <Stack>
              {form.errors?.[0] && (
                <Alert color="red" variant="light" role="alert">
                  {form.errors[0]}
                </Alert>
              )}
              <input {...getInputProps(fields.updatedAt, { type: "hidden" })} />
              <NativeSelect {...getSelectProps(fields.detectStatus)} label="识别状态" withAsterisk data={dicts.detectStatus ?? []} error={fields.detectStatus.errors?.[0]} maw={320} />
              <Textarea {...getTextareaProps(fields.remark)} label="备注" description="多识别、少识别或误识别时必填，说明哪里识别错了" autosize minRows={3} rows={3} error={fields.remark.errors?.[0]} />
              <Group justify="flex-end">
                <Button type="submit" leftSection={<IconCheck size={16} />} loading={navigation.state === "submitting"}>
                  保存标记
                </Button>
              </Group>
            </Stack>
          </Form>
        </Card>
      </Permission>
    </Stack>
  );
}
