import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { serverModules } from "../../server/modules";
import { checkLedgers, describeDrift } from "../../server/modules/ledgerCheck";
import { projectionsOf, runRequestedRecounts } from "../../server/modules/projections";
import { requestRecount } from "../../server/db/migrations/recounts";
import type { ServerModule } from "../../server/modules/manifest";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";

const Z = "/api/v1/zhct";

for (const dialect of dialects) {
  describe(`${dialect}: the ledgers the modules declare, checked and recounted`, () => {
    let app: TestApp;
    let token: string;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      token = await adminToken(app);
    });
    afterAll(() => app.close());

    async function ok(path: string, body: unknown) {
      const result = await app.call<{ id: number }>("POST", path, { token, body });
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data;
    }

    test("every declared ledger is checked; a balance edited by hand is named with its drift", async () => {
      const diner = await ok(`${Z}/userInfo/create`, { userCode: `LC${dialect}${Date.now().toString(36)}`, userName: "对账" });
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: diner.id, amount: 1234 });
      const healthy = await checkLedgers(app.database.db, serverModules);
      expect(healthy.map((c) => c.ledger)).toEqual(expect.arrayContaining(["money", "points"]));
      expect(healthy.flatMap((c) => c.drifts)).toEqual([]);

      await sql`update user_account set balance = balance + 7 where user_info_id = ${diner.id} and account_type = 'cash'`.execute(app.database.db);
      const money = (await checkLedgers(app.database.db, serverModules)).find((c) => c.ledger === "money")!;
      expect(money.drifts).toEqual([expect.objectContaining({ key: { userInfoId: diner.id, accountType: "cash" }, measure: "quantity", balance: 1241, lines: 1234 })]);
      expect(describeDrift("money", money.drifts[0])).toContain("相差 7");
      await sql`update user_account set balance = balance - 7 where user_info_id = ${diner.id} and account_type = 'cash'`.execute(app.database.db);
      expect((await checkLedgers(app.database.db, serverModules)).flatMap((c) => c.drifts)).toEqual([]);
    });

    test("a migration's recount of a ledger's projection runs the projection its ledger declares", async () => {
      const before = await sql<{ n: number }>`select count(*) as n from ledger_day`.execute(app.database.db);
      await sql`delete from ledger_day`.execute(app.database.db);
      await requestRecount(app.database.db, "ledgerDays");
      expect(await runRequestedRecounts(app.database.db)).toContain("ledgerDays");
      const after = await sql<{ n: number }>`select count(*) as n from ledger_day`.execute(app.database.db);
      expect(Number(after.rows[0].n)).toBe(Number(before.rows[0].n));
      expect(Number(after.rows[0].n)).toBeGreaterThan(0);
    });
  });
}

test("a projection name two ledgers declare stops the start", () => {
  const ledgers = serverModules.flatMap((m) => m.ledgers);
  const twice: ServerModule = { ...serverModules[0], ledgers: [ledgers[0]] };
  expect(() => projectionsOf([...serverModules, twice])).toThrow(/声明了两次/);
});
