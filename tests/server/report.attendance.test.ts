import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { reports } from "../../resources/report/index";
import { markNoShows } from "../../server/modules/zhct/bookings";
import { dayOf, dayStart } from "../../server/modules/zhct/months";
import { adminToken, createTestApp, expectField, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { publishedMenu } from "../helpers/fixtures";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
type Envelope = { status: number; message: string; data: unknown };
type Answer = { filters: Record<string, string>; rows: Row[]; totals: Row; truncated: number; options: Record<string, Array<{ value: string; label: string }>> };

const Z = "/api/v1/zhct";
const R = "/api/v1/report";
const everyDay = Object.fromEntries(["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"].map((d) => [d, 1]));

/**
 * Issue 15, the attendance reports (decision 033): a day and the next built through the real services — top-ups, a
 * refund and a reversal, card and cashier payments, a back-office order, takeaways, a cancel, bookings (completed,
 * cancelled, missed, pending) and a default-order run (one made, one refused) — in a tenant of its own; every figure
 * of the eight reports checked on SQLite and PostgreSQL, their totals against the ledger.
 */
for (const dialect of dialects) {
  describe(`${dialect}: attendance reports (decision 033)`, () => {
    let app: TestApp;
    let superToken: string;
    let t: TenantFixture;
    const today = dayOf(Date.now());
    const tomorrow = dayOf(dayStart(today) + 86_400_000);
    const ids = { a: 0, b: 0, c: 0, e: 0, f: 0, ra: 0, rb: 0, d1: 0, d2: 0, point: 0 };
    const codes = { a: "A001", b: "B002", c: "C003", e: "E005", f: "F006" };
    let pointName = "";

    const get = async (path: string, query: Row = {}, as = t.token) =>
      (await app.call<unknown>("GET", `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { token: as })).body as Envelope;
    async function ok(path: string, body: Row, as = t.token): Promise<Row> {
      const result = await app.call<unknown>("POST", path, { token: as, body });
      expect(result.body, `${path} ${JSON.stringify(result.body)}`).toMatchObject({ status: 200 });
      return result.body.data as Row;
    }
    async function report(name: string, query: Row = {}, as = t.token): Promise<Answer> {
      const body = await get(`${R}/${name}`, { from: today, to: today, ...query }, as);
      expect(body.status, JSON.stringify(body)).toBe(200);
      return body.data as Answer;
    }

    beforeAll(async () => {
      app = await createTestApp(dialect);
      superToken = await adminToken(app);
      t = await createTenantWithAdmin(app, superToken, `ra${dialect}`);
      const org = async (orgName: string, orgType: string) => (await ok("/api/v1/auth/org/create", { parentId: t.rootOrgId, orgName, orgType, status: "1" })).id as number;
      ids.d1 = await org("研发部", "department");
      ids.d2 = await org("财务部", "department");
      ids.ra = await org("一号餐厅", "restaurant");
      ids.rb = await org("二号餐厅", "restaurant");
      const diner = async (key: keyof typeof codes, deptId?: number) => {
        ids[key] = (await ok(`${Z}/userInfo/create`, { userCode: codes[key], userName: `人员${key}`, ...(deptId ? { deptId } : {}) })).id as number;
      };
      await diner("a", ids.d1);
      await diner("b", ids.d1);
      await diner("c", ids.d2);
      await diner("e");
      await diner("f", ids.d2);
      await ok(`${Z}/userIcCard/create`, { cardNo: "CARDA001", userInfoId: ids.a, cardType: "1" });
      const topUp = (userInfoId: number, amount: number) => ok(`${Z}/userAccountCharge/create`, { userInfoId, amount, accountType: "cash" });
      await topUp(ids.a, 10000);
      await topUp(ids.b, 5000);
      await topUp(ids.c, 3000);
      await topUp(ids.e, 2000);
      const reversed = await topUp(ids.c, 500);
      await ok(`${Z}/userAccountCharge/reverse`, { id: reversed.id, reason: "测试冲正" });
      await ok(`${Z}/userAccountCharge/refund`, { reason: "退回现金", userInfoId: ids.b, amount: 1000, accountType: "cash" });

      const category = (await ok(`${Z}/foodType/create`, { typeName: "热菜", sort: 1, status: "1" })).id;
      const canteen = (restaurantId: number, mealType: string, dishes: Array<[string, number]>) =>
        publishedMenu(ok, { restaurantId, mealType, day: today, foodTypeId: category, dishes });
      const lunch = await canteen(ids.ra, "lunch", [["红烧肉", 1200], ["米饭", 300]]);
      const dinner = await canteen(ids.rb, "dinner", [["水饺", 800]]);

      // Bookings of lunch: a's is completed by a's payment, c's is missed, e's cancelled, b's is for tomorrow.
      await ok(`${Z}/appointmentPeriod/create`, { periodName: "午餐预约", restaurantId: ids.ra, mealTimesId: lunch.mealTimesId, beginDate: today, endDate: tomorrow, capacity: 10, deadlineDays: 0, deadlineTime: "23:59", status: "1" });
      const book = (userInfoId: number, appointmentDate = today) => ok(`${Z}/appointmentDetail/create`, { userInfoId, mealTimesId: lunch.mealTimesId, appointmentDate });
      await book(ids.a);
      await book(ids.c);
      const cancelled = await book(ids.e);
      await ok(`${Z}/appointmentDetail/update`, { id: cancelled.id, appointmentStatus: "0" });
      await book(ids.b, tomorrow);

      pointName = "A座大堂";
      ids.point = (await ok(`${Z}/deliveryPoint/create`, { restaurantId: ids.ra, pointName, pointType: "2", sort: 0, status: "1" })).id as number;
      const slot = await ok(`${Z}/deliveryTime/create`, { mealTimesId: lunch.mealTimesId, slotName: "午餐送达", beginTime: "11:30", endTime: "12:00", capacity: 10, status: "1" });

      await ok(`${Z}/cashier/pay`, { cardNo: "CARDA001", mealTimesId: lunch.mealTimesId, items: [{ foodId: lunch.foods[0], quantity: 1 }, { foodId: lunch.foods[1], quantity: 2 }] });
      await ok(`${Z}/cashier/pay`, { userInfoId: ids.b, mealTimesId: lunch.mealTimesId, items: [{ foodId: lunch.foods[0], quantity: 1 }] });
      await ok(`${Z}/cashier/pay`, { userInfoId: ids.b, mealTimesId: dinner.mealTimesId, items: [{ foodId: dinner.foods[0], quantity: 2 }] });
      const gone = await ok(`${Z}/cashier/pay`, { userInfoId: ids.c, mealTimesId: dinner.mealTimesId, items: [{ foodId: dinner.foods[0], quantity: 1 }] });
      await ok(`${Z}/mealOrder/cancel`, { id: gone.orderId, reason: "测试取消" });
      await ok(`${Z}/mealOrder/place`, { userInfoId: ids.e, mealTimesId: lunch.mealTimesId, items: [{ foodId: lunch.foods[1], quantity: 1 }] });
      for (const who of [ids.a, ids.b]) await ok(`${Z}/cashier/pay`, { userInfoId: who, amount: 1000, mealTimesId: lunch.mealTimesId, orderType: "3", deliveryPointId: ids.point, deliveryTimeId: slot.id });

      // Tomorrow's defaults: c's dinner is made and paid (800), f has no money (失败).
      await ok(`${Z}/userOrderDefault/create`, { userInfoId: ids.c, restaurantId: ids.rb, mealType: "dinner", amount: 800, quantity: 1, ...everyDay, status: "1" });
      await ok(`${Z}/userOrderDefault/create`, { userInfoId: ids.f, restaurantId: ids.ra, mealType: "lunch", amount: 1200, quantity: 1, ...everyDay, status: "1" });
      await ok(`${Z}/userOrderDefaultGenerate/generate`, { orderDate: tomorrow });
      // Today's lunch is over by tomorrow 00:00: c's booking is marked 已预约未就餐; b's (tomorrow) is not yet.
      await markNoShows(app.database.db, app.database.dialect, dayStart(tomorrow));
    }, 120_000);
    afterAll(async () => {
      await app.close();
    });

    const ledgerSum = async (docType: string) =>
      Number(
        (
          await app.database.db
            .selectFrom("user_account_ledger")
            .select((eb) => eb.fn.sum<number>("amount").as("s"))
            .where("tenant_id", "=", t.tenantId)
            .where("doc_type", "=", docType)
            .executeTakeFirstOrThrow()
        ).s,
      );

    test("刷卡统计: counter meals per day, restaurant and meal; card or other; diners counted once over the period", async () => {
      const swipes = await report("cardSwipe");
      expect(swipes.rows).toEqual([
        // 二 (èr) sorts before 一 (yī). The back-office order (e) and the cancelled one (c) are not counter meals.
        { day: today, restaurantName: "二号餐厅", mealType: "dinner", cardSwipes: 0, otherSwipes: 1, swipes: 1, diners: 1, amount: 1600 },
        { day: today, restaurantName: "一号餐厅", mealType: "lunch", cardSwipes: 1, otherSwipes: 3, swipes: 4, diners: 2, amount: 5000 },
      ]);
      // b ate at both: two diners in all, not three.
      expect(swipes.totals).toEqual({ day: "合计", cardSwipes: 1, otherSwipes: 4, swipes: 5, diners: 2, amount: 6600 });
      expect((await report("cardSwipe", { mealType: "dinner" })).totals).toMatchObject({ swipes: 1, diners: 1, amount: 1600 });
      expect((await report("cardSwipe", { deptId: ids.d2 })).rows).toEqual([]);
      expect((await report("cardSwipe", { restaurantId: ids.ra, payFlag: "0" })).totals).toMatchObject({ swipes: 4, diners: 2, amount: 5000 });
      // Tomorrow's default order is no counter meal.
      expect((await report("cardSwipe", { from: tomorrow, to: tomorrow })).totals).toMatchObject({ swipes: 0, diners: 0, amount: 0 });
    });

    test("未刷卡统计: booked or defaulted but no kept order that day and meal; source named", async () => {
      const missed = await report("noSwipe", { to: tomorrow });
      expect(missed.rows.map((r) => [r.day, r.mealType, r.restaurantName, r.userCode, r.userName, r.deptName, r.source, r.count])).toEqual([
        [today, "lunch", "一号餐厅", codes.c, "人员c", "财务部", "预约", 1],
        [tomorrow, "lunch", "一号餐厅", codes.b, "人员b", "研发部", "预约", 1],
        [tomorrow, "lunch", "一号餐厅", codes.f, "人员f", "财务部", "默认订餐", 1],
      ]);
      expect(missed.totals).toEqual({ day: "合计", count: 3 });
      expect((await report("noSwipe", { to: tomorrow, deptId: ids.d1 })).rows.map((r) => r.userCode)).toEqual([codes.b]);
      // A department's bookings and default orders alike.
      expect((await report("noSwipe", { to: tomorrow, deptId: ids.d2 })).rows.map((r) => [r.userCode, r.source])).toEqual([[codes.c, "预约"], [codes.f, "默认订餐"]]);
      expect((await report("noSwipe", { to: tomorrow, userCode: codes.f })).rows.map((r) => r.source)).toEqual(["默认订餐"]);
      expect((await report("noSwipe", { to: tomorrow, mealType: "dinner" })).rows).toEqual([]);
    });

    test("送餐人数统计: takeaways per day, point and slot", async () => {
      const delivery = await report("deliveryCount");
      expect(delivery.rows).toEqual([{ day: today, pointName, slotName: "午餐送达（11:30–12:00）", diners: 2, orders: 2, amount: 2000 }]);
      expect(delivery.totals).toEqual({ day: "合计", diners: 2, orders: 2, amount: 2000 });
      expect((await report("deliveryCount", { mealType: "dinner" })).rows).toEqual([]);
    });

    test("部门预约统计: booked = cancelled + completed + missed + pending, per department", async () => {
      const booking = await report("deptBooking", { to: tomorrow });
      expect(booking.rows).toEqual([
        { deptId: String(ids.d2), deptName: "财务部", diners: 1, booked: 1, cancelled: 0, completed: 0, notDined: 1, pending: 0 },
        { deptId: String(ids.d1), deptName: "研发部", diners: 2, booked: 2, cancelled: 0, completed: 1, notDined: 0, pending: 1 },
        { deptId: null, deptName: "未分配部门", diners: 0, booked: 1, cancelled: 1, completed: 0, notDined: 0, pending: 0 },
      ]);
      expect(booking.totals).toEqual({ deptName: "合计", diners: 3, booked: 4, cancelled: 1, completed: 1, notDined: 1, pending: 1 });
      const rows = await app.database.db.selectFrom("appointment_detail").select("id").where("tenant_id", "=", t.tenantId).execute();
      expect(rows).toHaveLength(booking.totals.booked as number);
      expect((await report("deptBooking", { deptId: ids.d1 })).rows).toEqual([{ deptId: String(ids.d1), deptName: "研发部", diners: 1, booked: 1, cancelled: 0, completed: 1, notDined: 0, pending: 0 }]);
    });

    test("食堂消费次数统计: meals, diners and 实收 per restaurant, stall and meal; 实收 equals the ledger", async () => {
      const counts = await report("canteenCounts");
      expect(counts.rows).toEqual([
        { restaurantName: "二号餐厅", stallName: "", mealType: "dinner", meals: 1, diners: 1, amount: 1600 },
        { restaurantName: "一号餐厅", stallName: "", mealType: "lunch", meals: 5, diners: 3, amount: 5300 },
      ]);
      expect(counts.totals).toEqual({ restaurantName: "合计", meals: 6, diners: 3, amount: 6900 });
      const both = await report("canteenCounts", { to: tomorrow });
      expect(both.totals).toEqual({ restaurantName: "合计", meals: 7, diners: 4, amount: 7700 });
      // What the meals kept is what the ledger took for orders (the cancel's lines net to zero).
      expect(-(await ledgerSum("mealOrder"))).toBe(both.totals.amount);
      expect((await report("canteenCounts", { to: tomorrow, payFlag: "500" })).totals).toMatchObject({ meals: 1, diners: 1, amount: 800 });
    });

    test("充值机汇总: top-ups, refunds and reversals per device and operator; net equals the ledger", async () => {
      const charges = await report("chargeMachine");
      expect(charges.rows).toEqual([
        { device: "后台", operatorName: t.adminUserName, channel: "cash", topUpCount: 5, topUp: 20500, refundCount: 1, refund: 1000, reversalCount: 1, reversal: 500, net: 19000 },
      ]);
      expect(charges.totals).toEqual({ device: "合计", topUpCount: 5, topUp: 20500, refundCount: 1, refund: 1000, reversalCount: 1, reversal: 500, net: 19000 });
      expect(await ledgerSum("charge")).toBe(19000);
      // By top-up channel (decision 064): these were sent without one, and their payment flag 0 is 现金.
      expect((await report("chargeMachine", { channel: "wechat" })).rows).toEqual([]);
      expect((await report("chargeMachine", { channel: "cash" })).totals).toMatchObject({ topUpCount: 5, net: 19000 });
      expect((await report("chargeMachine", { from: tomorrow, to: tomorrow })).totals).toMatchObject({ topUpCount: 0, net: 0 });
    });

    test("用户菜品统计: portions and amounts per diner and dish", async () => {
      const foods = await report("userFood");
      expect(foods.rows).toEqual([
        { userCode: codes.a, userName: "人员a", deptName: "研发部", restaurantName: "一号餐厅", foodName: "米饭", quantity: 2, amount: 600 },
        { userCode: codes.a, userName: "人员a", deptName: "研发部", restaurantName: "一号餐厅", foodName: "红烧肉", quantity: 1, amount: 1200 },
        { userCode: codes.b, userName: "人员b", deptName: "研发部", restaurantName: "二号餐厅", foodName: "水饺", quantity: 2, amount: 1600 },
        { userCode: codes.b, userName: "人员b", deptName: "研发部", restaurantName: "一号餐厅", foodName: "红烧肉", quantity: 1, amount: 1200 },
        { userCode: codes.e, userName: "人员e", deptName: "", restaurantName: "一号餐厅", foodName: "米饭", quantity: 1, amount: 300 },
      ]);
      expect(foods.totals).toEqual({ userCode: "合计", quantity: 7, amount: 4900 });
      expect((await report("userFood", { userCode: codes.b, mealType: "lunch" })).rows.map((r) => r.foodName)).toEqual(["红烧肉"]);
    });

    test("个人就餐统计: meals per meal type, days eaten and 实收 per diner", async () => {
      const dining = await report("personalDining", { to: tomorrow });
      const zero = { meals_breakfast: 0, meals_lunch: 0, meals_dinner: 0, meals_midnight: 0, meals_none: 0 };
      expect(dining.rows).toEqual([
        { userCode: codes.a, userName: "人员a", deptName: "研发部", ...zero, meals_lunch: 2, meals: 2, days: 1, amount: 2800 },
        { userCode: codes.b, userName: "人员b", deptName: "研发部", ...zero, meals_lunch: 2, meals_dinner: 1, meals: 3, days: 1, amount: 3800 },
        { userCode: codes.c, userName: "人员c", deptName: "财务部", ...zero, meals_dinner: 1, meals: 1, days: 1, amount: 800 },
        { userCode: codes.e, userName: "人员e", deptName: "", ...zero, meals_lunch: 1, meals: 1, days: 1, amount: 300 },
      ]);
      expect(dining.totals).toEqual({ userCode: "合计", ...zero, meals_lunch: 5, meals_dinner: 2, meals: 7, days: 4, amount: 7700 });
      expect((await report("personalDining", { to: tomorrow, deptId: ids.d2 })).rows.map((r) => r.userCode)).toEqual([codes.c]);
    });

    test("drill-downs name reports that exist and filters they take", () => {
      for (const def of reports.filter((r) => ["cardSwipe", "noSwipe", "deliveryCount", "deptBooking", "canteenCounts", "chargeMachine", "userFood", "personalDining"].includes(r.entity))) {
        for (const c of def.columns.filter((col) => col.link)) {
          const target = reports.find((r) => r.entity === c.link!.report);
          expect(target, `${def.entity}.${c.key}`).toBeDefined();
          const params = target!.filters.flatMap((f) => (f.kind === "dayRange" ? ["from", "to"] : [f.name]));
          for (const param of Object.keys(c.link!.params)) expect(params, `${def.entity}.${c.key} → ${param}`).toContain(param);
        }
      }
    });

    test("a filtered answer names its filters: asked again with them it gives the same rows", async () => {
      const first = await report("personalDining", { to: tomorrow, deptId: ids.d1, restaurantId: ids.ra, mealType: "lunch" });
      expect(first.filters).toEqual({ from: today, to: tomorrow, deptId: String(ids.d1), restaurantId: String(ids.ra), mealType: "lunch" });
      const again = (await get(`${R}/personalDining`, first.filters)).data as Answer;
      expect(again.rows).toEqual(first.rows);
      expect(again.totals).toEqual(first.totals);
      expect(first.totals).toMatchObject({ meals: 4, amount: 5000 });
    });

    test("bad filters are a 400 naming the field in Chinese", async () => {
      expectField(await get(`${R}/cardSwipe`, { from: "2026-02-30" }), "from", "日期格式应为 2026-05-01");
      expectField(await get(`${R}/noSwipe`, { from: tomorrow, to: today }), "from", "开始日期不能晚于结束日期");
      expectField(await get(`${R}/canteenCounts`, { stallId: ids.ra }), "stallId", "所选档口不存在");
      expectField(await get(`${R}/canteenCounts`, { stallId: "abc" }), "stallId", /档口/);
      expectField(await get(`${R}/deptBooking`, { deptId: ids.ra }), "deptId", "所选部门不存在");
      expectField(await get(`${R}/deliveryCount`, { mealType: "brunch" }), "mealType", "餐别不是可选的值");
      expectField(await get(`${R}/chargeMachine`, { channel: "bitcoin" }), "channel", "充值渠道不是可选的值");
      expectField(await get(`${R}/userFood`, { userCode: "nobody" }), "userCode", "该人员编号不存在");
      expect((await get(`${R}/chargeMachine`, { deptId: ids.d1 })).status).toBe(400);
      expect((await get(`${R}/personalDining/export`, { from: "x" })).status).toBe(400);
    });

    test("another tenant sees none of it and cannot name its rows", async () => {
      for (const name of ["cardSwipe", "noSwipe", "deliveryCount", "deptBooking", "canteenCounts", "chargeMachine", "userFood", "personalDining"]) {
        const other = await report(name, { to: tomorrow }, superToken);
        expect(JSON.stringify(other.rows), name).not.toMatch(/人员[abcef]|A座大堂|一号餐厅|研发部/);
      }
      expectField(await get(`${R}/noSwipe`, { userCode: codes.c }, superToken), "userCode", "该人员编号不存在");
      expectField(await get(`${R}/deptBooking`, { deptId: ids.d1 }, superToken), "deptId", "所选部门不存在");
    });

    test("the XLSX holds exactly what the screen shows: headers, rows, totals, yuan as numbers", async () => {
      const labels: Record<string, string> = { lunch: "午餐", dinner: "晚餐", cash: "现金" };
      for (const [name, query] of [["cardSwipe", {}], ["chargeMachine", {}], ["personalDining", { to: tomorrow }], ["noSwipe", { to: tomorrow }]] as const) {
        const answer = await report(name, query);
        const params = new URLSearchParams({ from: today, to: today, ...query });
        const response = await app.api.handle(new Request(`http://canteen.test${R}/${name}/export?${params}`, { headers: { Authorization: `Bearer ${t.token}` } }), "127.0.0.1");
        expect(response.status).toBe(200);
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load((await response.arrayBuffer()) as never);
        const sheet = workbook.worksheets[0];
        const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
        const def = reports.find((r) => r.entity === name)!;
        expect(values(1)[0]).toBe(def.title);
        expect(values(3)).toEqual(def.columns.map((c) => c.label));
        const shown = [...answer.rows, answer.totals].map((row) =>
          def.columns.map((c) => {
            const v = row[c.key];
            if (v === null || v === undefined || v === "") return undefined;
            if (c.kind === "money") return Number(v) / 100;
            if (c.kind === "enum") return labels[String(v)] ?? v;
            return v;
          }),
        );
        expect(sheet.rowCount).toBe(3 + shown.length);
        expect(shown.map((_, i) => def.columns.map((_c, j) => values(4 + i)[j] ?? undefined))).toEqual(shown);
        def.columns.forEach((c, j) => {
          if (c.kind === "money") expect(sheet.getColumn(j + 1).numFmt).toBe("#,##0.00");
        });
      }
    });

    // Last: it adds top-ups the tests above do not count.
    test("充值机汇总: a top-up from a terminal is the terminal's, by its registered name or else its code; a bad code is refused at the field", async () => {
      await ok("/api/v1/sys/device/create", { deviceCode: "CZJ-01", deviceName: "一楼充值机", deviceType: "box", status: "1" });
      const topUp = (amount: number, deviceCode?: unknown) => app.call<unknown>("POST", `${Z}/userAccountCharge/create`, { token: t.token, body: { userInfoId: ids.f, amount, deviceCode } });
      expect((await topUp(2000, "CZJ-01")).body).toMatchObject({ status: 200 });
      expect((await topUp(700, "CZJ-01")).body).toMatchObject({ status: 200 });
      expect((await topUp(1000, "POS-9")).body).toMatchObject({ status: 200 });
      expectField((await topUp(100, "X".repeat(65))).body, "deviceCode", "设备编号不能超过 64 个字符");
      expect((await topUp(100, "CZJ\u000001")).body).toMatchObject({ status: 400 });
      expect((await topUp(100, 42)).body).toMatchObject({ status: 400 });
      const rows = (await report("chargeMachine")).rows;
      expect(rows[0]).toMatchObject({ device: "后台", topUpCount: 5, topUp: 20500 });
      // Terminals as Chinese readers sort them: Han names before Latin codes.
      expect(rows.slice(1).map((r) => [r.device, r.operatorName, r.topUpCount, r.topUp, r.net])).toEqual([
        ["一楼充值机", t.adminUserName, 2, 2700, 2700],
        ["POS-9", t.adminUserName, 1, 1000, 1000],
      ]);
      expect(await ledgerSum("charge")).toBe(19000 + 3700);
      const listed = await get(`${Z}/userAccountCharge/findPage`, { deviceCode: "CZJ-01" });
      expect((listed.data as { total: number }).total).toBe(2);
    });
  });
}
