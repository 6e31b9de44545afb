import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadConfig } from "../../server/config";
import { createApi } from "../../server/http/api";
import { endpoint, sessionAccess, type Endpoint } from "../../server/http/endpoint";
import { ApiError, Status } from "../../server/http/envelope";
import { serverModules } from "../../server/modules/index";
import type { ServerModule } from "../../server/modules/manifest";
import type { PaymentHooks } from "../../server/modules/zhct/payments";
import { modules } from "../../resources/index";
import { moduleScreens, type ModuleDeclaration, type ScreenRoute } from "../../resources/modules";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";

/** A module of the tests alone, adding what it is given (decision 062). */
function testModule(name: string, adds: Partial<Omit<ServerModule, "declaration">> & { screens?: ScreenRoute[] } = {}): ServerModule {
  const declaration: ModuleDeclaration = { name, resources: [], reports: [], menuGroups: [], screens: adds.screens ?? [] };
  return { declaration, services: {}, endpoints: [], documentRules: {}, ledgers: [], paymentHooks: [], ...adds };
}

const ping = (path: string, extra: Partial<Endpoint> = {}): Endpoint =>
  endpoint({ method: "GET", path, summary: "测试", access: sessionAccess, handle: () => "pong", ...extra });

const services = { db: undefined as never, dialect: "sqlite" as const, config: loadConfig({ CANTEEN_CAPTCHA: "off" }) };

describe("module manifests: a path registered twice stops the start", () => {
  test("the product's modules compose, and every module of the one list has its server half", () => {
    expect(serverModules.map((m) => m.declaration.name)).toEqual(modules.map((m) => m.name));
    expect(() => createApi(services)).not.toThrow();
    expect(() => moduleScreens(modules)).not.toThrow();
  });

  test("two modules writing one endpoint", () => {
    const a = testModule("a", { endpoints: [ping("/api/v1/test/ping")] });
    const b = testModule("b", { endpoints: [ping("/api/v1/test/ping")] });
    expect(() => createApi(services, [...serverModules, a, b])).toThrow("接口 GET /api/v1/test/ping 注册了两次：模块 a 与 b");
  });

  test("a hand-written endpoint on a generated action's path, unless it says it replaces it", () => {
    const shadow = testModule("shadow", { endpoints: [ping("/api/v1/zhct/food/findPage")] });
    expect(() => createApi(services, [...serverModules, shadow])).toThrow(
      "接口 GET /api/v1/zhct/food/findPage 注册了两次：模块 shadow 手写的与模块 zhct 生成的",
    );
    const replacing = testModule("replacing", { endpoints: [ping("/api/v1/zhct/food/findPage", { replacesGenerated: true })] });
    const api = createApi(services, [...serverModules, replacing]);
    expect(api.endpoints.filter((e) => e.path === "/api/v1/zhct/food/findPage").map((e) => e.summary)).toEqual(["测试"]);
    const replacingNothing = testModule("stale", { endpoints: [ping("/api/v1/test/none", { replacesGenerated: true })] });
    expect(() => createApi(services, [...serverModules, replacingNothing])).toThrow("声明替换生成的接口，但没有这样的接口");
  });

  test("a screen two modules draw at one path, or on a generated screen without saying so", () => {
    const twice = { path: "test/page/index", file: "routes/test/a.tsx", id: "test:a" };
    const a: ModuleDeclaration = testModule("a", { screens: [twice] }).declaration;
    const b: ModuleDeclaration = testModule("b", { screens: [{ ...twice, file: "routes/test/b.tsx", id: "test:b" }] }).declaration;
    expect(() => moduleScreens([...modules, a, b])).toThrow("路由 /test/page/index 注册了两次：模块 a 的 routes/test/a.tsx 与 模块 b 的 routes/test/b.tsx");
    const shadow = testModule("shadow", { screens: [{ path: "zhct/food/index", file: "routes/test/food.tsx" }] }).declaration;
    expect(() => moduleScreens([...modules, shadow])).toThrow("路由 /zhct/food/index 注册了两次");
    const reserved = testModule("login", { screens: [{ path: "login", file: "routes/test/login.tsx" }] }).declaration;
    expect(() => moduleScreens([reserved], ["login"])).toThrow("路由 /login 注册了两次：app/routes.ts 与 模块 login 的 routes/test/login.tsx");
  });
});

for (const dialect of dialects) {
  describe(`${dialect}: payment hooks run in the order the manifests write`, () => {
    const log: string[] = [];
    /** Logs each step of a payment of its test device; the last `beforePay` refuses it, so nothing is written. */
    const hooks = (name: string, refuse = false): PaymentHooks => ({
      async beforePay(_trx, facts) {
        if (facts.deviceCode !== "HOOK-ORDER") return;
        log.push(name);
        if (refuse) throw new ApiError(Status.CONFLICT, "测试钩子拒绝");
      },
    });
    let app: TestApp;
    let token: string;

    beforeAll(async () => {
      const first = testModule("first", { paymentHooks: [hooks("first.1"), hooks("first.2")] });
      const second = testModule("second", { paymentHooks: [hooks("second.1", true)] });
      app = await createTestApp(dialect, {}, [...serverModules, first, second]);
      token = await adminToken(app);
    });
    afterAll(() => app?.close());

    test("each module's hooks in its manifest's order, the modules in the list's order", async () => {
      const ok = async (path: string, body: unknown) => {
        const { body: answer } = await app.call<{ id: number }>("POST", path, { token, body });
        expect(answer.status, JSON.stringify(answer)).toBe(200);
        return answer.data;
      };
      const diner = await ok("/api/v1/zhct/userInfo/create", { userCode: `HOOK${Date.now().toString(36)}`, userName: "钩子" });
      await ok("/api/v1/zhct/userAccountCharge/create", { userInfoId: diner.id, amount: 1000, accountType: "cash" });
      const paid = await app.call("POST", "/api/v1/zhct/cashier/pay", { token, body: { userInfoId: diner.id, amount: 100, deviceCode: "HOOK-ORDER" } });
      expect(paid.body.message).toBe("测试钩子拒绝");
      expect(log).toEqual(["first.1", "first.2", "second.1"]);
    });
  });
}
