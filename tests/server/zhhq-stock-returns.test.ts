import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { stockLedger } from "../../server/modules/zhhq/stock";
import { adminToken, createTestApp, expectField, loginAs, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { stockClient, type Row, type StockClient } from "../helpers/stock";
import { createTenantWithAdmin, expectOk, type TenantFixture } from "../helpers/tenants";

/**
 * A return as its screen enters it (issue 40, decision 071): the source line's picker asks `…/lineOptions` for the
 * lines of the document chosen in the header, labelled as a keeper recognises them and searched by goods name or
 * code, within the caller's tenant and permissions; a quantity over what the source line can still give back is
 * refused as the return is written (create, update), at the line's quantity.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

for (const dialect of dialects) {
  describe(`${dialect}: entering a return: its source lines and its limit`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;
    let api: StockClient;
    let db: AnyDb;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      db = app.database.db as AnyDb;
      const superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `rt${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `rto${dialect}`);
      api = stockClient(app, () => tenant.token);
    }, 60_000);
    afterEach(async () => {
      expect(await stockLedger.check(db)).toEqual([]);
    });
    afterAll(async () => {
      await app?.close();
    });

    const options = async (doc: "warehouseInReturn" | "warehouseOutReturn", query: Row, as = tenant.token) => {
      const answer = await api.get(`${doc}/lineOptions`, query, as);
      expect(answer, JSON.stringify(answer)).toMatchObject({ status: 200 });
      return (answer.data as { records: Row[] }).records;
    };

    test("a stock-in's lines, narrowed to the stock-in chosen, labelled with goods, batch, received and returnable, searched by name or code", async () => {
      const warehouseId = await api.warehouse();
      const code = `G${api.uid()}`;
      const rice = await api.goods({ goodsCode: code, goodsName: "大米" });
      const oil = await api.goods({ goodsName: "菜籽油" });
      const inId = await api.approved("warehouseIn", {
        warehouseId,
        lines: [
          { goodsId: rice, quantity: 50, price: 300, batchNo: "B20261128-1" },
          { goodsId: oil, quantity: 2, price: 15000, batchNo: "OIL-1" },
        ],
      });
      const otherIn = await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId: rice, quantity: 1, price: 300 }] });
      const [riceLine, oilLine] = (await api.info("warehouseIn", inId)).lines;
      await api.approved("warehouseInReturn", { warehouseInId: inId, lines: [{ inLineId: riceLine.id, quantity: 7.5 }] });

      const all = await options("warehouseInReturn", { field: "inLineId", warehouseInId: inId });
      expect(all).toEqual([
        { id: riceLine.id, label: `大米（${code}）· 批次 B20261128-1 · 已收 50 · 可退 42.5`, goodsId: rice, goodsIdLabel: `大米（${code}）`, shows: `大米（${code}）· 批次 B20261128-1`, returnable: 42.5 },
        expect.objectContaining({ id: oilLine.id, goodsId: oil, returnable: 2, label: expect.stringMatching(/^菜籽油（G.+）· 批次 OIL-1 · 已收 2 · 可退 2$/) }),
      ]);
      // The other stock-in's line is not among them: the header's choice narrows the lines.
      expect(all.map((r) => r.id)).not.toContain((await api.info("warehouseIn", otherIn)).lines[0].id);
      expect((await options("warehouseInReturn", { field: "inLineId", warehouseInId: inId, keyword: "菜籽" })).map((r) => r.id)).toEqual([oilLine.id]);
      expect((await options("warehouseInReturn", { field: "inLineId", warehouseInId: inId, keyword: code.toLowerCase() })).map((r) => r.id)).toEqual([riceLine.id]);
      expect(await options("warehouseInReturn", { field: "inLineId", warehouseInId: inId, keyword: "没有这种物资" })).toEqual([]);
      // Nothing chosen in the header yet: no lines to offer.
      expect(await options("warehouseInReturn", { field: "inLineId" })).toEqual([]);
    });

    test("a stock-out's lines show the batches they issued from, what was issued and what can still come back", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods({ goodsName: "面粉" });
      await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 2, price: 100, batchNo: "A" }, { goodsId, quantity: 2, price: 100, batchNo: "B" }] });
      const outId = await api.approved("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 3 }] });
      const outLine = (await api.info("warehouseOut", outId)).lines[0];
      await api.approved("warehouseOutReturn", { warehouseOutId: outId, lines: [{ outLineId: outLine.id, quantity: 0.5 }] });
      const [option] = await options("warehouseOutReturn", { field: "outLineId", warehouseOutId: outId });
      expect(option).toMatchObject({ id: outLine.id, goodsId, returnable: 2.5, label: expect.stringMatching(/^面粉（G.+）· 批次 A、B · 已发 3 · 可退 2\.5$/) });
    });

    test("bad questions are 400s naming the field; another tenant's document offers nothing; no create permission, 403", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      const inId = await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 5, price: 10 }] });
      expectField(await api.get("warehouseInReturn/lineOptions", { field: "goodsId", warehouseInId: inId }), "field", "field");
      expectField(await api.get("warehouseInReturn/lineOptions", { field: "inLineId", warehouseInId: "1e99" }), "warehouseInId", "入库单");
      expectField(await api.get("warehouseInReturn/lineOptions", { field: "inLineId", warehouseInId: inId, keyword: "a\u0000b" }), "keyword", "keyword");
      // The other tenant asks for this tenant's stock-in by its id: nothing, as if it did not exist.
      expect(await options("warehouseInReturn", { field: "inLineId", warehouseInId: inId }, other.token)).toEqual([]);

      const rows = await db.selectFrom("menu").select(["id", "permission"]).where("permission", "in", ["zhhq:warehouseInReturn:view", "zhhq:warehouseInReturn:create"]).execute();
      const menu = new Map(rows.map((r: Row) => [r.permission as string, Number(r.id)]));
      const signIn = async (userName: string, codes: string[]) => {
        const role = await expectOk<{ id: number }>(app, "POST", "/api/v1/auth/role/create", tenant.token, { roleCode: userName, roleName: userName, roleType: "user", status: "1" });
        await expectOk(app, "POST", "/api/v1/auth/role/assignMenu", tenant.token, { roleId: role.id, menuIds: codes.map((c) => menu.get(c)) });
        await expectOk(app, "POST", "/api/v1/auth/user/create", tenant.token, { user: { userName, realName: userName, status: "1", password: "First-Pass-2026" }, roleIds: [role.id] });
        const token = await loginAs(app, userName, "First-Pass-2026");
        await expectOk(app, "POST", "/api/v1/auth/user/modifyPasswd", token, { oldPassword: "First-Pass-2026", newPassword: "Second-Pass-2026" });
        return token;
      };
      const reader = await signIn(`rtread${dialect}`, ["zhhq:warehouseInReturn:view"]);
      expect((await api.get("warehouseInReturn/lineOptions", { field: "inLineId", warehouseInId: inId }, reader)).status).toBe(403);
      const writer = await signIn(`rtwrite${dialect}`, ["zhhq:warehouseInReturn:view", "zhhq:warehouseInReturn:create"]);
      expect(await options("warehouseInReturn", { field: "inLineId", warehouseInId: inId }, writer)).toHaveLength(1);
    });

    test("an update over the limit is refused at the line's quantity and the draft keeps what it had", async () => {
      const warehouseId = await api.warehouse();
      const goodsId = await api.goods();
      await api.approved("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 10, price: 100 }] });
      const outId = await api.approved("warehouseOut", { warehouseId, lines: [{ goodsId, quantity: 8.5 }] });
      const outLine = (await api.info("warehouseOut", outId)).lines[0];
      const draft = await api.create("warehouseOutReturn", { warehouseOutId: outId, lines: [{ outLineId: outLine.id, quantity: 8 }] });
      const read = await api.info("warehouseOutReturn", draft.id);
      expectField(
        await api.post("warehouseOutReturn/update", { id: draft.id, version: read.version, lines: [{ id: read.lines[0].id, outLineId: outLine.id, quantity: 8.501 }] }),
        "lines.0.quantity",
        "第 1 行退库数量超过可退数量 8.5",
      );
      expect((await api.info("warehouseOutReturn", draft.id)).lines.map((l) => l.quantity)).toEqual([8]);
      expect(await api.post("warehouseOutReturn/update", { id: draft.id, version: read.version, lines: [{ id: read.lines[0].id, outLineId: outLine.id, quantity: 8.5 }] })).toMatchObject({ status: 200 });
    });
  });
}
