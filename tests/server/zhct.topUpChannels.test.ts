import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as channels from "../../server/db/migrations/0059_top_up_channels";
import { DEFAULT_TENANT_ID } from "../../server/modules/seed";
import { adminToken, createTestApp, expectField, ORIGIN, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

/**
 * Issue 38, decision 064: a top-up's channel (现金, 银行卡/POS, 微信, 支付宝, 银行转账, 其他 and what a tenant adds), not
 * the consumption methods of userAccountFlag; clients that send only payFlag keep working.
 */

type Row = Record<string, unknown>;
type Page = { records: Row[]; total: number };

const Z = "/api/v1/zhct";
const R = "/api/v1/report";
const SIX = [
  ["cash", "现金"],
  ["pos", "银行卡/POS"],
  ["wechat", "微信"],
  ["alipay", "支付宝"],
  ["transfer", "银行转账"],
  ["other", "其他"],
];

for (const dialect of dialects) {
  describe(`${dialect}: top-up channels`, () => {
    let app: TestApp;
    let token: string;
    let other: TenantFixture;
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;

    const get = async (path: string, query: Row = {}, as = token) =>
      (await app.call<unknown>("GET", `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { token: as })).body;
    const post = (path: string, body: unknown, as = token) => app.call<unknown>("POST", path, { token: as, body });
    async function ok(path: string, body: Row, as = token): Promise<Row> {
      const result = await post(path, body, as);
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data as Row;
    }
    const diner = async (as = token) => (await ok(`${Z}/userInfo/create`, { userCode: `C${uid()}`, userName: "王五" }, as)).id as number;
    const charge = async (id: unknown, as = token) => (await get(`${Z}/userAccountCharge/getInfo`, { id }, as)).data as Row;
    const lineOf = async (c: Row, as = token) => (await get(`${Z}/userAccountLedger/getInfo`, { id: c.ledgerId }, as)).data as Row;
    const channelItems = async (as = token) => {
      const info = (await get("/api/v1/auth/user/info", {}, as)).data as { dictItemList: Array<{ dictCode: string; itemValue: string; itemText: string }> };
      return info.dictItemList.filter((i) => i.dictCode === "topUpChannel").map((i) => [i.itemValue, i.itemText]);
    };

    beforeAll(async () => {
      app = await createTestApp(dialect);
      token = await adminToken(app);
      other = await createTenantWithAdmin(app, token, `ch${dialect}`);
    });
    afterAll(() => app.close());

    test("every tenant starts with the six channels: the first by the seed, a new one by its create; the shell carries them", async () => {
      const list = (await get(`${Z}/topUpChannel/findPage`, { pageSize: 50 })).data as Page;
      expect(list.records.map((r) => [r.channelCode, r.channelName, r.status])).toEqual(SIX.map(([code, name]) => [code, name, "1"]));
      expect(await channelItems()).toEqual(SIX);
      const theirs = (await get(`${Z}/topUpChannel/findPage`, { pageSize: 50 }, other.token)).data as Page;
      expect(theirs.records.map((r) => r.channelCode)).toEqual(SIX.map(([code]) => code));
      expect(await channelItems(other.token)).toEqual(SIX);
    });

    test("a top-up, refund and reversal keep their channel on the document and its ledger line", async () => {
      const d = await diner();
      const wechat = await ok(`${Z}/userAccountCharge/create`, { userInfoId: d, amount: 5000, channel: "wechat" });
      const c = await charge(wechat.id);
      expect(c).toMatchObject({ channel: "wechat", busiType: "0", payFlag: "100" });
      expect(await lineOf(c)).toMatchObject({ channel: "wechat", amount: 5000 });
      const refund = await ok(`${Z}/userAccountCharge/refund`, { userInfoId: d, amount: 1000, channel: "cash", reason: "多充退回" });
      const r = await charge(refund.id);
      expect(r).toMatchObject({ channel: "cash", busiType: "1" });
      expect(await lineOf(r)).toMatchObject({ channel: "cash", amount: -1000 });
      const pos = await ok(`${Z}/userAccountCharge/create`, { userInfoId: d, amount: 2000, channel: "pos" });
      const reversal = await ok(`${Z}/userAccountCharge/reverse`, { id: pos.id, reason: "刷错卡" });
      const x = await charge(reversal.id);
      expect(x).toMatchObject({ channel: "pos", busiType: "3", reversalOf: pos.id });
      expect(await lineOf(x)).toMatchObject({ channel: "pos", amount: -2000 });
    });

    test("a client that sends only payFlag keeps working: its flag tells the channel; nothing sent is 现金", async () => {
      const d = await diner();
      const cases: Array<[Row, string, string]> = [
        [{}, "cash", "0"],
        [{ payFlag: 0 }, "cash", "0"],
        [{ payFlag: "100" }, "wechat", "100"],
        [{ payFlag: 101 }, "alipay", "101"],
        [{ payFlag: 2 }, "other", "2"],
        [{ payFlag: 1, channel: "transfer" }, "transfer", "1"],
      ];
      for (const [sent, channel, payFlag] of cases) {
        const done = await ok(`${Z}/userAccountCharge/create`, { userInfoId: d, amount: 100, ...sent });
        expect(await charge(done.id), JSON.stringify(sent)).toMatchObject({ channel, payFlag });
      }
      // A payment flag outside the dictionary is still refused on its own field.
      expectField((await post(`${Z}/userAccountCharge/create`, { userInfoId: d, amount: 100, payFlag: 42 })).body, "payFlag", /支付方式/);
    });

    test("a channel outside the tenant's dictionary, stopped, another tenant's or of the wrong type is a 400 naming 充值渠道; nothing moves", async () => {
      const d = await diner();
      const theirs = await ok(`${Z}/topUpChannel/create`, { channelCode: `t${uid()}`.toLowerCase().replace(/[^a-z0-9_]/g, ""), channelName: "对方渠道", sort: 9, status: "1" }, other.token);
      const stopped = await ok(`${Z}/topUpChannel/create`, { channelCode: "stopped", channelName: "已停用渠道", sort: 8, status: "0" });
      for (const channel of ["bitcoin", theirs.channelCode, stopped.channelCode, "现金", "a".repeat(60)]) {
        const refused = await post(`${Z}/userAccountCharge/create`, { userInfoId: d, amount: 100, channel });
        expect(refused.http, String(channel)).toBe(400);
        expect(refused.body.message).toMatch(/充值渠道/);
        expect(Object.keys((refused.body.data as { fieldErrors: Row }).fieldErrors)).toEqual(["channel"]);
      }
      for (const channel of [12, true, { code: "cash" }, ["cash"], "ca\u0000sh"]) {
        const refused = await post(`${Z}/userAccountCharge/create`, { userInfoId: d, amount: 100, channel });
        expect(refused.http, JSON.stringify([channel, refused.body])).toBe(400);
        expect(refused.body.message).toMatch(/充值渠道/);
      }
      expect(((await get(`${Z}/userAccountCharge/findPage`, { userInfoId: d })).data as Page).total).toBe(0);
    });

    test("a tenant extends its dictionary: the new channel is offered, accepted, named in lists and exports; codes stay, the six and used ones are stopped, not deleted", async () => {
      const code = `meituan${serial++}`;
      const added = await ok(`${Z}/topUpChannel/create`, { channelCode: code, channelName: `美团${code}`, sort: 7, status: "1" });
      expect((await channelItems()).map(([value]) => value)).toContain(code);
      expect((await channelItems(other.token)).map(([value]) => value)).not.toContain(code);
      expectField((await post(`${Z}/topUpChannel/create`, { channelCode: "Bad Code", channelName: "坏代码", status: "1" })).body, "channelCode", /小写字母/);
      expectField((await post(`${Z}/topUpChannel/create`, { channelCode: "cash", channelName: "重复代码", status: "1" })).body, "channelCode", /已存在/);

      const d = await diner();
      const done = await ok(`${Z}/userAccountCharge/create`, { userInfoId: d, amount: 300, channel: code });
      expect(await charge(done.id)).toMatchObject({ channel: code });
      // Another tenant's admin cannot use it.
      const theirDiner = await diner(other.token);
      expect((await post(`${Z}/userAccountCharge/create`, { userInfoId: theirDiner, amount: 300, channel: code }, other.token)).http).toBe(400);

      // The list filters by it; the export names it.
      const filtered = (await get(`${Z}/userAccountCharge/findPage`, { channel: code })).data as Page;
      expect(filtered.records.map((r) => r.id)).toEqual([done.id]);
      const response = await app.api.handle(new Request(`${ORIGIN}${Z}/userAccountCharge/export?channel=${code}`, { headers: { Authorization: `Bearer ${token}` } }), "127.0.0.1");
      expect(response.status).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load((await response.arrayBuffer()) as never);
      const sheet = book.worksheets[0];
      const header = (sheet.getRow(1).values as unknown[]).map(String);
      const at = header.indexOf("充值渠道");
      expect(at).toBeGreaterThan(0);
      expect(sheet.getRow(2).getCell(at).value).toBe(`美团${code}`);

      expect((await post(`${Z}/topUpChannel/update`, { id: added.id, channelCode: `${code}x`, channelName: `美团${code}`, status: "1" })).body.status).toBe(400);
      const refusedUsed = await app.call("GET", `${Z}/topUpChannel/delete?id=${added.id}`, { token });
      expect(refusedUsed.http).toBe(409);
      expect(refusedUsed.body.message).toMatch(/已有充值记录/);
      const cash = ((await get(`${Z}/topUpChannel/findPage`, { channelCode: "cash" })).data as Page).records[0];
      const refusedBuiltIn = await app.call("GET", `${Z}/topUpChannel/delete?id=${cash.id}`, { token });
      expect(refusedBuiltIn.http).toBe(409);
      expect(refusedBuiltIn.body.message).toMatch(/预置/);
      // Stopped: no longer offered or accepted; what was recorded keeps its name in exports.
      await ok(`${Z}/topUpChannel/update`, { id: added.id, channelCode: code, channelName: `美团${code}`, status: "0" });
      expect((await channelItems()).map(([value]) => value)).not.toContain(code);
      expect((await post(`${Z}/userAccountCharge/create`, { userInfoId: d, amount: 300, channel: code })).http).toBe(400);
      const unused = await ok(`${Z}/topUpChannel/create`, { channelCode: `${code}u`, channelName: `未用${code}`, status: "1" });
      expect((await app.call("GET", `${Z}/topUpChannel/delete?id=${unused.id}`, { token })).body.status).toBe(200);
    });

    test("充值日报 and 充值机汇总 group top-ups by channel; 充值机汇总 filters by one; a channel not in the dictionary is a 400", async () => {
      const d = await diner(other.token);
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: d, amount: 1000, channel: "alipay" }, other.token);
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: d, amount: 2500, channel: "alipay" }, other.token);
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: d, amount: 700, channel: "transfer" }, other.token);
      await ok(`${Z}/userAccountCharge/refund`, { userInfoId: d, amount: 200, channel: "cash", reason: "退回" }, other.token);
      const daily = (await get(`${R}/chargeDailyReport`, {}, other.token)).data as { rows: Row[] };
      const byChannel = Object.fromEntries(daily.rows.map((r) => [r.channel, [r.topUpCount, r.topUp, r.refund]]));
      expect(byChannel).toEqual({ alipay: [2, 3500, 0], transfer: [1, 700, 0], cash: [0, 0, -200] });
      const machine = (await get(`${R}/chargeMachine`, {}, other.token)).data as { rows: Row[] };
      expect(machine.rows.map((r) => [r.channel, r.topUp, r.refund]).sort()).toEqual([["alipay", 3500, 0], ["cash", 0, 200], ["transfer", 700, 0]]);
      const alipay = (await get(`${R}/chargeMachine`, { channel: "alipay" }, other.token)).data as { rows: Row[]; totals: Row };
      expect(alipay.totals).toMatchObject({ topUpCount: 2, topUp: 3500 });
      const refused = await get(`${R}/chargeMachine`, { channel: "bitcoin" }, other.token);
      expect(refused.status).toBe(400);
      expect(refused.message).toMatch(/充值渠道/);
      // The legacy endpoint of 充值日报 answers by channel too.
      const legacy = (await get(`${Z}/chargeDailyReport/findPage`, {}, other.token)).data as { records: Row[] };
      expect(legacy.records.map((r) => r.channel).sort()).toEqual(["alipay", "cash", "transfer"]);
    });

    test("migration 0059 gives every tenant the six and fills the old top-ups' channel from their payment flag: 0 and a 现金 method → 现金, 100 → 微信, 101 → 支付宝, the rest 其他", async () => {
      const db = app.database.db;
      const d = await diner();
      // A method a tenant named with 现金 (spec §3: the server's items extend the dictionary).
      await db.insertInto("dict_item").values({ id: 9_000_000_001 + serial, dict_code: "userAccountFlag", item_value: "9", item_text: "现金支付", item_type: 1, sort: 99, status: 1, created_at: 0, updated_at: 0 }).execute();
      const flags = [0, 9, 100, 101, 2, 500];
      const ids: number[] = [];
      for (const payFlag of flags) ids.push((await ok(`${Z}/userAccountCharge/create`, { userInfoId: d, amount: 100, payFlag })).id as number);
      // As before channels: no table, no columns.
      await channels.down(db);
      await channels.up(db);
      const docs = await db.selectFrom("user_account_charge").select(["id", "channel", "ledger_id"]).where("id", "in", ids).execute();
      const channelOf = (id: number) => docs.find((r) => r.id === id)?.channel;
      expect(ids.map(channelOf)).toEqual(["cash", "cash", "wechat", "alipay", "other", "other"]);
      const lines = await db.selectFrom("user_account_ledger").select(["id", "channel"]).where("id", "in", docs.map((r) => r.ledger_id)).execute();
      expect(ids.map((id) => lines.find((l) => l.id === docs.find((r) => r.id === id)?.ledger_id)?.channel)).toEqual(["cash", "cash", "wechat", "alipay", "other", "other"]);
      // Lines that are not top-ups, refunds or reversals have none.
      const others = await db.selectFrom("user_account_ledger").select("id").where("doc_type", "!=", "charge").where("channel", "is not", null).execute();
      expect(others).toEqual([]);
      for (const tenantId of [DEFAULT_TENANT_ID, other.tenantId]) {
        const rows = await db.selectFrom("top_up_channel").select(["id", "channel_code", "channel_name", "status"]).where("tenant_id", "=", tenantId).orderBy("id").execute();
        expect(rows.map((r) => [r.id, r.channel_code, r.channel_name, Number(r.status)])).toEqual(SIX.map(([code, name], i) => [i + 1, code, name, 1]));
      }
      // And the API goes on as before on the migrated tables.
      const after = await ok(`${Z}/userAccountCharge/create`, { userInfoId: d, amount: 100, channel: "transfer" });
      expect(await charge(after.id)).toMatchObject({ channel: "transfer" });
    });
  });
}
