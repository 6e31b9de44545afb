import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEFAULT_PAY_LIMIT, merchantSharesFor, payLimitFor, settingsMessages } from "../../server/modules/zhct/settings";
import { DEFAULT_TENANT_ID } from "../../server/modules/seed";
import { adminToken, createTestApp, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
type Envelope = { status: number; message: string; data: unknown };

const Z = "/api/v1/zhct";

for (const dialect of dialects) {
  describe(`${dialect}: pay limits, online top-up rules, merchant shares, points strategy`, () => {
    let app: TestApp;
    let token: string;
    let other: TenantFixture;
    let restaurant: number;
    let merchants: number[];

    const post = async (path: string, body: unknown, as = token) => (await app.call("POST", path, { token: as, body })).body as Envelope;
    async function ok(path: string, body: Row, as = token): Promise<Row> {
      const result = await post(path, body, as);
      expect(result, JSON.stringify(result)).toMatchObject({ status: 200 });
      return result.data as Row;
    }
    function expectField(body: Envelope, field: string, message: string) {
      expect(body.status, JSON.stringify(body)).toBe(400);
      expect(body.message).toBe(message);
      expect((body.data as { fieldErrors: Record<string, string[]> }).fieldErrors[field]).toEqual([message]);
    }

    const limit = (body: Row) => ({ cashAllowed: "1", subsidyAllowed: "1", allowCredit: "0", creditLimit: 0, status: "1", ...body });
    const online = (body: Row) => ({ wechatEnabled: "1", alipayEnabled: "0", unionpayEnabled: "0", minAmount: 100, maxAmount: 100_000, dailyLimit: 200_000, status: "1", ...body });
    const strategy = (body: Row) => ({ expiryMonths: 12, status: "1", ...body });

    beforeAll(async () => {
      app = await createTestApp(dialect);
      token = await adminToken(app);
      other = await createTenantWithAdmin(app, token, "set");
      restaurant = (await ok("/api/v1/auth/org/create", { orgName: "一食堂", orgType: "restaurant", status: "1" })).id as number;
      merchants = [];
      for (const code of ["M1", "M2", "M3"]) merchants.push((await ok("/api/v1/sys/merchant/create", { merchantCode: code, merchantName: `商户${code}`, status: "1" })).id as number);
    });
    afterAll(async () => {
      await app?.close();
    });

    test("pay limits: unique per staff type and meal type, and payLimitFor picks the meal's rule, then the day's, then the default", async () => {
      const db = app.database.db;
      expect(await payLimitFor(db, DEFAULT_TENANT_ID, { staffType: "正式员工", mealType: "lunch" })).toEqual(DEFAULT_PAY_LIMIT);
      const lunch = await ok(`${Z}/payLimitConfig/create`, limit({ staffType: "正式员工", mealType: "lunch", maxMealsPerDay: 1, maxAmountPerMeal: 2500, subsidyAllowed: "1", cashAllowed: "0" }));
      expect(lunch).toMatchObject({ allowCredit: "0", creditLimit: 0, status: "1", cashAllowed: "0" });
      const again = await post(`${Z}/payLimitConfig/create`, limit({ staffType: "正式员工", mealType: "lunch" }));
      expectField(again, "staffType", "该人员类别在此餐别已有限额");
      await ok(`${Z}/payLimitConfig/create`, limit({ staffType: "正式员工", mealType: "all", maxMealsPerDay: 3, allowCredit: "1", creditLimit: 5000 }));

      expect(await payLimitFor(db, DEFAULT_TENANT_ID, { staffType: "正式员工", mealType: "lunch" })).toEqual({
        ruleId: lunch.id, maxMealsPerDay: 1, maxAmountPerMeal: 2500, accounts: ["subsidy"], allowCredit: false, creditLimit: 0, ruleMealType: "lunch",
      });
      expect(await payLimitFor(db, DEFAULT_TENANT_ID, { staffType: "正式员工", mealType: "dinner" })).toMatchObject({
        maxMealsPerDay: 3, maxAmountPerMeal: null, accounts: ["cash", "subsidy"], allowCredit: true, creditLimit: 5000,
      });
      expect(await payLimitFor(db, DEFAULT_TENANT_ID, { staffType: "访客", mealType: "dinner" })).toEqual(DEFAULT_PAY_LIMIT);
      expect(await payLimitFor(db, DEFAULT_TENANT_ID, { staffType: null, mealType: "dinner" })).toEqual(DEFAULT_PAY_LIMIT);
      // Another tenant's rules never apply here, nor ours there.
      expect(await payLimitFor(db, other.tenantId, { staffType: "正式员工", mealType: "lunch" })).toEqual(DEFAULT_PAY_LIMIT);

      // A rule turned off is no rule.
      await ok(`${Z}/payLimitConfig/update`, { id: lunch.id, status: "0" });
      expect((await payLimitFor(db, DEFAULT_TENANT_ID, { staffType: "正式员工", mealType: "lunch" })).maxMealsPerDay).toBe(3);
    });

    test("pay limits refuse a rule no account may pay by, and credit without allowing it; amounts are yuan in fen", async () => {
      expectField(await post(`${Z}/payLimitConfig/create`, limit({ staffType: "外包", mealType: "dinner", cashAllowed: "0", subsidyAllowed: "0" })), "cashAllowed", settingsMessages.noAccount);
      expectField(await post(`${Z}/payLimitConfig/create`, limit({ staffType: "外包", mealType: "dinner", allowCredit: "0", creditLimit: 100 })), "creditLimit", settingsMessages.creditWithout);
      const rule = await ok(`${Z}/payLimitConfig/create`, limit({ staffType: "外包", mealType: "dinner", allowCredit: "1", creditLimit: 100 }));
      expectField(await post(`${Z}/payLimitConfig/update`, { id: rule.id, allowCredit: "0" }), "creditLimit", settingsMessages.creditWithout);
      const bad = await post(`${Z}/payLimitConfig/create`, limit({ staffType: "外包", mealType: "breakfast", maxAmountPerMeal: 12.5 }));
      expect(bad.status).toBe(400);
      const huge = await post(`${Z}/payLimitConfig/create`, limit({ staffType: "外包", mealType: "breakfast", maxMealsPerDay: 1e12 }));
      expect(huge.status).toBe(400);
      expect((await post(`${Z}/payLimitConfig/create`, limit({ staffType: "外包", mealType: "brunch" }))).status).toBe(400);
    });

    test("online top-up rules: one per restaurant, lowest ≤ highest ≤ daily limit", async () => {
      expectField(await post(`${Z}/onlinePayRule/create`, online({ restaurantId: restaurant, minAmount: 5000, maxAmount: 1000 })), "minAmount", settingsMessages.minOverMax);
      expectField(await post(`${Z}/onlinePayRule/create`, online({ restaurantId: restaurant, maxAmount: 300_000 })), "maxAmount", settingsMessages.maxOverDaily);
      const rule = await ok(`${Z}/onlinePayRule/create`, online({ restaurantId: restaurant, alipayEnabled: "1" }));
      expect(rule).toMatchObject({ wechatEnabled: "1", alipayEnabled: "1", unionpayEnabled: "0", minAmount: 100, maxAmount: 100_000, dailyLimit: 200_000 });
      expectField(await post(`${Z}/onlinePayRule/create`, online({ restaurantId: restaurant })), "restaurantId", "餐厅已存在");
      expectField(await post(`${Z}/onlinePayRule/update`, { id: rule.id, dailyLimit: 50_000 }), "maxAmount", settingsMessages.maxOverDaily);
      // Another tenant cannot name this restaurant.
      expect((await post(`${Z}/onlinePayRule/create`, online({ restaurantId: restaurant }), other.token)).status).toBe(400);
    });

    test("merchant shares of a restaurant never pass 100 %, the message says the sum; settlement needs exactly 100 %", async () => {
      const [m1, m2, m3] = merchants;
      const a = await ok(`${Z}/merchantDivide/create`, { restaurantId: restaurant, merchantId: m1, sharePercent: 60 });
      await expect(merchantSharesFor(app.database.db, DEFAULT_TENANT_ID, restaurant)).rejects.toMatchObject({ status: 409, message: settingsMessages.sharesIncomplete(60) });
      expectField(await post(`${Z}/merchantDivide/create`, { restaurantId: restaurant, merchantId: m2, sharePercent: 50 }), "sharePercent", settingsMessages.shareOver(60, 110));
      expectField(await post(`${Z}/merchantDivide/create`, { restaurantId: restaurant, merchantId: m1, sharePercent: 10 }), "restaurantId", "该餐厅已有此商户的分成");
      const b = await ok(`${Z}/merchantDivide/create`, { restaurantId: restaurant, merchantId: m2, sharePercent: 40 });
      expect(await merchantSharesFor(app.database.db, DEFAULT_TENANT_ID, restaurant)).toEqual([
        { merchantId: m1, stallId: null, sharePercent: 60 },
        { merchantId: m2, stallId: null, sharePercent: 40 },
      ]);
      // Raising one share past the rest is refused with the sum now and the sum it would make.
      expectField(await post(`${Z}/merchantDivide/update`, { id: b.id, sharePercent: 45 }), "sharePercent", settingsMessages.shareOver(100, 105));
      await ok(`${Z}/merchantDivide/update`, { id: a.id, sharePercent: 30 });
      await ok(`${Z}/merchantDivide/create`, { restaurantId: restaurant, merchantId: m3, sharePercent: 30 });
      expect((await merchantSharesFor(app.database.db, DEFAULT_TENANT_ID, restaurant)).map((s) => s.sharePercent)).toEqual([30, 40, 30]);
      for (const share of [0, 101, 12.5, "x"]) expect((await post(`${Z}/merchantDivide/create`, { restaurantId: restaurant, merchantId: m3, sharePercent: share })).status).toBe(400);
    });

    test("points strategy: one valid strategy at a time", async () => {
      const first = await ok(`${Z}/integralStrategy/create`, strategy({ strategyName: "基础积分", pointsPerYuan: 1 }));
      expect(first).toMatchObject({ expiryMonths: 12, status: "1" });
      expectField(await post(`${Z}/integralStrategy/create`, strategy({ strategyName: "双倍积分", pointsPerYuan: 2 })), "status", settingsMessages.oneStrategy("基础积分"));
      const second = await ok(`${Z}/integralStrategy/create`, strategy({ strategyName: "双倍积分", pointsPerYuan: 2, status: "0" }));
      expectField(await post(`${Z}/integralStrategy/update`, { id: second.id, status: "1" }), "status", settingsMessages.oneStrategy("基础积分"));
      await ok(`${Z}/integralStrategy/update`, { id: first.id, status: "0" });
      await ok(`${Z}/integralStrategy/update`, { id: second.id, status: "1" });
      // The other tenant has its own.
      await ok(`${Z}/integralStrategy/create`, strategy({ strategyName: "基础积分", pointsPerYuan: 1 }), other.token);
    });
  });
}
