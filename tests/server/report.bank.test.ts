import ExcelJS from "exceljs";
import iconv from "iconv-lite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bankMessages, type BankAnswer } from "../../resources/report/bank";
import { dayOf, dayStart } from "../../server/modules/zhct/months";
import { adminToken, createTestApp, loginAs, ORIGIN, type TestApp } from "../helpers/api";
import { createUser } from "../helpers/fixtures";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
type Envelope<T = unknown> = { status: number; message: string; data: T };

const Z = "/api/v1/zhct";
const B = "/api/v1/report/bankReconcile";

/**
 * Issue 15, decision 034: a statement compared with a known set of online payments and top-ups of a tenant of its
 * own — matched, amount mismatch, bank-only (a reference of ours repeated, one unknown, one of another tenant),
 * ours-only — every figure, on SQLite and PostgreSQL; nothing written; hostile files refused in Chinese.
 */
for (const dialect of dialects) {
  describe(`${dialect}: 银行对账 (decision 034)`, () => {
    let app: TestApp;
    let t: TenantFixture;
    let other: TenantFixture;
    const today = dayOf(Date.now());
    const yesterday = dayOf(dayStart(today) - 86_400_000);
    const ref = { cz1: "", cz2: "", tk: "", order1: "", order2: "", foreign: "" };

    async function ok(path: string, body: Row, as = t.token): Promise<Row> {
      const result = await app.call<unknown>("POST", path, { token: as, body });
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data as Row;
    }
    /** POSTs a multipart form with the statement as `file` (and the period fields). */
    async function post(path: string, file: Uint8Array | string, name = "statement.csv", fields: Record<string, string> = {}, as = t.token) {
      const form = new FormData();
      form.set("file", new Blob([file as BlobPart]), name);
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      return app.api.handle(new Request(`${ORIGIN}${path}`, { method: "POST", headers: { Authorization: `Bearer ${as}` }, body: form }), "127.0.0.1");
    }
    async function compare(file: Uint8Array | string, name?: string, fields?: Record<string, string>, as?: string) {
      const response = await post(`${B}/compare`, file, name, fields, as);
      return { http: response.status, body: (await response.json()) as Envelope };
    }
    async function answerOf(file: Uint8Array | string, name?: string, fields?: Record<string, string>): Promise<BankAnswer> {
      const { body } = await compare(file, name, fields);
      expect(body.status, JSON.stringify(body)).toBe(200);
      return body.data as BankAnswer;
    }
    const statementRows = () => [
      [today, ref.cz1, "100.00"],
      [today, ref.order1, "3.50"],
      [today, ref.order1, "3.5"],
      [today, ref.cz2, "49.90"],
      [today, "BANK-X-001", "1,234.56"],
      [today, ref.foreign, "20"],
      [today, ref.tk.toLowerCase(), "-10.00"],
    ];
    const csv = () => `\uFEFF日期,参考号,金额\r\n${statementRows().map((r) => r.join(",").replace("1,234.56", '"1,234.56"')).join("\r\n")}\r\n`;
    async function counts() {
      const db = app.database.db;
      const n = async (table: "meal_order" | "user_account_charge" | "user_account_ledger" | "operation_log" | "user_account") =>
        Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
      const balances = await db.selectFrom("user_account").select(["id", "balance"]).orderBy("id").execute();
      return { orders: await n("meal_order"), charges: await n("user_account_charge"), ledger: await n("user_account_ledger"), log: await n("operation_log"), accounts: await n("user_account"), balances: JSON.stringify(balances) };
    }

    beforeAll(async () => {
      app = await createTestApp(dialect);
      const superToken = await adminToken(app);
      other = await createTenantWithAdmin(app, superToken, `bko${dialect}`);
      t = await createTenantWithAdmin(app, superToken, `bk${dialect}`);
      const diner = async (code: string, as = t.token) => (await ok(`${Z}/userInfo/create`, { userCode: code, userName: `人员${code}` }, as)).id as number;
      const a = await diner("BK-A");
      const b = await diner("BK-B");
      const charge = async (userInfoId: number, amount: number, payFlag: number, as = t.token) => {
        const { id } = await ok(`${Z}/userAccountCharge/create`, { userInfoId, amount, payFlag, accountType: "cash" }, as);
        return (await app.database.db.selectFrom("user_account_charge").select("charge_no").where("id", "=", id as number).executeTakeFirstOrThrow()).charge_no;
      };
      ref.cz1 = await charge(a, 10000, 100);
      ref.cz2 = await charge(b, 5000, 101);
      await charge(a, 3000, 0); // paid at the counter: not through the bank
      const refund = await ok(`${Z}/userAccountCharge/refund`, { reason: "退回现金", userInfoId: a, amount: 1000, payFlag: 100, accountType: "cash" });
      ref.tk = (await app.database.db.selectFrom("user_account_charge").select("charge_no").where("id", "=", refund.id as number).executeTakeFirstOrThrow()).charge_no;
      ref.order1 = String((await ok(`${Z}/cashier/pay`, { userInfoId: a, amount: 350, payFlag: 100 })).orderNo);
      ref.order2 = String((await ok(`${Z}/cashier/pay`, { userInfoId: b, amount: 800, payFlag: 101 })).orderNo);
      await ok(`${Z}/cashier/pay`, { userInfoId: a, amount: 200, payFlag: 2 }); // 扫码 at the counter: not online
      const foreigner = await diner("BK-O", other.token);
      ref.foreign = await charge(foreigner, 2000, 100, other.token);
    });
    afterAll(async () => {
      await app.close();
    });

    test("every figure: matched, amount mismatch, bank-only (repeat, unknown, another tenant's), ours-only, totals; nothing written", async () => {
      const before = await counts();
      const answer = await answerOf(csv());
      expect(await counts()).toEqual(before);
      expect(answer).toMatchObject({ from: today, to: today, periodFromFile: true });
      expect(answer.matched.map((p) => [p.bank.row, p.bank.reference, p.bank.amount, p.ours.source, p.ours.reference, p.ours.amount])).toEqual([
        [2, ref.cz1, 10000, "topUp", ref.cz1, 10000],
        [3, ref.order1, 350, "order", ref.order1, 350],
        [8, ref.tk.toLowerCase(), -1000, "refund", ref.tk, -1000],
      ]);
      expect(answer.matched[0].ours).toMatchObject({ userName: "人员BK-A", payFlag: 100 });
      expect(answer.mismatched.map((p) => [p.bank.row, p.bank.amount, p.ours.reference, p.ours.amount])).toEqual([[5, 4990, ref.cz2, 5000]]);
      expect(answer.bankOnly.map((b) => [b.row, b.reference, b.amount, b.note])).toEqual([
        [4, ref.order1, 350, "参考号与第 3 行重复"],
        [6, "BANK-X-001", 123456, ""],
        [7, ref.foreign, 2000, ""],
      ]);
      expect(answer.oursOnly.map((o) => [o.source, o.reference, o.amount, o.userName, o.payFlag])).toEqual([["order", ref.order2, 800, "人员BK-B", 101]]);
      expect(answer.totals).toEqual({
        matched: { bankCount: 3, bank: 9350, oursCount: 3, ours: 9350 },
        mismatched: { bankCount: 1, bank: 4990, oursCount: 1, ours: 5000 },
        bankOnly: { bankCount: 3, bank: 125806, oursCount: 0, ours: 0 },
        oursOnly: { bankCount: 0, bank: 0, oursCount: 1, ours: 800 },
        all: { bankCount: 7, bank: 140146, oursCount: 5, ours: 15150 },
      });
      expect(answer.summary).toBe(`对账期间：${today} 至 ${today}（取自对账单日期）；对账单 7 笔 1401.46 元；我方 5 笔 151.50 元`);
    });

    test("the same statement as XLSX (a date cell, a number amount) answers the same; a period given narrows our side", async () => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet("流水");
      sheet.addRow(["交易日期", "商户订单号", "交易金额"]);
      for (const [day, reference, amount] of statementRows()) sheet.addRow([new Date(`${day}T00:00:00Z`), reference, Number(amount.replace(",", ""))]);
      const fromXlsx = await answerOf(new Uint8Array(await workbook.xlsx.writeBuffer()), "statement.xlsx");
      const fromCsv = await answerOf(csv());
      expect({ ...fromXlsx, statement: "", generatedText: "" }).toEqual({ ...fromCsv, statement: "", generatedText: "" });
      // Yesterday had none of ours: every line is the bank's alone.
      const narrowed = await answerOf(csv(), "s.csv", { from: yesterday, to: yesterday });
      expect(narrowed).toMatchObject({ from: yesterday, to: yesterday, periodFromFile: false, matched: [], mismatched: [], oursOnly: [] });
      expect(narrowed.totals.all).toEqual({ bankCount: 7, bank: 140146, oursCount: 0, ours: 0 });
    });

    test("the export is the same comparison: Chinese headers, numbers in yuan, the totals rows; the posted-back statement needs no file", async () => {
      const answer = await answerOf(csv());
      const form = new FormData();
      form.set("statement", answer.statement);
      const response = await app.api.handle(new Request(`${ORIGIN}${B}/export`, { method: "POST", headers: { Authorization: `Bearer ${t.token}` }, body: form }), "127.0.0.1");
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toContain("spreadsheetml");
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(await response.arrayBuffer());
      const rows: unknown[][] = [];
      workbook.worksheets[0].eachRow({ includeEmpty: false }, (row) => rows.push((row.values as unknown[]).slice(1)));
      expect(rows[0][0]).toBe("银行对账");
      expect(rows.find((r) => r[0] === "银行日期")).toEqual(["银行日期", "银行参考号", "银行金额", "我方类型", "我方单号", "我方时间", "人员", "我方金额", "差额", "说明"]);
      const totals = rows.filter((r) => r[0] === "合计").map((r) => [r[2] ?? null, r[7] ?? null, r[8]]);
      expect(totals).toEqual([
        [93.5, 93.5, 0],
        [49.9, 50, -0.1],
        [1258.06, 0, 1258.06],
        [0, 8, -8],
      ]);
      const overall = rows.find((r) => r[0] === "总计") as unknown[];
      expect([overall[2], overall[7], overall[9]]).toEqual([1401.46, 151.5, "银行 7 笔，我方 5 笔"]);
      const mismatch = rows.find((r) => r[1] === ref.cz2) as unknown[];
      expect([mismatch[0], mismatch[2], mismatch[3], mismatch[7]]).toEqual([today, 49.9, "充值", 50]);
      expect(workbook.worksheets[0].getColumn(3).numFmt).toBe("#,##0.00");
    });

    test("a GBK CSV, a tab-separated UTF-16 file and a statement opening with title lines are read", async () => {
      const gbk = iconv.encode(`日期,参考号,金额\r\n${today},${ref.cz1},100.00\r\n`, "gbk");
      expect((await answerOf(new Uint8Array(gbk))).totals.matched).toEqual({ bankCount: 1, bank: 10000, oursCount: 1, ours: 10000 });
      const utf16 = iconv.encode(`\uFEFF交易日期\t交易参考号\t交易金额\n${today.replace(/-/g, "/")}\t${ref.order2}\t8\n`, "utf-16le");
      expect((await answerOf(new Uint8Array(utf16))).totals.matched).toEqual({ bankCount: 1, bank: 800, oursCount: 1, ours: 800 });
      const titled = `某银行对账单\n账号：6222 0000\n\n日期,参考号,金额\n${today},"${ref.cz2}","50.00"\n合计,,50.00\n`;
      expect((await answerOf(titled)).totals.matched).toEqual({ bankCount: 1, bank: 5000, oursCount: 1, ours: 5000 });
    });

    test("hostile files get a Chinese 400 (a 413 past the size) naming the rows, never a 500", async () => {
      const refused = async (file: Uint8Array | string, message: string | RegExp, http = 400, name?: string) => {
        const { http: status, body } = await compare(file, name);
        expect(status, JSON.stringify(body)).toBe(http);
        expect(body.message).toMatch(message);
        return body;
      };
      await refused(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), bankMessages.notTable, 400, "a.png");
      await refused(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), bankMessages.xls, 400, "a.xls");
      await refused(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5]), bankMessages.unreadable, 400, "a.xlsx");
      await refused(new Uint8Array([0x41, 0xff, 0xff, 0x0a, 0x42]), bankMessages.encoding);
      await refused("日期,参考号\n2026-01-01,A1\n", bankMessages.missingColumns(["金额"]));
      await refused("a,b,c\n1,2,3\n", bankMessages.noHeader);
      await refused("日期,参考号,金额\n", bankMessages.empty);
      await refused(`日期,参考号,金额\n${today},"A1,1.00\n`, bankMessages.quote(2));
      const bad = await refused(
        `日期,参考号,金额\n${today},A1,1.234\n2026-02-30,A2,1.00\n${today},,abc\n${today},A4,0\n${today},A5,1.00\n`,
        `对账单有 4 行数据有误，未进行对账：第 2 行：${bankMessages.amountDecimals("1.234")}；第 3 行：${bankMessages.date("2026-02-30")}；第 4 行：${bankMessages.referenceMissing}，${bankMessages.amount("abc")}；第 5 行：${bankMessages.amountZero}`,
      );
      expect((bad.data as { errors: unknown[]; invalid: number }).invalid).toBe(4);
      // Excel stores a 20-digit order no as a number and loses its last digits.
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet("s");
      sheet.addRow(["日期", "参考号", "金额"]);
      sheet.addRow([today, Number("20260101000000001234"), 3.5]);
      sheet.addRow([today, "X1", { formula: "1+1", result: 2 }]);
      await refused(new Uint8Array(await workbook.xlsx.writeBuffer()), bankMessages.formula(3), 400, "s.xlsx");
      sheet.spliceRows(3, 1);
      await refused(new Uint8Array(await workbook.xlsx.writeBuffer()), bankMessages.referenceNumber, 400, "s.xlsx");
      await refused(`日期,参考号,金额\n${"2026-01-01,A,1.00\n".repeat(20_001)}`, bankMessages.tooManyRows);
      await refused(new Uint8Array(5 * 1024 * 1024 + 70 * 1024).fill(0x41), bankMessages.tooLarge, 413);
      await refused("", bankMessages.missing);
      const period = await compare(csv(), "s.csv", { from: "2026-13-01" });
      expect(period.http).toBe(400);
      expect(period.body.message).toMatch(/日期/);
    });

    test("tenant isolation: another tenant compares the same statement against its own records only", async () => {
      const theirs = await compare(csv(), "s.csv", {}, other.token);
      expect(theirs.http).toBe(200);
      const answer = theirs.body.data as BankAnswer;
      expect(answer.matched.map((p) => p.ours.reference)).toEqual([ref.foreign]);
      expect(answer.oursOnly).toEqual([]);
      expect(answer.totals.all).toEqual({ bankCount: 7, bank: 140146, oursCount: 1, ours: 2000 });
    });

    test("permissions: a user without the screen's permissions is refused each endpoint", async () => {
      await createUser(app, { userName: "bank.none", password: "Bank-None-1", roleIds: [] });
      const none = await loginAs(app, "bank.none", "Bank-None-1");
      expect((await app.call("GET", B, { token: none })).http).toBe(403);
      expect((await post(`${B}/compare`, csv(), "s.csv", {}, none)).status).toBe(403);
      expect((await post(`${B}/export`, csv(), "s.csv", {}, none)).status).toBe(403);
      expect((await app.call<{ from: string; to: string }>("GET", `${B}?from=${yesterday}&to=${today}`, { token: t.token })).body.data).toMatchObject({ from: yesterday, to: today });
    });
  });
}
