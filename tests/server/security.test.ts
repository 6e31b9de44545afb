import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { adminToken, createTestApp, loginAs, loginBody, ORIGIN, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createUser, uploadedReference } from "../helpers/fixtures";
import { createTenantWithAdmin, expectOk } from "../helpers/tenants";

const PARTNER = "https://partner.example";

for (const dialect of dialects) {
  describe(dialect, () => {
    let app: TestApp;
    let admin: string;

    beforeAll(async () => {
      app = await createTestApp(dialect, { IFRAME_ALLOWED_HOSTS: "partner.example" });
      admin = await adminToken(app);
    });
    afterAll(async () => {
      await app?.close();
    });

    describe("sign-in tickets", () => {
      const ticketFor = (token: string, path: string) => app.call<{ ticket: string; url: string }>("POST", "/api/v1/auth/ticket", { token, body: { path } });
      const exchange = (ticket: string, headers: Record<string, string> = {}) =>
        app.call("POST", "/api/v1/auth/ticket/exchange", { body: { ticket }, headers });

      test("a ticket is appended only to this site's paths and to allowed hosts", async () => {
        const own = await ticketFor(admin, "/admin/dashboard?from=menu");
        expect(own.body.status).toBe(200);
        expect(own.body.data.url).toBe(`/admin/dashboard?from=menu&ticket=${own.body.data.ticket}`);

        const report = await ticketFor(admin, "/iframe/reportview?url=%2Fadmin%2Fdashboard");
        expect(report.body.data.url).toBe(`/iframe/reportview?url=%2Fadmin%2Fdashboard&ticket=${report.body.data.ticket}`);
        const absolute = await ticketFor(admin, `${ORIGIN}/admin/dashboard`);
        expect(absolute.body.data.url).toBe(`/admin/dashboard?ticket=${absolute.body.data.ticket}`);

        const partner = await ticketFor(admin, `${PARTNER}/report`);
        expect(partner.body.data.url).toBe(`${PARTNER}/report?ticket=${partner.body.data.ticket}`);

        for (const path of ["https://evil.example/report", "//evil.example/x", "/.//evil.example", "/\\evil.example", "javascript:alert(1)", "https:evil.example"]) {
          const refused = await ticketFor(admin, path);
          expect(refused.body.status, path).toBe(400);
          expect(refused.body.message, path).toBe("不能为该地址发放登录票据：只允许本站页面或管理员允许的主机");
        }
      });

      test("the exchange refuses a request without the Origin of the host the ticket was issued for", async () => {
        const own = (await ticketFor(admin, "/admin/dashboard")).body.data.ticket;
        const noOrigin = await exchange(own);
        expect(noOrigin.body.status).toBe(403);
        expect(noOrigin.headers.get("Set-Cookie")).toBeNull();

        const partnerTicket = (await ticketFor(admin, `${PARTNER}/report`)).body.data.ticket;
        const atHome = await exchange(partnerTicket, { Origin: ORIGIN });
        expect(atHome.body.status).toBe(403);
        expect(atHome.body.message).toBe("登录票据只能由签发时指定的站点兑换");

        const ownAtPartner = (await ticketFor(admin, "/admin/dashboard")).body.data.ticket;
        expect((await exchange(ownAtPartner, { Origin: PARTNER })).body.status).toBe(403);

        const good = (await ticketFor(admin, `${PARTNER}/report`)).body.data.ticket;
        const exchanged = await exchange(good, { Origin: PARTNER });
        expect(exchanged.body.status).toBe(200);
        expect(exchanged.headers.get("Set-Cookie")).toMatch(/^Admin-Token=/);
      });

      test("a ticket never replaces the session of another user signed in here", async () => {
        await createUser(app, { userName: "victim01", password: "Victim-Pass-2026" });
        const victim = await loginAs(app, "victim01", "Victim-Pass-2026");
        const ticket = (await ticketFor(admin, "/admin/dashboard")).body.data.ticket;
        const refused = await exchange(ticket, { Origin: ORIGIN, Cookie: `Admin-Token=${victim}` });
        expect(refused.body.status).toBe(409);
        expect(refused.body.message).toBe("当前浏览器已登录其他账号，票据未使用");
        expect(refused.headers.get("Set-Cookie")).toBeNull();
        const info = await app.call<{ userName: string }>("GET", "/api/v1/auth/user/info", { cookie: `Admin-Token=${victim}` });
        expect(info.body.data.userName).toBe("victim01");
      });
    });

    describe("sessions and secrets", () => {
      test("disabling a user ends its sessions: enabling it again does not bring the old token back", async () => {
        const id = await createUser(app, { userName: "paused01", password: "Paused-Pass-2026" });
        const token = await loginAs(app, "paused01", "Paused-Pass-2026");
        const info = () => app.call("GET", "/api/v1/auth/user/info", { token });
        expect((await info()).body.status).toBe(200);
        const setStatus = async (status: string) => {
          const current = await expectOk<{ updatedAt: number }>(app, "GET", `/api/v1/auth/user/getInfo?id=${id}`, admin);
          await expectOk(app, "POST", "/api/v1/auth/user/update", admin, { id, updatedAt: current.updatedAt, status });
        };
        await setStatus("2");
        expect((await info()).body.status).toBe(50014);
        await setStatus("1");
        expect((await info()).body.status).toBe(50014);
        expect(await loginAs(app, "paused01", "Paused-Pass-2026")).toBeTruthy();
      });

      test("disabling a tenant ends its users' sessions", async () => {
        const tenant = await createTenantWithAdmin(app, admin, "paused");
        const info = () => app.call("GET", "/api/v1/auth/user/info", { token: tenant.token });
        expect((await info()).body.status).toBe(200);
        const setStatus = async (status: string) => {
          const current = await expectOk<{ updatedAt: number }>(app, "GET", `/api/v1/sys/tenant/getInfo?id=${tenant.tenantId}`, admin);
          await expectOk(app, "POST", "/api/v1/sys/tenant/update", admin, { id: tenant.tenantId, updatedAt: current.updatedAt, status });
        };
        await setStatus("0");
        await setStatus("1");
        expect((await info()).body.status).toBe(50014);
      });

      test("wrong old passwords on modifyPasswd count toward the sign-in lock", async () => {
        await createUser(app, { userName: "guessed01", password: "Guessed-Pass-2026" });
        const token = await loginAs(app, "guessed01", "Guessed-Pass-2026");
        const attempt = () =>
          app.call<{ fieldErrors: Record<string, string[]> }>("POST", "/api/v1/auth/user/modifyPasswd", {
            token,
            body: { oldPassword: "Wrong-Guess-2026", newPassword: "Another-Pass-2026" },
          });
        for (let i = 1; i < 5; i++) expect((await attempt()).body.data.fieldErrors.oldPassword).toEqual(["原密码错误"]);
        expect((await attempt()).body.data.fieldErrors.oldPassword).toEqual(["原密码错误，失败次数过多，账号已锁定 15 分钟"]);
        const signIn = await app.call("POST", "/login", { body: loginBody("guessed01", "Guessed-Pass-2026") });
        expect(signIn.body.status).toBe(429);
        const again = await app.call("POST", "/api/v1/auth/user/modifyPasswd", { token, body: { oldPassword: "Guessed-Pass-2026", newPassword: "Another-Pass-2026" } });
        expect(again.body.status).toBe(429);
      });

      test("printerKey is write-only: masked in answers, never listed or exported, kept when an edit leaves it empty", async () => {
        const created = await expectOk<{ id: number; printerKey: string }>(app, "POST", "/api/v1/sys/printDevice/create", admin, {
          printerName: "一号打印机",
          printerSn: "SN0001",
          printerKey: "vendor-secret-key-1",
          status: "1",
        });
        expect(created.printerKey).toBe("******");
        const stored = async () =>
          (await sql<{ printer_key: string }>`select printer_key from print_device where id = ${created.id}`.execute(app.database.db)).rows[0];
        const info = await expectOk<{ printerKey: string; updatedAt: number }>(app, "GET", `/api/v1/sys/printDevice/getInfo?id=${created.id}`, admin);
        expect(info.printerKey).toBe("******");
        const page = await app.call("GET", "/api/v1/sys/printDevice/findPage", { token: admin });
        expect(JSON.stringify(page.body)).not.toContain("vendor-secret-key-1");
        const exported = await app.api.handle(
          new Request(`${ORIGIN}/api/v1/sys/printDevice/export?format=csv`, { headers: { Authorization: `Bearer ${admin}` } }),
          "127.0.0.1",
        );
        const text = await exported.text();
        expect(exported.status).toBe(200);
        expect(text).toContain("SN0001");
        expect(text).not.toContain("vendor-secret-key-1");
        expect(text).not.toContain("打印机密钥");

        for (const printerKey of ["", "******"]) {
          const current = await expectOk<{ updatedAt: number }>(app, "GET", `/api/v1/sys/printDevice/getInfo?id=${created.id}`, admin);
          await expectOk(app, "POST", "/api/v1/sys/printDevice/update", admin, { id: created.id, updatedAt: current.updatedAt, printerName: "一号", printerKey });
          expect((await stored()).printer_key).toBe("vendor-secret-key-1");
        }
        const current = await expectOk<{ updatedAt: number }>(app, "GET", `/api/v1/sys/printDevice/getInfo?id=${created.id}`, admin);
        await expectOk(app, "POST", "/api/v1/sys/printDevice/update", admin, { id: created.id, updatedAt: current.updatedAt, printerKey: "vendor-secret-key-2" });
        expect((await stored()).printer_key).toBe("vendor-secret-key-2");
        const log = await app.database.db.selectFrom("operation_log").select("changes").where("entity_id", "=", created.id).execute();
        expect(log.length).toBeGreaterThan(1);
        for (const row of log) expect(row.changes).not.toMatch(/vendor-secret-key/);
      });

      test("image and file fields accept only references to files uploaded here", async () => {
        const create = (image: unknown) =>
          app.call<{ fieldErrors: Record<string, string[]> }>("POST", "/api/v1/sys/imageObj/create", { token: admin, body: { name: "标志", imageType: "logo", image, status: "1" } });
        const tenant = await createTenantWithAdmin(app, admin, "files");
        const foreign = await uploadedReference(app, "image", tenant.tenantId);
        const notAPicture = await uploadedReference(app, "file");
        for (const image of [
          "javascript:alert(1)",
          "http://evil.example/logo.png",
          "//evil.example/x.png",
          "data:text/html,<script>alert(1)</script>",
          "/api/v1/sys/file/view?id=1&x=//evil.example",
          "/api/v1/sys/file/view?id=999999999",
          foreign,
          notAPicture,
        ]) {
          const refused = await create(image);
          expect(refused.body.status, image).toBe(400);
          expect(refused.body.data.fieldErrors.image, image).toEqual(["图片只能是本站上传的文件"]);
        }
        expect((await create(await uploadedReference(app, "image"))).body.status).toBe(200);

        const avatar = await app.call<{ fieldErrors: Record<string, string[]> }>("POST", "/api/v1/auth/user/updateProfile", { token: admin, body: { avatar: "http://evil.example/me.png" } });
        expect(avatar.body.data.fieldErrors.avatar).toEqual(["头像只能是本站上传的图片"]);
      });

      test("getWeappQRCode with a malformed Authorization parameter answers a 401 envelope", async () => {
        for (const value of ["令牌", "abc%00def", "abc%0d%0aX-Evil:%201"]) {
          const result = await app.call("GET", `/api/v1/sys/tenant/getWeappQRCode?Authorization=${encodeURIComponent(decodeURIComponent(value))}`);
          expect(result.http, value).toBe(401);
          expect(result.body).toEqual({ status: 401, message: "非法令牌，请重新登录", data: null });
        }
      });
    });
  });
}
