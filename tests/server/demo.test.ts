import { sql, type RawBuilder } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { reports } from "../../resources/report/index";
import { DemoExistsError, seedDemo, type DemoResult } from "../../server/modules/zhct/demo";
import { dinedPage } from "../../server/modules/report/dinerPeriods";
import type { Filters } from "../../server/modules/report/query";
import { userFoodPage } from "../../server/modules/report/queries-attendance";
import { dayOf, dayStart } from "../../server/modules/zhct/months";
import { createTestApp, loginAs, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";


type Row = Record<string, unknown>;

/**
 * The demo canteen (issue 15, decision 035) at a small size, on each database: its money adds up (every balance is
 * the sum of its ledger lines, the last line carries it; an order is its items and what its lines took), every
 * report answers with rows for the last 30 days through the API, the dashboard has figures, and a second run is
 * refused.
 */
for (const dialect of dialects) {
  describe(`${dialect}: demo canteen`, () => {
    let app: TestApp;
    let demo: DemoResult;
    let token: string;
    const now = Date.now();
    const today = dayOf(now);
    const from = dayOf(dayStart(today) - 29 * 86_400_000);

    beforeAll(async () => {
      app = await createTestApp(dialect);
      demo = await seedDemo(app.database.db, { diners: 80, days: 40, now, password: "Demo-Test-Pass-2026" });
      const first = await loginAs(app, demo.userName, "Demo-Test-Pass-2026");
      const changed = await app.call("POST", "/api/v1/auth/user/modifyPasswd", { token: first, body: { oldPassword: "Demo-Test-Pass-2026", newPassword: "Demo-Changed-2026!" } });
      expect(changed.body.status, JSON.stringify(changed.body)).toBe(200);
      token = first;
    }, 120_000);
    afterAll(() => app?.close());

    const rows = async <T extends Row = Row>(query: RawBuilder<unknown>) => (await query.execute(app.database.db)).rows as T[];

    test("the generator made a canteen of the size asked, dated up to now", async () => {
      expect(demo.diners).toBe(80);
      expect(demo.to).toBe(today);
      expect(demo.orders).toBeGreaterThan(80 * 40 * 0.5);
      const [counts] = await rows<{ diners: number; cards: number; accounts: number; later: number }>(sql`
        select (select count(*) from user_info where tenant_id = ${demo.tenantId}) as diners,
               (select count(*) from user_ic_card where tenant_id = ${demo.tenantId} and card_status = 1) as cards,
               (select count(*) from user_account where tenant_id = ${demo.tenantId}) as accounts,
               (select count(*) from user_account_ledger where tenant_id = ${demo.tenantId} and occurred_at > ${now}) as later`);
      expect(counts).toEqual({ diners: 80, cards: 80, accounts: 160, later: 0 });
      const [orderCount] = await rows<{ n: number }>(sql`select count(*) as n from meal_order where tenant_id = ${demo.tenantId}`);
      expect(Number(orderCount.n)).toBe(demo.orders);
      if (dialect === "sqlite") expect(await rows(sql`pragma foreign_key_check`)).toEqual([]);
    });

    test("every balance is the sum of its ledger lines, and the account's last line carries it", async () => {
      const wrong = await rows(sql`
        select a.id, a.balance, coalesce(sum(l.amount), 0) as lines
        from user_account a left join user_account_ledger l on l.tenant_id = a.tenant_id and l.account_id = a.id
        where a.tenant_id = ${demo.tenantId}
        group by a.id, a.balance
        having a.balance <> coalesce(sum(l.amount), 0)`);
      expect(wrong).toEqual([]);
      const last = await rows(sql`
        select a.id from user_account a
        join user_account_ledger l on l.tenant_id = a.tenant_id and l.id = (select max(id) from user_account_ledger m where m.tenant_id = a.tenant_id and m.account_id = a.id)
        where a.tenant_id = ${demo.tenantId} and l.balance_after <> a.balance`);
      expect(last).toEqual([]);
      const [negative] = await rows<{ n: number }>(sql`select count(*) as n from user_account where tenant_id = ${demo.tenantId} and balance < 0`);
      expect(Number(negative.n)).toBe(0);
    });

    test("an order is its items; what it keeps is what its ledger lines took (ticket orders: its ticket's use)", async () => {
      const items = await rows(sql`
        select o.id from meal_order o join meal_order_item i on i.tenant_id = o.tenant_id and i.meal_order_id = o.id
        where o.tenant_id = ${demo.tenantId} group by o.id, o.amount having o.amount <> sum(i.subtotal)`);
      expect(items).toEqual([]);
      const money = await rows(sql`
        select o.id from meal_order o left join user_account_ledger l on l.tenant_id = o.tenant_id and l.doc_type = 'mealOrder' and l.doc_id = o.id
        where o.tenant_id = ${demo.tenantId} and o.pay_flag not in (3, 4, 5, 7)
        group by o.id, o.paid_amount, o.refunded_amount having o.paid_amount - o.refunded_amount <> -coalesce(sum(l.amount), 0)`);
      expect(money).toEqual([]);
      const tickets = await rows(sql`
        select o.id from meal_order o left join meal_ticket_use u on u.tenant_id = o.tenant_id and u.order_id = o.id
        where o.tenant_id = ${demo.tenantId} and o.pay_flag = 3 and (u.amount is null or u.amount <> o.amount)`);
      expect(tickets).toEqual([]);
      const statuses = await rows<{ order_status: number; n: number }>(sql`select order_status, count(*) as n from meal_order where tenant_id = ${demo.tenantId} group by order_status order by order_status`);
      expect(statuses.map((s) => Number(s.order_status))).toContain(2);
    });

    test("points: every account is the sum of its lines and never negative; each order earned once; takeaways are delivered", async () => {
      const wrong = await rows(sql`
        select a.id from user_integral_account a left join user_account_integral_detail p on p.tenant_id = a.tenant_id and p.user_info_id = a.user_info_id
        where a.tenant_id = ${demo.tenantId} group by a.id, a.balance having a.balance <> coalesce(sum(p.points), 0) or a.balance < 0`);
      expect(wrong).toEqual([]);
      const orphans = await rows(sql`
        select p.user_info_id from user_account_integral_detail p
        where p.tenant_id = ${demo.tenantId} and not exists (select 1 from user_integral_account a where a.tenant_id = p.tenant_id and a.user_info_id = p.user_info_id)`);
      expect(orphans).toEqual([]);
      // An order paid from the accounts earns ⌊yuan⌋ points once (1 a yuan); vouchers earn nothing.
      const earning = await rows(sql`
        select o.id from meal_order o left join user_account_integral_detail p on p.tenant_id = o.tenant_id and p.order_id = o.id and p.change_type = 1
        where o.tenant_id = ${demo.tenantId} and o.pay_flag <> 3
        group by o.id, o.paid_amount having count(p.id) <> 1 or coalesce(sum(p.points), 0) <> o.paid_amount / 100`);
      expect(earning).toEqual([]);
      // A fully refunded order keeps none of its points (what the balance held was taken back).
      const kept = await rows(sql`
        select o.id from meal_order o join user_account_integral_detail p on p.tenant_id = o.tenant_id and p.order_id = o.id
        where o.tenant_id = ${demo.tenantId} and o.order_status = 2 group by o.id having sum(p.points) <> 0`);
      expect(kept).toEqual([]);
      const takeaways = await rows(sql`
        select o.id from meal_order o left join meal_order_delivery d on d.tenant_id = o.tenant_id and d.order_id = o.id
        where o.tenant_id = ${demo.tenantId} and o.order_type = 3 and (d.id is null or (d.cancelled_at is null) <> (o.order_status <> 2))`);
      expect(takeaways).toEqual([]);
      const [defaults] = await rows<{ created: number; failed: number; orders: number }>(sql`
        select (select count(*) from user_order_default_generate_detail where tenant_id = ${demo.tenantId} and result = 1) as created,
               (select count(*) from user_order_default_generate_detail where tenant_id = ${demo.tenantId} and result = 3) as failed,
               (select count(*) from meal_order where tenant_id = ${demo.tenantId} and order_source = 'default') as orders`);
      expect(Number(defaults.created)).toBe(Number(defaults.orders));
      expect(Number(defaults.created)).toBeGreaterThan(0);
    });

    test("a menu item's sold count is what orders not cancelled took of it", async () => {
      const wrong = await rows(sql`
        select m.id, m.sold_count from food_menu_item m
        left join meal_order_item i on i.tenant_id = m.tenant_id and i.food_menu_item_id = m.id
          and exists (select 1 from meal_order o where o.tenant_id = i.tenant_id and o.id = i.meal_order_id and o.order_status <> 2)
        where m.tenant_id = ${demo.tenantId}
        group by m.id, m.sold_count having m.sold_count <> coalesce(sum(i.quantity), 0)`);
      expect(wrong).toEqual([]);
    });

    test("every report answers with rows for the demo tenant's last 30 days", async () => {
      const [busiest] = await rows<{ user_code: string }>(sql`
        select u.user_code from meal_order o join user_info u on u.tenant_id = o.tenant_id and u.id = o.user_info_id
        where o.tenant_id = ${demo.tenantId} group by u.user_code order by count(*) desc, u.user_code limit 1`);
      const empty: string[] = [];
      for (const report of reports) {
        const query = new URLSearchParams();
        for (const f of report.filters) {
          if (f.kind === "dayRange") {
            query.set("from", from);
            query.set("to", today);
          }
          if (f.kind === "monthRange") {
            query.set("fromMonth", from.slice(0, 7));
            query.set("toMonth", today.slice(0, 7));
          }
          if (f.kind === "diner" && f.required) query.set(f.name, busiest.user_code);
        }
        const answer = await app.call<{ rows: Row[] }>("GET", `/api/v1/report/${report.entity}?${query}`, { token });
        expect(answer.body.status, `${report.entity}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(200);
        if (!answer.body.data.rows.length) empty.push(report.entity);
      }
      // Default orders, points and takeaways are generated too: every report has rows, 未刷卡统计 and 送餐人数 included.
      expect(empty, "reports without rows on the demo data").toEqual([]);
    }, 60_000);

    test("a diner's period, read from the kept days and months, is what the orders and their lines give, for any period (decision 041)", async () => {
      const shift = (day: string, days: number) => dayOf(dayStart(day) + days * 86_400_000);
      const monthStart = `${today.slice(0, 7)}-01`;
      const lastMonthEnd = shift(monthStart, -1);
      const lastMonthStart = `${lastMonthEnd.slice(0, 7)}-01`;
      const periods: Array<[string, string]> = [
        [from, today], // the default: this month less its days to come, and the last days of the month before
        [lastMonthStart, lastMonthEnd], // a whole month
        [shift(lastMonthStart, 2), shift(lastMonthEnd, -2)], // a month less its edges
        [shift(lastMonthEnd, -3), shift(monthStart, 2)], // a few days either side of a month's end
        [shift(lastMonthStart, 9), today], // most of one month and all of this one
        [today, today],
        [shift(today, 1), shift(today, 5)], // days to come: nobody
      ];
      const kept = sql`o.order_status not in (2, 4)`;
      const asText = (list: unknown[][]) => list.map((r) => JSON.stringify(r)).sort();
      /** 食堂消费次数统计's rows, grouped from the orders: restaurant, stall, meal type, meals, diners, 实收. */
      const placesOf = async (a: string, b: string, condition: ReturnType<typeof sql>) =>
        (
          await rows<Row>(sql`
            select coalesce(r.org_name, '未指定餐厅') as restaurant, coalesce(s.org_name, '') as stall, o.meal_type, count(*) as meals, count(distinct o.user_info_id) as diners, sum(o.paid_amount - o.refunded_amount) as amount
            from meal_order o left join org r on r.tenant_id = o.tenant_id and r.id = o.restaurant_id left join org s on s.tenant_id = o.tenant_id and s.id = o.stall_id
            where o.tenant_id = ${demo.tenantId} and o.order_date between ${a} and ${b} and ${kept} and ${condition}
            group by o.restaurant_id, r.org_name, o.stall_id, s.org_name, o.meal_type`)
        ).map((r) => [r.restaurant, r.stall, r.meal_type, Number(r.meals), Number(r.diners), Number(r.amount)]);
      for (const [a, b] of periods) {
        const orders = await rows<Row>(sql`
          select u.user_code, count(*) as placed, sum(case when ${kept} then 1 else 0 end) as orders, sum(o.paid_amount - o.refunded_amount) as net,
            sum(case when ${kept} and o.meal_type = 'breakfast' then 1 else 0 end) as breakfast, sum(case when ${kept} and o.meal_type = 'lunch' then 1 else 0 end) as lunch,
            sum(case when ${kept} and o.meal_type = 'dinner' then 1 else 0 end) as dinner, sum(case when ${kept} and o.meal_type = 'midnight' then 1 else 0 end) as midnight,
            sum(case when ${kept} and (o.meal_type is null or o.meal_type not in ('breakfast', 'lunch', 'dinner', 'midnight')) then 1 else 0 end) as other,
            count(distinct case when ${kept} then o.order_date end) as days,
            coalesce((select -sum(l.amount) from meal_order m join user_account_ledger l on l.tenant_id = m.tenant_id and l.doc_type = 'mealOrder' and l.doc_id = m.id and l.busi_type in (2, 6)
              where m.tenant_id = o.tenant_id and m.user_info_id = o.user_info_id and m.order_date between ${a} and ${b} and l.account_type = 'cash'), 0) as cash,
            coalesce((select -sum(l.amount) from meal_order m join user_account_ledger l on l.tenant_id = m.tenant_id and l.doc_type = 'mealOrder' and l.doc_id = m.id and l.busi_type in (2, 6)
              where m.tenant_id = o.tenant_id and m.user_info_id = o.user_info_id and m.order_date between ${a} and ${b} and l.account_type = 'subsidy'), 0) as subsidy
          from meal_order o join user_info u on u.tenant_id = o.tenant_id and u.id = o.user_info_id
          where o.tenant_id = ${demo.tenantId} and o.order_date between ${a} and ${b}
          group by o.tenant_id, o.user_info_id, u.user_code order by u.user_code`);
        const want = orders.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === "user_code" ? v : Number(v)])));
        const answer = async (name: string) => {
          const got = await app.call<{ rows: Row[]; totals: Row }>("GET", `/api/v1/report/${name}?${new URLSearchParams({ from: a, to: b })}`, { token });
          expect(got.body.status, JSON.stringify(got.body).slice(0, 300)).toBe(200);
          return got.body.data;
        };
        const period = `${a} – ${b}`;
        expect((await answer("userConsumption")).rows.map((r) => [r.userCode, r.orders, r.net, r.cash, r.subsidy]), period).toEqual(want.map((w) => [w.user_code, w.orders, w.net, w.cash, w.subsidy]));
        expect((await answer("personalDining")).rows.map((r) => [r.userCode, r.meals_breakfast, r.meals_lunch, r.meals_dinner, r.meals_midnight, r.meals_none, r.meals, r.days, r.amount]), period).toEqual(
          want.filter((w) => Number(w.orders) > 0).map((w) => [w.user_code, w.breakfast, w.lunch, w.dinner, w.midnight, w.other, w.orders, w.days, w.net]),
        );
        // Past the row limit the page is the first diners by code, while the count and the totals are every diner's.
        const dined = want.filter((w) => Number(w.orders) > 0);
        const page = await dinedPage(app.database.db, demo.tenantId, { from: a, to: b, start: dayStart(a), end: dayStart(b) + 86_400_000 }, 3);
        expect(page.rows.map((r) => [r.userCode, r.orders, r.days, r.net, r.meals.lunch]), period).toEqual(dined.slice(0, 3).map((w) => [w.user_code, w.orders, w.days, w.net, w.lunch]));
        const sum = (key: string) => dined.reduce((s, w) => s + Number(w[key]), 0);
        expect([page.count, page.totals.orders, page.totals.days, page.totals.net, page.totals.meals.breakfast, page.totals.meals.none], period).toEqual([dined.length, sum("orders"), sum("days"), sum("net"), sum("breakfast"), sum("other")]);
        // 刷卡统计 reads the counter and device sales each day keeps and the diners' days (decision 043).
        const swiped = sql`o.tenant_id = ${demo.tenantId} and o.order_date between ${a} and ${b} and o.order_status not in (2, 4) and o.order_source in ('cashier', 'device')`;
        const swipeRows = await rows<Row>(sql`
          select o.order_date as day, coalesce(r.org_name, '') as restaurant, o.meal_type, sum(case when o.card_no is not null then 1 else 0 end) as cards, count(*) as swipes,
            count(distinct o.user_info_id) as diners, sum(o.paid_amount - o.refunded_amount) as amount
          from meal_order o left join org r on r.tenant_id = o.tenant_id and r.id = o.restaurant_id where ${swiped} group by o.order_date, r.org_name, o.meal_type`);
        const [swipeTotal] = await rows<Row>(sql`select count(distinct o.user_info_id) as diners, count(*) as swipes from meal_order o where ${swiped}`);
        const cards = await answer("cardSwipe");
        expect(asText(cards.rows.map((r) => [r.day, r.restaurantName, r.mealType, r.cardSwipes, r.swipes, r.diners, r.amount])), period).toEqual(
          asText(swipeRows.map((r) => [r.day, r.restaurant, r.meal_type, ...["cards", "swipes", "diners", "amount"].map((k) => Number(r[k]))])),
        );
        expect([cards.totals.diners, cards.totals.swipes], period).toEqual([Number(swipeTotal.diners), Number(swipeTotal.swipes)]);
        const depts = await answer("deptDining");
        expect(depts.totals, period).toMatchObject({ diners: want.filter((w) => Number(w.orders) > 0).length, orders: want.reduce((s, w) => s + Number(w.orders), 0), net: want.reduce((s, w) => s + Number(w.net), 0) });
        // 食堂消费次数统计: per place from each diner's kept months there and the orders at the period's edges (decision
        // 047), the same rows as a plain grouping of the orders; its total of diners is the period's, each once.
        const counts = await answer("canteenCounts");
        expect([counts.totals.meals, counts.totals.diners], period).toEqual([sum("orders"), dined.length]);
        const places = await placesOf(a, b, sql`1 = 1`);
        expect(asText(counts.rows.map((r) => [r.restaurantName, r.stallName, r.mealType, r.meals, r.diners, r.amount])), period).toEqual(asText(places));
      }
      // And with a restaurant, a stall or a meal type: all in the kept months' key.
      const [busy] = await rows<Row>(sql`select restaurant_id, stall_id from meal_order where tenant_id = ${demo.tenantId} and stall_id is not null group by restaurant_id, stall_id order by count(*) desc limit 1`);
      expect(busy, "the demo sells at stalls").toBeDefined();
      for (const [a, b] of [periods[2], periods[3], periods[4]]) {
        for (const [name, value, condition] of [
          ["restaurantId", busy.restaurant_id, sql`o.restaurant_id = ${busy.restaurant_id}`],
          ["stallId", busy.stall_id, sql`o.stall_id = ${busy.stall_id}`],
          ["mealType", "lunch", sql`o.meal_type = 'lunch'`],
        ] as const) {
          const got = await app.call<{ rows: Row[]; totals: Row }>("GET", `/api/v1/report/canteenCounts?${new URLSearchParams({ from: a, to: b, [name]: String(value) })}`, { token });
          expect(got.body.status).toBe(200);
          const [all] = await rows<Row>(sql`select count(distinct o.user_info_id) as diners from meal_order o where o.tenant_id = ${demo.tenantId} and o.order_date between ${a} and ${b} and o.order_status not in (2, 4) and ${condition}`);
          const label = `${a} – ${b}, ${name}`;
          expect(asText(got.body.data.rows.map((r) => [r.restaurantName, r.stallName, r.mealType, r.meals, r.diners, r.amount])), label).toEqual(asText(await placesOf(a, b, condition)));
          expect(got.body.data.totals.diners, label).toBe(Number(all.diners));
        }
      }
      // 订单日汇总 and 月度结算-商户 read the orders each day keeps (decision 041 addendum): the same figures as the orders.
      for (const [a, b] of periods) {
        const days = await rows<Row>(sql`
          select order_date as day, count(*) as orders, sum(case when order_status in (2, 4) then 1 else 0 end) as cancelled, sum(paid_amount) as paid, sum(refunded_amount) as refunded,
            sum(paid_amount - refunded_amount) as net, sum(case when meal_type = 'lunch' then paid_amount - refunded_amount else 0 end) as net_lunch,
            sum(case when meal_type is null or meal_type not in ('breakfast', 'lunch', 'dinner', 'midnight') then paid_amount - refunded_amount else 0 end) as net_none
          from meal_order where tenant_id = ${demo.tenantId} and order_date between ${a} and ${b} group by order_date order by order_date`);
        const got = await app.call<{ rows: Row[] }>("GET", `/api/v1/report/dailyOrderSummary?${new URLSearchParams({ from: a, to: b })}`, { token });
        expect(got.body.data.rows.map((r) => [r.day, r.orders, r.cancelled, r.paid, r.refunded, r.net, r.net_lunch, r.net_none]), `${a} – ${b}`).toEqual(
          days.map((d) => [d.day, ...["orders", "cancelled", "paid", "refunded", "net", "net_lunch", "net_none"].map((k) => Number(d[k]))]),
        );
      }
      for (const month of [lastMonthStart.slice(0, 7), today.slice(0, 7)]) {
        const byRestaurant = await rows<Row>(sql`
          select r.org_name, sum(case when o.order_status in (2, 4) then 0 else 1 end) as orders, sum(o.paid_amount - o.refunded_amount) as sales
          from meal_order o join org r on r.tenant_id = o.tenant_id and r.id = o.restaurant_id
          where o.tenant_id = ${demo.tenantId} and o.order_date like ${`${month}-%`} group by r.org_name order by r.org_name`);
        const got = await app.call<{ rows: Row[] }>("GET", `/api/v1/report/monthlySettlementMerchant?${new URLSearchParams({ fromMonth: month, toMonth: month })}`, { token });
        expect(got.body.status).toBe(200);
        const shown = [...new Set(got.body.data.rows.map((r) => JSON.stringify([r.restaurantName, r.orders, r.sales])))].sort();
        expect(shown, month).toEqual(byRestaurant.map((r) => JSON.stringify([r.org_name, Number(r.orders), Number(r.sales)])).sort());
      }
      // The demo's period has orders in both months, cancelled and refunded ones among them, so each way was taken.
      expect(periods.some(([a, b]) => a < monthStart && b >= monthStart)).toBe(true);
    }, 60_000);

    test("用户菜品统计 made diner by diner is the orders' grouping: whole diners in code order up to the limit, says when more are left out, totals of all (decision 045)", async () => {
      const [restaurant] = await rows<{ id: number }>(sql`select restaurant_id as id from meal_order where tenant_id = ${demo.tenantId} and restaurant_id is not null limit 1`);
      const [dept] = await rows<{ id: number }>(sql`select dept_id as id from user_info where tenant_id = ${demo.tenantId} and dept_id is not null group by dept_id order by count(*) desc limit 1`);
      const cases: Array<[string, Filters, RawBuilder<unknown>]> = [
        ["the last 30 days", { from, to: today, start: 0, end: 0 }, sql`1 = 1`],
        ["lunch", { from, to: today, start: 0, end: 0, mealType: "lunch" }, sql`o.meal_type = 'lunch'`],
        ["a restaurant", { from, to: today, start: 0, end: 0, restaurantId: restaurant.id }, sql`o.restaurant_id = ${restaurant.id}`],
        ["a department", { from, to: today, start: 0, end: 0, deptId: dept.id }, sql`u.dept_id = ${dept.id}`],
        ["paid in cash", { from, to: today, start: 0, end: 0, payFlag: "0" }, sql`o.pay_flag = 0`],
      ];
      for (const [name, filters, where] of cases) {
        const all = await rows<Row>(sql`
          select u.user_code, r.org_name as restaurant_name, i.food_name, sum(i.quantity) as quantity, sum(i.subtotal) as amount
          from meal_order o join meal_order_item i on i.tenant_id = o.tenant_id and i.meal_order_id = o.id join user_info u on u.tenant_id = o.tenant_id and u.id = o.user_info_id
            join org r on r.tenant_id = o.tenant_id and r.id = o.restaurant_id
          where o.tenant_id = ${demo.tenantId} and o.order_date between ${from} and ${today} and o.order_status not in (2, 4) and ${where}
          group by u.user_code, r.id, r.org_name, i.food_id, i.food_name`);
        const code = (r: Row) => String(r.user_code);
        const zh = (a: Row, b: Row, key: string) => String(a[key]).localeCompare(String(b[key]), "zh-CN");
        all.sort((a, b) => (code(a) < code(b) ? -1 : code(a) > code(b) ? 1 : Number(b.quantity) - Number(a.quantity) || zh(a, b, "food_name") || zh(a, b, "restaurant_name")));
        const want = all.map((r) => [code(r), r.restaurant_name, r.food_name, Number(r.quantity), Number(r.amount)]);
        // The demo's restaurants each sell a dish of the same name: a diner's two 米饭 are two rows, told apart by 餐厅.
        if (name === "the last 30 days") expect(new Set(all.map((r) => `${code(r)} ${r.food_name}`)).size, name).toBeLessThan(all.length);
        expect(want.length, name).toBeGreaterThan(20);
        // A page of whole diners: the first two, when the third's dishes would pass the limit; read 3 diners at a time.
        const [first, second, third] = [...new Set(want.map((r) => r[0]))].map((diner) => want.filter((r) => r[0] === diner));
        const shown = (r: Row) => [r.userCode, r.restaurantName, r.foodName, r.quantity, r.amount];
        const limit = first.length + second.length + third.length - 1;
        const page = await userFoodPage(app.database.db, demo.tenantId, filters, { limit, batch: 3 });
        expect(page.rows.map(shown), name).toEqual([...first, ...second]);
        expect(page.more, name).toBe(true);
        const whole = await userFoodPage(app.database.db, demo.tenantId, filters, { limit: 100_000, batch: 3 });
        expect(whole.rows.map(shown), name).toEqual(want);
        expect(whole.more, name).toBe(false);
        // Through the API: the same rows and the totals of every row (from the day's dishes sold, or the orders).
        const query = new URLSearchParams({ from, to: today, ...(filters.mealType ? { mealType: filters.mealType } : {}), ...(filters.restaurantId ? { restaurantId: String(filters.restaurantId) } : {}), ...(filters.deptId ? { deptId: String(filters.deptId) } : {}), ...(filters.payFlag ? { payFlag: filters.payFlag } : {}) });
        const answer = await app.call<{ rows: Row[]; totals: Row; more: boolean; truncated: number }>("GET", `/api/v1/report/userFood?${query}`, { token });
        expect(answer.body.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
        expect(answer.body.data.rows.map(shown), name).toEqual(want);
        expect(answer.body.data.totals, name).toEqual({ userCode: "合计", quantity: want.reduce((s, r) => s + Number(r[3]), 0), amount: want.reduce((s, r) => s + Number(r[4]), 0) });
        expect([answer.body.data.more, answer.body.data.truncated], name).toEqual([false, 0]);
      }
    });

    test("the dashboard shows the canteen's month", async () => {
      const answer = await app.call<{ trend: Array<{ orders: number; net: number }>; orders: number }>("GET", "/api/v1/report/dashboard", { token });
      expect(answer.body.status).toBe(200);
      const trend = answer.body.data.trend;
      expect(trend.reduce((s, d) => s + d.orders, 0)).toBeGreaterThan(0);
      expect(trend.reduce((s, d) => s + d.net, 0)).toBeGreaterThan(0);
    });

    test("a second run on the same database is refused and changes nothing", async () => {
      const before = await rows<{ n: number }>(sql`select count(*) as n from meal_order`);
      await expect(seedDemo(app.database.db, { diners: 5, days: 2 })).rejects.toBeInstanceOf(DemoExistsError);
      expect(await rows(sql`select count(*) as n from meal_order`)).toEqual(before);
    });
  });
}
