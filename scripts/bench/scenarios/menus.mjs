// The canteen's menus (issue 11): batch-create of 31 days × 4 meal types × 30 dishes for one restaurant (median of
// three months, measured once in setup) and findByDate of a published day against a bare handler.
import { BARE_PORT, BASE, PORT, TENANT, bareHandler, loadRound } from "../lib.mjs";

const MENU_TYPES = ["breakfast", "lunch", "dinner", "midnight"];
const MENU_FOODS = 30;
const MENU_MONTHS = [["2027-01-01", "2027-01-31"], ["2027-03-01", "2027-03-31"], ["2027-05-01", "2027-05-31"]];
const MENU_DAY = "2027-01-04";

async function prepareMenus(token) {
  const call = async (path, body) => {
    const response = await fetch(`http://127.0.0.1:${PORT}${path}`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    const envelope = await response.json();
    if (envelope.status !== 200) throw new Error(`${path}: ${envelope.message}`);
    return envelope.data;
  };
  const restaurant = await call("/api/v1/auth/org/create", { orgName: "压测餐厅", orgType: "restaurant", sort: 0, status: "1" });
  const category = await call("/api/v1/zhct/foodType/create", { typeName: "压测分类", sort: 0, status: "1" });
  const foods = [];
  for (let i = 0; i < MENU_FOODS; i++) {
    foods.push(await call("/api/v1/zhct/food/create", { foodName: `压测菜品${i}`, foodTypeId: category.id, restaurantId: restaurant.id, price: 500 + i * 10, onShelf: "1", unit: "份" }));
  }
  const types = [];
  for (const [n, mealType] of MENU_TYPES.entries()) {
    const template = await call("/api/v1/zhct/foodMenuTypeTemplate/create", { typeName: `压测模板${n}`, restaurantId: restaurant.id, mealType, menuMode: "2", sort: n, status: "1" });
    for (let week = 1; week <= 7; week++) {
      await Promise.all(foods.map((food, sort) => call("/api/v1/zhct/foodMenuTemplate/create", { templateTypeId: template.id, week: String(week), foodId: food.id, sort })));
    }
    types.push(await call("/api/v1/zhct/foodMenuType/create", { typeName: `压测${mealType}`, restaurantId: restaurant.id, mealType, menuMode: "2", templateTypeId: template.id, sort: n, status: "1" }));
  }
  const runs = [];
  for (const [beginDate, endDate] of MENU_MONTHS) {
    const started = performance.now();
    let rows = 0;
    for (const type of types) {
      const result = await call("/api/v1/zhct/foodMenu/batchCreate", { foodMenuTypeId: type.id, beginDate, endDate });
      rows += result.created * (1 + MENU_FOODS);
    }
    const ms = performance.now() - started;
    runs.push({ ms: Math.round(ms), rows, rowsPerSecond: Math.round(rows / (ms / 1000)) });
  }
  const menus = await (await fetch(`http://127.0.0.1:${PORT}/api/v1/zhct/foodMenu/findPage?pageSize=10&menuDateBegin=${MENU_DAY}&menuDateEnd=${MENU_DAY}`, { headers: { Authorization: `Bearer ${token}` } })).json();
  for (const menu of menus.data.records) await call("/api/v1/zhct/foodMenu/update", { id: menu.id, status: "1" });
  runs.sort((a, b) => a.ms - b.ms);
  return { restaurantId: restaurant.id, batch: { days: 31, mealTypes: MENU_TYPES.length, items: MENU_FOODS, runs, median: runs[1] } };
}

/** findByDate's two queries (server/modules/zhct/menus.ts) with raw SQL: the day's menus, then their items. */
function findByDateStatements(restaurantId) {
  return {
    sequential: true,
    statements: [
      {
        sql: (p) => `select m.id, m.menu_date, m.food_menu_type_id, t.type_name, m.meal_type, m.restaurant_id, t.stall_id, t.meal_time_id
          from food_menu as m inner join food_menu_type as t on t.tenant_id = m.tenant_id and t.id = m.food_menu_type_id
          where m.tenant_id = ${p()} and m.menu_date = ${p()} and m.status = ${p()} and m.restaurant_id = ${p()} order by t.sort, m.id`,
        args: [TENANT, MENU_DAY, 1, restaurantId],
      },
      {
        sql: (p, [menus]) => `select i.food_menu_id, i.id, i.food_id, f.food_name, f.unit, f.image, f.dish_class, i.price, i.quota, i.sold_count
          from food_menu_item as i inner join food as f on f.tenant_id = i.tenant_id and f.id = i.food_id
          where i.tenant_id = ${p()} and i.food_menu_id in (${menus.map(() => p()).join(", ")}) order by i.food_menu_id, i.sort, i.id`,
        args: ([menus]) => [TENANT, ...menus.map((m) => m.id)],
      },
    ],
    answer: ([menus, items]) => menus.map((m) => ({ ...m, items: items.filter((i) => i.food_menu_id === m.id) })),
  };
}


export default {
  name: "menus",
  title: "canteen menus: batch create and findByDate",
  async setup(ctx) {
    ctx.menus = await prepareMenus(ctx.token);
  },
  async run(ctx) {
    const { restaurantId, batch } = ctx.menus;
    const bare = await bareHandler(ctx.dialect, ctx.bareUrl, findByDateStatements(restaurantId));
    try {
      const [day, raw] = await loadRound([`${BASE}/api/v1/zhct/foodMenu/findByDate?date=${MENU_DAY}&restaurantId=${restaurantId}`, ctx.auth], [`http://127.0.0.1:${BARE_PORT}/`, {}]);
      const m = batch.median;
      return { findByDate: day, bare: raw, ratio: day.rps / raw.rps, batchMs: m.ms, batchRows: m.rows, batchRowsPerSecond: m.rowsPerSecond };
    } finally {
      await new Promise((r) => bare.close(r));
    }
  },
  rows: (s) => [
    [`batch-create menus, 31 days × ${MENU_TYPES.length} meal types × ${MENU_FOODS} dishes (median of 3 months)`, `${s.num("batchMs")} ms, ${s.num("batchRows")} rows, ${s.num("batchRowsPerSecond")} rows/s`],
    ["API findByDate (4 published menus × 30 dishes)", s.load("findByDate")],
    ["bare handler, same query", s.load("bare")],
    ["findByDate / bare", s.percent("ratio")],
  ],
};
