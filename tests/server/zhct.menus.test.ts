import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../server/db";
import { DEFAULT_TENANT_ID } from "../../server/modules/seed";
import { adminToken, createTestApp, expectField, loginAs, type TestApp } from "../helpers/api";
import { createUser } from "../helpers/fixtures";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
type Batch = { dryRun: boolean; created: number; replaced: number; skipped: number; days: Array<{ date: string; action: string; note: string; items: number }> };

const Z = "/api/v1/zhct";

for (const dialect of dialects) {
  describe(`${dialect}: canteen catalogue, meal times and menus`, () => {
    let app: TestApp;
    let token: string;
    let other: TenantFixture;
    let serial = 0;
    const uid = () => `${++serial}`;

    const get = (path: string, query: Row = {}, as = token) =>
      app.call<unknown>("GET", `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { token: as });
    const post = (path: string, body: unknown, as = token) => app.call<unknown>("POST", path, { token: as, body });
    async function ok(path: string, body: Row, as = token): Promise<Row> {
      const result = await post(path, body, as);
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data as Row;
    }

    async function org(tenantId: number, name: string, type = "restaurant", parentId: number | null = null): Promise<number> {
      const id = newId();
      const now = Date.now();
      await app.database.db
        .insertInto("org")
        .values({ tenant_id: tenantId, id, parent_id: parentId, org_name: name, org_code: null, org_type: type, sort: 0, status: 1, remark: null, created_at: now, created_by: null, updated_at: now, updated_by: null })
        .execute();
      return id;
    }
    async function picture(tenantId: number, kind: "image" | "file" = "image"): Promise<string> {
      const id = newId();
      await app.database.db
        .insertInto("upload")
        .values({ tenant_id: tenantId, id, kind, content_type: "image/png", size: 10, file_name: "a.png", sha256: "x", created_at: Date.now(), created_by: null })
        .execute();
      return `/api/v1/sys/file/view?id=${id}`;
    }

    let restaurant: number;
    let category: number;
    const food = (extra: Row = {}) => ok(`${Z}/food/create`, { foodName: `菜${uid()}`, foodTypeId: category, restaurantId: restaurant, price: 1200, onShelf: "1", ...extra });

    /** A template type with `foods` on Monday to Friday, and a menu type that uses it. */
    async function menuSetup(foods: Row[], restaurantId = restaurant) {
      const templateType = await ok(`${Z}/foodMenuTypeTemplate/create`, { typeName: `午餐模板${uid()}`, restaurantId, mealType: "lunch", menuMode: "2", sort: 0, status: "1" });
      for (const week of ["2", "3", "4", "5", "6"]) {
        for (const f of foods) await ok(`${Z}/foodMenuTemplate/create`, { templateTypeId: templateType.id, week, foodId: f.id, sort: 0 });
      }
      const menuType = await ok(`${Z}/foodMenuType/create`, {
        typeName: `午餐${uid()}`,
        restaurantId,
        mealType: "lunch",
        menuMode: "2",
        templateTypeId: templateType.id,
        sort: 0,
        status: "1",
      });
      return { templateType, menuType };
    }

    beforeAll(async () => {
      app = await createTestApp(dialect);
      token = await adminToken(app);
      other = await createTenantWithAdmin(app, token, `zhct${dialect}`);
      restaurant = await org(DEFAULT_TENANT_ID, "一号餐厅");
      category = (await ok(`${Z}/foodType/create`, { typeName: "热菜", sort: 1, status: "1" })).id as number;
    });
    afterAll(() => app?.close());

    describe("catalogue", () => {
      test("a food's category, restaurant and picture must be the tenant's own; prices are fen, never negative", async () => {
        const otherCategory = await ok(`${Z}/foodType/create`, { typeName: "他家", sort: 1, status: "1" }, other.token);
        expectField((await post(`${Z}/food/create`, { foodName: "红烧肉", foodTypeId: otherCategory.id, restaurantId: restaurant, price: 1500, onShelf: "1" })).body, "foodTypeId", "所选菜品分类不存在");
        const otherRestaurant = await org(other.tenantId, "他家餐厅");
        expectField((await post(`${Z}/food/create`, { foodName: "红烧肉", foodTypeId: category, restaurantId: otherRestaurant, price: 1500, onShelf: "1" })).body, "restaurantId", "所选餐厅/档口不存在");
        for (const image of [await picture(other.tenantId), await picture(DEFAULT_TENANT_ID, "file"), "https://evil.example/a.png"]) {
          expectField((await post(`${Z}/food/create`, { foodName: "红烧肉", foodTypeId: category, restaurantId: restaurant, price: 1500, onShelf: "1", image })).body, "image", "菜品图片只能是本站上传的文件");
        }
        expectField((await post(`${Z}/food/create`, { foodName: "红烧肉", foodTypeId: category, restaurantId: restaurant, price: -1, onShelf: "1" })).body, "price", "价格（元）不能为负数");
        expectField((await post(`${Z}/food/create`, { foodName: "红烧肉", foodTypeId: category, restaurantId: restaurant, price: 12.5, onShelf: "1" })).body, "price", "以分为单位的整数");
        const image = await picture(DEFAULT_TENANT_ID);
        const created = await food({ foodName: "红烧肉", price: 1500, outsiderPrice: 1800, image });
        expect(created).toMatchObject({ price: 1500, outsiderPrice: 1800, image, onShelf: "1" });
        expect((await get(`${Z}/food/getInfo`, { id: created.id }, other.token)).http).toBe(404);
      });

      test("every food has its nutrition row, made with it and gone with it; the row is edited, not created or deleted", async () => {
        const f = await food();
        const rows = (await get(`${Z}/foodNutrition/findPage`, { foodId: f.id })).body.data as { records: Row[] };
        expect(rows.records).toEqual([expect.objectContaining({ foodId: f.id, energy: null, protein: null })]);
        const id = rows.records[0].id;
        expectField((await post(`${Z}/foodNutrition/update`, { id, energy: -1 })).body, "energy", "能量（千卡）不能为负数");
        // The food it belongs to is fixed: a foodId sent along is ignored.
        const other = await food();
        expect(await ok(`${Z}/foodNutrition/update`, { id, energy: 520, sodium: 800, foodId: other.id })).toMatchObject({ foodId: f.id, energy: 520, sodium: 800 });
        expect((await post(`${Z}/foodNutrition/create`, { foodId: f.id, energy: 1 })).http).toBe(404);
        expect((await get(`${Z}/foodNutrition/delete`, { id })).http).toBe(404);
        expect((await get(`${Z}/food/delete`, { id: f.id })).body.status).toBe(200);
        expect((await get(`${Z}/foodNutrition/findPage`, { foodId: f.id })).body.data).toMatchObject({ total: 0 });
      });

      test("a food used by a menu cannot be deleted, only taken off the shelf; an unused one can", async () => {
        const used = await food();
        const unused = await food();
        await menuSetup([used]);
        const refused = await get(`${Z}/food/delete`, { id: used.id });
        expect(refused.http).toBe(409);
        expect(refused.body.message).toBe(`菜品「${used.foodName}」已用于菜单模板，不能删除；不再供应请改为下架`);
        await ok(`${Z}/food/update`, { id: used.id, onShelf: "0" });
        expect((await get(`${Z}/food/delete`, { id: unused.id })).body.status).toBe(200);
      });
    });

    describe("restaurants and stalls", () => {
      test("a restaurant field names an org of type restaurant, a stall field a stall of the menu type's restaurant", async () => {
        const hq = await org(DEFAULT_TENANT_ID, "后勤总部", "org");
        const department = await org(DEFAULT_TENANT_ID, "财务部", "department");
        const floor = await org(DEFAULT_TENANT_ID, "二楼", "department", restaurant);
        const noodles = await org(DEFAULT_TENANT_ID, "面食档口", "stall", floor);
        const elsewhere = await org(DEFAULT_TENANT_ID, "三号餐厅");
        const otherStall = await org(DEFAULT_TENANT_ID, "烧腊档口", "stall", elsewhere);
        const mealTime = { mealTimeName: "早餐", mealType: "breakfast", beginTime: "06:00", endTime: "08:00", orderDaysAhead: 0, standardPrice: "0", status: "1" };
        expectField((await post(`${Z}/mealTimes/create`, { ...mealTime, restaurantId: hq })).body, "restaurantId", "所选餐厅「后勤总部」不是餐厅，请重新选择");
        expectField((await post(`${Z}/food/create`, { foodName: "馒头", foodTypeId: category, restaurantId: department, price: 100, onShelf: "1" })).body, "restaurantId", "所选餐厅/档口「财务部」不是餐厅或档口，请重新选择");
        expect(await food({ restaurantId: noodles })).toMatchObject({ restaurantId: noodles });

        for (const entity of ["foodMenuType", "foodMenuTypeTemplate"]) {
          const type = { typeName: `早餐${uid()}`, mealType: "breakfast", menuMode: "3", sort: 0, status: "1" };
          expectField((await post(`${Z}/${entity}/create`, { ...type, restaurantId: noodles })).body, "restaurantId", "所选餐厅「面食档口」不是餐厅，请重新选择");
          expectField((await post(`${Z}/${entity}/create`, { ...type, restaurantId: restaurant, stallId: floor })).body, "stallId", "所选档口「二楼」不是档口，请重新选择");
          expectField((await post(`${Z}/${entity}/create`, { ...type, restaurantId: restaurant, stallId: otherStall })).body, "stallId", "档口「烧腊档口」不属于餐厅「一号餐厅」，请选择该餐厅下的档口");
          // A stall under a floor of the restaurant belongs to it; moving the type to another restaurant keeps the stall and is refused.
          const created = await ok(`${Z}/${entity}/create`, { ...type, restaurantId: restaurant, stallId: noodles });
          expectField((await post(`${Z}/${entity}/update`, { id: created.id, restaurantId: elsewhere })).body, "stallId", "档口「面食档口」不属于餐厅「三号餐厅」");
          await ok(`${Z}/${entity}/update`, { id: created.id, restaurantId: elsewhere, stallId: otherStall });
          expect((await get(`${Z}/${entity}/getInfo`, { id: created.id })).body.data).toMatchObject({ restaurantId: elsewhere, stallId: otherStall });
        }
      });
    });

    describe("meal times", () => {
      test("two meal times of one restaurant never overlap; the refusal names the other one", async () => {
        const r = await org(DEFAULT_TENANT_ID, "二号餐厅");
        const base = { restaurantId: r, orderDaysAhead: 0, standardPrice: "0", status: "1" };
        const lunch = await ok(`${Z}/mealTimes/create`, { ...base, mealTimeName: "午餐", mealType: "lunch", beginTime: "11:00", endTime: "13:00" });
        expectField((await post(`${Z}/mealTimes/create`, { ...base, mealTimeName: "早午餐", mealType: "breakfast", beginTime: "10:00", endTime: "11:30" })).body, "beginTime", "与本餐厅的餐次「午餐」（11:00–13:00）时间重叠");
        expectField((await post(`${Z}/mealTimes/create`, { ...base, mealTimeName: "晚餐", mealType: "dinner", beginTime: "18:00", endTime: "17:00" })).body, "endTime", "结束时间必须晚于开始时间");
        await ok(`${Z}/mealTimes/create`, { ...base, mealTimeName: "早餐", mealType: "breakfast", beginTime: "07:00", endTime: "11:00" });
        const dinner = await ok(`${Z}/mealTimes/create`, { ...base, mealTimeName: "晚餐", mealType: "dinner", beginTime: "17:00", endTime: "19:00" });
        // Moving dinner into lunch is refused; another restaurant's lunch at the same time is fine.
        expectField((await post(`${Z}/mealTimes/update`, { id: dinner.id, beginTime: "12:30" })).body, "beginTime", "午餐");
        await ok(`${Z}/mealTimes/update`, { id: lunch.id, endTime: "12:30" });
        await ok(`${Z}/mealTimes/create`, { ...base, restaurantId: restaurant, mealTimeName: "午餐", mealType: "lunch", beginTime: "11:00", endTime: "13:00" });
        expectField((await post(`${Z}/mealTimes/create`, { ...base, mealTimeName: "x", mealType: "lunch", beginTime: "25:00", endTime: "26:00" })).body, "beginTime", "HH:mm");
      });
    });

    describe("daily menus", () => {
      test("a menu takes its type's restaurant and meal type; one per date and type; published only with an item", async () => {
        const f = await food({ price: 900 });
        const { menuType } = await menuSetup([f]);
        const menu = await ok(`${Z}/foodMenu/create`, { menuDate: "2026-05-11", foodMenuTypeId: menuType.id, status: "0" });
        expect(menu).toMatchObject({ restaurantId: restaurant, mealType: "lunch", status: "0" });
        const twice = await post(`${Z}/foodMenu/create`, { menuDate: "2026-05-11", foodMenuTypeId: menuType.id, status: "0" });
        expectField(twice.body, "menuDate", "该日期已有此类型的菜单");
        expectField((await post(`${Z}/foodMenu/create`, { menuDate: "2026-05-12", foodMenuTypeId: menuType.id, status: "1" })).body, "status", "菜单至少有一个菜品才能发布");
        expectField((await post(`${Z}/foodMenu/update`, { id: menu.id, status: "1" })).body, "status", "菜单至少有一个菜品才能发布");

        const item = await ok(`${Z}/foodMenuItem/create`, { foodMenuId: menu.id, foodId: f.id, quota: 50, sort: 0 });
        expect(item).toMatchObject({ price: 900, quota: 50, soldCount: 0 });
        const dup = await post(`${Z}/foodMenuItem/create`, { foodMenuId: menu.id, foodId: f.id, sort: 0 });
        expectField(dup.body, "foodMenuId", "该菜单已有此菜品");
        await ok(`${Z}/foodMenu/update`, { id: menu.id, status: "1" });

        // Published: price and quota still change, and the log keeps each change; the list of dishes does not.
        await ok(`${Z}/foodMenuItem/update`, { id: item.id, price: 1000, quota: 40 });
        const log = await app.database.db
          .selectFrom("operation_log")
          .select(["action", "changes"])
          .where("entity", "=", "zhct/foodMenuItem")
          .where("entity_id", "=", item.id as number)
          .where("action", "=", "update")
          .executeTakeFirstOrThrow();
        expect(JSON.parse(log.changes as string)).toEqual({ price: [900, 1000], quota: [50, 40] });
        const another = await food();
        for (const refused of [
          await post(`${Z}/foodMenuItem/create`, { foodMenuId: menu.id, foodId: another.id, sort: 0 }),
          await post(`${Z}/foodMenuItem/update`, { id: item.id, foodId: another.id }),
          await get(`${Z}/foodMenuItem/delete`, { id: item.id }),
        ]) {
          expect(refused.http).toBe(409);
          expect(refused.body.message).toBe("菜单已发布，只能修改菜品的价格和限量");
        }
      });

      test("a template day cannot take a food that is off the shelf; a menu item neither", async () => {
        const off = await food({ foodName: `下架菜${uid()}`, onShelf: "0" });
        const { templateType } = await menuSetup([]);
        expectField((await post(`${Z}/foodMenuTemplate/create`, { templateTypeId: templateType.id, week: "2", foodId: off.id, sort: 0 })).body, "foodId", `菜品「${off.foodName}」已下架，不能加入模板`);
      });

      test("batch create: holidays skipped, an existing day kept unless replace, dry run writes nothing, one log entry", async () => {
        const a = await food({ price: 700 });
        const b = await food({ price: 800 });
        const { menuType } = await menuSetup([a, b]);
        // 2026-06-01 is a Monday; 06-03 a holiday; 06-04 already has a menu; 06-06 and 06-07 a weekend without template items.
        await ok("/api/v1/sys/holiday/create", { holidayDate: "2026-06-03", holidayName: "测试假日", holidayType: "1" });
        await ok("/api/v1/sys/holiday/create", { holidayDate: "2026-06-05", holidayName: "调休", holidayType: "2" });
        const existing = await ok(`${Z}/foodMenu/create`, { menuDate: "2026-06-04", foodMenuTypeId: menuType.id, status: "0" });
        const body = { foodMenuTypeId: menuType.id, beginDate: "2026-06-01", endDate: "2026-06-07" };
        const menusIn = async () =>
          app.database.db.selectFrom("food_menu").select(["id", "menu_date"]).where("food_menu_type_id", "=", menuType.id as number).orderBy("menu_date").execute();

        const preview = (await ok(`${Z}/foodMenu/batchCreate`, { ...body, dryRun: true })) as unknown as Batch;
        expect(preview.days.map((d) => [d.date, d.action, d.items])).toEqual([
          ["2026-06-01", "create", 2],
          ["2026-06-02", "create", 2],
          ["2026-06-03", "holiday", 0],
          ["2026-06-04", "keep", 2],
          ["2026-06-05", "create", 2],
          ["2026-06-06", "empty", 0],
          ["2026-06-07", "empty", 0],
        ]);
        expect(preview.days[2].note).toBe("节假日：测试假日");
        expect(preview).toMatchObject({ dryRun: true, created: 3, replaced: 0, skipped: 4 });
        expect(await menusIn()).toHaveLength(1);

        const done = (await ok(`${Z}/foodMenu/batchCreate`, body)) as unknown as Batch;
        expect(done).toMatchObject({ dryRun: false, created: 3, replaced: 0, skipped: 4 });
        const menus = await menusIn();
        expect(menus.map((m) => m.menu_date)).toEqual(["2026-06-01", "2026-06-02", "2026-06-04", "2026-06-05"]);
        expect(menus.find((m) => m.menu_date === "2026-06-04")?.id).toBe(existing.id);
        const items = await app.database.db.selectFrom("food_menu_item").select(["food_id", "price"]).where("food_menu_id", "=", menus[0].id).orderBy("price").execute();
        expect(items).toEqual([{ food_id: a.id, price: 700 }, { food_id: b.id, price: 800 }]);

        // Again, with replace: the kept day is replaced, the days made a moment ago too; nothing is duplicated.
        const replaced = (await ok(`${Z}/foodMenu/batchCreate`, { ...body, replace: true })) as unknown as Batch;
        expect(replaced).toMatchObject({ created: 0, replaced: 4, skipped: 3 });
        const after = await menusIn();
        expect(after).toHaveLength(4);
        expect(after.some((m) => m.id === existing.id)).toBe(false);
        const logs = await app.database.db.selectFrom("operation_log").select("changes").where("entity", "=", "zhct/foodMenu").where("action", "=", "batchCreate").execute();
        expect(logs.map((l) => JSON.parse(l.changes as string))).toEqual([
          expect.objectContaining({ created: 3, replaced: 0, skipped: 4, items: 6 }),
          expect.objectContaining({ created: 0, replaced: 4, skipped: 3, items: 8 }),
        ]);

        // Weekdays: only Tuesdays of the range.
        const tuesdays = (await ok(`${Z}/foodMenu/batchCreate`, { foodMenuTypeId: menuType.id, beginDate: "2026-06-08", endDate: "2026-06-21", weekdays: ["3"], dryRun: true })) as unknown as Batch;
        expect(tuesdays.days.map((d) => d.date)).toEqual(["2026-06-09", "2026-06-16"]);
      });

      test("template batch create fills every menu type that uses the template; an off-shelf food refuses the batch", async () => {
        const f = await food();
        const { templateType, menuType } = await menuSetup([f]);
        const second = await ok(`${Z}/foodMenuType/create`, { typeName: `二楼午餐${uid()}`, restaurantId: restaurant, mealType: "lunch", menuMode: "2", templateTypeId: templateType.id, sort: 1, status: "1" });
        const result = (await ok(`${Z}/foodMenuTemplate/batchCreate`, { foodMenuTypeId: templateType.id, beginDate: "2026-07-06", endDate: "2026-07-07" })) as unknown as Batch;
        expect(result.created).toBe(4);
        for (const type of [menuType, second]) {
          const count = await app.database.db.selectFrom("food_menu").select("id").where("food_menu_type_id", "=", type.id as number).execute();
          expect(count).toHaveLength(2);
        }
        await ok(`${Z}/food/update`, { id: f.id, onShelf: "0" });
        const refused = await post(`${Z}/foodMenuTemplate/batchCreate`, { foodMenuTypeId: templateType.id, beginDate: "2026-07-08", endDate: "2026-07-08" });
        expect(refused.http).toBe(409);
        expect(refused.body.message).toBe(`模板中星期三的菜品「${f.foodName}」已下架，请先调整模板`);
      });

      test("batch create refuses a range over 366 days, bad dates and hostile values with 400s naming the field", async () => {
        const { menuType } = await menuSetup([await food()]);
        const base = { foodMenuTypeId: menuType.id, beginDate: "2026-01-01", endDate: "2026-12-31" };
        expect((await post(`${Z}/foodMenu/batchCreate`, { ...base, dryRun: true })).body.status).toBe(200);
        expectField((await post(`${Z}/foodMenu/batchCreate`, { ...base, endDate: "2027-01-02" })).body, "endDate", "日期范围不能超过 366 天，请分批生成");
        expectField((await post(`${Z}/foodMenu/batchCreate`, { ...base, endDate: "2025-12-31" })).body, "endDate", "结束日期不能早于开始日期");
        expectField((await post(`${Z}/foodMenu/batchCreate`, { ...base, beginDate: "2026-02-30" })).body, "beginDate", "开始日期不是有效的日期");
        expectField((await post(`${Z}/foodMenu/batchCreate`, { ...base, beginDate: "2026-1-1" })).body, "beginDate", "YYYY-MM-DD");
        for (const hostile of [
          { ...base, weekdays: ["8"] },
          { ...base, weekdays: "2" },
          { ...base, foodMenuTypeId: "1e400" },
          { ...base, foodMenuTypeId: "abc\u0000" },
          { ...base, beginDate: "2026-01-01\u0000" },
          { ...base, extra: 1 },
          { ...base, replace: "maybe" },
        ]) {
          const result = await post(`${Z}/foodMenu/batchCreate`, hostile);
          expect(result.http, JSON.stringify(hostile)).toBe(400);
        }
        const foreign = await post(`${Z}/foodMenu/batchCreate`, base, other.token);
        expectField(foreign.body, "foodMenuTypeId", "所选菜单类型不存在");
        // A role without the canteen menu entries has none of their codes: batch create and findByDate are refused.
        const roleId = newId();
        const now = Date.now();
        await app.database.db
          .insertInto("role")
          .values({ tenant_id: DEFAULT_TENANT_ID, id: roleId, role_code: `viewer${uid()}`, role_name: "只读", role_type: "user", status: 1, remark: null, created_at: now, created_by: null, updated_at: now, updated_by: null })
          .execute();
        const userName = `menu.viewer${uid()}`;
        await createUser(app, { userName, password: "Menu-Viewer-2026", roleIds: [roleId], pwdSecurityLevel: 2 });
        const viewer = await loginAs(app, userName, "Menu-Viewer-2026");
        expect((await post(`${Z}/foodMenu/batchCreate`, { ...base, dryRun: true }, viewer)).http).toBe(403);
        expect((await post(`${Z}/foodMenuTemplate/batchCreate`, { ...base, dryRun: true }, viewer)).http).toBe(403);
        expect((await get(`${Z}/foodMenu/findByDate`, { date: "2026-01-01" }, viewer)).http).toBe(403);
      });

      test("findByDate gives the day's published menus with items and prices, of the tenant and the restaurant asked", async () => {
        const r = await org(DEFAULT_TENANT_ID, "三号餐厅");
        const f = await food({ restaurantId: r, price: 1100, unit: "份" });
        const { menuType } = await menuSetup([f], r);
        await ok(`${Z}/foodMenu/batchCreate`, { foodMenuTypeId: menuType.id, beginDate: "2026-09-07", endDate: "2026-09-08" });
        const day = async (query: Row, as = token) => {
          const result = await get(`${Z}/foodMenu/findByDate`, query, as);
          expect(result.body.status, JSON.stringify(result.body)).toBe(200);
          return result.body.data as Array<Row & { items: Row[] }>;
        };
        expect(await day({ date: "2026-09-07", restaurantId: r })).toEqual([]);
        const menu = await app.database.db.selectFrom("food_menu").select("id").where("food_menu_type_id", "=", menuType.id as number).where("menu_date", "=", "2026-09-07").executeTakeFirstOrThrow();
        await ok(`${Z}/foodMenu/update`, { id: menu.id, status: "1" });
        const menus = await day({ date: "2026-09-07", restaurantId: r });
        expect(menus).toEqual([
          expect.objectContaining({ id: menu.id, menuDate: "2026-09-07", foodMenuTypeId: menuType.id, typeName: menuType.typeName, mealType: "lunch", restaurantId: r, items: [expect.objectContaining({ foodId: f.id, foodName: f.foodName, price: 1100, unit: "份", soldCount: 0, quota: null })] }),
        ]);
        expect((await day({ date: "2026-09-07" })).map((m) => m.id)).toContain(menu.id);
        expect(await day({ date: "2026-09-08", restaurantId: r })).toEqual([]);
        expect(await day({ date: "2026-09-07" }, other.token)).toEqual([]);
        // The week view's read: every menu of the seven days, published or not, with its dishes.
        const week = (await get(`${Z}/foodMenu/findWeek`, { beginDate: "2026-09-07", restaurantId: r })).body.data as Array<Row & { items: Row[] }>;
        expect(week.map((m) => [m.menuDate, m.status, m.items.length])).toEqual([["2026-09-07", "1", 1], ["2026-09-08", "0", 1]]);
        expect((await get(`${Z}/foodMenu/findWeek`, { beginDate: "2026-09-07" }, other.token)).body.data).toEqual([]);
        expectField((await get(`${Z}/foodMenu/findByDate`, { date: "2026-13-01" })).body, "date", "日期");
        expectField((await get(`${Z}/foodMenu/findByDate`, {})).body, "date", "请选择日期");
        expect((await get(`${Z}/foodMenu/findByDate`, { date: "2026-09-07", restaurantId: "x" })).http).toBe(400);
      });
    });
  });
}
