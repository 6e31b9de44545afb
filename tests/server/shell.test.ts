import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { defaultSettings } from "../../resources/auth";
import { newId } from "../../server/db";
import { ADMIN_ROLE_ID, DEFAULT_TENANT_ID, seedMenus } from "../../server/modules/seed";
import { applySecurityHeaders } from "../../server/http/security";
import { bumpShellGeneration } from "../../server/modules/auth/shellCache";
import { createTestApp, loginAs, adminToken, ORIGIN, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createUser, freezeDate, setDate, uploadedReference } from "../helpers/fixtures";

const SAVE = "/api/v1/auth/user/saveSettings";
const INFO = "/api/v1/auth/user/info";
const C = "/api/v1/zhct/mealOrderComplaints";
const sameOrigin = { Origin: ORIGIN };

interface Complaint {
  id: number;
  orderNo: string;
  content: string;
  status: string;
  complainantId: number | null;
  complainantName: string | null;
  reply: string | null;
  handlerName: string | null;
  handledAt: number | null;
  revokedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

function cookieValue(headers: Headers, name: string): string | null {
  for (const cookie of headers.getSetCookie()) {
    const [pair] = cookie.split(";");
    const index = pair.indexOf("=");
    if (pair.slice(0, index) === name) return decodeURIComponent(pair.slice(index + 1));
  }
  return null;
}

for (const dialect of dialects) {
  describe(dialect, () => {
    let app: TestApp;
    let admin: string;
    let count = 0;
    let roleSeq = 100;

    async function roleWith(code: string, menuIds: number[], roleType = "user") {
      const id = ++roleSeq;
      const now = Date.now();
      const { db } = app.database;
      await db
        .insertInto("role")
        .values({ tenant_id: DEFAULT_TENANT_ID, id, role_code: code, role_name: code, role_type: roleType, status: 1, remark: null, created_at: now, created_by: null, updated_at: now, updated_by: null })
        .execute();
      for (const menuId of menuIds) await db.insertInto("role_menu").values({ tenant_id: DEFAULT_TENANT_ID, role_id: id, menu_id: menuId }).execute();
      return id;
    }

    async function newUser(roleIds: number[] = []) {
      const userName = `shell${++count}`;
      const password = `Shell-Pass-${count}-2026`;
      const id = await createUser(app, { userName, password, roleIds });
      return { id, userName, token: await loginAs(app, userName, password) };
    }

    beforeAll(async () => {
      app = await createTestApp(dialect, { IFRAME_ALLOWED_HOSTS: "bi.example.com, report.example.org:8443" });
      admin = await adminToken(app);
    });
    afterAll(async () => {
      await app?.close();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    describe("user settings", () => {
      test("a partial save merges over what is stored and comes back in user info", async () => {
        const { token } = await newUser([ADMIN_ROLE_ID]);
        const before = await app.call<{ settings: typeof defaultSettings }>("GET", INFO, { token });
        expect(before.body.data.settings).toEqual(defaultSettings);

        const first = await app.call<Record<string, unknown>>("POST", SAVE, { token, body: { tagsView: false, theme: "#13C2C2" } });
        expect(first.body.status).toBe(200);
        expect(first.body.data).toMatchObject({ tagsView: false, fixedHeader: true, sidebarLogo: true, theme: "#13c2c2" });

        await app.call("POST", SAVE, { token, body: { fixedHeader: false, navigationMode: "left", tables: { "sys/tenant": { hidden: ["remark"], density: "xs" } } } });
        await app.call("POST", SAVE, { token, body: { tables: { "auth/role": { hidden: [], density: "xl" } } } });
        const info = await app.call<{ settings: Record<string, unknown>; navigationMode: string }>("GET", INFO, { token });
        expect(info.body.data.navigationMode).toBe("left");
        expect(info.body.data.settings).toEqual({
          tagsView: false,
          fixedHeader: false,
          sidebarLogo: true,
          theme: "#13c2c2",
          tables: { "sys/tenant": { hidden: ["remark"], density: "xs" }, "auth/role": { hidden: [], density: "xl" } },
        });
      });

      test("settings follow the user to another terminal, not to other users", async () => {
        const user = await newUser([ADMIN_ROLE_ID]);
        await app.call("POST", SAVE, { token: user.token, body: { sidebarLogo: false } });
        const other = await loginAs(app, user.userName, `Shell-Pass-${count}-2026`);
        expect((await app.call<{ settings: { sidebarLogo: boolean } }>("GET", INFO, { token: other })).body.data.settings.sidebarLogo).toBe(false);
        expect((await app.call<{ settings: { sidebarLogo: boolean } }>("GET", INFO, { token: admin })).body.data.settings.sidebarLogo).toBe(true);
      });

      test("bad values and unknown keys are refused with field messages", async () => {
        const { token } = await newUser([ADMIN_ROLE_ID]);
        for (const body of [{ theme: "red" }, { tagsView: "yes" }, { navigationMode: "bottom" }, { colour: "#000000" }, { tables: { x: { hidden: [], density: "huge" } } }]) {
          const result = await app.call<{ fieldErrors: Record<string, string[]> }>("POST", SAVE, { token, body });
          expect(result.body.status, JSON.stringify(body)).toBe(400);
          expect(Object.keys(result.body.data.fieldErrors).length).toBeGreaterThan(0);
        }
        expect((await app.call("POST", SAVE, { body: { tagsView: true } })).body.status).toBe(401);
      });

      test("the profile shows and changes the own name, avatar, phone and navigation mode", async () => {
        const { token, userName } = await newUser([ADMIN_ROLE_ID]);
        const avatar = await uploadedReference(app, "image");
        const saved = await app.call("POST", "/api/v1/auth/user/updateProfile", {
          token,
          body: { realName: "王小明", avatar, phone: "138 0000 0000", navigationMode: "left" },
        });
        expect(saved.body.status).toBe(200);
        const profile = await app.call("GET", "/api/v1/auth/user/profile", { token });
        expect(profile.body.data).toEqual({ userName, realName: "王小明", avatar, phone: "138 0000 0000", navigationMode: "left" });
        const bad = await app.call<{ fieldErrors: Record<string, string[]> }>("POST", "/api/v1/auth/user/updateProfile", {
          token,
          body: { avatar: "javascript:alert(1)", phone: "call me" },
        });
        expect(bad.body.status).toBe(400);
        expect(bad.body.data.fieldErrors).toHaveProperty("avatar");
      });
    });

    describe("one-time tickets for new windows", () => {
      async function exchange(ticket: string) {
        return app.call<{ expiresAt: number }>("POST", "/api/v1/auth/ticket/exchange", { body: { ticket }, headers: sameOrigin });
      }
      const forPage = { path: "/admin/dashboard" };

      test("a ticket becomes a session cookie once, never the caller's token", async () => {
        const { token } = await newUser([ADMIN_ROLE_ID]);
        const issued = await app.call<{ ticket: string; expiresAt: number }>("POST", "/api/v1/auth/ticket", { token, body: forPage, headers: sameOrigin });
        expect(issued.body.status).toBe(200);
        expect(issued.body.data.ticket).not.toContain(token);
        const first = await exchange(issued.body.data.ticket);
        expect(first.body.status).toBe(200);
        expect(JSON.stringify(first.body)).not.toContain(token);
        const cookie = cookieValue(first.headers, "Admin-Token");
        expect(cookie).toBeTruthy();
        expect(cookie).not.toBe(token);
        expect(first.headers.getSetCookie()[0]).toMatch(/HttpOnly/);
        const info = await app.call<{ userName: string }>("GET", INFO, { cookie: `Admin-Token=${cookie}` });
        expect(info.body.status).toBe(200);

        const again = await exchange(issued.body.data.ticket);
        expect(again.body.status).toBe(401);
        expect(again.body.message).toBe("链接已失效，请重新登录");
        expect(cookieValue(again.headers, "Admin-Token")).toBeNull();
      });

      test("a ticket expires after 60 s and dies with the session that asked for it", async () => {
        const { token } = await newUser([ADMIN_ROLE_ID]);
        const t0 = Date.now();
        freezeDate(t0);
        const old = await app.call<{ ticket: string }>("POST", "/api/v1/auth/ticket", { token, body: forPage });
        setDate(t0 + 61_000);
        expect((await exchange(old.body.data.ticket)).body.status).toBe(401);
        vi.useRealTimers();

        const second = await app.call<{ ticket: string }>("POST", "/api/v1/auth/ticket", { token, body: forPage });
        await app.call("POST", "/logout", { token });
        expect((await exchange(second.body.data.ticket)).body.status).toBe(401);
        expect((await exchange("x".repeat(43))).body.status).toBe(401);
        expect((await app.call("POST", "/api/v1/auth/ticket", { body: forPage })).body.status).toBe(401);
      });

      test("the ticket table keeps only hashes", async () => {
        const { token } = await newUser([ADMIN_ROLE_ID]);
        const issued = await app.call<{ ticket: string }>("POST", "/api/v1/auth/ticket", { token, body: forPage });
        const rows = JSON.stringify(await app.database.db.selectFrom("login_ticket").selectAll().execute());
        expect(rows).not.toContain(issued.body.data.ticket);
        expect(rows).not.toContain(token);
      });
    });

    describe("logo, iframes and the shell's own information", () => {
      test("findLogoImage is empty, then the newest enabled logo of the tenant", async () => {
        const logo = () => app.call<string>("GET", "/api/v1/sys/imageObj/findLogoImage", { token: admin });
        expect((await logo()).body).toMatchObject({ status: 200, data: "" });
        const create = (body: Record<string, unknown>) => app.call("POST", "/api/v1/sys/imageObj/create", { token: admin, body, headers: sameOrigin });
        const [banner, oldLogo, newLogo, offLogo] = [await uploadedReference(app, "image"), await uploadedReference(app, "image"), await uploadedReference(app, "image"), await uploadedReference(app, "image")];
        expect((await create({ name: "横幅", imageType: "banner", image: banner, status: "1" })).body.status).toBe(200);
        expect((await logo()).body.data).toBe("");
        expect((await create({ name: "旧标志", imageType: "logo", image: oldLogo, status: "1" })).body.status).toBe(200);
        await new Promise((r) => setTimeout(r, 5));
        expect((await create({ name: "新标志", imageType: "logo", image: newLogo, status: "1" })).body.status).toBe(200);
        await new Promise((r) => setTimeout(r, 5));
        expect((await create({ name: "停用标志", imageType: "logo", image: offLogo, status: "0" })).body.status).toBe(200);
        expect((await logo()).body.data).toBe(newLogo);
        expect((await app.call("GET", "/api/v1/sys/imageObj/findLogoImage")).body.status).toBe(401);
      });

      test("iframes take same-site paths and allowed hosts only", async () => {
        const resolve = (url: string) => app.call<{ src: string }>("GET", `/api/v1/sys/iframe/resolve?url=${encodeURIComponent(url)}`, { token: admin });
        expect((await resolve("/report/foodcount?month=2026-01")).body.data.src).toBe("/report/foodcount?month=2026-01");
        expect((await resolve(`${ORIGIN}/admin/dashboard`)).body.data.src).toBe("/admin/dashboard");
        expect((await resolve("https://bi.example.com/board/1")).body.data.src).toBe("https://bi.example.com/board/1");
        expect((await resolve("https://report.example.org:8443/x")).body.data.src).toBe("https://report.example.org:8443/x");
        for (const url of ["https://evil.example/", "javascript:alert(1)", "//evil.example/x", "/iframe/reportview?url=/x", "data:text/html,hi"]) {
          const result = await resolve(url);
          expect(result.body.status, url).toBe(400);
          expect(result.body.message).toBe("不允许内嵌该地址");
        }
      });

      test("the CSP lets pages frame this site and the allowed hosts only", () => {
        const headers = new Headers();
        applySecurityHeaders(headers, "n0nce", false, ["bi.example.com", "report.example.org:8443"]);
        const frameSrc = headers.get("Content-Security-Policy")?.split("; ").find((d) => d.startsWith("frame-src"));
        expect(frameSrc).toBe("frame-src 'self' https://bi.example.com http://bi.example.com https://report.example.org:8443 http://report.example.org:8443");
        const plain = new Headers();
        applySecurityHeaders(plain, "n0nce", false);
        expect(plain.get("Content-Security-Policy")?.split("; ")).toContain("frame-src 'self'");
        expect(plain.get("Content-Security-Policy")?.split("; ")).toContain("script-src 'self' 'nonce-n0nce'");
        // API and file responses run no inline script: their policy names no nonce.
        const api = new Headers();
        applySecurityHeaders(api, undefined, false);
        expect(api.get("Content-Security-Policy")?.split("; ")).toContain("script-src 'self'");
        expect(api.get("X-Content-Type-Options")).toBe("nosniff");
      });

      test("shellInfo lists the subsystems a user has menus in and the role-restricted routes", async () => {
        const { db } = app.database;
        const complaintsPage = seedMenus().find((m) => m.menu_path === "/zhct/mealordercomplaints/index");
        const group = seedMenus().find((m) => m.menu_path === "/zhct");
        expect(complaintsPage && group).toBeTruthy();
        const roleId = await roleWith("zhctOnly", [group!.id, complaintsPage!.id]);
        const { token } = await newUser([roleId]);
        await db.updateTable("menu").set({ roles: "auditor, admin" }).where("id", "=", complaintsPage!.id).execute();
        try {
          type Info = { subsystems: Array<{ sysCode: string }>; routeRoles: Array<{ path: string; roles: string[] }> };
          const mine = await app.call<Info>("GET", "/api/v1/auth/user/shellInfo", { token });
          expect(mine.body.data.subsystems.map((s) => s.sysCode)).toEqual(["zhct"]);
          expect(mine.body.data.routeRoles).toContainEqual({ path: "/zhct/mealordercomplaints/index", roles: ["auditor", "admin"] });
          const all = await app.call<Info>("GET", "/api/v1/auth/user/shellInfo", { token: admin });
          expect(all.body.data.subsystems.map((s) => s.sysCode)).toEqual(["admin", "zhct", "report", "zhhq", "sc"]);
        } finally {
          await db.updateTable("menu").set({ roles: null }).where("id", "=", complaintsPage!.id).execute();
        }
      });
    });

    describe("meal-order complaints", () => {
      let complainant: { id: number; token: string };
      let handler: string;
      let bystander: string;

      beforeAll(async () => {
        const menus = seedMenus().filter((m) => m.subsystem_id === 2);
        const all = menus.map((m) => m.id);
        const noProcess = menus.filter((m) => m.permission !== "zhct:mealOrderComplaints:process").map((m) => m.id);
        complainant = await newUser([await roleWith("diner", noProcess)]);
        handler = (await newUser([await roleWith("handler", all)])).token;
        bystander = (await newUser([await roleWith("bystander", noProcess)])).token;
      });

      const create = (token: string, body: Record<string, unknown>) => app.call<Complaint>("POST", `${C}/create`, { token, body, headers: sameOrigin });
      const process = (token: string, body: Record<string, unknown>) => app.call<Complaint>("POST", `${C}/process`, { token, body, headers: sameOrigin });
      const revoke = (token: string, id: number) => app.call<Complaint>("POST", `${C}/revoke`, { token, body: { id }, headers: sameOrigin });
      const info = (id: number) => app.call<Complaint>("GET", `${C}/getInfo?id=${id}`, { token: handler });

      test("create records the caller as complainant and starts unprocessed, whatever the body says", async () => {
        const result = await create(complainant.token, {
          orderNo: "DD20260101001",
          content: "少了一份米饭",
          status: "2",
          complainantId: 999,
          complainantName: "别人",
          reply: "已处理",
        });
        expect(result.body.status).toBe(200);
        expect(result.body.data).toMatchObject({ orderNo: "DD20260101001", status: "0", complainantId: complainant.id, reply: null, handlerName: null });
        expect(result.body.data.complainantName).toMatch(/^shell\d+$/);
        const missing = await create(complainant.token, { orderNo: "" });
        expect(missing.body.status).toBe(400);
      });

      test("process moves unprocessed to processed, recording who and when; a second process is a 409", async () => {
        const { data: created } = (await create(complainant.token, { orderNo: "DD2", content: "菜凉了" })).body;
        const edited = await app.call<Complaint>("POST", `${C}/update`, { token: complainant.token, body: { id: created.id, content: "菜是凉的" }, headers: sameOrigin });
        expect(edited.body.status).toBe(200);
        const before = Date.now();
        const done = await process(handler, { id: created.id, result: "processed", reply: "已补发一份热菜" });
        expect(done.body.status).toBe(200);
        expect(done.body.data).toMatchObject({ status: "2", reply: "已补发一份热菜", handlerName: expect.stringMatching(/^shell\d+$/) });
        expect(done.body.data.handledAt).toBeGreaterThanOrEqual(before);
        expect((await info(created.id)).body.data.status).toBe("2");

        for (const step of [
          () => process(handler, { id: created.id, result: "rejected", reply: "再驳回" }),
          () => revoke(complainant.token, created.id),
          () => app.call("POST", `${C}/update`, { token: complainant.token, body: { id: created.id, content: "改" }, headers: sameOrigin }),
        ]) {
          const result = await step();
          expect(result.body.status).toBe(409);
          expect(result.body.message).toBe("该申诉当前为「已处理」，不能" + (result.body.message.endsWith("处理") ? "处理" : result.body.message.endsWith("撤销") ? "撤销" : "修改"));
        }
        const log = await app.database.db.selectFrom("operation_log").select(["action", "user_name"]).where("entity_id", "=", created.id).execute();
        expect(log.map((l) => l.action)).toEqual(expect.arrayContaining(["create", "update", "process"]));
      });

      test("reject needs a reply; rejected is final", async () => {
        const { data: created } = (await create(complainant.token, { orderNo: "DD3", content: "扣费错误" })).body;
        const noReply = await process(handler, { id: created.id, result: "rejected", reply: "  " });
        expect(noReply.body.status).toBe(400);
        expect(noReply.body.message).toContain("请填写处理回复");
        expect((await process(handler, { id: created.id, result: "ignored", reply: "x" })).body.status).toBe(400);
        const rejected = await process(handler, { id: created.id, result: "rejected", reply: "扣费无误" });
        expect(rejected.body.data.status).toBe("3");
        const again = await process(handler, { id: created.id, result: "processed", reply: "x" });
        expect(again.body).toMatchObject({ status: 409, message: "该申诉当前为「已驳回」，不能处理" });
      });

      test("only the complainant revokes, and only while unprocessed; revoked is final", async () => {
        const { data: created } = (await create(complainant.token, { orderNo: "DD4", content: "重复扣款" })).body;
        const notMine = await revoke(bystander, created.id);
        expect(notMine.body).toMatchObject({ status: 403, message: "只有申诉人本人可以撤销申诉" });
        const revoked = await revoke(complainant.token, created.id);
        expect(revoked.body.status).toBe(200);
        expect(revoked.body.data.status).toBe("1");
        expect(revoked.body.data.revokedAt).toBeGreaterThan(0);
        expect((await process(handler, { id: created.id, result: "processed", reply: "x" })).body).toMatchObject({
          status: 409,
          message: "该申诉当前为「已撤销」，不能处理",
        });
        expect((await revoke(complainant.token, created.id)).body.status).toBe(409);
        expect((await revoke(complainant.token, 12345)).body.status).toBe(404);
      });

      test("two handlers racing: one wins, the other gets the 409", async () => {
        const { data: created } = (await create(complainant.token, { orderNo: "DD5", content: "并发" })).body;
        const results = await Promise.all([
          process(handler, { id: created.id, result: "processed", reply: "甲" }),
          process(handler, { id: created.id, result: "rejected", reply: "乙" }),
        ]);
        expect(results.map((r) => r.body.status).sort()).toEqual([200, 409]);
      });

      test("getComplaintsCount counts unprocessed ones as a string with the newest time; findPage filters by status", async () => {
        type Count = { complaintsCount: string; maxCreatedTime: number | null };
        const counted = await app.call<Count>("GET", `${C}/getComplaintsCount`, { token: handler });
        const page = await app.call<{ records: Complaint[]; total: number }>("GET", `${C}/findPage?status=0&pageSize=100`, { token: handler });
        expect(counted.body.data.complaintsCount).toBe(String(page.body.data.total));
        expect(typeof counted.body.data.complaintsCount).toBe("string");
        expect(counted.body.data.maxCreatedTime).toBe(Math.max(...page.body.data.records.map((r) => r.createdAt)));
        const { data: newer } = (await create(complainant.token, { orderNo: "DD6", content: "新的" })).body;
        const after = await app.call<Count>("GET", `${C}/getComplaintsCount`, { token: handler });
        expect(after.body.data.complaintsCount).toBe(String(page.body.data.total + 1));
        expect(after.body.data.maxCreatedTime).toBe(newer.createdAt);
        const processed = await app.call<{ records: Complaint[] }>("GET", `${C}/findPage?status=2`, { token: handler });
        expect(processed.body.data.records.every((r) => r.status === "2")).toBe(true);
        expect((await app.call("GET", `${C}/getComplaintsCount`, { token: (await newUser([])).token })).body.status).toBe(403);
      });

      test("another tenant sees none of them", async () => {
        const { db } = app.database;
        const now = Date.now();
        await db.insertInto("tenant").values({ id: 77, tenant_name: "别家", tenant_code: "other77", contact_name: null, contact_phone: null, address: null, expire_date: null, status: 1, remark: null, created_at: now, created_by: null, updated_at: now, updated_by: null }).execute();
        await db.insertInto("role").values({ tenant_id: 77, id: newId(), role_code: "admin", role_name: "管理员", role_type: "admin", status: 1, remark: null, created_at: now, created_by: null, updated_at: now, updated_by: null }).execute();
        const role = await db.selectFrom("role").select("id").where("tenant_id", "=", 77).executeTakeFirstOrThrow();
        const userId = newId();
        const { hashPassword } = await import("../../server/auth/password");
        await db.insertInto("user").values({ tenant_id: 77, id: userId, user_name: "other77", password_hash: await hashPassword("Other-Pass-2026"), pwd_security_level: 1, real_name: null, user_code: null, avatar: null, introduction: null, phone: null, email: null, sex: null, org_id: null, navigation_mode: null, settings: null, status: 1, last_login_at: null, remark: null, created_at: now, created_by: null, updated_at: now, updated_by: null }).execute();
        await db.insertInto("login_name").values({ user_name: "other77", tenant_id: 77, user_id: userId }).execute();
        await db.insertInto("user_role").values({ tenant_id: 77, user_id: userId, role_id: role.id }).execute();
        const token = await loginAs(app, "other77", "Other-Pass-2026");
        const counted = await app.call<{ complaintsCount: string; maxCreatedTime: number | null }>("GET", `${C}/getComplaintsCount`, { token });
        expect(counted.body.data).toEqual({ complaintsCount: "0", maxCreatedTime: null });
        expect((await app.call<{ total: number }>("GET", `${C}/findPage`, { token })).body.data.total).toBe(0);
      });
    });

    describe("button permissions", () => {
      test("every button code the seed defines guards at least one API action, refused (403) to a user without it", async () => {
        const { db } = app.database;
        const menus = seedMenus();
        const buttons = menus.filter((m) => m.menu_type === "button" && m.permission);
        expect(buttons.length).toBeGreaterThan(5);
        const roleId = await roleWith("everyButton", menus.map((m) => m.id), "super");
        const { token } = await newUser([roleId]);
        for (const button of buttons) {
          const guarded = app.api.endpoints.filter((e) => e.access.kind === "permission" && e.access.code === button.permission);
          expect(guarded.length, button.permission as string).toBeGreaterThan(0);
          // Grants changed behind the app's back tell its shell cache through the shared counter (decision 019).
          await db.deleteFrom("role_menu").where("role_id", "=", roleId).where("menu_id", "=", button.id).execute();
          await bumpShellGeneration(db);
          try {
            for (const endpoint of guarded) {
              const path = endpoint.method === "GET" ? `${endpoint.path}?id=1` : endpoint.path;
              const refused = await app.call(endpoint.method, path, { token, body: endpoint.method === "POST" ? {} : undefined, headers: sameOrigin });
              expect(refused.body, `${button.permission} ${endpoint.path}`).toMatchObject({ status: 403, message: "没有权限执行此操作" });
            }
          } finally {
            await db.insertInto("role_menu").values({ tenant_id: DEFAULT_TENANT_ID, role_id: roleId, menu_id: button.id }).execute();
            await bumpShellGeneration(db);
          }
          for (const endpoint of guarded) {
            const path = endpoint.method === "GET" ? `${endpoint.path}?id=1` : endpoint.path;
            const allowed = await app.call(endpoint.method, path, { token, body: endpoint.method === "POST" ? {} : undefined, headers: sameOrigin });
            expect(allowed.body.message, `${button.permission} ${endpoint.path} with the code`).not.toBe("没有权限执行此操作");
          }
        }
        // Every button of every screen, twice, through the real API: about a thousand calls, slow on a loaded machine.
      }, 180_000);
    });
  });
}
