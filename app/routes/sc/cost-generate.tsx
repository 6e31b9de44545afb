import { Alert, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { IconArrowLeft, IconPlayerPlay } from "~/components/icons";
import { data, Form, Link, useNavigation } from "react-router";
import { placeOnly, scCostExpense as def } from "../../../resources/sc/master";
import type { Route } from "./+types/cost-generate";
import { apiCall } from "~/lib/api.server";
import { fieldErrorsOf, refusalStatus } from "~/lib/api-answer.server";
import { formatCount, formatFen } from "~/lib/format";
import { t } from "~/lib/messages";
import { placeOptions } from "~/lib/places.server";
import { requireUserInfo } from "~/lib/session.server";
import { chinaAddMonths, chinaMonth } from "../../../resources/chinaTime";

const BASE = `${def.screenBase}/${def.screen}`;
type Run = { month: string; rows: number; removed: number; utilities: number; repairs: number };

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  // Last month, China time: the month whose bills and repairs are usually complete.
  return { month: chinaMonth(chinaAddMonths(Date.now(), -1)), places: await placeOptions(request, context, placeOnly.values) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const month = String(form.get("month") ?? "").trim();
  const restaurantId = String(form.get("restaurantId") ?? "");
  const result = await apiCall<Run>(request, context, "POST", "/api/v1/sc/scCostExpense/generate", { body: { month, ...(restaurantId ? { restaurantId } : {}) } });
  if (result.status !== 200) {
    const fieldErrors = fieldErrorsOf(result);
    return data(
      {
        month,
        restaurantId,
        errors: { month: fieldErrors?.month?.[0] ?? null, restaurantId: fieldErrors?.restaurantId?.[0] ?? null },
        formError: fieldErrors ? null : result.message || "取数失败",
        run: null,
      },
      { status: refusalStatus(result) },
    );
  }
  return { month, restaurantId, errors: { month: null, restaurantId: null }, formError: null, run: result.data };
}

export function meta() {
  return [{ title: `取水电与维修 - ${t.appTitle}` }];
}

/** 取水电与维修 (issue 37, decision 084): a month's dormitory utilities and finished repairs' parts become 成本费用 rows. */
export default function CostGenerate({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const run = actionData?.run;
  return (
    <Stack gap="md" maw={760}>
      <Group justify="space-between">
        <Title order={3}>取水电与维修</Title>
        <Button component={Link} to={`${BASE}/index`} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <Paper withBorder radius="md" p="lg">
        <Stack>
          <Text size="sm" c="dimmed">
            该月宿舍水电账单的水费与电费合计记为一行「水电」，记在所选餐厅/商户；该月完成的报修单的配件成本按报修单的餐厅（没有则所选餐厅/商户）各记一行「维修」。重新取数会替换该月此前取来的行，结果相同；已结账的月份不能取数。
          </Text>
          {actionData?.formError && (
            <Alert color="red" variant="light" role="alert">
              {actionData.formError}
            </Alert>
          )}
          {run && (
            <Alert color="green" variant="light" role="status" data-testid="generate-result" title={`${run.month} 已取数`}>
              <SimpleGrid cols={{ base: 2, sm: 4 }}>
                <Text>费用 {formatCount(run.rows)} 行</Text>
                <Text>替换 {formatCount(run.removed)} 行</Text>
                <Text>水电 {formatFen(run.utilities)} 元</Text>
                <Text>维修 {formatFen(run.repairs)} 元</Text>
              </SimpleGrid>
              <Button component={Link} to={`${BASE}/index?month=${run.month}`} variant="subtle" size="compact-sm" mt="xs">
                查看成本费用
              </Button>
            </Alert>
          )}
          <Form method="post">
            <Group align="flex-end" justify="space-between">
              <Group align="flex-start">
                <TextInput
                  name="month"
                  label="月份"
                  description="格式 2026-05"
                  withAsterisk
                  maxLength={7}
                  w={180}
                  defaultValue={actionData?.month ?? loaderData.month}
                  error={actionData?.errors.month ?? undefined}
                />
                <NativeSelect
                  name="restaurantId"
                  label="默认餐厅/商户"
                  description="水电及未指定餐厅的维修记在这里"
                  withAsterisk
                  w={240}
                  data={[{ value: "", label: "请选择" }, ...loaderData.places]}
                  defaultValue={actionData?.restaurantId ?? ""}
                  error={actionData?.errors.restaurantId ?? undefined}
                />
              </Group>
              <Button type="submit" leftSection={<IconPlayerPlay size={16} />} loading={navigation.state === "submitting"}>
                取数
              </Button>
            </Group>
          </Form>
        </Stack>
      </Paper>
    </Stack>
  );
}
