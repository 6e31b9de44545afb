import { Alert, Avatar, Badge, Button, Grid, Group, Kbd, NativeSelect, Paper, SimpleGrid, Stack, Text, TextInput, Title, UnstyledButton } from "@mantine/core";
import { IconCash, IconCheck, IconRefresh, IconX } from "~/components/icons";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { data, Form, useNavigation, useSubmit } from "react-router";
import { dictLabel } from "../../../resources/dicts";
import { QTY_PREFIX, readSale, saleMessages } from "../../../resources/zhct/cashierForms";
import type { Route } from "./+types/cashier";
import { apiCall } from "~/lib/api.server";
import { refusalStatus, requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { formatFen } from "~/lib/format";
import { t } from "~/lib/messages";
import { request as browserRequest, RequestError } from "~/lib/request";
import { requireUserInfo } from "~/lib/session.server";
import classes from "./cashier.module.css";

type Dish = { foodId: number; foodName: string; unit: string | null; price: number; quota: number | null; soldCount: number; menuName: string };
type MealTime = { id: number; name: string; mealType: string; beginTime: string; endTime: string };
type Counter = {
  date: string;
  clock: string;
  restaurants: Array<{ id: number; name: string }>;
  restaurantId: number | null;
  mealTimes: MealTime[];
  mealTimesId: number;
  openMealTimesId: number | null;
  dishes: Dish[];
  payFlags: Array<{ value: string; label: string }>;
};
type Diner = {
  userInfoId: number;
  userCode: string;
  userName: string;
  deptName: string | null;
  staffType: string | null;
  faceImage: string | null;
  userStatus: string;
  matched: "card" | "code";
  card: { cardNo: string; cardStatus: string } | null;
  cash: number;
  subsidy: number;
  balance: number;
};
type Paid = { orderId: number; orderNo: string; amount: number; balance: number };
/** What the counter keeps for the next try after a refusal: the tray (dishes or amount) and the payment method. */
type Kept = { qty: Record<string, string>; amount: string; payFlag: string };
type Outcome =
  | { outcome: "paid"; resultId: string; diner: Diner; paid: Paid; kept: Kept }
  | { outcome: "refused"; resultId: string; message: string; diner: Diner | null; kept: Kept }
  | { outcome: "identified"; resultId: string; diner: Diner; code: string; kept: Kept };

const PAY = "/api/v1/zhct/cashier/pay";
const DIGIT_KEYS = new Set(["1", "2", "3", "4", "5", "6", "7", "8", "9"]);

/** The restaurant and meal time live in the URL, so a bookmark opens the same counter. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const url = new URL(request.url);
  const query = { restaurantId: url.searchParams.get("restaurantId"), mealTimesId: url.searchParams.get("mealTimesId") };
  let result = await apiCall<Counter>(request, context, "GET", "/api/v1/zhct/cashier/counter", { query });
  requirePermitted(result);
  // A hand-edited URL: the counter as it opens by default.
  if (result.status === 400) result = await apiCall<Counter>(request, context, "GET", "/api/v1/zhct/cashier/counter");
  if (result.status !== 200) throw data(result.message, { status: 500 });
  // One key per sale drawn: a second Enter or a resent form replays the first answer instead of charging again.
  return { counter: result.data, idempotencyKey: crypto.randomUUID() };
}

function keptOf(form: FormData): Kept {
  const qty: Record<string, string> = {};
  for (const [name, value] of form.entries()) if (name.startsWith(QTY_PREFIX) && typeof value === "string" && /^\d{1,2}$/.test(value.trim()) && Number(value) > 0) qty[name.slice(QTY_PREFIX.length)] = value.trim();
  const amount = String(form.get("amount") ?? "").slice(0, 12);
  const payFlag = String(form.get("payFlag") ?? "0").slice(0, 4);
  return { qty, amount, payFlag };
}

/** Looks the code up, then charges through the pay service; every outcome renders on the server. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const kept = keptOf(form);
  const resultId = crypto.randomUUID();
  const read = readSale(form);
  if ("error" in read) return data<Outcome>({ outcome: "refused", resultId, message: read.error, diner: null, kept }, { status: 400 });
  const { sale } = read;
  const found = await apiCall<Diner>(request, context, "GET", "/api/v1/zhct/cashier/lookup", { query: { code: sale.code } });
  requirePermitted(found);
  if (found.status !== 200) return data<Outcome>({ outcome: "refused", resultId, message: found.message, diner: null, kept }, { status: refusalStatus(found) });
  const diner = found.data;
  // Nothing picked yet: show who it is (the page without scripts looks a diner up this way).
  if (!sale.items.length && sale.amount === undefined) return { outcome: "identified", resultId, diner, code: sale.code, kept } satisfies Outcome;
  const body = {
    ...(diner.matched === "card" && diner.card ? { cardNo: diner.card.cardNo } : { userInfoId: diner.userInfoId }),
    ...(sale.items.length ? { items: sale.items } : { amount: sale.amount }),
    ...(sale.mealTimesId ? { mealTimesId: sale.mealTimesId } : {}),
    // The counter's restaurant: a sale by amount has no meal time to name it, and the reports by restaurant need it.
    ...(sale.restaurantId ? { restaurantId: sale.restaurantId } : {}),
    payFlag: Number(sale.payFlag),
  };
  const paid = await apiCall<Paid>(request, context, "POST", PAY, { body, headers: { "Idempotency-Key": sale.idempotencyKey } });
  requirePermitted(paid);
  if (paid.status !== 200) {
    // The form's key already paid another sale (a form resent after going back): a new sale needs a new form.
    const message = /Idempotency-Key/.test(paid.message) ? saleMessages.reused : paid.message || "收款失败";
    return data<Outcome>({ outcome: "refused", resultId, message, diner, kept }, { status: refusalStatus(paid) });
  }
  return { outcome: "paid", resultId, diner, paid: paid.data, kept: { qty: {}, amount: "", payFlag: kept.payFlag } } satisfies Outcome;
}

export function meta() {
  return [{ title: `收银台 - ${t.appTitle}` }];
}

export default function Cashier({ loaderData, actionData }: Route.ComponentProps) {
  const { counter, idempotencyKey } = loaderData;
  const submit = useSubmit();
  const chosenMealTime = counter.mealTimes.find((m) => m.id === counter.mealTimesId);
  return (
    <Stack gap="sm" className={classes.page}>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Title order={3}>收银台</Title>
        {/* Restaurant and meal time: a GET form, so the choice is in the URL; scripts submit it on change. */}
        <Form method="get" className={classes.counterForm}>
          <Group gap="xs" wrap="nowrap" align="flex-end">
            <NativeSelect
              name="restaurantId"
              aria-label="餐厅"
              size="sm"
              defaultValue={String(counter.restaurantId ?? "")}
              data={counter.restaurants.map((r) => ({ value: String(r.id), label: r.name }))}
              onChange={(e) => submit({ restaurantId: e.currentTarget.value }, { method: "get", replace: true })}
            />
            <NativeSelect
              name="mealTimesId"
              aria-label="餐次"
              size="sm"
              w={250}
              defaultValue={String(counter.mealTimesId)}
              data={[
                ...counter.mealTimes.map((m) => ({ value: String(m.id), label: `${m.name} ${m.beginTime}–${m.endTime}${m.id === counter.openMealTimesId ? "（当前）" : ""}` })),
                { value: "0", label: "不限餐次（按金额收款）" },
              ]}
              onChange={(e) => submit({ restaurantId: String(counter.restaurantId ?? ""), mealTimesId: e.currentTarget.value }, { method: "get", replace: true })}
            />
            <Button type="submit" variant="default" size="sm" leftSection={<IconRefresh size={16} />}>
              切换
            </Button>
          </Group>
        </Form>
      </Group>
      {!counter.restaurantId && (
        <Alert color="yellow" variant="light" role="alert">
          没有可收银的餐厅，请先在机构管理中添加餐厅。
        </Alert>
      )}
      {counter.restaurantId && chosenMealTime && counter.mealTimesId !== counter.openMealTimesId && (
        <Alert color="yellow" variant="light" py={6}>
          {counter.clock} 不在「{chosenMealTime.name}」的就餐时间（{chosenMealTime.beginTime}–{chosenMealTime.endTime}）内
        </Alert>
      )}
      {/* A new sale (a new key) or a new result draws the form afresh, with what a refusal keeps. */}
      <SaleForm key={`${idempotencyKey}:${actionData?.resultId ?? ""}`} counter={counter} idempotencyKey={idempotencyKey} result={actionData as Outcome | undefined} />
    </Stack>
  );
}

type Shown = { kind: "diner"; diner: Diner } | { kind: "refused"; message: string; diner: Diner | null } | { kind: "paid"; diner: Diner; paid: Paid } | null;

function shownOf(result: Outcome | undefined): Shown {
  if (!result) return null;
  if (result.outcome === "paid") return { kind: "paid", diner: result.diner, paid: result.paid };
  if (result.outcome === "refused") return { kind: "refused", message: result.message, diner: result.diner };
  return { kind: "diner", diner: result.diner };
}

function totalOf(dishes: Dish[], qty: Record<string, string>) {
  return dishes.reduce((sum, d) => sum + d.price * Number(qty[d.foodId] ?? 0), 0);
}

function SaleForm({ counter, idempotencyKey, result }: { counter: Counter; idempotencyKey: string; result: Outcome | undefined }) {
  const dicts = useDicts();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const formRef = useRef<HTMLFormElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  /** Set by the first submit of this sale: a second Enter before the answer is dropped (the form is drawn anew after). */
  const sent = useRef(false);
  const kept = result?.kept ?? { qty: {}, amount: "", payFlag: "0" };
  const initialCode = result?.outcome === "identified" ? result.code : "";
  const [shown, setShown] = useState<Shown>(shownOf(result));
  /** The code the shown diner was found by: number keys pick dishes while the field still holds it. */
  const [identifiedBy, setIdentifiedBy] = useState(initialCode);
  const [picked, setPicked] = useState<Kept>(kept);
  const dishes = counter.dishes;

  /** The tray as the form holds it (the inputs are the truth, typed before or after the scripts arrived). */
  function readForm() {
    const form = formRef.current;
    if (!form) return;
    setPicked(keptOf(new FormData(form)));
  }
  // Typed before the scripts arrived: the summary follows the inputs.
  useEffect(readForm, []);

  const focusCode = () => codeRef.current?.focus();
  const qtyInput = (foodId: number) => formRef.current?.elements.namedItem(`${QTY_PREFIX}${foodId}`) as HTMLInputElement | null;

  function addDish(dish: Dish) {
    const input = qtyInput(dish.foodId);
    if (!input) return;
    input.value = String(Math.min(99, Number(input.value || 0) + 1));
    readForm();
  }

  function clearAll() {
    const form = formRef.current;
    if (!form) return;
    sent.current = false;
    for (const dish of dishes) {
      const input = qtyInput(dish.foodId);
      if (input) input.value = "";
    }
    (form.elements.namedItem("amount") as HTMLInputElement).value = "";
    if (codeRef.current) codeRef.current.value = "";
    setShown(null);
    setIdentifiedBy("");
    readForm();
    focusCode();
  }

  async function lookUp(code: string) {
    try {
      const diner = await browserRequest<Diner>("GET", "/api/v1/zhct/cashier/lookup", { query: { code }, loading: false, quiet: true });
      setShown({ kind: "diner", diner });
      setIdentifiedBy(code);
    } catch (error) {
      setShown({ kind: "refused", message: error instanceof RequestError ? error.message : String(error), diner: null });
      setIdentifiedBy("");
      if (codeRef.current) codeRef.current.value = "";
    }
    focusCode();
  }

  const somethingPicked = () => {
    const form = formRef.current;
    if (!form) return false;
    const now = keptOf(new FormData(form));
    return Object.keys(now.qty).length > 0 || now.amount.trim() !== "";
  };

  function onCodeKey(event: KeyboardEvent<HTMLInputElement>) {
    const code = event.currentTarget.value.trim();
    if (event.key === "Escape") {
      event.preventDefault();
      clearAll();
      return;
    }
    if (event.key === "Enter") {
      // One sale, one charge: Enter while the sale is on its way does nothing (its key would replay it anyway).
      if (busy || !code) {
        event.preventDefault();
        return;
      }
      // Nothing on the tray yet: show who it is first; the next Enter charges.
      if (!somethingPicked()) {
        event.preventDefault();
        void lookUp(code);
      }
      return;
    }
    if (DIGIT_KEYS.has(event.key) && !event.ctrlKey && !event.altKey && !event.metaKey && identifiedBy && code === identifiedBy) {
      event.preventDefault();
      const dish = dishes[Number(event.key) - 1];
      if (dish) addDish(dish);
    }
  }

  function onAmountKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Escape") {
      event.preventDefault();
      clearAll();
    } else if (event.key === "Enter" && (busy || !codeRef.current?.value.trim())) {
      // An amount typed before the diner: Enter goes back to the field for the card.
      event.preventDefault();
      focusCode();
    }
  }

  const total = Object.keys(picked.qty).length ? totalOf(dishes, picked.qty) : null;
  const amountFen = /^\d{1,7}(\.\d{1,2})?$/.test(picked.amount.trim()) ? Math.round(Number(picked.amount) * 100) : null;
  const lines = dishes.filter((d) => Number(picked.qty[d.foodId] ?? 0) > 0);

  return (
    <Form
      method="post"
      ref={formRef}
      onChange={readForm}
      onSubmit={(event) => {
        if (sent.current) event.preventDefault();
        sent.current = true;
      }}
      className={classes.sale}
      aria-label="收款"
    >
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <input type="hidden" name="restaurantId" value={String(counter.restaurantId ?? "")} />
      <input type="hidden" name="mealTimesId" value={String(counter.mealTimesId)} />
      <Grid gutter="sm">
        <Grid.Col span={7}>
          <Stack gap="sm">
            <Paper withBorder radius="md" p="sm">
              <Group gap="sm" align="flex-end" wrap="nowrap">
                <TextInput
                  ref={codeRef}
                  name="code"
                  label="卡号 / 人员编号"
                  size="lg"
                  className={classes.code}
                  defaultValue={initialCode}
                  placeholder="刷卡、扫码或输入后按回车"
                  autoComplete="off"
                  autoFocus
                  onKeyDown={onCodeKey}
                  onChange={(e) => {
                    if (e.currentTarget.value.trim() !== identifiedBy) setIdentifiedBy("");
                  }}
                />
                <TextInput name="amount" label="金额（元）" size="lg" w={130} inputMode="decimal" placeholder="0.00" autoComplete="off" defaultValue={kept.amount} onKeyDown={onAmountKey} />
                <NativeSelect name="payFlag" label="支付方式" size="lg" w={120} defaultValue={kept.payFlag} data={counter.payFlags} />
              </Group>
              <Group gap="md" mt={6} className={classes.keys}>
                <span><Kbd size="xs">Enter</Kbd> 查询 / 收款</span>
                <span><Kbd size="xs">1</Kbd>–<Kbd size="xs">9</Kbd> 选菜（查到人员后）</span>
                <span><Kbd size="xs">Esc</Kbd> 清空</span>
                <span><Kbd size="xs">Tab</Kbd> 输入金额</span>
              </Group>
            </Paper>
            <Paper withBorder radius="md" p="sm">
              <Group justify="space-between" mb={6}>
                <Text fw={600}>今日菜品</Text>
                <Text size="sm" c="dimmed">
                  {counter.date}
                </Text>
              </Group>
              {dishes.length === 0 ? (
                <Text size="sm" c="dimmed" py="md" ta="center">
                  {counter.mealTimesId ? "该餐次今天没有已发布的菜单，可输入金额收款" : "不限餐次：输入金额收款"}
                </Text>
              ) : (
                <SimpleGrid cols={3} spacing={8} verticalSpacing={8} className={classes.dishes}>
                  {dishes.map((dish, index) => {
                    const qty = Number(picked.qty[dish.foodId] ?? 0);
                    const soldOut = dish.quota !== null && dish.soldCount >= dish.quota;
                    return (
                      <div key={dish.foodId} className={classes.dish} data-picked={qty > 0 || undefined} data-testid="dish">
                        <UnstyledButton
                          type="button"
                          className={classes.dishButton}
                          tabIndex={-1}
                          disabled={soldOut}
                          onClick={() => {
                            addDish(dish);
                            focusCode();
                          }}
                        >
                          <Group gap={6} wrap="nowrap">
                            {index < 9 && (
                              <Kbd size="xs" className={classes.dishKey}>
                                {index + 1}
                              </Kbd>
                            )}
                            <Text size="sm" fw={600} truncate>
                              {dish.foodName}
                            </Text>
                          </Group>
                          <Text size="sm" c={soldOut ? "red" : "dimmed"}>
                            ¥{formatFen(dish.price)}
                            {soldOut ? " 已售罄" : dish.quota !== null ? ` 余 ${dish.quota - dish.soldCount}` : ""}
                          </Text>
                        </UnstyledButton>
                        <input
                          type="number"
                          name={`${QTY_PREFIX}${dish.foodId}`}
                          className={classes.qty}
                          aria-label={`${dish.foodName} 数量`}
                          min={0}
                          max={99}
                          placeholder="0"
                          defaultValue={kept.qty[dish.foodId] ?? ""}
                        />
                      </div>
                    );
                  })}
                </SimpleGrid>
              )}
            </Paper>
            <Group justify="space-between" wrap="nowrap">
              <Button type="button" variant="default" size="md" leftSection={<IconX size={18} />} onClick={clearAll} tabIndex={-1}>
                清空（Esc）
              </Button>
              <Button type="submit" size="md" color="teal" leftSection={<IconCash size={18} />} loading={busy}>
                收款（Enter）
              </Button>
            </Group>
          </Stack>
        </Grid.Col>
        <Grid.Col span={5}>
          <Stack gap="sm">
            <ResultPanel shown={shown} dicts={dicts} />
            <Paper withBorder radius="md" p="sm" data-testid="tray">
              <Group justify="space-between" align="baseline">
                <Text fw={600}>本单</Text>
                <Text fw={700} className={classes.due} data-testid="due">
                  ¥{formatFen(total ?? amountFen ?? 0)}
                </Text>
              </Group>
              {lines.length > 0 && (
                <Stack gap={2} mt={4}>
                  {lines.map((d) => (
                    <Group key={d.foodId} justify="space-between" wrap="nowrap">
                      <Text size="sm" truncate>
                        {d.foodName} × {picked.qty[d.foodId]}
                      </Text>
                      <Text size="sm">¥{formatFen(d.price * Number(picked.qty[d.foodId]))}</Text>
                    </Group>
                  ))}
                </Stack>
              )}
              {!lines.length && amountFen !== null && (
                <Text size="sm" c="dimmed">
                  按金额收款
                </Text>
              )}
              {!lines.length && amountFen === null && (
                <Text size="sm" c="dimmed">
                  尚未选择菜品
                </Text>
              )}
            </Paper>
          </Stack>
        </Grid.Col>
      </Grid>
    </Form>
  );
}

function ResultPanel({ shown, dicts }: { shown: Shown; dicts: ReturnType<typeof useDicts> }) {
  if (!shown) {
    return (
      <Paper withBorder radius="md" p="md" className={classes.result} data-state="idle" data-testid="result">
        <Text c="dimmed" ta="center" size="lg">
          请刷卡或扫码
        </Text>
      </Paper>
    );
  }
  if (shown.kind === "paid") {
    return (
      <Paper radius="md" p="md" className={classes.result} data-state="paid" data-testid="result" role="status" aria-live="polite">
        <Group gap={8}>
          <IconCheck size={28} />
          <Text fw={700} size="xl">
            收款成功 · {shown.diner.userName}
          </Text>
        </Group>
        <Text className={classes.bigAmount} data-testid="paid-amount">
          ¥{formatFen(shown.paid.amount)}
        </Text>
        <Text size="xl" fw={600}>
          余额 <span className={classes.balanceAfter} data-testid="balance-after">¥{formatFen(shown.paid.balance)}</span>
        </Text>
        <Text size="xs">订单号 {shown.paid.orderNo}</Text>
      </Paper>
    );
  }
  if (shown.kind === "refused") {
    return (
      <Paper radius="md" p="md" className={classes.result} data-state="refused" data-testid="result" role="alert">
        <Group gap={8}>
          <IconX size={28} />
          <Text fw={700} size="xl">
            未收款{shown.diner ? ` · ${shown.diner.userName}` : ""}
          </Text>
        </Group>
        <Text className={classes.bigMessage} data-testid="refusal">
          {shown.message}
        </Text>
      </Paper>
    );
  }
  const { diner } = shown;
  const cardStatus = diner.card ? dictLabel(dicts, "cardStatus", diner.card.cardStatus) : "未发卡";
  return (
    <Paper withBorder radius="md" p="md" className={classes.result} data-state="diner" data-testid="result">
      <Group gap="sm" wrap="nowrap">
        <Avatar src={diner.faceImage} alt={diner.userName} size={64} radius="md" color="blue">
          {diner.userName.slice(0, 1)}
        </Avatar>
        <div>
          <Text fw={700} size="xl" data-testid="diner-name">
            {diner.userName}
          </Text>
          <Text size="sm" c="dimmed">
            {diner.userCode}
            {diner.deptName ? ` · ${diner.deptName}` : ""}
            {diner.staffType ? ` · ${diner.staffType}` : ""}
          </Text>
          <Group gap={6} mt={4}>
            <Badge color={diner.card?.cardStatus === "1" ? "teal" : "gray"} variant="light">
              {diner.card ? `卡 ${diner.card.cardNo} ${cardStatus}` : cardStatus}
            </Badge>
            {diner.userStatus !== "1" && (
              <Badge color="red" variant="light">
                {dictLabel(dicts, "userStatus", diner.userStatus)}
              </Badge>
            )}
          </Group>
        </div>
      </Group>
      <SimpleGrid cols={3} spacing="xs" mt="sm">
        <Balance label="现金" fen={diner.cash} testId="cash" />
        <Balance label="补贴" fen={diner.subsidy} testId="subsidy" />
        <Balance label="合计" fen={diner.balance} testId="total" strong />
      </SimpleGrid>
    </Paper>
  );
}

function Balance({ label, fen, testId, strong }: { label: string; fen: number; testId: string; strong?: boolean }) {
  return (
    <div className={classes.balance}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={strong ? 800 : 600} size={strong ? "xl" : "lg"} data-testid={`balance-${testId}`}>
        ¥{formatFen(fen)}
      </Text>
    </div>
  );
}
