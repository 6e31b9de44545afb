import { expect, test, type Locator, type Page } from "@playwright/test";
import { apiPath, formFields, type FieldDef } from "../resources/define";
import { DOC_NO, transitionsFrom, type DocumentDef, type TransitionDef } from "../resources/document";
import { documents, findResource } from "../resources/index";
import { apiAs } from "./support/api";
import { e2eUsers } from "./support/servers";
import { dateField, expectNoReactErrors, signInTo, untilHydrated } from "./support/shell";

/**
 * The generic document screens (issue 34 item 4, decision 061), driven as a user drives them, on the first document
 * the product declares whose workflow has a step out of its first status, a step back with a reason and a step
 * forward without one (submit, reject, approve). The values come from each field's type, so the journey is the same
 * for every such document.
 */

interface Plan {
  doc: DocumentDef;
  submit: TransitionDef;
  reject: TransitionDef;
  approve: TransitionDef;
}

function planFor(doc: DocumentDef): Plan | null {
  const editable = doc.workflow.editable as readonly string[];
  const submit = transitionsFrom(doc, doc.workflow.initial).find((t) => !t.reasonRequired && !editable.includes(t.to));
  if (!submit) return null;
  const onward = transitionsFrom(doc, submit.to);
  const reject = onward.find((t) => t.reasonRequired && editable.includes(t.to));
  const approve = onward.find((t) => !t.reasonRequired && !editable.includes(t.to));
  return reject && approve ? { doc, submit, reject, approve } : null;
}

const plan = documents.map(planFor).find((p): p is Plan => p !== null);
const admin = e2eUsers.operator;
const today = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screenshots/documents-${name}.png`, fullPage: true });

/** A value of a field's type as a user types it (money in yuan, quantities with decimals). */
function typed(field: FieldDef, n: number): string {
  switch (field.type) {
    case "money":
      return `${12 + n}.50`;
    case "number":
      return String(Math.max(field.min ?? 1, 1) + n);
    case "date":
      return today();
    default:
      if ((field.type as string) === "quantity") return `${1 + n}.25`;
      return `${field.label}${n}`.slice(0, field.max ?? 50);
  }
}

/** Fills a header field through its labelled control. */
async function fillHeader(page: Page, field: FieldDef, n: number) {
  if (field.type === "relation" || field.type === "treeParent") {
    await page.getByRole("textbox", { name: field.label }).click();
    await page.getByRole("listbox", { name: field.label }).getByRole("option").first().click();
  } else if (field.type === "enum") {
    await page.getByRole("combobox", { name: field.label }).selectOption({ index: 1 });
  } else if (field.type === "boolean") {
    await page.getByRole("checkbox", { name: field.label }).check();
  } else if (field.type === "date") {
    await dateField(page, field.label).fill(typed(field, n));
  } else {
    await page.getByRole("textbox", { name: field.label }).fill(typed(field, n));
  }
}

/** Types a line's cells from its first, with the keyboard alone: Tab between cells, Enter after the last. */
async function typeLine(page: Page, fields: FieldDef[], row: number) {
  const grid = page.getByTestId("lines-grid");
  await grid.getByLabel(`第 ${row} 行 ${fields[0].label}`, { exact: true }).focus();
  for (const [i, field] of fields.entries()) {
    const cell = grid.getByLabel(`第 ${row} 行 ${field.label}`, { exact: true });
    await expect(cell).toBeFocused();
    if (field.type === "relation" || field.type === "treeParent") {
      await page.keyboard.press("ArrowDown");
      await expect(page.getByRole("option").first()).toBeVisible();
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
    } else if (field.type === "enum") {
      await page.keyboard.press("ArrowDown");
    } else if (field.type === "date" && i < fields.length - 1) {
      // The browser's date input takes Tab between its own parts (month, day, year): the date is set whole and the
      // next cell taken as Tab past its last part would.
      await cell.fill(typed(field, row));
      await grid.getByLabel(`第 ${row} 行 ${fields[i + 1].label}`, { exact: true }).focus();
      continue;
    } else if (field.type === "date") {
      await cell.fill(typed(field, row));
    } else {
      await page.keyboard.type(typed(field, row));
    }
    await page.keyboard.press(i === fields.length - 1 ? "Enter" : "Tab");
  }
}

async function history(page: Page): Promise<Locator> {
  return page.getByTestId("document-history").locator("tbody tr");
}

/**
 * The rows the document's pickers offer: a related table with no row gets one through its API, its required fields
 * typed as the user would (the journey picks the first option of each picker, whatever the document).
 */
async function relatedRows(api: Awaited<ReturnType<typeof apiAs>>, doc: DocumentDef) {
  const keys = new Set([...formFields(doc.header), ...formFields(doc.lines)].filter((f) => f.type === "relation").map((f) => f.relation as string));
  for (const key of keys) {
    const def = findResource(key);
    if (!def) continue;
    const page = await api.get(`${apiPath(def, "findPage")}?pageNum=1&pageSize=1`);
    if (page.data?.records?.length) continue;
    const fields = formFields(def).filter((f) => f.required && f.type !== "relation" && f.type !== "treeParent");
    const body = Object.fromEntries(fields.map((f, i) => [f.name, f.type === "money" ? 1250 : f.type === "enum" ? "1" : f.type === "number" ? Math.max(f.min ?? 1, 1) : f.pattern ? `E2E${i + 1}` : typed(f, i)]));
    await api.ok(apiPath(def, "create"), body);
  }
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  if (!plan) return;
  const api = await apiAs(request, admin.userName, admin.password);
  await relatedRows(api, plan.doc);
  // A stock-in is a delivery: its supplier's licences must be in force to approve it (decision 076). Whichever supplier
  // the journey picks first holds them (the other journeys give theirs the same).
  if (formFields(plan.doc.header).some((f) => f.relation === "zhhq/supplier")) {
    const suppliers = await api.get("/api/v1/zhhq/supplier/findPage?pageNum=1&pageSize=100");
    for (const { id } of suppliers.data.records as Array<{ id: number }>) {
      for (const qualType of ["1", "2"]) await api.ok("/api/v1/zhhq/supplierQualification/create", { supplierId: id, qualType, qualNo: `DOC-${id}-${qualType}`, validFrom: "2020-01-01" });
    }
  }
});

test("a document is entered in the grid by keyboard, edited, submitted, rejected with a reason, submitted and approved", async ({ page }) => {
  expect(plan, "a declared document with a submit, reject and approve workflow").toBeTruthy();
  test.setTimeout(120_000);
  const { doc, submit, reject, approve } = plan as Plan;
  const base = `${doc.screenBase}/${doc.screen}`;
  const headerFields = formFields(doc.header);
  const lineFields = formFields(doc.lines);

  await signInTo(page, admin, `${base}/index`);
  await shot(page, "list-empty");
  await page.getByRole("link", { name: "新增" }).click();
  await expect(page).toHaveURL(new RegExp(`${base}/create$`));
  await untilHydrated(page);
  await expect(page.getByTestId("lines-grid")).toBeVisible();
  for (const [i, field] of headerFields.entries()) if (field.required || field.type !== "longText") await fillHeader(page, field, i);
  for (const row of [1, 2, 3]) await typeLine(page, lineFields, row);
  await shot(page, "editor-grid");
  await page.getByRole("button", { name: "保存", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${base}/detail/\\d+$`));
  const number = (await page.getByTestId("document-number").textContent()) ?? "";
  expect(number).toMatch(new RegExp(`^${doc.numbering.prefix}\\d{8}-\\d+$`));
  await expect(page.getByTestId("document-lines").locator("tbody tr")).toHaveCount(3);
  await expect(page.getByTestId("document-status")).toHaveText(doc.workflow.statuses[0].label);

  // Edit: the second line's text changes, the third goes.
  await page.getByRole("link", { name: "编辑" }).click();
  await untilHydrated(page);
  const grid = page.getByTestId("lines-grid");
  await expect(grid).toBeVisible();
  const textField = lineFields.find((f) => f.type === "text") ?? lineFields[0];
  await grid.getByLabel(`第 2 行 ${textField.label}`, { exact: true }).fill("改过的第二行");
  await grid.getByRole("button", { name: "删除第 3 行" }).click();
  await shot(page, "editor-edit");
  await page.getByRole("button", { name: "保存", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${base}/detail/\\d+$`));
  await expect(page.getByTestId("document-lines").locator("tbody tr")).toHaveCount(2);
  await expect(page.getByTestId("document-lines")).toContainText("改过的第二行");

  // Submit, reject with a reason (the dialog refuses none), submit again, approve.
  await page.getByRole("button", { name: submit.label, exact: true }).click();
  await expect(page.getByTestId("document-status")).toHaveText(doc.workflow.statuses.find((s) => s.value === submit.to)?.label ?? "");
  await page.getByRole("button", { name: reject.label, exact: true }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await shot(page, "reject-dialog");
  await dialog.getByRole("textbox", { name: `${reject.label}原因` }).fill("数量与送货单不符");
  await dialog.getByRole("button", { name: `确认${reject.label}` }).click();
  await expect(page.getByTestId("document-status")).toHaveText(doc.workflow.statuses.find((s) => s.value === reject.to)?.label ?? "");
  await page.getByRole("button", { name: submit.label, exact: true }).click();
  await expect(page.getByTestId("document-status")).toHaveText(doc.workflow.statuses.find((s) => s.value === submit.to)?.label ?? "");
  await page.getByRole("button", { name: approve.label, exact: true }).click();
  if (approve.confirm) await page.getByRole("dialog").getByRole("button", { name: `确认${approve.label}` }).click();
  await expect(page.getByTestId("document-status")).toHaveText(doc.workflow.statuses.find((s) => s.value === approve.to)?.label ?? "");
  const steps = await history(page);
  await expect(steps).toHaveCount(5);
  await expect(steps.nth(2)).toContainText("数量与送货单不符");
  await expect(page.getByRole("button", { name: approve.label, exact: true })).toHaveCount(0);
  await shot(page, "detail");

  await page.goto(`${base}/print/${page.url().split("/").pop()}`);
  await expect(page.getByTestId("document-print")).toContainText(number);
  await shot(page, "print");
  await page.goto(`${base}/index`);
  await expect(page.getByRole("link", { name: number })).toBeVisible();
  await shot(page, "list");
  expectNoReactErrors(page);
});

test("without JavaScript the editor is a form of blank rows: 增加行 keeps what was typed, a bad cell is named, the save creates the lines", async ({ browser, request }) => {
  expect(plan, "a declared document with a submit, reject and approve workflow").toBeTruthy();
  test.setTimeout(90_000);
  const { doc } = plan as Plan;
  const base = `${doc.screenBase}/${doc.screen}`;
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const api = await apiAs(request, admin.userName, admin.password);
  await context.addCookies([{ name: "Admin-Token", value: api.token, url: test.info().project.use.baseURL as string }]);
  await page.goto(`${base}/create`);
  const table = page.getByTestId("plain-lines");
  await expect(table.locator("tbody tr")).toHaveCount(5);
  const headerFields = formFields(doc.header).filter((f) => f.type !== "relation" && f.type !== "enum" && f.type !== "boolean");
  for (const [i, field] of headerFields.entries()) {
    await (field.type === "date" ? dateField(page, field.label) : page.getByRole("textbox", { name: field.label })).fill(typed(field, i));
  }
  // A header picker is the browser's own select of its first options until scripts run (the stock-in's 仓库).
  for (const field of formFields(doc.header).filter((f) => f.required && (f.type === "relation" || f.type === "treeParent"))) {
    await page.getByRole("combobox", { name: field.label }).selectOption({ index: 1 });
  }
  const lineFields = formFields(doc.lines);
  const fillLine = async (row: number, bad?: string) => {
    for (const field of lineFields) {
      const cell = table.getByLabel(`第 ${row} 行 ${field.label}`, { exact: true });
      if (field.type === "relation" || field.type === "treeParent" || field.type === "enum") await cell.selectOption({ index: 1 }).catch(async () => cell.fill(""));
      else await cell.fill(field.name === bad ? "abc" : typed(field, row));
    }
  };
  await fillLine(1);
  await page.getByRole("button", { name: "增加行" }).click();
  await expect(table.locator("tbody tr")).toHaveCount(10);
  const money = lineFields.find((f) => f.type === "money");
  if (money) await expect(table.getByLabel(`第 1 行 ${money.label}`, { exact: true })).toHaveValue(typed(money, 1));
  await fillLine(7, money?.name);
  await page.screenshot({ path: "test-results/screenshots/documents-noscript.png", fullPage: true });
  await page.getByRole("button", { name: "保存", exact: true }).click();
  if (money) {
    await expect(page.getByText(new RegExp(money.label)).first()).toBeVisible();
    await expect(table.getByLabel(`第 7 行 ${money.label}`, { exact: true })).toHaveAttribute("aria-invalid", "true");
    await table.getByLabel(`第 7 行 ${money.label}`, { exact: true }).fill("3.05");
    await page.getByRole("button", { name: "保存", exact: true }).click();
  }
  await expect(page).toHaveURL(new RegExp(`${base}/detail/\\d+$`));
  await expect(page.getByTestId("document-lines").locator("tbody tr")).toHaveCount(2);
  await context.close();
});

test("a step the user holds no permission for is refused by the server, whatever the page was sent", async ({ request }) => {
  expect(plan, "a declared document with a submit, reject and approve workflow").toBeTruthy();
  const { doc, approve } = plan as Plan;
  const base = `${doc.screenBase}/${doc.screen}`;
  const owner = await apiAs(request, admin.userName, admin.password);
  const list = await owner.get(`/api/v1/${doc.module}/${doc.entity}/findPage?pageSize=10`);
  expect(list.status, JSON.stringify(list)).toBe(200);
  const id = list.data.records[0]?.id;
  expect(id).toBeTruthy();
  // A signed-in user with no role posts the step as the detail page's form would.
  const outsider = await apiAs(request, e2eUsers.noRoles.userName, e2eUsers.noRoles.password);
  // The page's action as the browser's script calls it (single fetch: the action's own status, no page around it).
  const forged = await request.post(`${base}/detail/${id}.data`, {
    headers: { Cookie: `Admin-Token=${outsider.token}`, Origin: test.info().project.use.baseURL as string },
    form: { transition: approve.name, reason: "" },
  });
  expect(forged.status()).toBe(403);
  expect(list.data.records[0][DOC_NO]).toBeTruthy();
});
