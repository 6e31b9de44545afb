import { Alert, Badge, Button, Card, Group, NativeSelect, NumberInput, Stack, Table, Text, Title } from "@mantine/core";
import { IconArrowLeft, IconCheck, IconToolsKitchen2 } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { mealOrder as def } from "../../../resources/zhct/orders";
import { userInfo } from "../../../resources/zhct/ledger";
import type { Route } from "./+types/order-create";
import { optionLabel, relationSource } from "~/components/resource/relation-search";
import { RelationSelect } from "~/components/resource/RelationSelect";
import { apiCall } from "~/lib/api.server";
import { fieldErrorsOf, refusalStatus, requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { formatFen } from "~/lib/format";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";
import { chinaDay } from "../../../resources/chinaTime";

const BASE = `${def.screenBase}/${def.screen}`;
type Row = Record<string, unknown>;
type Page = { records: Row[] };
interface MenuItem {
  id: number;
  foodId: number;
  foodName: string;
  price: number;
  quota: number | null;
  soldCount: number;
}
interface DayMenu {
  typeName: string;
  mealType: string;
  mealTimeId: number | null;
  items: MenuItem[];
}

/** Not a way to charge from the back office: 自动扣款 is the system's own. */
const AUTO_PAY_FLAG = "500";

/**
 * 新增订单: staff pick a meal time (a plain GET form, so it works before scripts load), then the diner and the
 * dishes of today's published menu with quantities. Prices are never sent: the server prices and charges through
 * the same payment service as the cashier (`mealOrder/place`).
 */

/** The diner picker searches the diners (人员管理). */
const DINER_SOURCE = relationSource(userInfo);

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const url = new URL(request.url);
  const mealTimesId = url.searchParams.get("mealTimesId") ?? "";
  const chosenDiner = url.searchParams.get("userInfoId") ?? "";
  const times = await apiCall<Page>(request, context, "GET", "/api/v1/zhct/mealTimes/findPage", { query: { pageSize: 100, status: 1, sort: "beginTime,asc" } });
  requirePermitted(times);
  const mealTimes = (times.data?.records ?? []).map((r) => ({
    value: String(r.id),
    label: `${String(r.restaurantIdLabel ?? "")} · ${String(r.mealTimeName)}（${String(r.beginTime)}–${String(r.endTime)}）`,
    restaurantId: String(r.restaurantId),
    mealType: String(r.mealType),
  }));
  const chosen = mealTimes.find((m) => m.value === mealTimesId) ?? null;
  let items: Array<MenuItem & { menu: string }> = [];
  const date = chinaDay(Date.now());
  if (chosen) {
    const menus = await apiCall<DayMenu[]>(request, context, "GET", "/api/v1/zhct/foodMenu/findByDate", { query: { date, restaurantId: chosen.restaurantId } });
    // The menus the payment service prices from: tied to this meal time, or of its meal type.
    const mine = (menus.data ?? []).filter((m) => (m.mealTimeId ? String(m.mealTimeId) === chosen.value : m.mealType === chosen.mealType || m.mealType === "all"));
    const seen = new Set<number>();
    items = mine.flatMap((m) => m.items.filter((i) => !seen.has(i.foodId) && seen.add(i.foodId)).map((i) => ({ ...i, menu: m.typeName })));
  }
  const diners = (await apiCall<Page>(request, context, "GET", "/api/v1/zhct/userInfo/findPage", { query: { pageSize: 100 } })).data?.records ?? [];
  const dinerOptions = diners.map((r) => ({ value: String(r.id), label: optionLabel(DINER_SOURCE, r) }));
  if (chosenDiner && !dinerOptions.some((o) => o.value === chosenDiner)) {
    const one = await apiCall<Row>(request, context, "GET", "/api/v1/zhct/userInfo/getInfo", { query: { id: chosenDiner } });
    if (one.status === 200) dinerOptions.unshift({ value: chosenDiner, label: optionLabel(DINER_SOURCE, one.data) });
  }
  // One key per form shown: a second click or a resent form charges once.
  return { date, mealTimes, chosen, items, dinerOptions, chosenDiner, idempotencyKey: crypto.randomUUID() };
}

type ActionData = { error: string | null; fieldErrors: Record<string, string | undefined> };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const fail = (status: number, error: string | null, fieldErrors: ActionData["fieldErrors"] = {}) => data<ActionData>({ error, fieldErrors }, { status });
  const userInfoId = String(form.get("userInfoId") ?? "");
  const mealTimesId = String(form.get("mealTimesId") ?? "");
  if (!/^\d{1,16}$/.test(userInfoId)) return fail(400, null, { userInfoId: "请选择人员" });
  if (!/^\d{1,16}$/.test(mealTimesId)) return fail(400, "请先选择餐次");
  const items: Array<{ foodId: number; quantity: number }> = [];
  for (const [name, value] of form.entries()) {
    const match = /^qty\.(\d{1,16})$/.exec(name);
    const text = String(value).trim();
    if (!match || text === "" || text === "0") continue;
    if (!/^\d{1,4}$/.test(text)) return fail(400, null, { [name]: "数量应为整数" });
    items.push({ foodId: Number(match[1]), quantity: Number(text) });
  }
  if (!items.length) return fail(400, "请至少选择一个菜品并填写数量");
  const payFlag = String(form.get("payFlag") ?? "0");
  const result = await apiCall<{ orderId: number; orderNo: string; amount: number; balance: number }>(request, context, "POST", "/api/v1/zhct/mealOrder/place", {
    body: { userInfoId: Number(userInfoId), mealTimesId: Number(mealTimesId), items, payFlag: Number(payFlag) },
    headers: { "Idempotency-Key": String(form.get("idempotencyKey") ?? crypto.randomUUID()) },
  });
  if (result.status !== 200) {
    const fieldErrors = fieldErrorsOf(result) ?? {};
    const message = /Idempotency-Key/.test(result.message) ? "此表单已下过一单，请重新打开新增订单页面" : result.message || "Error";
    return fail(refusalStatus(result), fieldErrors.userInfoId ? null : message, { userInfoId: fieldErrors.userInfoId?.[0] });
  }
  const done = `下单成功：扣款 ${formatFen(result.data.amount)} 元，余额 ${formatFen(result.data.balance)} 元`;
  return redirect(`${BASE}/detail/${result.data.orderId}`, { headers: { "Set-Cookie": flashCookie(done) } });
}

export function meta() {
  return [{ title: `新增订单 - ${t.appTitle}` }];
}

export default function OrderCreate({ loaderData, actionData }: Route.ComponentProps) {
  const { date, mealTimes, chosen, items, dinerOptions, chosenDiner, idempotencyKey } = loaderData;
  const dicts = useDicts();
  const navigation = useNavigation();
  const payFlags = (dicts.userAccountFlag ?? []).filter((o) => o.value !== AUTO_PAY_FLAG);
  return (
    <Stack gap="md" maw={880}>
      <Group justify="space-between">
        <Title order={3}>新增订单</Title>
        <Button component={Link} to={`${BASE}/index`} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <Card withBorder radius="md" padding="lg">
        <Form method="get">
          <Group align="flex-end">
            <NativeSelect name="mealTimesId" label={`餐次（${date}）`} defaultValue={chosen?.value ?? ""} data={[{ value: "", label: "请选择餐厅与餐次" }, ...mealTimes]} miw={360} />
            {chosenDiner && <input type="hidden" name="userInfoId" value={chosenDiner} />}
            <Button type="submit" variant="light" leftSection={<IconToolsKitchen2 size={16} />}>
              显示今日菜单
            </Button>
          </Group>
        </Form>
      </Card>
      {chosen && (
        <Card withBorder radius="md" padding="lg">
          <Form method="post">
            <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
            <input type="hidden" name="mealTimesId" value={chosen.value} />
            <Stack>
              {actionData?.error && (
                <Alert color="red" variant="light" role="alert">
                  {actionData.error}
                </Alert>
              )}
              <Group grow align="flex-start">
                <RelationSelect name="userInfoId" label="人员" source={DINER_SOURCE} defaultValue={chosenDiner} initialOptions={dinerOptions} required error={actionData?.fieldErrors.userInfoId} />
                <NativeSelect name="payFlag" label="支付方式" defaultValue="0" data={payFlags} />
              </Group>
              {items.length === 0 ? (
                <Alert color="gray" variant="light">
                  该餐次今天没有已发布的菜单。
                </Alert>
              ) : (
                <Table striped withTableBorder data-testid="menu-items">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>菜品</Table.Th>
                      <Table.Th>菜单</Table.Th>
                      <Table.Th ta="right">价格（元）</Table.Th>
                      <Table.Th ta="right">剩余</Table.Th>
                      <Table.Th w={140}>数量</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {items.map((i) => {
                      const left = i.quota === null ? null : Math.max(0, i.quota - i.soldCount);
                      return (
                        <Table.Tr key={i.id}>
                          <Table.Td>{i.foodName}</Table.Td>
                          <Table.Td>{i.menu}</Table.Td>
                          <Table.Td ta="right">{formatFen(i.price)}</Table.Td>
                          <Table.Td ta="right">{left === null ? "不限" : left === 0 ? <Badge color="gray">已售罄</Badge> : left}</Table.Td>
                          <Table.Td>
                            <NumberInput name={`qty.${i.foodId}`} aria-label={`${i.foodName} 数量`} min={0} max={left ?? 999} allowDecimal={false} allowNegative={false} placeholder="0" size="xs" error={actionData?.fieldErrors[`qty.${i.foodId}`]} disabled={left === 0} />
                          </Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              )}
              <Group justify="space-between">
                <Text size="sm" c="dimmed">
                  价格以今日菜单为准，由系统计算并从人员账户扣款（补贴优先，按支付限额）。
                </Text>
                <Button type="submit" leftSection={<IconCheck size={16} />} loading={navigation.state === "submitting"} disabled={items.length === 0}>
                  确认下单并扣款
                </Button>
              </Group>
            </Stack>
          </Form>
        </Card>
      )}
    </Stack>
  );
}
