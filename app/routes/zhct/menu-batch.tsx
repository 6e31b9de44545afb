import { Alert, Anchor, Badge, Button, Checkbox, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { IconArrowLeft, IconCheck, IconEye } from "~/components/icons";
import { data, Form, Link, useNavigation } from "react-router";
import { foodMenu, foodMenuTypeTemplate, type BatchDay, type BatchResult } from "../../../resources/zhct/menus";
import type { Route } from "./+types/menu-batch";
import { apiCall } from "~/lib/api.server";
import { fieldErrorsOf, refusalStatus, requirePermitted } from "~/lib/api-answer.server";
import { t } from "~/lib/messages";
import { chinaDay } from "../../../resources/chinaTime";

const WEEK = [
  ["2", "星期一"],
  ["3", "星期二"],
  ["4", "星期三"],
  ["5", "星期四"],
  ["6", "星期五"],
  ["7", "星期六"],
  ["1", "星期日"],
] as const;
const WEEK_NAME: Record<number, string> = Object.fromEntries(WEEK.map(([v, l]) => [Number(v), l]));
const DAY = 86_400_000;
const WEEK_VIEW = `${foodMenu.screenBase}/${foodMenu.screen}/index`;

const ACTIONS: Record<BatchDay["action"], { label: string; color: string }> = {
  create: { label: "新建", color: "green" },
  replace: { label: "替换", color: "orange" },
  keep: { label: "保留", color: "gray" },
  holiday: { label: "节假日跳过", color: "red" },
  empty: { label: "无菜品跳过", color: "gray" },
};

/** The template screen applies a template type; the menu screen a menu type (its template by weekday). */
const fromTemplate = (request: Request) => new URL(request.url).pathname.startsWith("/zhct/foodmenuTemplate/");

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const template = fromTemplate(request);
  const info = await apiCall<{ typeName: string; restaurantIdLabel: string | null }>(
    request,
    context,
    "GET",
    template ? `/api/v1/zhct/foodMenuTypeTemplate/getInfo` : `/api/v1/zhct/foodMenuType/getInfo`,
    { query: { id: params.foodMenuTypeId } },
  );
  requirePermitted(info);
  if (info.status !== 200) throw data(info.message, { status: 404 });
  // The coming Monday to Sunday (Beijing).
  const today = Date.parse(chinaDay(Date.now()));
  const monday = today + (((8 - new Date(today).getUTCDay()) % 7) || 7) * DAY;
  const iso = (millis: number) => new Date(millis).toISOString().slice(0, 10);
  return { template, type: info.data, beginDate: iso(monday), endDate: iso(monday + 6 * DAY) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  const values = {
    beginDate: String(form.get("beginDate") ?? ""),
    endDate: String(form.get("endDate") ?? ""),
    weekdays: form.getAll("weekdays").map(String),
    replace: form.get("replace") === "on",
  };
  const dryRun = form.get("intent") !== "confirm";
  const path = fromTemplate(request) ? "/api/v1/zhct/foodMenuTemplate/batchCreate" : "/api/v1/zhct/foodMenu/batchCreate";
  const result = await apiCall<BatchResult | { fieldErrors?: Record<string, string[]> }>(request, context, "POST", path, {
    body: { foodMenuTypeId: params.foodMenuTypeId, ...values, weekdays: values.weekdays.length ? values.weekdays : undefined, dryRun },
  });
  if (result.status !== 200) {
    const fieldErrors = fieldErrorsOf(result) ?? {};
    return data({ values, result: null, error: result.message, fieldErrors }, { status: refusalStatus(result) });
  }
  return { values, result: result.data as BatchResult, error: null, fieldErrors: {} as Record<string, string[]> };
}

export function meta() {
  return [{ title: `批量生成菜单 - ${t.appTitle}` }];
}

export default function MenuBatch({ loaderData, actionData }: Route.ComponentProps) {
  const { template, type } = loaderData;
  const navigation = useNavigation();
  const values = actionData?.values ?? { beginDate: loaderData.beginDate, endDate: loaderData.endDate, weekdays: [] as string[], replace: false };
  const result = actionData?.result ?? null;
  const fieldErrors = actionData?.fieldErrors ?? {};
  const busy = navigation.state === "submitting";
  const back = template ? `${foodMenuTypeTemplate.screenBase}/${foodMenuTypeTemplate.screen}/index` : WEEK_VIEW;
  // A new submission starts from the values the user sees: the key remounts the inputs with them.
  const formKey = JSON.stringify(values);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={3}>{template ? "按模板批量生成菜单" : "批量生成每日菜单"}</Title>
          <Text size="sm" c="dimmed">
            {template ? "模板菜单类型" : "菜单类型"}：{type.typeName}
            {type.restaurantIdLabel ? ` · ${type.restaurantIdLabel}` : ""}
          </Text>
        </div>
        <Button component={Link} to={back} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回
        </Button>
      </Group>
      <Paper withBorder p="lg" radius="md">
        <Form method="post" key={formKey}>
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, sm: 2 }} maw={520}>
              <TextInput type="date" name="beginDate" label="开始日期" withAsterisk defaultValue={values.beginDate} error={fieldErrors.beginDate?.[0]} />
              <TextInput type="date" name="endDate" label="结束日期" withAsterisk defaultValue={values.endDate} error={fieldErrors.endDate?.[0]} />
            </SimpleGrid>
            <div>
              <Text size="sm" fw={500} mb={6}>
                星期（不选则每天）
              </Text>
              <Group gap="md">
                {WEEK.map(([value, label]) => (
                  <Checkbox key={value} name="weekdays" value={value} label={label} defaultChecked={values.weekdays.includes(value)} />
                ))}
              </Group>
            </div>
            <Checkbox name="replace" label="替换已有菜单（已有销售的菜单始终保留）" defaultChecked={values.replace} />
            {actionData?.error && (
              <Alert color="red" variant="light" role="alert">
                {actionData.error}
              </Alert>
            )}
            <Group gap="sm">
              <Button type="submit" name="intent" value="preview" variant="light" leftSection={<IconEye size={16} />} loading={busy}>
                预览
              </Button>
              {result?.dryRun && result.created + result.replaced > 0 && (
                <Button type="submit" name="intent" value="confirm" leftSection={<IconCheck size={16} />} loading={busy}>
                  确认生成
                </Button>
              )}
            </Group>
          </Stack>
        </Form>
      </Paper>
      {result && !result.dryRun && (
        <Alert color="green" variant="light" title="已生成" data-testid="batch-done">
          新建 {result.created} 天，替换 {result.replaced} 天，跳过 {result.skipped} 天。
          <Anchor component={Link} to={`${WEEK_VIEW}?week=${values.beginDate}`} ml="xs" size="sm">
            查看周菜单
          </Anchor>
        </Alert>
      )}
      {result && (
        <Paper withBorder radius="md" data-testid="batch-preview">
          <Group justify="space-between" px="md" py="sm">
            <Text fw={600}>{result.dryRun ? "预览：确认后将按下表生成" : "生成结果"}</Text>
            <Group gap="xs">
              <Badge variant="light" color="green">新建 {result.created}</Badge>
              <Badge variant="light" color="orange">替换 {result.replaced}</Badge>
              <Badge variant="light" color="gray">跳过 {result.skipped}</Badge>
            </Group>
          </Group>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={120}>日期</Table.Th>
                <Table.Th w={90}>星期</Table.Th>
                <Table.Th>菜单类型</Table.Th>
                <Table.Th w={130}>处理</Table.Th>
                <Table.Th w={80} ta="right">菜品数</Table.Th>
                <Table.Th>说明</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.days.map((day) => (
                <Table.Tr key={`${day.date} ${day.foodMenuTypeId}`} data-action={day.action}>
                  <Table.Td>{day.date}</Table.Td>
                  <Table.Td>{WEEK_NAME[day.week]}</Table.Td>
                  <Table.Td>{day.typeName}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={ACTIONS[day.action].color}>
                      {ACTIONS[day.action].label}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">{day.items || "—"}</Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed">
                      {day.note}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
    </Stack>
  );
}
