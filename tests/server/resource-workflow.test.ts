import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { screenRoutes } from "../../resources/screens";
import { fillTemplate } from "../../resources/workflow";
import { userIcCard } from "../../resources/zhct/ledger";
import { orderingFood } from "../../resources/zhct/bookings";
import { mealTicket } from "../../resources/zhct/tickets";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

/** Decision 070: a resource's workflow gives its steps' row links and screens, and the one step service takes them. */

type Row = Record<string, unknown>;
const Z = "/api/v1/zhct";

describe("a resource's workflow as declared", () => {
  test("a step's texts: values, yuan with separators, and a part left out when its value is zero", () => {
    const done = "陪餐已取消[，已退回 {refunded:yuan} 元]";
    expect(fillTemplate(done, { refunded: 3000 })).toBe("陪餐已取消，已退回 30.00 元");
    expect(fillTemplate(done, { refunded: 123_456 })).toBe("陪餐已取消，已退回 1,234.56 元");
    expect(fillTemplate(done, { refunded: 0 })).toBe("陪餐已取消");
    expect(fillTemplate("将{label} {holder} 的卡", { label: "挂失", holder: "王小明" })).toBe("将挂失 王小明 的卡");
  });

  test("row links come from the steps, offered only from their from-statuses; a step with its own screen gets none", () => {
    expect(userIcCard.rowLinks?.map((l) => [l.action, l.path, l.when?.values])).toEqual([
      ["reportLoss", "reportLoss/:id", ["1"]],
      ["unlock", "unlock/:id", ["2"]],
      ["reissue", "reissue/:id", ["1", "2"]],
      ["cancel", "cancel/:id", ["1", "2"]],
    ]);
    expect(orderingFood.rowLinks?.map((l) => [l.action, l.when?.values])).toEqual([
      ["pickUp", ["1"]],
      ["cancel", ["1"]],
    ]);
    // 审批 decides between two steps on its own page; 驳回 shares 审批's permission and adds no button.
    expect(mealTicket.rowLinks?.map((l) => l.action)).toEqual(["approve"]);
    expect(mealTicket.workflowActions).toEqual({ approve: "审批" });
  });

  test("every step with a screen is served by the one step screen at the path its row link names", () => {
    const routes = screenRoutes([]);
    const step = (path: string) => routes.find((r) => r.path === path)?.file;
    for (const path of ["zhct/usericcard/reportLoss/:id", "zhct/usericcard/cancel/:id", "zhct/orderingfood/pickUp/:id", "zhct/userorderdefaultpc/cancel/:id", "zhct/userplate/release/:id", "zhct/useraccounttable/release/:id", "zhct/userinfosendmessage/resend/:id"]) {
      expect(step(path), path).toBe("routes/step/step.tsx");
    }
    expect(step("zhct/mealticket/approve/:id")).toBe("routes/zhct/ticket-approve.tsx");
    expect(step("zhct/mealticket/reject/:id")).toBeUndefined();
  });
});

for (const dialect of dialects) {
  describe(`${dialect}: the one step service on a resource`, () => {
    let app: TestApp;
    let token: string;
    let other: TenantFixture;

    const post = async (path: string, body: Row, as = token) => (await app.call<unknown>("POST", path, { token: as, body })).body;
    async function card(code: string) {
      const diner = (await post(`${Z}/userInfo/create`, { userCode: code, userName: "步骤测试" })).data as Row;
      const made = await post(`${Z}/userIcCard/create`, { userInfoId: diner.id, cardNo: code, cardType: "1" });
      expect(made.status, made.message as string).toBe(200);
      return (made.data as Row).id as number;
    }
    const logged = (id: number, action: string) =>
      app.database.db.selectFrom("operation_log").select(["action", "changes"]).where("entity", "=", "zhct/userIcCard").where("entity_id", "=", id).where("action", "=", action).execute();

    beforeAll(async () => {
      app = await createTestApp(dialect);
      token = await adminToken(app);
      other = await createTenantWithAdmin(app, token, `wf${dialect}`);
    });
    afterAll(async () => {
      await app.close();
    });

    test("ten clerks reporting one card lost at once: one moves it, nine hear its status, one log row", async () => {
      const id = await card(`WF${dialect === "sqlite" ? "S" : "P"}001`);
      const answers = await Promise.all(Array.from({ length: 10 }, () => post(`${Z}/userIcCard/reportLoss`, { id })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 409).map((a) => a.message)).toEqual(Array(9).fill("该卡当前为「挂失」，不能挂失"));
      const rows = await logged(id, "reportLoss");
      expect(rows).toHaveLength(1);
      expect(JSON.parse(String(rows[0]?.changes))).toEqual({ cardStatus: ["1", "2"] });
    });

    test("a step on another tenant's row is its workflow's 404, and changes nothing", async () => {
      const id = await card(`WF${dialect === "sqlite" ? "S" : "P"}002`);
      expect(await post(`${Z}/userIcCard/reportLoss`, { id }, other.token)).toMatchObject({ status: 404, message: "IC卡不存在" });
      expect(await post(`${Z}/userIcCard/unlock`, { id })).toMatchObject({ status: 409, message: "该卡当前为「正常」，不能解挂" });
      expect(await logged(id, "reportLoss")).toHaveLength(0);
    });
  });
}
