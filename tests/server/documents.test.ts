import type { CreateTableBuilder, Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chinaWallClock } from "../../resources/chinaTime";
import type { ResourceDef } from "../../resources/define";
import { documentPath, type DocumentDef } from "../../resources/document";
import { declaredTable } from "../../server/db/declared";
import { newId } from "../../server/db";
import { DEFAULT_TENANT_ID } from "../../server/modules/seed";
import { createTable } from "../../server/db/tables";
import { defineLedger } from "../../server/kernel/ledger";
import type { DocumentRules } from "../../server/kernel/transitions";
import { bumpShellGeneration } from "../../server/modules/auth/shellCache";
import { documentEndpoints } from "../../server/modules/resource/documents";
import { fieldError } from "../../server/http/envelope";
import { serverModules } from "../../server/modules/index";
import type { ServerModule } from "../../server/modules/manifest";
import { adminToken, createTestApp, expectField, loginAs, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createUser, expectNoInternals } from "../helpers/fixtures";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";
import { sampleIssue, sampleReceipt } from "./fixtures/sampleDocuments";

/**
 * Issue 34's proof for documents: two sample documents (a receipt and an issue, tests/server/fixtures) and a sample
 * stock ledger declared here, not in the product, driven through their generated API as a client drives it.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
type Row = Record<string, unknown>;
type Envelope = { status: number; message: string; data: unknown };

const stock = defineLedger({
  name: "documents sample stock",
  balances: { table: "doc_sample_balance", id: "id", opens: true },
  lines: { table: "doc_sample_line", columns: { docType: "doc_type", docId: "doc_id", docLineId: "doc_line_id", operatorId: "operator_id", remark: "remark", reversalOf: "reversal_of" } },
  key: { warehouseId: "warehouse_id", goodsId: "goods_id" },
  quantity: { balance: "quantity", line: "quantity" },
  amount: { balance: "amount", line: "amount" },
  messages: { insufficient: "库存不足", zero: "数量不能为 0" },
});

/** The server side of the samples: a guard on submit, an effect on approve (it notes who approved in the remark). */
const rules: DocumentRules = {
  ledgers: { sampleStock: stock },
  guards: {
    supplierAllowed: (run) => {
      if (run.header.supplier === "停用供应商") throw fieldError("supplier", "该供应商已停用，不能提交");
    },
  },
  effects: {
    noteApproval: async (run, trx) => {
      await trx.updateTable(run.doc.header.table).set({ remark: `已审核：${run.ctx.session.userName}` }).where("tenant_id", "=", run.ctx.session.tenantId).where("id", "=", run.header.id).execute();
    },
  },
};

/** The samples as a module of their own, served beside the product's modules as a module of the product would be. */
const sampleModule: ServerModule = {
  declaration: { name: "sample", resources: [], reports: [], menuGroups: [], screens: [], documents: [sampleReceipt, sampleIssue] },
  services: {},
  endpoints: [],
  documentRules: { [sampleReceipt.docType]: rules, [sampleIssue.docType]: rules },
  ledgers: [stock],
  paymentHooks: [],
};

async function createTables(db: AnyDb) {
  for (const doc of [sampleReceipt, sampleIssue]) {
    const find = (key: string): ResourceDef | undefined => (key === doc.docType ? doc.header : undefined);
    await createTable(db, declaredTable(doc.header, find));
    await createTable(db, declaredTable(doc.lines, find));
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const audit = (t: CreateTableBuilder<string, any>) =>
    t.addColumn("created_at", "bigint").addColumn("created_by", "bigint").addColumn("updated_at", "bigint").addColumn("updated_by", "bigint");
  await audit(
    db.schema
      .createTable("doc_sample_balance")
      .addColumn("tenant_id", "bigint", (c) => c.notNull())
      .addColumn("id", "bigint", (c) => c.notNull())
      .addColumn("warehouse_id", "bigint", (c) => c.notNull())
      .addColumn("goods_id", "bigint", (c) => c.notNull())
      .addColumn("quantity", "bigint", (c) => c.notNull())
      .addColumn("amount", "bigint", (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint("doc_sample_balance_pk", ["tenant_id", "warehouse_id", "goods_id"])
    .execute();
  await audit(
    db.schema
      .createTable("doc_sample_line")
      .addColumn("tenant_id", "bigint", (c) => c.notNull())
      .addColumn("id", "bigint", (c) => c.notNull())
      .addColumn("warehouse_id", "bigint", (c) => c.notNull())
      .addColumn("goods_id", "bigint", (c) => c.notNull())
      .addColumn("quantity", "bigint", (c) => c.notNull())
      .addColumn("amount", "bigint", (c) => c.notNull())
      .addColumn("doc_type", "text")
      .addColumn("doc_id", "bigint")
      .addColumn("doc_line_id", "bigint")
      .addColumn("operator_id", "bigint")
      .addColumn("remark", "text")
      .addColumn("reversal_of", "bigint")
      .addColumn("occurred_at", "bigint", (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint("doc_sample_line_pk", ["tenant_id", "id"])
    .addUniqueConstraint("doc_sample_line_reversal_of", ["tenant_id", "reversal_of"])
    .execute();
}

/** A role in the default tenant with these permission codes (menu buttons under one page), and a user holding it. */
async function userWithCodes(app: TestApp, userName: string, codes: string[]): Promise<string> {
  const db = app.database.db as AnyDb;
  const now = Date.now();
  const audit = { created_at: now, created_by: null, updated_at: now, updated_by: null };
  const subsystem = await db.selectFrom("subsystem").select("id").orderBy("id").executeTakeFirstOrThrow();
  const pageId = newId();
  const menu = (id: number, parent: number | null, type: string, permission: string) => ({
    id, subsystem_id: subsystem.id, parent_id: parent, menu_name: permission, menu_path: parent ? null : "/test/samplereceipt/index",
    menu_icon: null, menu_type: type, menu_target: "other", permission, roles: null, sort: 0, status: 1, remark: null, ...audit,
  });
  const buttons = codes.filter((c) => !c.endsWith(":view")).map((code) => menu(newId(), pageId, "button", code));
  await db.insertInto("menu").values([menu(pageId, null, "page", "test:sampleReceipt:view"), ...buttons]).execute();
  const roleId = newId();
  await db.insertInto("role").values({ tenant_id: DEFAULT_TENANT_ID, id: roleId, role_code: `r${roleId}`, role_name: `单据${roleId}`, role_type: "user", status: 1, remark: null, ...audit }).execute();
  await db.insertInto("role_menu").values([pageId, ...buttons.map((b) => b.id)].map((menu_id) => ({ tenant_id: DEFAULT_TENANT_ID, role_id: roleId, menu_id }))).execute();
  const password = "Clerk-Pass-2026!";
  await createUser(app, { userName, password, roleIds: [roleId] });
  await bumpShellGeneration(db);
  return loginAs(app, userName, password);
}

for (const dialect of dialects) {
  describe(`${dialect}: a declared document through its generated API`, () => {
    let app: TestApp;
    let token: string;
    let other: TenantFixture;
    let db: AnyDb;
    const today = () => chinaWallClock(Date.now()).slice(0, 10).replaceAll("-", "");

    const call = (method: "GET" | "POST", path: string, body?: unknown, as = token, headers?: Record<string, string>) =>
      app.call<unknown>(method, path, { token: as, body, headers });
    const post = async (doc: DocumentDef, action: string, body: unknown, as = token) => (await call("POST", documentPath(doc, action), body, as)).body as Envelope;
    async function ok(doc: DocumentDef, action: string, body: unknown, as = token): Promise<Row> {
      const answer = await post(doc, action, body, as);
      expect(answer, JSON.stringify(answer)).toMatchObject({ status: 200 });
      return answer.data as Row;
    }
    async function detail(doc: DocumentDef, id: unknown, as = token): Promise<Row & { lines: Row[]; history: Row[] }> {
      const answer = (await call("GET", `${documentPath(doc, "getInfo")}?id=${id}`, undefined, as)).body;
      expect(answer.status, JSON.stringify(answer)).toBe(200);
      return answer.data as Row & { lines: Row[]; history: Row[] };
    }
    const line = (goodsId: number, quantity: number, amount = quantity, goodsName = `物品${goodsId}`) => ({ goodsId, goodsName, quantity, amount });
    const header = (body: Row = {}) => ({ warehouseId: 1, supplier: "城东蔬菜", bizDate: "2026-11-28", ...body });
    const create = (doc: DocumentDef, lines: Row[], body: Row = {}, as = token) => ok(doc, "create", { ...header(body), lines }, as);
    const balance = async (warehouseId: number, goodsId: number) => (await stock.compare(db, DEFAULT_TENANT_ID, { warehouseId, goodsId })).balance;
    const ledgerLines = (docId: unknown) => db.selectFrom("doc_sample_line").selectAll().where("doc_id", "=", docId).orderBy("id").execute();
    /** Drives a new document to submitted. */
    async function submitted(doc: DocumentDef, lines: Row[], body: Row = {}) {
      const created = await create(doc, lines, body);
      return ok(doc, "submit", { id: created.id });
    }

    beforeAll(async () => {
      app = await createTestApp(dialect, {}, [...serverModules, sampleModule]);
      db = app.database.db as AnyDb;
      await createTables(db);
      token = await adminToken(app);
      other = await createTenantWithAdmin(app, token, `doc${dialect}`);
    }, 60_000);
    afterAll(async () => {
      await app.close();
    });

    test("create numbers documents by prefix, China day and a sequence per tenant and type, and keeps the lines in order", async () => {
      const first = await create(sampleReceipt, [line(1, 2000), line(2, 3500)]);
      const second = await create(sampleReceipt, [line(1, 1000)]);
      expect(first).toMatchObject({ docNo: `RK${today()}-0001`, status: sampleReceipt.status.draft, version: 1, supplier: "城东蔬菜" });
      expect(second.docNo).toBe(`RK${today()}-0002`);
      expect((first.lines as Row[]).map((l) => [l.lineNo, l.goodsId, l.quantity])).toEqual([[1, 1, 2000], [2, 2, 3500]]);
      // Per tenant and per type: another tenant's first receipt and the first issue start at 0001.
      expect((await create(sampleReceipt, [line(1, 1)], {}, other.token)).docNo).toBe(`RK${today()}-0001`);
      expect((await create(sampleIssue, [line(1, 1)])).docNo).toBe(`CK${today()}-0001`);
      const shown = await detail(sampleReceipt, first.id);
      expect(shown.lines).toHaveLength(2);
      expect(shown.history).toMatchObject([{ action: "create", fromStatus: null, toStatus: "draft", toStatusLabel: "草稿", operatorName: "admin" }]);
      const page = (await call("GET", `${documentPath(sampleReceipt, "findPage")}?status=draft&pageSize=100`)).body;
      expect(page.status).toBe(200);
      const numbers = (page.data as { records: Row[] }).records.map((r) => r.docNo);
      expect(numbers).toEqual(expect.arrayContaining([first.docNo, second.docNo]));
      expect(numbers).toHaveLength(new Set(numbers).size);
      // Created at once, documents still get one number each, one after another.
      const burst = await Promise.all(Array.from({ length: 10 }, () => create(sampleIssue, [line(1, 1)])));
      const sequences = burst.map((d) => Number(String(d.docNo).slice(-4))).sort((x, y) => x - y);
      expect(sequences).toEqual(Array.from({ length: 10 }, (_, i) => i + 2));
    });

    test("a transition's guard may refuse it, and its effect runs in the step's transaction", async () => {
      const blocked = await create(sampleReceipt, [line(71, 1000)], { supplier: "停用供应商", warehouseId: 11 });
      expectField(await post(sampleReceipt, "submit", { id: blocked.id }), "supplier", "该供应商已停用，不能提交");
      expect(await detail(sampleReceipt, blocked.id)).toMatchObject({ status: "draft", version: 1 });
      const doc = await submitted(sampleReceipt, [line(71, 1000)], { warehouseId: 11 });
      await ok(sampleReceipt, "approve", { id: doc.id });
      expect((await detail(sampleReceipt, doc.id)).remark).toBe("已审核：admin");
      // A step refused after its effect ran (the ledger's floor) keeps nothing of the effect either.
      const issue = await submitted(sampleIssue, [line(71, 5000)], { warehouseId: 11 });
      expect(await post(sampleIssue, "approve", { id: issue.id })).toMatchObject({ status: 409, message: "库存不足" });
      expect(await detail(sampleIssue, issue.id)).toMatchObject({ status: "submitted", remark: null });
    });

    test("the contract lists each document endpoint with the permission it needs", async () => {
      const contract = (await app.call("GET", "/api/v1/openapi.json")).body as unknown as { paths: Record<string, Record<string, Row>> };
      expect(contract.paths[documentPath(sampleReceipt, "approve")]?.post).toMatchObject({ "x-permission": "test:sampleReceipt:approve" });
      expect(contract.paths[documentPath(sampleReceipt, "findPage")]?.get).toMatchObject({ "x-permission": "test:sampleReceipt:view" });
      for (const action of ["create", "update", "getInfo", "export", "submit", "reject", "void"]) expect(contract.paths).toHaveProperty([documentPath(sampleIssue, action)]);
    });

    test("a declaration whose guard, effect or ledger the server does not provide stops the start", () => {
      expect(() => documentEndpoints(sampleReceipt, { ledgers: { sampleStock: stock } })).toThrow(/guard supplierAllowed, effect noteApproval/);
      expect(() => documentEndpoints(sampleReceipt, { ...rules, ledgers: {} })).toThrow(/ledger sampleStock/);
    });

    test("update replaces the lines: a line with an id takes the fields given, one without is added, one left out is removed; a stale version is 409", async () => {
      const created = await create(sampleReceipt, [line(1, 1000), line(2, 2000), line(3, 3000)]);
      const [a, b, c] = created.lines as Row[];
      const updated = await ok(sampleReceipt, "update", { id: created.id, version: 1, supplier: "城西粮油", lines: [{ id: b.id, quantity: 2500 }, line(4, 4000)] });
      expect(updated).toMatchObject({ supplier: "城西粮油", version: 2, status: "draft" });
      expect((updated.lines as Row[]).map((l) => [l.id, l.lineNo, l.goodsId, l.goodsName, l.quantity])).toEqual([
        [b.id, 1, 2, "物品2", 2500],
        [expect.any(Number), 2, 4, "物品4", 4000],
      ]);
      const stored = await db.selectFrom(sampleReceipt.lines.table).select("id").where("document_id", "=", created.id).execute();
      expect(stored.map((r: Row) => r.id)).not.toContain(a.id);
      expect(stored.map((r: Row) => r.id)).not.toContain(c.id);
      expect(stored).toHaveLength(2);
      // Header only: the lines stay as they are.
      expect(((await ok(sampleReceipt, "update", { id: created.id, version: 2, remark: "补录" })).lines as Row[]).length).toBe(2);
      const stale = await post(sampleReceipt, "update", { id: created.id, version: 2, supplier: "过期的修改" });
      expect(stale).toMatchObject({ status: 409, message: "数据已被他人修改，请刷新后重试" });
      expect((await detail(sampleReceipt, created.id)).supplier).toBe("城西粮油");
      // A line id of another document is not one of this document's lines.
      const another = await create(sampleReceipt, [line(9, 1)]);
      expectField(await post(sampleReceipt, "update", { id: created.id, version: 3, lines: [{ id: (another.lines as Row[])[0].id, quantity: 1 }] }), "lines.0.id", /不存在/);
    });

    test("hostile input is a 400 in Chinese naming the field, never a 500", async () => {
      const created = await create(sampleReceipt, [line(1, 1)]);
      const cases: Array<[string, unknown, string, RegExp]> = [
        // The sample is not among the product's declarations, so this check (one for every endpoint) names the field by its key.
        ["create", { ...header({ supplier: "a\u0000b" }), lines: [line(1, 1)] }, "supplier", /无法保存的字符/],
        ["create", { ...header(), lines: [{ ...line(1, 1), quantity: 1e30 }] }, "lines.0.quantity", /数量不能大于/],
        ["create", { ...header(), lines: [{ ...line(1, 1), quantity: "abc" }] }, "lines.0.quantity", /数量必须是数字/],
        ["create", { ...header(), lines: [{ ...line(1, 1), amount: 1.5 }] }, "lines.0.amount", /金额/],
        ["create", { ...header(), lines: [] }, "lines", /请至少填写 1 行入库明细/],
        ["create", { ...header(), lines: "many" }, "lines", /入库明细应为列表/],
        ["create", { ...header({ bizDate: "2026-02-30" }), lines: [line(1, 1)] }, "bizDate", /业务日期/],
        ["create", { ...header({ warehouseId: [1] }), lines: [line(1, 1)] }, "warehouseId", /仓库/],
        ["update", { id: created.id, supplier: "无版本" }, "version", /version/],
        ["update", { id: created.id, version: 1, lines: [{ id: "x" }] }, "lines.0.id", /id/],
        ["reject", { id: "1; drop table user" }, "id", /id/],
      ];
      for (const [action, body, field, message] of cases) {
        const answer = await post(sampleReceipt, action, body);
        expectField(answer, field, message);
        expectNoInternals(answer);
      }
      const filter = (await call("GET", `${documentPath(sampleReceipt, "findPage")}?status=paid`)).body;
      expectField(filter, "status", /状态不是可选的值/);
      // A status is moved by transitions only: create and update ignore one given.
      const sneaky = await create(sampleReceipt, [line(1, 1)], { status: "approved", docNo: "RK1", version: 9 });
      expect(sneaky).toMatchObject({ status: "draft", version: 1 });
      expect(sneaky.docNo).toMatch(/^RK\d{8}-\d{4}$/);
    });

    test("submit → reject (reason required) → submit → approve posts → void reverses; the wrong status is a 409 naming it", async () => {
      const created = await create(sampleReceipt, [line(11, 4000, 800), line(12, 6000, 1200)], { warehouseId: 7 });
      const id = created.id;
      expect(await ok(sampleReceipt, "submit", { id })).toMatchObject({ status: "submitted", version: 2 });
      expect(await post(sampleReceipt, "update", { id, version: 2, supplier: "不可修改" })).toMatchObject({ status: 409, message: "当前状态为「已提交」，不能修改" });
      expectField(await post(sampleReceipt, "reject", { id }), "reason", "请输入驳回原因");
      expectField(await post(sampleReceipt, "reject", { id, reason: "   " }), "reason", "请输入驳回原因");
      expect(await ok(sampleReceipt, "reject", { id, reason: "数量与送货单不符" })).toMatchObject({ status: "rejected" });
      // Rejected is editable again.
      await ok(sampleReceipt, "update", { id, version: 3, lines: [line(11, 5000, 1000), line(12, 6000, 1200)] });
      await ok(sampleReceipt, "submit", { id });
      expect(await balance(7, 11)).toBe(0);
      expect(await ok(sampleReceipt, "approve", { id })).toMatchObject({ status: "approved", version: 6 });
      expect(await balance(7, 11)).toBe(5000);
      expect(await balance(7, 12)).toBe(6000);
      const posted = await ledgerLines(id);
      expect(posted.map((l: Row) => [Number(l.goods_id), Number(l.quantity), Number(l.amount), l.doc_type])).toEqual([
        [11, 5000, 1000, "test/sampleReceipt"],
        [12, 6000, 1200, "test/sampleReceipt"],
      ]);
      expect(await stock.check(db)).toEqual([]);
      expect(await post(sampleReceipt, "approve", { id })).toMatchObject({ status: 409, message: "当前状态为「已审核」，不能审核" });
      expect(await post(sampleReceipt, "submit", { id })).toMatchObject({ status: 409, message: "当前状态为「已审核」，不能提交" });
      expect(await post(sampleReceipt, "update", { id, version: 6, remark: "x" })).toMatchObject({ status: 409, message: "当前状态为「已审核」，不能修改" });
      expectField(await post(sampleReceipt, "void", { id }), "reason", "请输入作废原因");
      expect(await ok(sampleReceipt, "void", { id, reason: "供应商退货" })).toMatchObject({ status: "voided" });
      expect(await balance(7, 11)).toBe(0);
      expect(await balance(7, 12)).toBe(0);
      const after = await ledgerLines(id);
      expect(after).toHaveLength(4);
      expect(after.slice(2).map((l: Row) => [Number(l.quantity), l.remark])).toEqual([[-5000, "供应商退货"], [-6000, "供应商退货"]]);
      expect(await stock.check(db)).toEqual([]);
      const shown = await detail(sampleReceipt, id);
      expect(shown.status).toBe("voided");
      expect(shown.history.map((h) => [h.action, h.fromStatus, h.toStatus, h.reason])).toEqual([
        ["create", null, "draft", null],
        ["submit", "draft", "submitted", null],
        ["reject", "submitted", "rejected", "数量与送货单不符"],
        ["submit", "rejected", "submitted", null],
        ["approve", "submitted", "approved", null],
        ["void", "approved", "voided", "供应商退货"],
      ]);
      const logged = await db.selectFrom("operation_log").select(["action", "changes"]).where("entity", "=", "test/sampleReceipt").where("entity_id", "=", id).orderBy("created_at").orderBy("id").execute();
      expect(logged.map((r: Row) => r.action)).toEqual(["create", "submit", "reject", "update", "submit", "approve", "void"]);
      expect(JSON.parse(logged.find((r: Row) => r.action === "reject")?.changes)).toMatchObject({ status: ["submitted", "rejected"], reason: "数量与送货单不符" });
      // A draft voided has posted nothing, and so reverses nothing.
      const draft = await create(sampleReceipt, [line(13, 1000)], { warehouseId: 7 });
      await ok(sampleReceipt, "void", { id: draft.id, reason: "重复录入" });
      expect(await ledgerLines(draft.id)).toEqual([]);
    });

    test("an issue that would take the stock below zero is refused, and nothing of it is written", async () => {
      const receipt = await submitted(sampleReceipt, [line(21, 10_000)], { warehouseId: 8 });
      await ok(sampleReceipt, "approve", { id: receipt.id });
      const tooMuch = await submitted(sampleIssue, [line(21, 4000), line(21, 7000)], { warehouseId: 8 });
      const refused = await post(sampleIssue, "approve", { id: tooMuch.id });
      expect(refused).toMatchObject({ status: 409, message: "库存不足" });
      expect(await balance(8, 21)).toBe(10_000);
      expect(await ledgerLines(tooMuch.id)).toEqual([]);
      const shown = await detail(sampleIssue, tooMuch.id);
      expect(shown).toMatchObject({ status: "submitted", version: 2 });
      expect(shown.history.map((h) => h.action)).toEqual(["create", "submit"]);
      const enough = await submitted(sampleIssue, [line(21, 4000)], { warehouseId: 8 });
      await ok(sampleIssue, "approve", { id: enough.id });
      expect(await balance(8, 21)).toBe(6000);
      expect(await stock.check(db)).toEqual([]);
    });

    test("ten approvals of one document at once post it once", async () => {
      const doc = await submitted(sampleReceipt, [line(31, 1000), line(32, 2000)], { warehouseId: 9 });
      const answers = await Promise.all(Array.from({ length: 10 }, () => post(sampleReceipt, "approve", { id: doc.id })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      const refusals = answers.filter((a) => a.status !== 200);
      expect(refusals).toHaveLength(9);
      for (const refusal of refusals) expect(refusal).toMatchObject({ status: 409, message: expect.stringMatching(/当前状态为「已审核」，不能审核|数据已被他人修改/) });
      expect(await ledgerLines(doc.id)).toHaveLength(2);
      expect(await balance(9, 31)).toBe(1000);
      expect((await detail(sampleReceipt, doc.id)).history.filter((h) => h.action === "approve")).toHaveLength(1);
      expect(await stock.check(db)).toEqual([]);
    });

    test("the same Idempotency-Key twice answers the first answer and posts once", async () => {
      const doc = await submitted(sampleReceipt, [line(41, 3000)], { warehouseId: 10 });
      const key = `approve-${doc.id}`;
      const approve = (body: Row) => call("POST", documentPath(sampleReceipt, "approve"), body, token, { "Idempotency-Key": key });
      const first = await approve({ id: doc.id });
      const again = await approve({ id: doc.id });
      expect(first.body).toMatchObject({ status: 200, data: { status: "approved" } });
      expect(again.body).toEqual(first.body);
      expect(again.headers.get("Idempotent-Replayed")).toBe("true");
      expect(await ledgerLines(doc.id)).toHaveLength(1);
      expect(await balance(10, 41)).toBe(3000);
      // The key names one request: another body with it is refused.
      const otherDoc = await submitted(sampleReceipt, [line(42, 1000)], { warehouseId: 10 });
      expect((await approve({ id: otherDoc.id })).body).toMatchObject({ status: 409, message: expect.stringContaining("Idempotency-Key") });
      expect(await ledgerLines(otherDoc.id)).toEqual([]);
    });

    test("another tenant's documents are not found, and not listed", async () => {
      const mine = await create(sampleReceipt, [line(51, 1)]);
      expect((await call("GET", `${documentPath(sampleReceipt, "getInfo")}?id=${mine.id}`, undefined, other.token)).body).toMatchObject({ status: 404, message: "测试入库单不存在或已被删除" });
      expect(await post(sampleReceipt, "update", { id: mine.id, version: 1, supplier: "越权" }, other.token)).toMatchObject({ status: 404 });
      expect(await post(sampleReceipt, "submit", { id: mine.id }, other.token)).toMatchObject({ status: 404 });
      expect(await post(sampleReceipt, "void", { id: mine.id, reason: "越权" }, other.token)).toMatchObject({ status: 404 });
      const page = (await call("GET", `${documentPath(sampleReceipt, "findPage")}?pageSize=100`, undefined, other.token)).body.data as { records: Row[] };
      expect(page.records.map((r) => r.id)).not.toContain(mine.id);
      expect((await detail(sampleReceipt, mine.id)).status).toBe("draft");
    });

    test("a transition needs its own permission code (module:entity:transition)", async () => {
      const clerk = await userWithCodes(app, `clerk${dialect}`, ["test:sampleReceipt:view", "test:sampleReceipt:create", "test:sampleReceipt:update", "test:sampleReceipt:submit"]);
      const doc = await create(sampleReceipt, [line(61, 1000)], {}, clerk);
      await ok(sampleReceipt, "submit", { id: doc.id }, clerk);
      expect(await post(sampleReceipt, "approve", { id: doc.id }, clerk)).toMatchObject({ status: 403 });
      expect(await post(sampleReceipt, "reject", { id: doc.id, reason: "越权" }, clerk)).toMatchObject({ status: 403 });
      expect((await detail(sampleReceipt, doc.id, clerk)).status).toBe("submitted");
      expect(await ledgerLines(doc.id)).toEqual([]);
      await ok(sampleReceipt, "approve", { id: doc.id });
      expect(await ledgerLines(doc.id)).toHaveLength(1);
    });
  });
}
