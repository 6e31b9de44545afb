import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;

const Z = "/api/v1/zhct";

/**
 * Issue 38: a receipt printed the product's name and the operator's login. It names the canteen — the tenant's
 * receipt title (parameter zhct.receipt.title), else the tenant's name — and the operator by their 真实姓名.
 */
for (const dialect of dialects) {
  describe(`${dialect}: what a receipt names`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;

    const get = async (path: string, token = tenant.token) => (await app.call<unknown>("GET", path, { token })).body as { status: number; message: string; data: Row };
    async function ok(path: string, body: Row, token = tenant.token): Promise<Row> {
      const result = await app.call<unknown>("POST", path, { token, body });
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data as Row;
    }

    beforeAll(async () => {
      app = await createTestApp(dialect);
      const superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `rc${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `rco${dialect}`);
    }, 60_000);
    afterAll(async () => {
      await app.close();
    });

    test("a top-up receipt: the tenant's name, then the title the tenant sets; the operator's real name; another tenant's receipt is not found", async () => {
      const diner = await ok(`${Z}/userInfo/create`, { userCode: "R-001", userName: "赵回单" });
      const charged = await ok(`${Z}/userAccountCharge/create`, { userInfoId: diner.id, amount: 5000, accountType: "cash" });
      const receipt = () => get(`${Z}/userAccountCharge/receipt?id=${charged.id}`);
      expect((await receipt()).data).toEqual({ title: `租户rc${dialect}`, operatorName: `rc${dialect}管理员` });
      // The record keeps the login it was made with; the receipt prints the person.
      expect((await get(`${Z}/userAccountCharge/getInfo?id=${charged.id}`)).data.operatorName).toBe(`rc${dialect}.admin`);

      await ok("/api/v1/sys/parameterConfig/create", { paramCode: "zhct.receipt.title", paramName: "回单抬头", paramValue: " 市一中学生食堂 " });
      expect((await receipt()).data.title).toBe("市一中学生食堂");
      expect((await get(`${Z}/userAccountCharge/receipt?id=${charged.id}`, other.token)).status).toBe(404);
      expect((await get(`${Z}/userAccountCharge/receipt?id=abc`)).status).toBe(400);
    });

    test("the cashier's slip: the canteen's title and the cashier's real name", async () => {
      const diner = await ok(`${Z}/userInfo/create`, { userCode: "R-002", userName: "钱小票" }, other.token);
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: diner.id, amount: 5000, accountType: "cash" }, other.token);
      await ok(`${Z}/cashier/pay`, { userInfoId: diner.id, amount: 1200 }, other.token);
      const summary = await get(`${Z}/cashierPrint/summary?cashierId=${other.adminUserId}`, other.token);
      expect(summary.data).toMatchObject({ title: `租户rco${dialect}`, cashierName: `rco${dialect}管理员` });
      expect(summary.data.totals).toMatchObject({ count: 1, amount: 1200 });
    });
  });
}
