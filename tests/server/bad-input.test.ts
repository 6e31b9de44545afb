import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BODY_LIMIT } from "../../server/http/body";
import { DEFAULT_TENANT_ID } from "../../server/modules/seed";
import { adminToken, createTestApp, ORIGIN, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createUser, handleRaw } from "../helpers/fixtures";

/** A body streamed in 64 kB chunks, endless unless `total` says; `pulled()` tells how much the server read. */
function streamedBody(total = Number.POSITIVE_INFINITY) {
  let sent = 0;
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { body, pulled: () => sent };
}

for (const dialect of dialects) {
  describe(`${dialect}: bodies, types and shapes`, () => {
    let app: TestApp;
    let token: string;

    beforeAll(async () => {
      app = await createTestApp(dialect);
      token = await adminToken(app);
    });
    afterAll(() => app.close());

    const post = (path: string, init: RequestInit & { duplex?: "half" }) =>
      handleRaw(app, new Request(`${ORIGIN}${path}`, { method: "POST", ...init, headers: { Authorization: `Bearer ${token}`, ...init.headers } }));

    test("a body past the limit is a 413 envelope: a declared length unread, a streamed one no further than the limit", async () => {
      const declared = await post("/api/v1/auth/role/create", {
        headers: { "Content-Type": "application/json", "Content-Length": String(60 * 1024 * 1024) },
        body: streamedBody(128 * 1024).body,
        duplex: "half",
      });
      expect(declared.http).toBe(413);
      expect(JSON.parse(declared.text)).toMatchObject({ status: 413, message: expect.stringMatching(/^请求体过大/) });
      expect(declared.headers.get("Connection")).toBe("close");

      const stream = streamedBody();
      const streamed = await post("/api/v1/auth/role/create", { headers: { "Content-Type": "application/json" }, body: stream.body, duplex: "half" });
      expect(streamed.http).toBe(413);
      expect(stream.pulled()).toBeLessThanOrEqual(BODY_LIMIT + 2 * 64 * 1024);

      const justUnder = JSON.stringify({ roleName: "x".repeat(BODY_LIMIT - 100) });
      expect((await post("/api/v1/auth/role/create", { headers: { "Content-Type": "application/json" }, body: justUnder })).http).toBe(400);
    });

    test("a body with 100,000 unknown keys gets a short Chinese message that names a few of them", async () => {
      const keys = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [i.toString(36), 1]));
      const result = await app.call("GET", `/api/v1/auth/role/findPage?${new URLSearchParams(Object.keys(keys).slice(0, 2000).map((k) => [`k${k}`, "1"]))}`, { token });
      expect(result.http).toBe(400);
      expect(result.body.message).toMatch(/^参数校验失败：不支持的参数 “k0”、“k1”、“k2”、“k3”、“k4” 等 2000 个$/);
      const bodyResult = await app.call("POST", "/api/v1/auth/user/saveSettings", { token, body: keys });
      expect(bodyResult.http).toBe(400);
      expect(bodyResult.body.message.length).toBeLessThan(200);
      expect(JSON.stringify(bodyResult.body).length).toBeLessThan(2000);
    });

    test("content types: JSON or plain text is read, a form, multipart or XML is a 400 envelope, never a 500", async () => {
      const role = { roleCode: "typed", roleName: "类型角色", roleType: "user", status: 1 };
      const plain = await post("/api/v1/auth/role/create", { headers: { "Content-Type": "text/plain;charset=UTF-8" }, body: JSON.stringify(role) });
      expect(JSON.parse(plain.text).status).toBe(200);
      for (const [type, body] of [
        ["application/x-www-form-urlencoded", "roleCode=x"],
        ["multipart/form-data", "--x\r\n"],
        ["multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--x--\r\n"],
        ["application/xml", "<role/>"],
      ]) {
        const result = await post("/api/v1/auth/role/create", { headers: { "Content-Type": type }, body });
        expect(result.http, type).toBe(400);
        expect(JSON.parse(result.text).message, type).toBe("请求体应为 JSON（Content-Type: application/json）");
      }
      for (const [type, body] of [
        [undefined, undefined],
        ["text/plain", "admin"],
        ["multipart/form-data", "--x\r\n"],
      ] as const) {
        const result = await handleRaw(app, new Request(`${ORIGIN}/login`, { method: "POST", headers: type ? { "Content-Type": type } : {}, body }));
        expect(result.http, `${type}`).toBe(400);
        expect(JSON.parse(result.text).message, `${type}`).toMatch(/^(参数校验失败|请求体)/);
      }
    });

    test("__proto__ and constructor keys are dropped, never followed", async () => {
      const created = await app.call<{ id: number; status: number }>("POST", "/api/v1/auth/role/create", {
        token,
        rawBody: '{"roleCode":"proto","roleName":"原型","roleType":"user","status":1,"__proto__":{"tenantId":999,"status":0},"constructor":{"prototype":{"polluted":1}}}',
      });
      expect(created.body.status).toBe(200);
      expect(String(created.body.data.status)).toBe("1");
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const row = await app.database.db.selectFrom("role").select(["tenant_id", "status"]).where("id", "=", created.body.data.id).executeTakeFirstOrThrow();
      expect(Number(row.tenant_id)).toBe(DEFAULT_TENANT_ID);
      const assigned = await app.call("POST", "/api/v1/auth/user/assignRole", { token, rawBody: '{"__proto__":{"userId":1,"roleIds":[1]}}' });
      expect(assigned.http).toBe(400);
      expect(assigned.body.message).toBe("参数校验失败：缺少 userId");
    });

    test("messages name the field in Chinese and carry no type words", async () => {
      const checks: Array<[string, string, unknown, RegExp]> = [
        ["POST", "/api/v1/auth/user/create", { user: { userName: "n1", realName: "名", status: "abc" } }, /^参数校验失败：状态不是可选的值$/],
        ["POST", "/api/v1/auth/user/create", { user: { userName: "n2", realName: "名", status: 9 } }, /^状态不是可选的值$/],
        ["POST", "/api/v1/auth/role/create", { roleCode: "c", roleName: "x".repeat(300), roleType: "user", status: 1 }, /不能超过 \d+ 个字符$/],
        ["POST", "/api/v1/auth/role/create", { roleCode: "c", roleName: "a\u0000b", roleType: "user", status: 1 }, /角色名称含有无法保存的字符/],
        ["GET", "/api/v1/auth/user/findPage?pageNum=abc", undefined, /^参数校验失败：页码必须是数字$/],
        ["GET", "/api/v1/auth/user/findPage?status=1e99", undefined, /^参数校验失败：状态不是可选的值$/],
        ["POST", "/api/v1/auth/user/assignRole", { userId: 1.5, roleIds: [] }, /^参数校验失败：userId必须是整数$/],
      ];
      for (const [method, path, body, message] of checks) {
        const result = await app.call(method as "GET" | "POST", path, { token, body });
        expect(result.http, path).toBe(400);
        expect(result.body.message, `${path} ${JSON.stringify(body)}`).toMatch(message);
        expect(result.body.message).not.toMatch(/\b(string|int|NaN|record)\b|：_ /);
      }
    });

    test("forceUpdate and sort, whose columns always hold a value, refuse an empty one", async () => {
      const org = (await app.call<{ records: Array<{ id: number; updatedAt: number }> }>("GET", "/api/v1/auth/org/findPage", { token })).body.data.records[0];
      for (const sort of ["", "   ", null]) {
        const result = await app.call("POST", "/api/v1/auth/org/update", { token, body: { id: org.id, updatedAt: org.updatedAt, sort } });
        expect(result.http).toBe(400);
        expect(result.body.data).toEqual({ fieldErrors: { sort: ["请输入排序"] } });
      }
    });

    test("replacing a user's roles or a role's menus twenty times at once: every call succeeds and one set remains", async () => {
      const roles = (await app.call<{ records: Array<{ id: number; roleCode: string }> }>("GET", "/api/v1/auth/role/findPage?pageSize=100", { token })).body.data.records;
      const roleIds = roles.map((r) => r.id);
      const userId = await createUser(app, { userName: "racer", password: "Racer-Pass-2026" });
      const results = await Promise.all(
        Array.from({ length: 20 }, () => app.call("POST", "/api/v1/auth/user/assignRole", { token, body: { userId, roleIds } })),
      );
      expect(results.map((r) => r.body.status)).toEqual(Array(20).fill(200));
      const links = await app.database.db.selectFrom("user_role").select("role_id").where("user_id", "=", userId).execute();
      expect(links.map((l) => Number(l.role_id)).sort()).toEqual([...roleIds].sort());

      const created = await app.call<{ id: number }>("POST", "/api/v1/auth/role/create", { token, body: { roleCode: "racing", roleName: "竞速", roleType: "user", status: 1 } });
      const menuIds = ((await app.call<number[]>("GET", `/api/v1/auth/role/getRoleMenuIds?id=${roles[0].id}`, { token })).body.data ?? []).slice(0, 10);
      const menus = await Promise.all(
        Array.from({ length: 20 }, () => app.call("POST", "/api/v1/auth/role/assignMenu", { token, body: { roleId: created.body.data.id, menuIds } })),
      );
      expect(menus.map((r) => r.body.status)).toEqual(Array(20).fill(200));
    });

    test("an uploaded file whose name holds a NUL is answered and stored with the NUL replaced", async () => {
      const body = Buffer.concat([
        Buffer.from('--b\r\nContent-Disposition: form-data; name="file"; filename="a\u0000b.txt"\r\nContent-Type: text/plain\r\n\r\n'),
        Buffer.from("hello"),
        Buffer.from("\r\n--b--\r\n"),
      ]);
      const result = await post("/api/v1/sys/file/upload?kind=file", { headers: { "Content-Type": "multipart/form-data; boundary=b" }, body });
      expect(result.http).toBe(200);
      expect(JSON.parse(result.text).data.fileName).toBe("a_b.txt");
    });

    test("a client that goes away while sending is not a server error (nothing logged)", async () => {
      const controller = new AbortController();
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode('{"roleName":'));
        },
        pull() {
          controller.abort();
          throw new DOMException("The operation was aborted.", "AbortError");
        },
      });
      const result = await post("/api/v1/auth/role/create", { headers: { "Content-Type": "application/json" }, body, duplex: "half", signal: controller.signal });
      expect(result.http).toBe(400);
    });
  });
}
