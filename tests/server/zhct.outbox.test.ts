import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { drainOutbox, enqueueMessage, MAX_ATTEMPTS, MessageState, outboxMessages, type MessageSender, type OutgoingMessage } from "../../server/modules/zhct/outbox";
import { DEFAULT_TENANT_ID } from "../../server/modules/seed";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
const Z = "/api/v1/zhct/userInfoSendMessage";

/** A sender that records what it was given, failing the first `failures` sends. */
function recorder(failures = 0): MessageSender & { sent: OutgoingMessage[]; tries: number } {
  const self = {
    sent: [] as OutgoingMessage[],
    tries: 0,
    async send(message: OutgoingMessage) {
      self.tries += 1;
      // A send takes a moment, so racing dispatchers overlap.
      await new Promise((r) => setTimeout(r, 2));
      if (self.tries <= failures) throw new Error(`网关超时 ${self.tries}`);
      self.sent.push(message);
    },
  };
  return self;
}

for (const dialect of dialects) {
  describe(`${dialect}: message outbox`, () => {
    let app: TestApp;
    let token: string;
    let other: TenantFixture;

    const row = (id: number) => app.database.db.selectFrom("user_info_send_message").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    const clearOutbox = () => app.database.db.deleteFrom("user_info_send_message").execute();

    beforeAll(async () => {
      app = await createTestApp(dialect);
      token = await adminToken(app);
      other = await createTenantWithAdmin(app, token, "msg");
    });
    afterAll(async () => {
      await app?.close();
    });

    test("a message enqueued in a transaction that rolls back is never sent; one that commits is sent once", async () => {
      await clearOutbox();
      await expect(
        app.database.db.transaction().execute(async (trx) => {
          await enqueueMessage(trx, { tenantId: DEFAULT_TENANT_ID, recipientName: "张三", phone: "13800000001", content: "回滚的消息" });
          throw new Error("rollback");
        }),
      ).rejects.toThrow("rollback");
      const id = await app.database.db.transaction().execute((trx) =>
        enqueueMessage(trx, { tenantId: DEFAULT_TENANT_ID, recipientName: "张三", phone: "13800000001", templateCode: "charge", content: "您已充值 100.00 元", relatedEntity: "zhct/userAccountCharge", relatedId: 42 }),
      );
      const sender = recorder();
      expect(await drainOutbox(app.database.db, sender, { holder: "a" })).toEqual({ sent: 1, failed: 0, retried: 0 });
      expect(await drainOutbox(app.database.db, sender, { holder: "a" })).toEqual({ sent: 0, failed: 0, retried: 0 });
      expect(sender.sent.map((m) => m.content)).toEqual(["您已充值 100.00 元"]);
      expect(await row(id)).toMatchObject({ state: MessageState.sent, attempts: 1, last_error: null, lease_holder: null });
      expect(Number((await row(id)).sent_at)).toBeGreaterThan(0);

      await expect(app.database.db.transaction().execute((trx) => enqueueMessage(trx, { tenantId: 1, recipientName: "张三", content: " " }))).rejects.toMatchObject({ message: outboxMessages.content });
      await expect(app.database.db.transaction().execute((trx) => enqueueMessage(trx, { tenantId: 1, recipientName: "", content: "x" }))).rejects.toMatchObject({ message: outboxMessages.recipient });
    });

    test("three dispatchers racing over the same outbox send every message exactly once", async () => {
      await clearOutbox();
      await app.database.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 30; i++) await enqueueMessage(trx, { tenantId: i % 2 ? DEFAULT_TENANT_ID : other.tenantId, recipientName: `人员${i}`, content: `消息${i}` });
      });
      const sender = recorder();
      const results = await Promise.all([
        drainOutbox(app.database.db, sender, { holder: "one" }),
        drainOutbox(app.database.db, sender, { holder: "two" }),
        drainOutbox(app.database.db, sender, { holder: "three" }),
      ]);
      expect(results.reduce((n, r) => n + r.sent, 0)).toBe(30);
      expect(sender.sent).toHaveLength(30);
      expect(new Set(sender.sent.map((m) => m.content)).size).toBe(30);
      const states = await app.database.db.selectFrom("user_info_send_message").select(["state", "attempts"]).execute();
      expect(states.every((s) => s.state === MessageState.sent && s.attempts === 1)).toBe(true);
    });

    test("a failing sender retries later, then marks the message failed with its attempts and reason; 重发 sends it again", async () => {
      await clearOutbox();
      const id = await app.database.db.transaction().execute((trx) => enqueueMessage(trx, { tenantId: DEFAULT_TENANT_ID, recipientName: "李四", phone: "13900000002", content: "补贴已发放" }));
      let clock = Date.now();
      const now = () => clock;
      const failing = recorder(99);
      expect(await drainOutbox(app.database.db, failing, { holder: "a", now })).toEqual({ sent: 0, failed: 0, retried: 1 });
      expect(await row(id)).toMatchObject({ state: MessageState.pending, attempts: 1, last_error: "网关超时 1" });
      // Not due yet: the next try waits.
      expect(await drainOutbox(app.database.db, failing, { holder: "a", now })).toEqual({ sent: 0, failed: 0, retried: 0 });
      for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
        clock += 10 * 60_000;
        await drainOutbox(app.database.db, failing, { holder: "a", now });
      }
      expect(await row(id)).toMatchObject({ state: MessageState.failed, attempts: MAX_ATTEMPTS, last_error: `网关超时 ${MAX_ATTEMPTS}` });
      clock += 60 * 60_000;
      expect(await drainOutbox(app.database.db, failing, { holder: "a", now })).toEqual({ sent: 0, failed: 0, retried: 0 });

      // The list shows it failed; 重发 puts it back, and the next round sends it.
      const page = await app.call<{ records: Row[] }>("GET", `${Z}/findPage?state=2`, { token });
      expect(page.body.data.records.map((r) => [r.id, r.recipientName, r.state, r.attempts])).toEqual([[id, "李四", "2", MAX_ATTEMPTS]]);
      expect((await app.call("POST", `${Z}/resend`, { token, body: { id } })).body).toMatchObject({ status: 200 });
      expect((await app.call("POST", `${Z}/resend`, { token, body: { id } })).body).toMatchObject({ status: 409, message: outboxMessages.notFailed });
      const ok = recorder();
      expect(await drainOutbox(app.database.db, ok, { holder: "b" })).toEqual({ sent: 1, failed: 0, retried: 0 });
      expect(await row(id)).toMatchObject({ state: MessageState.sent, attempts: MAX_ATTEMPTS + 1, last_error: null });
    });

    test("a dispatcher that died holding a claim loses it when the claim expires", async () => {
      await clearOutbox();
      const id = await app.database.db.transaction().execute((trx) => enqueueMessage(trx, { tenantId: DEFAULT_TENANT_ID, recipientName: "王五", content: "x" }));
      const at = Date.now();
      await app.database.db.updateTable("user_info_send_message").set({ lease_holder: "dead", leased_until: at + 60_000 }).where("id", "=", id).execute();
      const sender = recorder();
      expect((await drainOutbox(app.database.db, sender, { holder: "live", now: () => at })).sent).toBe(0);
      expect((await drainOutbox(app.database.db, sender, { holder: "live", now: () => at + 61_000 })).sent).toBe(1);
    });

    test("resend and the list stay within the tenant and need their permission", async () => {
      await clearOutbox();
      const id = await app.database.db.transaction().execute((trx) => enqueueMessage(trx, { tenantId: DEFAULT_TENANT_ID, recipientName: "赵六", content: "x" }));
      await app.database.db.updateTable("user_info_send_message").set({ state: MessageState.failed }).where("id", "=", id).execute();
      expect((await app.call("POST", `${Z}/resend`, { token: other.token, body: { id } })).body).toMatchObject({ status: 404 });
      expect((await app.call<{ total: number }>("GET", `${Z}/findPage`, { token: other.token })).body.data.total).toBe(0);
      expect((await app.call("POST", `${Z}/resend`, { token, body: { id: "x" } })).body.status).toBe(400);
      expect((await app.call("POST", `${Z}/create`, { token, body: { recipientName: "a", content: "b" } })).body.status).toBe(404);
    });
  });
}
