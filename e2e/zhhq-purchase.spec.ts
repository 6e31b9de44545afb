import { expect, test, type Browser, type Page } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { expectNoReactErrors, pick, untilHydrated } from "./support/shell";

/*
 * Issue 41's purchasing journey in Chromium: a kitchen's request is entered and approved, an order is entered
 * without prices and takes the supplier's contract prices, half of it is received on the receipt screen (the order
 * becomes 部分到货 and the stock shows it), the rest arrives with one line dearer than its contract (已到货), the
 * price audit lists that line and approves it, and the order is confirmed for payment. The master data and the
 * contract prices are made through the API (e2e/zhhq-master.spec.ts drives their screens).
 */

const { hqManager: buyer } = e2eUsers;
const Z = "/api/v1/zhhq";
const shot = (page: Page, name: string) =>
  page.screenshot({
    path: `test-results/screenshots/zhhq-purchase-${name}.png`,
    fullPage: true,
  });
const day = (days: number) => new Date(Date.now() + 8 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);

const WAREHOUSE = "采购收货仓";
const SUPPLIER = "绿源农产";
const FLOUR = { goodsCode: "PUR-FLOUR", goodsName: "高筋面粉", price: 520 };
const EGGS = { goodsCode: "PUR-EGG", goodsName: "鲜鸡蛋", price: 1100 };

test.describe.configure({ mode: "serial" });

async function signedIn(browser: Browser, user: { userName: string; password: string }, path: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInFresh(page, user.userName, user.password, path);
  return { page, close: () => context.close() };
}

async function pickCell(page: Page, row: number, label: string, option: string | RegExp, typed: string) {
  const cell = page.getByTestId("lines-grid").getByRole("textbox", { name: `第 ${row} 行 ${label}`, exact: true });
  await cell.click();
  await cell.fill(typed);
  await page.getByRole("option", { name: option }).first().click({ timeout: 10_000 });
}

const cell = (page: Page, row: number, label: string) => page.getByTestId("lines-grid").getByLabel(`第 ${row} 行 ${label}`, { exact: true });

/** A step's button on the detail page; a step that asks to be confirmed is confirmed in its dialog. */
async function step(page: Page, label: string, status: string, confirmed = true) {
  await page.getByRole("button", { name: label, exact: true }).click();
  if (confirmed)
    await page
      .getByRole("dialog")
      .getByRole("button", { name: `确认${label}` })
      .click();
  await expect(page.getByTestId("document-status")).toHaveText(status);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("request → approve → order at the contract price → receive half → receive the rest (已到货) → a dearer line is audited and approved → confirmed", async ({ browser, request }) => {
  test.setTimeout(240_000);
  const api = await apiAs(request, buyer.userName, buyer.password);
  const warehouseId = (await api.ok(`${Z}/warehouse/create`, { warehouseName: WAREHOUSE })).id;
  const supplierId = (await api.ok(`${Z}/supplier/create`, { supplierName: SUPPLIER })).id;
  // A receipt is a delivery: it needs the supplier's licences in force (decision 076).
  for (const qualType of ["1", "2"])
    await api.ok(`${Z}/supplierQualification/create`, {
      supplierId,
      qualType,
      qualNo: `MF-${qualType}`,
      validFrom: "2020-01-01",
    });
  for (const g of [FLOUR, EGGS]) {
    const goodsId = (
      await api.ok(`${Z}/goods/create`, {
        goodsCode: g.goodsCode,
        goodsName: g.goodsName,
      })
    ).id;
    await api.ok(`${Z}/supplierGoods/create`, {
      supplierId,
      goodsId,
      price: g.price,
      validFrom: day(-30),
    });
  }

  const { page, close } = await signedIn(browser, buyer, "/zhhq/purchsedemand/create");
  await untilHydrated(page);
  // The request: the warehouse asking, when it is needed, and two goods.
  await pick(page, "申请仓库", WAREHOUSE);
  await pickCell(page, 1, "物资", new RegExp(`^${FLOUR.goodsName}`), FLOUR.goodsName);
  await cell(page, 1, "申请数量").fill("20");
  await pickCell(page, 2, "物资", new RegExp(`^${EGGS.goodsName}`), EGGS.goodsName);
  await cell(page, 2, "申请数量").fill("30");
  await page.getByRole("button", { name: "保存", exact: true }).click();
  await expect(page).toHaveURL(/\/zhhq\/purchsedemand\/detail\/\d+$/);
  await step(page, "提交", "待审核", false);
  // The approver finds it in the audit queue and approves it.
  await page.goto("/zhhq/purchsedemandaudit/index");
  const demandNo = (await page.getByRole("row").nth(1).getByRole("link").first().textContent()) ?? "";
  await page.getByRole("row").nth(1).getByRole("link").first().click();
  await untilHydrated(page);
  await step(page, "审核", "已审核");
  await shot(page, "demand-approved");

  // The order, entered by hand without prices: each line takes the supplier's contract price.
  await page.goto("/zhhq/purchse/create");
  await untilHydrated(page);
  await pick(page, "供应商", SUPPLIER);
  await pick(page, "仓库", WAREHOUSE);
  await pickCell(page, 1, "物资", new RegExp(`^${FLOUR.goodsName}`), FLOUR.goodsName);
  await cell(page, 1, "采购数量").fill("20");
  await pickCell(page, 2, "物资", new RegExp(`^${EGGS.goodsName}`), EGGS.goodsName);
  await cell(page, 2, "采购数量").fill("30");
  await page.getByRole("button", { name: "保存", exact: true }).click();
  await expect(page).toHaveURL(/\/zhhq\/purchse\/detail\/\d+$/);
  const orderId = Number(page.url().split("/").pop());
  const orderNo = (await page.getByTestId("document-number").textContent()) ?? "";
  const lines = page.getByTestId("document-lines");
  await expect(lines.locator("tbody tr").first()).toContainText("5.20");
  await expect(lines.locator("tbody tr").nth(1)).toContainText("11.00");
  // 20 × 5.20 + 30 × 11.00
  await expect(lines.getByTestId("total-amount")).toHaveText("434.00");
  await step(page, "提交", "待审核", false);
  await step(page, "审核", "已审核");
  await shot(page, "order-approved");

  // Half of the flour arrives: the receipt names the order, then its line.
  await page.goto("/zhhq/purchsereceive/create");
  await untilHydrated(page);
  await pick(page, "采购单", orderNo);
  await pickCell(page, 1, "采购明细", new RegExp(`^${escape(FLOUR.goodsName)}（${FLOUR.goodsCode}）· 采购 20 · 已到 0 · 未到 20$`), "面粉");
  await cell(page, 1, "实收数量").fill("10");
  await cell(page, 1, "批次号").fill("FLOUR-A");
  await page.getByRole("button", { name: "保存", exact: true }).click();
  await expect(page).toHaveURL(/\/zhhq\/purchsereceive\/detail\/\d+$/);
  await step(page, "收货", "已收货");
  await shot(page, "receipt-half");
  let order = await api.get(`${Z}/purchse/getInfo?id=${orderId}`);
  expect(order.data.status).toBe("3");
  await page.goto(`/zhhq/purchse/detail/${orderId}`);
  await expect(page.getByTestId("document-status")).toHaveText("部分到货");
  await page.goto(`/zhhq/warehousereal/index?warehouseId=${warehouseId}`);
  await expect(page.getByRole("row").filter({ hasText: FLOUR.goodsName })).toContainText("10");

  // The rest: the other half of the flour, and the eggs at 12.00 (9% above their contract's 11.00).
  await page.goto("/zhhq/purchsereceive/create");
  await untilHydrated(page);
  await pick(page, "采购单", orderNo);
  await pickCell(page, 1, "采购明细", new RegExp(`^${escape(FLOUR.goodsName)}（${FLOUR.goodsCode}）· 采购 20 · 已到 10 · 未到 10$`), "面粉");
  await cell(page, 1, "实收数量").fill("10");
  await pickCell(page, 2, "采购明细", new RegExp(`^${escape(EGGS.goodsName)}`), "鸡蛋");
  await cell(page, 2, "实收数量").fill("30");
  await cell(page, 2, "实收单价（元）").fill("12.00");
  await page.getByRole("button", { name: "保存", exact: true }).click();
  await expect(page).toHaveURL(/\/zhhq\/purchsereceive\/detail\/\d+$/);
  await step(page, "收货", "已收货");
  order = await api.get(`${Z}/purchse/getInfo?id=${orderId}`);
  expect(order.data.status).toBe("4");
  expect(order.data.lines.map((l: { receivedQuantity: number }) => l.receivedQuantity)).toEqual([20, 30]);

  // Confirming now is refused: the eggs' price waits for its audit.
  await page.goto("/zhhq/purchseconfirm/index");
  await page.getByRole("row").filter({ hasText: orderNo }).getByRole("link").first().click();
  await untilHydrated(page);
  await page.getByRole("button", { name: "提交付款", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "确认提交付款" }).click();
  await expect(page.getByRole("dialog").getByText("该采购单有 1 行价格待审核，审核后才能确认")).toBeVisible();
  await expect(page.getByTestId("document-status")).toHaveText("已到货");

  // The price audit lists the dearer line and approves it.
  await page.goto("/zhhq/purchsepriceaudit/index");
  const audit = page.getByRole("row").filter({ hasText: EGGS.goodsName });
  await expect(audit).toContainText("12.00");
  await expect(audit).toContainText("11.00");
  await expect(audit).toContainText("待审核");
  await shot(page, "price-audit");
  await audit.getByRole("link", { name: "通过" }).click();
  await page.getByRole("button", { name: "确认通过" }).click();
  await expect(page.getByRole("row").filter({ hasText: EGGS.goodsName })).toContainText("已通过");

  // Now the order is confirmed for payment, and locked.
  await page.goto(`/zhhq/purchse/detail/${orderId}`);
  await untilHydrated(page);
  await step(page, "提交付款", "已关闭");
  // Locked: no step is offered any more, nor editing.
  for (const name of ["提交付款", "关闭"]) await expect(page.getByRole("button", { name, exact: true })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "编辑", exact: true })).toHaveCount(0);
  await shot(page, "order-confirmed");
  const done = await api.post(`${Z}/purchse/receive`, {
    id: orderId,
    lines: [{ purchseLineId: order.data.lines[0].id, quantity: 1 }],
  });
  expect(done).toMatchObject({
    status: 409,
    message: "采购单当前为「已关闭」，不能收货",
  });
  expect(demandNo).toMatch(/^SQ/);
  expectNoReactErrors(page);
  await close();
});

test("approve a request with changed quantities on its own screen (without scripts), then order it from 按采购申请生成: approved quantities at contract prices, the request not offered twice", async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const api = await apiAs(request, buyer.userName, buyer.password);
  const warehouseId = (await api.ok(`${Z}/warehouse/create`, { warehouseName: "申请下单仓" })).id;
  const supplierId = (await api.ok(`${Z}/supplier/create`, { supplierName: "四季鲜蔬" })).id;
  const goods: number[] = [];
  for (const g of [
    { goodsCode: "DEM-CAB", goodsName: "大白菜", price: 180 },
    { goodsCode: "DEM-TOF", goodsName: "北豆腐", price: 350 },
  ]) {
    const goodsId = (
      await api.ok(`${Z}/goods/create`, {
        goodsCode: g.goodsCode,
        goodsName: g.goodsName,
      })
    ).id;
    await api.ok(`${Z}/supplierGoods/create`, {
      supplierId,
      goodsId,
      price: g.price,
      validFrom: day(-30),
    });
    goods.push(goodsId);
  }
  const demand = await api.ok<{ id: number; docNo: string }>(`${Z}/purchseDemand/create`, {
    warehouseId,
    needDate: day(2),
    lines: [
      { goodsId: goods[0], quantity: 40 },
      { goodsId: goods[1], quantity: 12 },
    ],
  });
  await api.ok(`${Z}/purchseDemand/submit`, { id: demand.id });

  // The approver, on a terminal whose scripts have not loaded: the audit queue's row offers the adjusting screen.
  const plain = await browser.newContext({ javaScriptEnabled: false });
  await plain.addCookies([
    {
      name: "Admin-Token",
      value: api.token,
      url: test.info().project.use.baseURL as string,
    },
  ]);
  const noScript = await plain.newPage();
  await noScript.goto("/zhhq/purchsedemandaudit/index");
  await noScript.getByRole("row").filter({ hasText: demand.docNo }).getByRole("link", { name: "按核定数量审核" }).click();
  await expect(noScript).toHaveURL(new RegExp(`/zhhq/purchsedemand/approveAdjusted/${demand.id}$`));
  const approved = (row: number) => noScript.getByRole("textbox", { name: `第 ${row} 行 核定数量` });
  // Requested beside approved: the approved quantity starts as the requested one.
  await expect(noScript.getByTestId("approve-lines").locator("tbody tr").first()).toContainText("40");
  await expect(approved(1)).toHaveValue("40");
  await approved(1).fill("25");
  await approved(2).fill("-3");
  await noScript.getByRole("textbox", { name: "审核说明" }).fill("白菜库存尚有 15");
  await noScript.getByRole("button", { name: "审核", exact: true }).click();
  // Refused at the line; what was typed stays, and nothing was approved.
  await expect(noScript.getByRole("alert")).toHaveText("请改正标红的核定数量");
  await expect(noScript.getByText(/核定数量.*(不能小于|不能为负|应大于)/).first()).toBeVisible();
  await expect(approved(1)).toHaveValue("25");
  await expect(approved(2)).toHaveValue("-3");
  await expect(noScript.getByRole("textbox", { name: "审核说明" })).toHaveValue("白菜库存尚有 15");
  expect((await api.get(`${Z}/purchseDemand/getInfo?id=${demand.id}`)).data.status).toBe("1");
  await noScript.screenshot({
    path: "test-results/screenshots/zhhq-purchase-approve-adjusted-refused.png",
    fullPage: true,
  });
  await approved(2).fill("12");
  await noScript.getByRole("button", { name: "审核", exact: true }).click();
  await expect(noScript).toHaveURL(new RegExp(`/zhhq/purchsedemand/detail/${demand.id}$`));
  await expect(noScript.getByTestId("document-status")).toHaveText("已审核");
  await expect(noScript.getByTestId("document-history")).toContainText("白菜库存尚有 15");
  const afterApproval = await api.get(`${Z}/purchseDemand/getInfo?id=${demand.id}`);
  expect(afterApproval.data.lines.map((l: { quantity: number; approvedQuantity: number }) => [l.quantity, l.approvedQuantity])).toEqual([
    [40, 25],
    [12, 12],
  ]);
  await plain.close();

  // The buyer builds the order from it: the create screen offers 按采购申请生成.
  const { page, close } = await signedIn(browser, buyer, "/zhhq/purchse/create");
  await untilHydrated(page);
  await page.getByRole("link", { name: "按采购申请生成" }).click();
  await expect(page).toHaveURL(/\/zhhq\/purchse\/fromDemand/);
  await untilHydrated(page);
  await pick(page, "仓库", "申请下单仓");
  await page.getByRole("button", { name: "查询该仓库的申请" }).click();
  await expect(page).toHaveURL(new RegExp(`warehouseId=${warehouseId}`));
  await untilHydrated(page);
  const offered = page.getByTestId("orderable-demands");
  await expect(offered).toContainText(demand.docNo);
  await expect(offered).toContainText("大白菜");
  await pick(page, "供应商", "四季鲜蔬");
  // Nothing ticked: refused above the requests, the choices kept.
  await page.getByRole("button", { name: "生成采购单" }).click();
  await expect(page.getByTestId("demand-error")).toHaveText("请至少填写 1 行采购明细，或选择已审核的采购申请");
  await untilHydrated(page);
  await expect(page.getByRole("textbox", { name: "供应商" })).toHaveValue("四季鲜蔬");
  await page.getByRole("checkbox", { name: new RegExp(demand.docNo) }).check();
  await shot(page, "order-from-demands");
  await page.getByRole("button", { name: "生成采购单" }).click();
  await expect(page).toHaveURL(/\/zhhq\/purchse\/detail\/\d+$/);
  await expect(page.getByTestId("document-status")).toHaveText("草稿");
  const lines = page.getByTestId("document-lines");
  await expect(lines.locator("tbody tr").first()).toContainText("大白菜");
  await expect(lines.locator("tbody tr").first()).toContainText("25");
  await expect(lines.locator("tbody tr").first()).toContainText("1.80");
  await expect(lines.locator("tbody tr").nth(1)).toContainText("3.50");
  // 25 × 1.80 + 12 × 3.50
  await expect(lines.getByTestId("total-amount")).toHaveText("87.00");
  await expect(lines).toContainText(demand.docNo);
  await shot(page, "order-from-demands-made");

  // The request is not offered again.
  await page.goto(`/zhhq/purchse/fromDemand?warehouseId=${warehouseId}`);
  await expect(page.getByText("该仓库没有已审核、尚未下单的采购申请。")).toBeVisible();
  expectNoReactErrors(page);
  await close();
});
