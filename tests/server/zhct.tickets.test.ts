import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { dayOf } from "../../server/modules/zhct/months";
import { inWriteTransaction } from "../../server/kernel/writeTransaction";
import { returnTicket, useTicket, type TicketPayment } from "../../server/modules/zhct/tickets";
import { adminToken, createTestApp, expectField, loginAs, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;

const Z = "/api/v1/zhct";
const DAY = 86_400_000;

for (const dialect of dialects) {
  describe(`${dialect}: meal tickets — settings, approval, use in a payment, cancel; dishware recovery`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;
    /** Users of the tenant: the approver role's holder, a user named as approver, an admin who is neither. */
    let approver: string;
    let approverUser: string;
    let bystander: string;
    let approverUserId: number;
    let approverRoleId: number;
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;
    const today = () => dayOf(Date.now());
    const dayFrom = (days: number) => dayOf(Date.now() + days * DAY);

    const call = (method: "GET" | "POST", path: string, body: unknown, as: string) => app.call<unknown>(method, path, { token: as, body });
    async function ok(path: string, body: Row, as = tenant.token): Promise<Row> {
      const result = await call("POST", path, body, as);
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data as Row;
    }
    const info = async (id: unknown, as = tenant.token) => (await call("GET", `${Z}/mealTicket/getInfo?id=${id}`, undefined, as)).body.data as Row;

    /** A user of the tenant holding these roles, signed in with the first-login password changed. */
    async function userWith(name: string, roleIds: number[]): Promise<{ id: number; token: string }> {
      const userName = `tk.${uid()}`;
      const created = await ok("/api/v1/auth/user/create", { user: { userName, realName: name, orgId: tenant.rootOrgId, status: "1", password: "Initial-Ticket-1" }, roleIds });
      const token = await loginAs(app, userName, "Initial-Ticket-1");
      await ok("/api/v1/auth/user/modifyPasswd", { oldPassword: "Initial-Ticket-1", newPassword: "Changed-Ticket-2" }, token);
      return { id: created.id as number, token };
    }
    const diner = async (as = tenant.token) => ok(`${Z}/userInfo/create`, { userCode: `T${uid()}`, userName: "王加班" }, as);
    const apply = (body: Row, as = tenant.token) => ok(`${Z}/mealTicket/create`, { ticketType: "1", ticketCount: 1, reason: "项目上线加班", ...body }, as);
    async function approved(body: Row) {
      const ticket = await apply(body);
      await ok(`${Z}/mealTicket/approve`, { id: ticket.id }, approver);
      return ticket;
    }
    const pay = (p: Partial<TicketPayment> & { userInfoId: number }) =>
      inWriteTransaction(app.database.db, app.database.dialect, (trx) =>
        useTicket(trx, { tenantId: tenant.tenantId, payFlag: 3, amount: 1500, mealType: "lunch", orderId: Date.now() * 1000 + ++serial, at: Date.now(), ...p }),
      );
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => "paid",
        (error: { status?: number; message: string }) => `${error.status} ${error.message}`,
      );
    const usesOf = (ticketId: unknown) => app.database.db.selectFrom("meal_ticket_use").selectAll().where("tenant_id", "=", tenant.tenantId).where("ticket_id", "=", ticketId as number).execute();

    beforeAll(async () => {
      app = await createTestApp(dialect);
      const superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `tk${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `tko${dialect}`);
      approverRoleId = (await ok("/api/v1/auth/role/create", { roleCode: "ticket_approver", roleName: "餐券审批", roleType: "user", status: "1" })).id as number;
      approver = (await userWith("审批员", [tenant.adminRoleId, approverRoleId])).token;
      const named = await userWith("值班经理", [tenant.adminRoleId]);
      approverUser = named.token;
      approverUserId = named.id;
      bystander = (await userWith("旁观者", [tenant.adminRoleId])).token;
      // 加班: lunch and dinner, 15.00, approved by the role; 值班: every meal, approved by one named user.
      await ok(`${Z}/mealTicketSetting/create`, { ticketType: "1", amount: 1500, status: "1", lunch: 1, dinner: 1, breakfast: 0, midnight: 0, approverRoleId, validDays: 3 });
      await ok(`${Z}/mealTicketSetting/create`, { ticketType: "5", amount: 2000, status: "1", breakfast: 1, lunch: 1, dinner: 1, midnight: 1, approverUserId, validDays: 1 });
    }, 60_000);
    afterAll(async () => {
      await app.close();
    });

    test("a setting names at least one approver and one meal; one per ticket type", async () => {
      expectField((await call("POST", `${Z}/mealTicketSetting/create`, { ticketType: "2", amount: 1000, status: "1", lunch: 1, validDays: 1 }, tenant.token)).body, "approverRoleId", "审批角色与审批人至少填一项");
      expectField((await call("POST", `${Z}/mealTicketSetting/create`, { ticketType: "2", amount: 1000, status: "1", breakfast: 0, lunch: 0, dinner: 0, midnight: 0, approverRoleId, validDays: 1 }, tenant.token)).body, "lunch", "至少选择一个可用餐别");
      expectField((await call("POST", `${Z}/mealTicketSetting/create`, { ticketType: "1", amount: 1000, status: "1", lunch: 1, approverRoleId, validDays: 1 }, tenant.token)).body, "ticketType", "餐券类型已存在");
      expectField((await call("POST", `${Z}/mealTicketSetting/create`, { ticketType: "4", amount: 1000, status: "1", lunch: 1, approverRoleId, validDays: 1 }, tenant.token)).body, "ticketType", /不是可选的值/);
      // The other tenant may set up its own 加班 tickets.
      await ok(`${Z}/mealTicketSetting/create`, { ticketType: "1", amount: 900, status: "1", lunch: 1, approverUserId: other.adminUserId, validDays: 1 }, other.token);
    });

    test("an application: its type must be set up; 有效期止 defaults from the setting; the applicant and states are the server's", async () => {
      const d = await diner();
      expectField((await call("POST", `${Z}/mealTicket/create`, { userInfoId: d.id, ticketType: "3", ticketCount: 1, validFrom: today(), reason: "外卖" }, tenant.token)).body, "ticketType", "该餐券类型未设置或已停用");
      expectField((await call("POST", `${Z}/mealTicket/create`, { userInfoId: d.id, ticketType: "1", ticketCount: 1, validFrom: today(), validTo: dayFrom(-1), reason: "x" }, tenant.token)).body, "validTo", "有效期止不能早于有效期起");
      const ticket = await apply({ userInfoId: d.id, ticketCount: 2, approvedStatus: "1", usedCount: 2, applicantName: "冒名" });
      expect(ticket).toMatchObject({ validTo: dayFrom(2), approvedStatus: "-1", usedCount: 0, usedStatus: "0", applicantName: `tk${dialect}管理员` });
      expect(await info(ticket.id)).toMatchObject({ userInfoIdLabel: "王加班", ticketCount: 2 });
      // Edits while nobody has decided.
      const edited = await ok(`${Z}/mealTicket/update`, { id: ticket.id, ticketCount: 3, validTo: null });
      expect(edited).toMatchObject({ ticketCount: 3, validTo: dayFrom(2) });
    });

    test("approval: only the setting's role or user, never the applicant, and only from 未审批", async () => {
      const d = await diner();
      // The approver applies: they may not approve their own, though they may approve others'.
      const own = await apply({ userInfoId: d.id }, approver);
      const mine = await call("POST", `${Z}/mealTicket/approve`, { id: own.id }, approver);
      expect(mine.body).toMatchObject({ status: 403, message: "不能审批自己申请的餐券" });
      const notAllowed = await call("POST", `${Z}/mealTicket/approve`, { id: own.id }, bystander);
      expect(notAllowed.body).toMatchObject({ status: 403, message: "您不是该类餐券的审批人，不能审批" });
      // The named approver of 值班 is not an approver of 加班.
      expect((await call("POST", `${Z}/mealTicket/approve`, { id: own.id }, approverUser)).body.status).toBe(403);
      expect((await info(own.id)).approvedStatus).toBe("-1");

      const ticket = await apply({ userInfoId: d.id });
      const done = await ok(`${Z}/mealTicket/approve`, { id: ticket.id, remark: "同意" }, approver);
      expect(done).toMatchObject({ approvedStatus: "1", approverName: "审批员", approveRemark: "同意" });
      expect(done.approvedAt).toBeTypeOf("number");
      const again = await call("POST", `${Z}/mealTicket/approve`, { id: ticket.id }, approver);
      expect(again.body).toMatchObject({ status: 409, message: "该餐券当前为「通过」，不能审批通过" });
      expect((await call("POST", `${Z}/mealTicket/reject`, { id: ticket.id, remark: "晚了" }, approver)).body).toMatchObject({ status: 409, message: "该餐券当前为「通过」，不能驳回" });
      expect((await call("POST", `${Z}/mealTicket/update`, { id: ticket.id, ticketCount: 5 }, tenant.token)).body).toMatchObject({ status: 409, message: "该餐券当前为「通过」，不能修改" });

      // 驳回 needs a reason; a rejected one can be neither approved nor edited.
      expectField((await call("POST", `${Z}/mealTicket/reject`, { id: own.id }, tenant.token)).body, "remark", "请输入驳回理由");
      expect((await call("POST", `${Z}/mealTicket/reject`, { id: own.id, remark: "非加班时段" }, bystander)).body.status).toBe(403);
      // The approver applied for `own`: another holder of the approving role rejects it.
      const second = (await userWith("审批员二", [tenant.adminRoleId, approverRoleId])).token;
      expect(await ok(`${Z}/mealTicket/reject`, { id: own.id, remark: "非加班时段" }, second)).toMatchObject({ approvedStatus: "0", approveRemark: "非加班时段" });
      expect((await call("POST", `${Z}/mealTicket/approve`, { id: own.id }, second)).body.status).toBe(409);

      // The user named by the 值班 setting approves 值班 tickets.
      const duty = await apply({ userInfoId: d.id, ticketType: "5" });
      expect(await ok(`${Z}/mealTicket/approve`, { id: duty.id }, approverUser)).toMatchObject({ approvedStatus: "1" });

      // Two approvers at once: exactly one wins.
      const raced = await apply({ userInfoId: d.id });
      const results = await Promise.all([approver, second].map((as) => call("POST", `${Z}/mealTicket/approve`, { id: raced.id }, as)));
      expect(results.map((r) => r.body.status).sort()).toEqual([200, 409]);
    });

    test("two terminals using a ticket's last use at once: exactly one pays", async () => {
      const d = await diner();
      const ticket = await approved({ userInfoId: d.id, ticketCount: 1 });
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => refusal(pay({ userInfoId: d.id as number }))));
      expect(outcomes.filter((o) => o === "paid")).toHaveLength(1);
      expect(outcomes.filter((o) => o !== "paid")).toEqual(Array(7).fill("409 没有可用的餐券"));
      expect(await info(ticket.id)).toMatchObject({ usedCount: 1, usedStatus: "1" });
      expect(await usesOf(ticket.id)).toHaveLength(1);
    });

    test("expired, not yet valid, unapproved, wrong meal and too dear are refused and write nothing", async () => {
      const d = await diner();
      const userInfoId = d.id as number;
      expect(await refusal(pay({ userInfoId }))).toBe("409 没有可用的餐券");
      const pending = await apply({ userInfoId });
      expect(await refusal(pay({ userInfoId }))).toBe("409 没有可用的餐券");
      const expired = await approved({ userInfoId, validFrom: dayFrom(-5), validTo: dayFrom(-1) });
      expect(await refusal(pay({ userInfoId }))).toBe("409 餐券已过期");
      const later = await approved({ userInfoId, validFrom: dayFrom(1), validTo: dayFrom(2) });
      expect(await refusal(pay({ userInfoId }))).toBe("409 餐券已过期");
      const current = await approved({ userInfoId, ticketCount: 2 });
      expect(await refusal(pay({ userInfoId, mealType: "breakfast" }))).toBe("409 餐券不适用于本餐次");
      // An amount-only sale (no meal time) is paid only by a ticket for every meal.
      expect(await refusal(pay({ userInfoId, mealType: null }))).toBe("409 餐券不适用于本餐次");
      expect(await refusal(pay({ userInfoId, amount: 1501 }))).toBe("409 本餐金额 15.01 元超出餐券面值 15.00 元，请改用其他方式支付");
      expect(await refusal(pay({ userInfoId, payFlag: 4 }))).toBe("409 没有可用的餐券");
      for (const t of [pending, expired, later, current]) {
        expect(await info(t.id), String(t.id)).toMatchObject({ usedCount: 0, usedStatus: "0" });
        expect(await usesOf(t.id)).toHaveLength(0);
      }
      // 值班 tickets are for every meal: an amount-only sale takes one.
      const duty = await apply({ userInfoId, ticketType: "5" });
      await ok(`${Z}/mealTicket/approve`, { id: duty.id }, approverUser);
      expect(await refusal(pay({ userInfoId, payFlag: 7, mealType: null, amount: 2000 }))).toBe("paid");
    });

    test("cancelling the order gives the use back, once; the ticket pays again", async () => {
      const d = await diner();
      const userInfoId = d.id as number;
      const ticket = await approved({ userInfoId, ticketCount: 2 });
      const orderId = Date.now() * 1000 + 999;
      const used = await pay({ userInfoId, orderId, amount: 1200 });
      expect(used).toMatchObject({ ticketId: ticket.id, amount: 1200 });
      expect(await refusal(pay({ userInfoId, orderId }))).toBe("409 该订单已用餐券支付");
      expect(await info(ticket.id)).toMatchObject({ usedCount: 1, usedStatus: "2" });
      const back = () => inWriteTransaction(app.database.db, app.database.dialect, (trx) => returnTicket(trx, { tenantId: tenant.tenantId, orderId, at: Date.now() }));
      expect(await back()).toBe(ticket.id);
      expect(await back()).toBeNull();
      expect(await info(ticket.id)).toMatchObject({ usedCount: 0, usedStatus: "0" });
      const [use] = await usesOf(ticket.id);
      expect(use.returned_at).toBeTypeOf("number");
      await pay({ userInfoId });
      await pay({ userInfoId });
      expect(await info(ticket.id)).toMatchObject({ usedCount: 2, usedStatus: "1" });
      expect(await refusal(pay({ userInfoId }))).toBe("409 没有可用的餐券");
      // Another tenant's order id returns nothing here.
      expect(await inWriteTransaction(app.database.db, app.database.dialect, (trx) => returnTicket(trx, { tenantId: other.tenantId, orderId, at: Date.now() }))).toBeNull();
    });

    test("through the cashier: a 值班 ticket pays an amount-only sale, a cancel gives the use back; a refusal writes no order", async () => {
      const d = await diner();
      const userInfoId = d.id as number;
      const orders = async () => ((await call("GET", `${Z}/mealOrder/findPage?userInfoId=${userInfoId}`, undefined, tenant.token)).body.data as { total: number }).total;
      const ticket = await apply({ userInfoId, ticketType: "5" });
      await ok(`${Z}/mealTicket/approve`, { id: ticket.id }, approverUser);
      // 加班 tickets are for lunch and dinner only: not an amount-only sale.
      const overtime = await approved({ userInfoId });
      const refused = await call("POST", `${Z}/cashier/pay`, { userInfoId, amount: 1000, payFlag: 3 }, tenant.token);
      expect(refused.body).toMatchObject({ status: 409, message: "餐券不适用于本餐次" });
      expect(await orders()).toBe(0);
      expect(await info(overtime.id)).toMatchObject({ usedCount: 0 });

      const headers = { "Idempotency-Key": `tk-${uid()}` };
      const paid = await app.call<Row>("POST", `${Z}/cashier/pay`, { token: tenant.token, body: { userInfoId, amount: 1800, payFlag: 7 }, headers });
      expect(paid.body).toMatchObject({ status: 200, data: { amount: 1800, balance: 0 } });
      // A retry with the key takes no second use.
      const retry = await app.call<Row>("POST", `${Z}/cashier/pay`, { token: tenant.token, body: { userInfoId, amount: 1800, payFlag: 7 }, headers });
      expect(retry.body.data).toEqual(paid.body.data);
      expect(await info(ticket.id)).toMatchObject({ usedCount: 1, usedStatus: "1" });
      expect((await call("POST", `${Z}/cashier/pay`, { userInfoId, amount: 100, payFlag: 7 }, tenant.token)).body).toMatchObject({ status: 409, message: "没有可用的餐券" });
      const orderId = paid.body.data.orderId;
      const [use] = await usesOf(ticket.id);
      expect(use).toMatchObject({ order_id: orderId, amount: 1800, returned_at: null });

      const cancelled = await ok(`${Z}/mealOrder/cancel`, { id: orderId, reason: "误刷" });
      expect(cancelled).toMatchObject({ refundAmount: 0 });
      expect(await info(ticket.id)).toMatchObject({ usedCount: 0, usedStatus: "0" });
      expect((await usesOf(ticket.id))[0].returned_at).toBeTypeOf("number");
      expect((await call("POST", `${Z}/mealOrder/cancel`, { id: orderId }, tenant.token)).body.status).toBe(409);
      expect(await info(ticket.id)).toMatchObject({ usedCount: 0 });
      // The use is back: the ticket pays again.
      expect((await call("POST", `${Z}/cashier/pay`, { userInfoId, amount: 900, payFlag: 7 }, tenant.token)).body.status).toBe(200);
    });

    test("hostile input is a 400 naming the field, never a 500; another tenant's ticket is not found", async () => {
      const d = await diner();
      const ticket = await apply({ userInfoId: d.id });
      for (const id of ["abc", 1.5, true, [1], "1e400", 2 ** 64, null]) {
        const result = await call("POST", `${Z}/mealTicket/approve`, { id }, approver);
        expect(result.body.status, JSON.stringify(id)).toBe(400);
      }
      expectField((await call("POST", `${Z}/mealTicket/approve`, { id: ticket.id, remark: "a\u0000b" }, approver)).body, "remark", /无法保存/);
      expectField((await call("POST", `${Z}/mealTicket/reject`, { id: ticket.id, remark: "x".repeat(501) }, approver)).body, "remark", /500/);
      expect((await call("POST", `${Z}/mealTicket/approve`, { id: ticket.id, extra: 1 }, approver)).body.status).toBe(400);
      expect((await call("POST", `${Z}/mealTicket/approve`, "[]", approver)).body.status).toBe(400);
      const base = { userInfoId: d.id, ticketType: "1", ticketCount: 1, validFrom: today(), reason: "x" };
      expectField((await call("POST", `${Z}/mealTicket/create`, { ...base, ticketType: "9" }, tenant.token)).body, "ticketType", /不是可选的值/);
      expectField((await call("POST", `${Z}/mealTicket/create`, { ...base, ticketCount: 0 }, tenant.token)).body, "ticketCount", /张数/);
      expectField((await call("POST", `${Z}/mealTicket/create`, { ...base, ticketCount: 101 }, tenant.token)).body, "ticketCount", /张数/);
      expectField((await call("POST", `${Z}/mealTicket/create`, { ...base, validFrom: "2026-02-30" }, tenant.token)).body, "validFrom", /有效期起/);
      expectField((await call("POST", `${Z}/mealTicket/create`, { ...base, reason: "" }, tenant.token)).body, "reason", "请输入申请事由");
      expectField((await call("POST", `${Z}/mealTicketSetting/update`, { id: 1, amount: 2 ** 60 }, tenant.token)).body, "amount", /面值/);
      // The other tenant's admin: not found, and the ticket is as it was.
      const elsewhere = await call("POST", `${Z}/mealTicket/approve`, { id: ticket.id }, other.token);
      expect(elsewhere.body.status).toBe(404);
      expect((await info(ticket.id)).approvedStatus).toBe("-1");
      expect((await call("GET", `${Z}/mealTicket/getInfo?id=${ticket.id}`, undefined, other.token)).body.status).toBe(404);
    });

    test("dishware recovery: counts and weight in range, the recorder is the server's, 异常 needs a remark", async () => {
      const d = await diner();
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 5000 });
      const order = await ok(`${Z}/cashier/pay`, { userInfoId: d.id, amount: 1800 });
      const recovery = { orderId: order.orderId, bowlsReturned: 1, leftoverWeight: 0, recoveryStatus: "1" };
      const created = await ok(`${Z}/mealRecovery/create`, { orderId: order.orderId, orderNo: "冒名", userInfoId: 1, bowlsReturned: 3, leftoverWeight: 120, recoveryStatus: "1", recordedBy: "冒名" });
      expect(created).toMatchObject({ orderNo: order.orderNo, userInfoId: d.id, bowlsReturned: 3, leftoverWeight: 120, recoveryStatus: "1", recordedBy: `tk${dialect}管理员` });
      expectField((await call("POST", `${Z}/mealRecovery/create`, { ...recovery, orderId: 1 }, tenant.token)).body, "orderId", "所选订单不存在");
      expect(created.recordedAt).toBeTypeOf("number");
      expectField((await call("POST", `${Z}/mealRecovery/create`, { ...recovery, recoveryStatus: "2" }, tenant.token)).body, "remark", "回收状态为异常时，请在备注中说明情况");
      expectField((await call("POST", `${Z}/mealRecovery/create`, { ...recovery, bowlsReturned: -1 }, tenant.token)).body, "bowlsReturned", /回收餐具/);
      expectField((await call("POST", `${Z}/mealRecovery/create`, { ...recovery, leftoverWeight: 1.5 }, tenant.token)).body, "leftoverWeight", /剩余重量/);
      expectField((await call("POST", `${Z}/mealRecovery/create`, { ...recovery, recoveryStatus: "7" }, tenant.token)).body, "recoveryStatus", /不是可选的值/);
      expectField((await call("POST", `${Z}/mealRecovery/update`, { id: created.id, recoveryStatus: "2" }, tenant.token)).body, "remark", "回收状态为异常时");
      expect(await ok(`${Z}/mealRecovery/update`, { id: created.id, recoveryStatus: "2", remark: "缺一只碗" })).toMatchObject({ recoveryStatus: "2" });
    });
  });
}
