import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Badge, Button, Card, Group, Image, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { IconArrowLeft, IconCheck, IconTag } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { apiPath, permissionCode } from "../../../resources/define";
import { dictLabel } from "../../../resources/dicts";
import { z } from "../../../resources/z";
import { food } from "../../../resources/zhct/catalogue";
import { allowedFrom, resourceTransition, statusColor } from "../../../resources/workflow";
import { imageLibrary as def } from "../../../resources/zhct/surveys";
import type { Route } from "./+types/image-confirm";
import { relationSource } from "~/components/resource/relation-search";
import { RelationSelect } from "~/components/resource/RelationSelect";
import { Fact } from "~/components/resource/Fact";
import { Permission } from "~/components/shell/Permission";
import { apiCall } from "~/lib/api.server";
import { formReply, requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { useFocusOnRefusal } from "~/lib/form-focus";
import { formatTime } from "~/lib/format";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";

const confirmStep = resourceTransition(def, "confirm");

const CONFIRM_CODE = permissionCode(def, "confirm");
const LIST_PATH = `${def.screenBase}/${def.screen}/index`;

interface Picture {
  id: number;
  imageUrl: string;
  foodId: number;
  foodIdLabel: string | null;
  cutImageSource: string;
  cutImageStatus: string;
  detectLogIdLabel: string | null;
  orderIdLabel: string | null;
  originalFoodIdLabel: string | null;
  confirmedBy: string | null;
  confirmedAt: number | null;
  createdAt: number;
}

// 确认 keeps the label; 改标 sends the food chosen, which must differ from the label it has.
const schema = z.object({
  decision: z.enum(["confirm", "relabel"], { error: "请选择确认或改标" }),
  foodId: z.coerce.number({ error: "请选择菜品标签" }).int().positive("请选择菜品标签").optional(),
});


/** The label picker searches the dishes (菜品管理). */
const FOOD_SOURCE = relationSource(food);

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const result = await apiCall<Picture>(request, context, "GET", apiPath(def, "getInfo"), { query: { id: params.id } });
  requirePermitted(result);
  if (result.status !== 200) throw data(result.message, { status: 404 });
  const foods = await apiCall<{ records: Array<{ id: number; foodName: string }> }>(request, context, "GET", apiPath(food, "findPage"), { query: { pageSize: 100 } });
  const options = (foods.data?.records ?? []).map((f) => ({ value: String(f.id), label: f.foodName }));
  const picture = result.data;
  if (!options.some((o) => o.value === String(picture.foodId))) options.unshift({ value: String(picture.foodId), label: picture.foodIdLabel ?? String(picture.foodId) });
  return { picture, options };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { decision, foodId } = submission.value;
  if (decision === "relabel" && !foodId) return data(submission.reply({ fieldErrors: { foodId: ["请选择新的菜品标签"] } }), { status: 400 });
  const result = await apiCall(request, context, "POST", apiPath(def, "confirm"), { body: { id: Number(params.id), ...(decision === "relabel" ? { foodId } : {}) } });
  if (result.status !== 200) return formReply(submission, result, { kept: [403, 409] });
  return redirect(LIST_PATH, { headers: { "Set-Cookie": flashCookie(decision === "relabel" ? "已改标并添加到图片库" : "已确认添加到图片库") } });
}

export function meta() {
  return [{ title: `确认切图 - ${t.appTitle}` }];
}

export default function ImageConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const { picture, options } = loaderData;
  const dicts = useDicts();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: `image-confirm-${picture.id}`,
    lastResult: actionData,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const focusOnRefusal = useFocusOnRefusal(actionData);
  // The statuses 确认 starts from and their colours are the declaration's (decision 070).
  const pending = confirmStep !== undefined && allowedFrom(confirmStep, picture.cutImageStatus);
  const busy = navigation.state === "submitting";
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={3}>确认切图</Title>
        <Button component={Link} to={LIST_PATH} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Card withBorder radius="md" padding="lg">
          <Image src={picture.imageUrl} alt="切图" radius="sm" fit="contain" mah={320} />
        </Card>
        <Card withBorder radius="md" padding="lg">
          <Stack gap="xs">
            <Fact label="菜品标签">
              <Text span fw={600} data-testid="picture-label">
                {picture.foodIdLabel}
              </Text>
            </Fact>
            {picture.originalFoodIdLabel && <Fact label="原标签">{picture.originalFoodIdLabel}</Fact>}
            <Fact label="切图来源">{dictLabel(dicts, "cutImageSource", picture.cutImageSource)}</Fact>
            {picture.detectLogIdLabel && <Fact label="识别记录">{picture.detectLogIdLabel}</Fact>}
            {picture.orderIdLabel && <Fact label="订单">{picture.orderIdLabel}</Fact>}
            <Fact label="加入时间">{formatTime(picture.createdAt)}</Fact>
            <Fact label="切图状态">
              <Badge color={statusColor(def.workflow, picture.cutImageStatus)} variant="light" data-testid="picture-status">
                {dictLabel(dicts, "cutImageStatus", picture.cutImageStatus)}
              </Badge>
            </Fact>
            {picture.confirmedBy && (
              <Fact label="确认">
                {picture.confirmedBy} · {formatTime(picture.confirmedAt)}
              </Fact>
            )}
          </Stack>
          {pending && (
            <Permission code={CONFIRM_CODE}>
              <Form method="post" {...focusOnRefusal(getFormProps(form))} data-testid="confirm-form">
                <Stack mt="lg">
                  {form.errors?.[0] && (
                    <Alert color="red" variant="light" role="alert">
                      {form.errors[0]}
                    </Alert>
                  )}
                  <Text size="sm" c="dimmed">
                    标签正确请直接确认；标签有误请选择正确的菜品后改标，原标签会留作记录。
                  </Text>
                  <RelationSelect name={fields.foodId.name} label="菜品标签" source={FOOD_SOURCE} defaultValue={String(picture.foodId)} initialOptions={options} required error={fields.foodId.errors?.[0]} />
                  <Group justify="flex-end">
                    <Button type="submit" name="decision" value="relabel" variant="light" leftSection={<IconTag size={16} />} disabled={busy}>
                      改标并添加
                    </Button>
                    <Button type="submit" name="decision" value="confirm" leftSection={<IconCheck size={16} />} loading={busy}>
                      确认添加
                    </Button>
                  </Group>
                </Stack>
              </Form>
            </Permission>
          )}
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
