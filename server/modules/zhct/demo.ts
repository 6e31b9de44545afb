import { CompiledQuery, PostgresAdapter, sql } from "kysely";
import { hashPassword } from "../../auth/password";
import { BusiType, PAY_FLAG_AUTO } from "./ledger";
import { ORDER_DOC_TYPE, OrderStatus, TICKET_PAY_FLAGS } from "./payments";
import { addMonths, PointsChange } from "./points";
import { GenerateResult } from "./defaultOrders";
import { TAKEAWAY } from "./delivery";
import { recountDinerMonths, recountDinerPlaceMonths } from "./dinerMonths";
import { recountFoodSales } from "./foodSales";
import { recountLedgerDays } from "./ledgerDays";
import { recountOrderDays } from "./orderDays";
import { recountPointsOrderDays } from "./pointsOrderDays";
import { dayOf, dayStart, monthRange } from "./months";
import { generateMonth, makeFormal } from "./monthSettle";
import { TENANT_ADMIN_ROLE } from "../sys/tenant";
import { writeTenantRows } from "../resource/tenantRows";
import { ID_EPOCH, type Db } from "../../db";
import type { Database } from "../../db/schema";
import { chinaCalendar, chinaDayNo } from "../../../resources/chinaTime";

/**
 * The demo canteen (issue 15, decision 035): a tenant of its own with three restaurants, their stalls, foods, meal
 * times and daily menus, departments of diners with cards and accounts, and `days` days of life up to now — monthly
 * subsidy grants (clearing what was left), top-ups at the cashier and in the app, meals at the three meal times with
 * a weekday rhythm, cancels, complaints and their refunds, overtime meal tickets, lunch bookings and a survey; points
 * earned by every order paid from the accounts (and taken back by its refunds), default lunch orders made each working
 * morning for the diners on default (some refused for want of money, some cancelled on leave), and lunch takeaways
 * delivered to the offices.
 *
 * The rows are those the services write (payments.ts, accounts.ts, autoCharge.ts, tickets.ts, bookings.ts,
 * mealOrderComplaints.ts), written in bulk: the balances are kept in memory and every ledger line carries the
 * balance after it, so each account's balance is the sum of its lines, an order's amount the sum of its items and
 * what its lines took less what they gave back. Everything is drawn from a seeded PRNG: the same seed, size and day
 * give the same data. A second run on a database that has the tenant is refused (`DemoExistsError`).
 *
 * Ids are made from each row's own time (ms since ID_EPOCH × 4096 + a sequence), so they sort with time as the
 * server's do and all lie before the moment of seeding: a server started afterwards never makes one of them.
 */

export const DEMO_TENANT_CODE = "demo";
export const DEMO_TENANT_NAME = "示例食堂";
export const DEMO_USER_NAME = "demo";
/** Used when CANTEEN_DEMO_PASSWORD is not set; the account must change it at its first sign-in. */
export const DEMO_DEFAULT_PASSWORD = "Demo-Canteen-2026";

export interface DemoOptions {
  /** Diners (default 2,000). */
  diners?: number;
  /** Days of history ending today (default 90). */
  days?: number;
  /** PRNG seed (default 15). */
  seed?: number;
  /** The moment of seeding (default now); nothing is dated after it. */
  now?: number;
  /** The demo admin's password (default CANTEEN_DEMO_PASSWORD, else DEMO_DEFAULT_PASSWORD). */
  password?: string;
  tenantCode?: string;
  tenantName?: string;
  userName?: string;
  /** Progress lines (a day's worth at a time). */
  log?: (line: string) => void;
}

export interface DemoResult {
  tenantId: number;
  tenantCode: string;
  userName: string;
  password: string;
  diners: number;
  days: number;
  from: string;
  to: string;
  orders: number;
  orderItems: number;
  ledgerLines: number;
  seconds: number;
}

export class DemoExistsError extends Error {}

const DAY = 86_400_000;
const MIN = 60_000;

/** mulberry32: small, fast and good enough to make believable noise the same way every time. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T,>(list: readonly T[]) => list[Math.floor(next() * list.length)],
    chance: (p: number) => next() < p,
    /** Roughly normal (sum of three uniforms), mean 0, standard deviation ≈ 1. */
    normal: () => (next() + next() + next() - 1.5) * 2,
    weighted: <T,>(list: ReadonlyArray<readonly [T, number]>) => {
      const total = list.reduce((s, [, w]) => s + w, 0);
      let r = next() * total;
      for (const [v, w] of list) if ((r -= w) < 0) return v;
      return list[list.length - 1][0];
    },
  };
}

/** Ids from a row's time, strictly increasing while times are given in order (a busy millisecond borrows the next). */
class IdClock {
  private last = 0;
  private seq = 0;
  next(at: number): number {
    const millis = Math.floor(at) - ID_EPOCH;
    if (millis > this.last) {
      this.last = millis;
      this.seq = 0;
    } else if (++this.seq === 4096) {
      this.last += 1;
      this.seq = 0;
    }
    return this.last * 4096 + this.seq;
  }
}

type Row = Record<string, unknown>;
type Table = keyof Database;

/**
 * Rows per table, written as multi-row inserts of a fixed size: one SQL text per table and size, so SQLite's
 * statement cache prepares it once, and no query is built row by row (most of the time went there). Chunks stay
 * under both databases' bound-parameter limits.
 */
class Batch {
  private tables = new Map<Table, Row[]>();
  private texts = new Map<string, string>();
  constructor(private readonly postgres: boolean) {}
  add(table: Table, row: Row) {
    let rows = this.tables.get(table);
    if (!rows) this.tables.set(table, (rows = []));
    rows.push(row);
  }
  private text(table: Table, columns: string[], count: number) {
    const key = `${table}:${count}`;
    let text = this.texts.get(key);
    if (!text) {
      let p = 0;
      const tuple = () => `(${columns.map(() => (this.postgres ? `$${++p}` : "?")).join(", ")})`;
      text = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) values ${Array.from({ length: count }, tuple).join(", ")}`;
      this.texts.set(key, text);
    }
    return text;
  }
  async flush(db: Db, order: Table[]) {
    for (const table of order) {
      const rows = this.tables.get(table);
      if (!rows?.length) continue;
      const columns = Object.keys(rows[0]);
      const size = Math.max(1, Math.min(500, Math.floor(30_000 / columns.length)));
      for (let i = 0; i < rows.length; i += size) {
        const chunk = rows.slice(i, i + size);
        const values: unknown[] = [];
        for (const row of chunk) for (const c of columns) values.push(row[c]);
        await db.executeQuery(CompiledQuery.raw(this.text(table, columns, chunk.length), values));
      }
      rows.length = 0;
    }
  }
}

/** Insert order: a row's references come before it. */
const TABLES: Table[] = [
  "tenant", "org", "role", "user", "login_name", "user_role",
  "food_type", "food", "meal_times", "food_menu_type", "auto_charge_setting", "meal_ticket_setting", "appointment_period",
  "integral_strategy", "delivery_point", "delivery_time",
  "satisfaction_surve", "satisfaction_surve_question", "satisfaction_surve_option",
  "user_info", "user_ic_card", "user_account", "user_order_default", "user_integral_account",
  "food_menu", "food_menu_item", "auto_charge_run", "auto_charge_grant", "meal_ticket",
  "meal_order", "meal_order_item", "user_account_ledger", "user_account_charge", "meal_ticket_use", "appointment_detail",
  "meal_order_delivery", "user_account_integral_detail", "user_order_default_generate", "user_order_default_generate_detail",
  "meal_order_complaints", "satisfaction_surve_answer", "satisfaction_surve_answer_item",
];

const SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤";
const GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红建文辉力鹏宇浩凯佳欣怡婷雪琳晨阳博然轩睿晓斌健波宁海燕倩颖";
const DEPARTMENTS: Array<[string, number]> = [
  ["办公室", 4], ["财务部", 5], ["人力资源部", 4], ["研发一部", 14], ["研发二部", 12], ["市场部", 9], ["销售部", 13], ["生产部", 20], ["质量部", 8], ["后勤保障部", 11],
];
const RESTAURANTS = [
  { name: "一号餐厅", share: 0.5, stalls: ["基本伙", "面食档", "风味小炒"] },
  { name: "二号餐厅", share: 0.35, stalls: ["自选餐", "粉面档"] },
  { name: "清真餐厅", share: 0.15, stalls: ["清真窗口"] },
];
/** [name, price fen, dish class (1 荤 2 半荤 3 素 4 主食 5 其他), meals it is sold at]. */
const DISHES: Array<[string, number, number, string]> = [
  ["肉包", 150, 4, "b"], ["菜包", 120, 4, "b"], ["豆浆", 100, 5, "b"], ["油条", 100, 4, "b"], ["茶叶蛋", 100, 5, "b"], ["小米粥", 100, 5, "b"], ["煎饺", 300, 4, "b"], ["鸡蛋灌饼", 400, 4, "b"],
  ["红烧肉", 1200, 1, "ld"], ["宫保鸡丁", 1000, 1, "ld"], ["鱼香肉丝", 900, 2, "ld"], ["番茄炒蛋", 600, 2, "ld"], ["麻婆豆腐", 500, 3, "ld"], ["清炒时蔬", 400, 3, "ld"], ["糖醋里脊", 1100, 1, "ld"],
  ["土豆牛腩", 1300, 1, "ld"], ["青椒肉丝", 800, 2, "ld"], ["干煸豆角", 500, 3, "ld"], ["水煮鱼片", 1400, 1, "ld"], ["西红柿牛肉面", 1500, 4, "ld"], ["炸酱面", 1000, 4, "ld"], ["米饭", 50, 4, "ld"], ["紫菜蛋花汤", 200, 5, "ld"],
];
const MEALS = [
  { type: "breakfast", name: "早餐", begin: "06:30", end: "09:00", peak: 7 * 60 + 45, spread: 25, weekday: [0.25, 0.7], letters: "b" },
  { type: "lunch", name: "午餐", begin: "11:00", end: "13:30", peak: 12 * 60 + 5, spread: 20, weekday: [0.65, 0.97], letters: "l" },
  { type: "dinner", name: "晚餐", begin: "17:00", end: "19:30", peak: 18 * 60 + 5, spread: 25, weekday: [0.08, 0.45], letters: "d" },
] as const;
/** Share of a working day's diners who eat on a Saturday or Sunday (duty staff, overtime). */
const WEEKEND = 0.15;
const COMPLAINTS = ["菜品有异物", "饭菜偏凉", "份量不足", "扣款金额不对", "菜品与菜单不符", "打菜时态度不好"];
const REPLIES: Array<[number, string]> = [
  [2, "已核实，退还相应金额，已要求档口整改"],
  [2, "已核实，情况属实，退款处理"],
  [3, "经查看监控与出餐记录，不属实"],
];

export async function seedDemo(db: Db, options: DemoOptions = {}): Promise<DemoResult> {
  const started = Date.now();
  const dinerCount = options.diners ?? 2000;
  const days = options.days ?? 90;
  const now = options.now ?? Date.now();
  const tenantCode = options.tenantCode ?? DEMO_TENANT_CODE;
  const userName = options.userName ?? DEMO_USER_NAME;
  const password = options.password ?? process.env.CANTEEN_DEMO_PASSWORD ?? DEMO_DEFAULT_PASSWORD;
  const log = options.log ?? (() => {});
  const rnd = prng(options.seed ?? 15);

  if (await db.selectFrom("tenant").select("id").where("tenant_code", "=", tenantCode).executeTakeFirst()) {
    throw new DemoExistsError(`示例租户已存在（租户代码 ${tenantCode}），不再重复生成`);
  }
  if (await db.selectFrom("login_name").select("user_id").where("user_name", "=", userName).executeTakeFirst()) {
    throw new DemoExistsError(`用户名 ${userName} 已被占用，不能生成示例租户`);
  }

  // SQLite: commits wait for the WAL to be written, not synced (NORMAL is still safe from corruption in WAL mode; a
  // power cut could lose the last days seeded, which are seeded again), and a larger page cache keeps the indexes
  // being filled in memory. Both are put back as openDatabase set them.
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (!postgres) await sql`pragma synchronous = normal`.execute(db);
  if (!postgres) await sql`pragma cache_size = -131072`.execute(db);
  try {
    return await generate();
  } finally {
    if (!postgres) await sql`pragma synchronous = full`.execute(db);
    if (!postgres) await sql`pragma cache_size = -2000`.execute(db);
  }

  async function generate(): Promise<DemoResult> {
  const today = dayOf(now);
  const firstDay = dayOf(dayStart(today) - (days - 1) * DAY);
  const t0 = dayStart(firstDay) - DAY + 9 * 3600_000;
  const ids = new IdClock();
  const b = new Batch(postgres);
  const audit = (at: number) => ({ created_at: at, created_by: null, updated_at: at, updated_by: null });

  // ---- The tenant, its admin and its organisation ----
  const tenantMax = await db.selectFrom("tenant").select(sql<number>`max(id)`.as("m")).executeTakeFirstOrThrow();
  const tenantId = Math.max(Number(tenantMax.m ?? 0) + 1, ids.next(t0));
  b.add("tenant", { id: tenantId, tenant_name: options.tenantName ?? DEMO_TENANT_NAME, tenant_code: tenantCode, status: 1, ...audit(t0) });
  const rootId = ids.next(t0);
  b.add("org", { tenant_id: tenantId, id: rootId, parent_id: null, org_name: options.tenantName ?? DEMO_TENANT_NAME, org_code: null, org_type: "org", sort: 0, status: 1, remark: null, ...audit(t0) });
  const roleId = ids.next(t0);
  b.add("role", { tenant_id: tenantId, id: roleId, ...TENANT_ADMIN_ROLE, status: 1, ...audit(t0) });
  const adminId = ids.next(t0);
  // Security level 0: the demo password is public, so the first sign-in must change it (as for the first admin).
  b.add("user", { tenant_id: tenantId, id: adminId, user_name: userName, password_hash: await hashPassword(password), pwd_security_level: 0, real_name: "示例管理员", org_id: rootId, navigation_mode: "top", status: 1, ...audit(t0) });
  b.add("login_name", { user_name: userName, tenant_id: tenantId, user_id: adminId });
  b.add("user_role", { tenant_id: tenantId, user_id: adminId, role_id: roleId });
  const operator = { operator_id: adminId, operator_name: userName };

  const depts = DEPARTMENTS.map(([name], i) => {
    const id = ids.next(t0);
    b.add("org", { tenant_id: tenantId, id, parent_id: rootId, org_name: name, org_code: `D${String(i + 1).padStart(2, "0")}`, org_type: "department", sort: i, status: 1, remark: null, ...audit(t0) });
    return id;
  });

  // ---- Restaurants, stalls, foods, meal times, menu types ----
  const foodTypes = new Map<number, number>();
  for (const [cls, name] of [[1, "荤菜"], [2, "半荤"], [3, "素菜"], [4, "主食"], [5, "汤饮小吃"]] as Array<[number, string]>) {
    const id = ids.next(t0);
    foodTypes.set(cls, id);
    b.add("food_type", { tenant_id: tenantId, id, type_name: name, parent_id: null, sort: cls, status: 1, remark: null, ...audit(t0) });
  }
  interface Food { id: number; name: string; price: number; meals: string; stall: number }
  interface Canteen { id: number; stalls: number[]; foods: Food[]; meals: Array<{ type: string; timeId: number; menuTypeId: number }> }
  const canteens: Canteen[] = RESTAURANTS.map((r, ri) => {
    const id = ids.next(t0);
    b.add("org", { tenant_id: tenantId, id, parent_id: rootId, org_name: r.name, org_code: `R${ri + 1}`, org_type: "restaurant", sort: 20 + ri, status: 1, remark: null, ...audit(t0) });
    const stalls = r.stalls.map((name, si) => {
      const stall = ids.next(t0);
      b.add("org", { tenant_id: tenantId, id: stall, parent_id: id, org_name: name, org_code: `R${ri + 1}S${si + 1}`, org_type: "stall", sort: si, status: 1, remark: null, ...audit(t0) });
      return stall;
    });
    // The halal restaurant has no pork; prices differ a little between restaurants.
    const foods = DISHES.filter(([name]) => ri !== 2 || !/肉包|红烧肉|糖醋里脊|鱼香肉丝|青椒肉丝|炸酱面/.test(name)).map(([name, price, cls, meals], fi) => {
      const food = { id: ids.next(t0), name, price: price + (ri === 1 ? 50 : ri === 2 ? 100 : 0) * (price >= 500 ? 1 : 0), meals, stall: stalls[fi % stalls.length] };
      b.add("food", { tenant_id: tenantId, id: food.id, food_name: name, food_type_id: foodTypes.get(cls), restaurant_id: id, price: food.price, outsider_price: Math.round(food.price * 1.5), unit: "份", dish_class: cls, on_shelf: 1, image: null, ingredients: null, description: null, ...audit(t0) });
      return food;
    });
    const meals = MEALS.map((m, mi) => {
      const timeId = ids.next(t0);
      b.add("meal_times", { tenant_id: tenantId, id: timeId, restaurant_id: id, meal_time_name: m.name, meal_type: m.type, begin_time: m.begin, end_time: m.end, order_days_ahead: m.type === "lunch" ? 1 : 0, order_deadline: null, cancel_deadline: null, standard_price: 0, status: 1, ...audit(t0) });
      const menuTypeId = ids.next(t0);
      b.add("food_menu_type", { tenant_id: tenantId, id: menuTypeId, type_name: `${r.name}${m.name}`, restaurant_id: id, stall_id: null, meal_type: m.type, menu_mode: 2, meal_time_id: timeId, template_type_id: null, sort: mi, status: 1, ...audit(t0) });
      return { type: m.type, timeId, menuTypeId };
    });
    return { id, stalls, foods, meals };
  });

  // ---- Settings: the monthly subsidy, the overtime ticket, lunch bookings, a survey per restaurant ----
  const SUBSIDY = 30_000;
  const settingId = ids.next(t0);
  b.add("auto_charge_setting", { tenant_id: tenantId, id: settingId, setting_name: "每月餐补", staff_type: null, dept_id: null, amount: SUBSIDY, day_of_month: 1, clear_unused: 1, enabled: 1, last_run_month: null, last_run_at: null, remark: "每月 1 日发放 300 元，清零上月未用补贴", ...audit(t0) });
  const TICKET_FACE = 2000;
  b.add("meal_ticket_setting", { tenant_id: tenantId, id: ids.next(t0), ticket_type: 1, amount: TICKET_FACE, breakfast: 0, lunch: 0, dinner: 1, midnight: 0, approver_role_id: roleId, approver_user_id: null, valid_days: 1, status: 1, remark: "加班晚餐", ...audit(t0) });
  const lunchPeriods = canteens.map((c) => {
    const id = ids.next(t0);
    b.add("appointment_period", { tenant_id: tenantId, id, period_name: "工作日午餐预约", restaurant_id: c.id, meal_times_id: c.meals[1].timeId, begin_date: firstDay, end_date: dayOf(dayStart(today) + 30 * DAY), capacity: Math.max(50, Math.round(dinerCount / 4)), deadline_days: 1, deadline_time: "16:00", status: 1, remark: null, ...audit(t0) });
    return id;
  });
  // Points: a yuan paid from the accounts earns a point, kept 12 months (the payment's afterPay hook, points.ts).
  const POINTS_PER_YUAN = 1;
  const POINTS_MONTHS = 12;
  b.add("integral_strategy", { tenant_id: tenantId, id: ids.next(t0), strategy_name: "消费积分", points_per_yuan: POINTS_PER_YUAN, expiry_months: POINTS_MONTHS, status: 1, remark: "每消费 1 元积 1 分，有效期 12 个月", ...audit(t0) });
  // Lunch takeaways: two delivery points and one slot per restaurant.
  const delivery = canteens.map((c, ci) => {
    const points = ["行政楼前台", "生产车间门卫"].map((name, pi) => {
      const id = ids.next(t0);
      b.add("delivery_point", { tenant_id: tenantId, id, restaurant_id: c.id, point_name: name, point_type: 1, address: null, contact_name: null, contact_phone: null, sort: pi, status: 1, ...audit(t0) });
      return id;
    });
    const slot = ids.next(t0);
    b.add("delivery_time", { tenant_id: tenantId, id: slot, meal_times_id: c.meals[1].timeId, slot_name: `${RESTAURANTS[ci].name}午餐配送`, begin_time: "11:30", end_time: "12:30", capacity: Math.max(50, Math.round(dinerCount / 10)), status: 1, ...audit(t0) });
    return { points, slot };
  });
  const surveyQuestions = ["您对菜品口味是否满意", "您对菜品价格是否满意", "您对就餐环境是否满意"];
  const SURVEY_OPTIONS = ["非常满意", "满意", "一般", "不满意"];
  const surveys = canteens.map((c, ci) => {
    const id = ids.next(t0);
    b.add("satisfaction_surve", { tenant_id: tenantId, id, survey_name: `${RESTAURANTS[ci].name}满意度调查`, restaurant_id: c.id, begin_date: dayOf(dayStart(today) - Math.min(days - 1, 29) * DAY), end_date: dayOf(dayStart(today) + 7 * DAY), entity_status: 1, question_count: surveyQuestions.length, description: "请为最近一个月的就餐体验打分", ...audit(t0) });
    const questions = surveyQuestions.map((title, qi) => {
      const qid = ids.next(t0);
      b.add("satisfaction_surve_question", { tenant_id: tenantId, id: qid, survey_id: id, question_title: title, select_type: 1, sort: qi, ...audit(t0) });
      const options = SURVEY_OPTIONS.map((text, oi) => {
        const oid = ids.next(t0);
        b.add("satisfaction_surve_option", { tenant_id: tenantId, id: oid, question_id: qid, option_text: text, sort: oi, ...audit(t0) });
        return oid;
      });
      return { id: qid, options };
    });
    return { id, questions, from: dayStart(today) - Math.min(days - 1, 29) * DAY };
  });

  // ---- Diners: department, home restaurant, habits; a card and both accounts each ----
  const n = dinerCount;
  const dinerId = new Array<number>(n);
  // A complaint's 申诉人 is its order's diner, who has no sign-in (migration 0044).
  const dinerName = new Array<string>(n);
  const cashId = new Array<number>(n);
  const subsidyId = new Array<number>(n);
  const cardNo = new Array<string>(n);
  const home = new Uint8Array(n);
  const dept = new Uint8Array(n);
  const habit = new Float64Array(n * 3);
  const cash = new Float64Array(n);
  const subsidy = new Float64Array(n);
  const points = new Float64Array(n);
  const hasPoints = new Uint8Array(n);
  // One diner in twelve eats lunch by default order on working days (a fixed 15-yuan set at their home restaurant).
  const DEFAULT_LUNCH = 1500;
  const onDefault = (i: number) => i % 12 === 5;
  const deptWeights = DEPARTMENTS.map(([, w], i) => [i, w] as const);
  for (let i = 0; i < n; i++) {
    dinerId[i] = ids.next(t0);
    dept[i] = rnd.weighted(deptWeights);
    home[i] = rnd.weighted(RESTAURANTS.map((r, ri) => [ri, r.share] as const));
    MEALS.forEach((m, mi) => (habit[i * 3 + mi] = m.weekday[0] + rnd.next() * (m.weekday[1] - m.weekday[0])));
    const code = `E${String(i + 1).padStart(Math.max(5, String(n).length), "0")}`;
    const name = rnd.pick([...SURNAMES]) + rnd.pick([...GIVEN]) + (rnd.chance(0.6) ? rnd.pick([...GIVEN]) : "");
    dinerName[i] = name;
    b.add("user_info", { tenant_id: tenantId, id: dinerId[i], user_code: code, user_name: name, sex: rnd.int(0, 1), phone: `1${rnd.pick(["38", "39", "58", "86", "77"])}${String(rnd.int(0, 99_999_999)).padStart(8, "0")}`, dept_id: depts[dept[i]], user_info_role_type: "user", staff_type: null, face_image: null, restaurant_ids: null, audit_status: 1, user_status: 1, remark: null, ...audit(t0) });
    cardNo[i] = String(3_100_000_000 + i * 7 + 13);
    b.add("user_ic_card", { tenant_id: tenantId, id: ids.next(t0), card_no: cardNo[i], card_serial: null, user_info_id: dinerId[i], card_type: 1, card_status: 1, deposit: 2000, replaced_by: null, issued_at: t0, remark: null, ...audit(t0) });
    cashId[i] = ids.next(t0);
    subsidyId[i] = ids.next(t0);
    // Balances are set once at the end, from what the lines below left.
    b.add("user_account", { tenant_id: tenantId, id: cashId[i], user_info_id: dinerId[i], account_type: "cash", balance: 0, ...audit(t0) });
    b.add("user_account", { tenant_id: tenantId, id: subsidyId[i], user_info_id: dinerId[i], account_type: "subsidy", balance: 0, ...audit(t0) });
    if (onDefault(i)) {
      b.add("user_order_default", { tenant_id: tenantId, id: ids.next(t0), user_info_id: dinerId[i], restaurant_id: canteens[home[i]].id, meal_type: "lunch", amount: DEFAULT_LUNCH, food_id: null, quantity: 1, monday: 1, tuesday: 1, wednesday: 1, thursday: 1, friday: 1, saturday: 0, sunday: 0, status: 1, remark: "工作日午餐套餐", ...audit(t0) });
    }
  }

  // ---- Money: every movement is a ledger line with the balance after it ----
  let ledgerLines = 0;
  const line = (at: number, i: number, type: "cash" | "subsidy", amount: number, busi: number, payFlag: number, doc: [string, number] | null, remark: string | null, by: { operator_id: number | null; operator_name: string } = operator, channel: string | null = null) => {
    const balances = type === "cash" ? cash : subsidy;
    balances[i] += amount;
    const id = ids.next(at);
    b.add("user_account_ledger", { tenant_id: tenantId, id, user_info_id: dinerId[i], account_id: type === "cash" ? cashId[i] : subsidyId[i], account_type: type, busi_type: busi, amount, balance_after: balances[i], pay_flag: payFlag, channel, ...by, doc_type: doc?.[0] ?? null, doc_id: doc?.[1] ?? null, idempotency_key: null, reversal_of: null, remark, occurred_at: at, ...audit(at) });
    ledgerLines++;
    return { id, balance: balances[i] };
  };
  // The channel the money came in by (decision 064): the app's wallets, or the counter's cash desk and card terminal.
  const topUp = (at: number, i: number, amount: number, payFlag: number, kind: "CZ" | "TK" = "CZ") => {
    const id = ids.next(at);
    const busi = kind === "CZ" ? BusiType.TOP_UP : BusiType.REFUND;
    const channel = payFlag === 100 ? "wechat" : payFlag === 101 ? "alipay" : kind === "CZ" && amount >= 20_000 && i % 3 === 0 ? "pos" : "cash";
    const l = line(at, i, "cash", kind === "CZ" ? amount : -amount, busi, payFlag, ["charge", id], kind === "CZ" ? null : "离职退款", operator, channel);
    b.add("user_account_charge", { tenant_id: tenantId, id, charge_no: `${kind}${id}`, user_info_id: dinerId[i], account_type: "cash", busi_type: busi, amount, balance_after: l.balance, pay_flag: payFlag, channel, ledger_id: l.id, reversal_of: null, operator_name: userName, remark: null, charged_at: at, ...audit(at) });
  };

  /** A points line (postPoints): the balance after it kept in memory, the account written at the end. */
  const pointsLine = (at: number, i: number, change: number, pts: number, amount: number, orderId: number, orderNo: string, reason: string) => {
    points[i] += pts;
    hasPoints[i] = 1;
    b.add("user_account_integral_detail", { tenant_id: tenantId, id: ids.next(at), user_info_id: dinerId[i], change_type: change, points: pts, balance_after: points[i], amount, order_id: orderId, order_no: orderNo, expires_at: pts > 0 ? addMonths(at, POINTS_MONTHS) : null, operator_name: "系统", reason, occurred_at: at, ...audit(at) });
  };
  const yuan = (fen: number) => (fen / 100).toFixed(2);
  /** The order's earning (earnPointsForOrder): ⌊paid yuan × points per yuan⌋, none for vouchers. */
  const earn = (at: number, i: number, paid: number, orderId: number, orderNo: string) => {
    const pts = Math.floor((paid * POINTS_PER_YUAN) / 100);
    if (pts > 0) pointsLine(at, i, PointsChange.EARN, pts, paid, orderId, orderNo, `消费 ${yuan(paid)} 元，消费积分：每元 ${POINTS_PER_YUAN} 积分`);
    return pts;
  };
  /** A refund's take-back (takeBackPointsForOrder): what the order stops keeping, at most the balance. */
  const takeBack = (at: number, i: number, earned: number, paid: number, refund: number, orderId: number, orderNo: string) => {
    if (earned <= 0) return;
    const due = earned - Math.floor((earned * (paid - refund)) / paid);
    const taken = Math.min(due, points[i]);
    pointsLine(at, i, PointsChange.CANCEL, -taken, refund, orderId, orderNo, taken < due ? `退款 ${yuan(refund)} 元，应扣回 ${due} 积分，积分余额不足，实扣 ${taken}` : `退款 ${yuan(refund)} 元，扣回 ${taken} 积分`);
  };

  // Opening balances: the cash each diner brought in before the period, at the cashier.
  for (let i = 0; i < n; i++) topUp(t0 + i, i, rnd.int(5, 30) * 1000, 0);
  await db.transaction().execute(async (trx) => {
    await b.flush(trx, TABLES);
    // The rows every tenant starts with (its top-up channels), as a tenant's create writes them.
    await writeTenantRows(trx, tenantId, t0, null);
  });

  // ---- Day by day: events in time order ----
  interface Event { at: number; run: () => void }
  const later = new Map<number, Event[]>();
  // The day being played: its events in time order, and how far it has got.
  let queue: Event[] = [];
  let played = 0;
  let playing = -1;
  const schedule = (at: number, run: () => void) => {
    if (at > now) return;
    const day = chinaDayNo(at);
    if (day === playing) {
      let k = played;
      while (k < queue.length && queue[k].at <= at) k++;
      queue.splice(k, 0, { at, run });
      return;
    }
    let list = later.get(day);
    if (!list) later.set(day, (list = []));
    list.push({ at, run });
  };
  /** Changes to rows a past day has written (a complaint handled, its order refunded). */
  const updates: Array<{ table: "meal_order" | "meal_order_complaints"; id: number; set: Row }> = [];
  let orders = 0;
  let flushMs = 0;
  let orderItems = 0;
  let orderSeq = 0;
  let grantMonth = "";
  const months: string[] = [];

  for (let d = 0; d < days; d++) {
    const day = dayOf(dayStart(firstDay) + d * DAY);
    const start = dayStart(day);
    const weekday = chinaCalendar(start).getUTCDay();
    const weekend = weekday === 0 || weekday === 6;
    const dayNo = chinaDayNo(start);
    const events = later.get(dayNo) ?? [];
    later.delete(dayNo);

    // The subsidy, on the first day of each month (and the period's first day): clear what is left, grant anew.
    const month = day.slice(0, 7);
    if (month !== grantMonth) {
      grantMonth = month;
      months.push(month);
      const at = start + 2 * 3600_000;
      events.push({
        at,
        run: () => {
          const runId = ids.next(at);
          for (let i = 0; i < n; i++) {
            const grantId = ids.next(at);
            const left = subsidy[i];
            const by = { operator_id: null, operator_name: "系统" };
            if (left > 0) line(at, i, "subsidy", -left, BusiType.CLEAR, PAY_FLAG_AUTO, ["grant", grantId], "每月餐补：清零未用补贴", by);
            line(at, i, "subsidy", SUBSIDY, BusiType.GRANT, PAY_FLAG_AUTO, ["grant", grantId], `每月餐补：${month} 补贴`, by);
            b.add("auto_charge_grant", { tenant_id: tenantId, id: grantId, setting_id: settingId, month, user_info_id: dinerId[i], run_id: runId, amount: SUBSIDY, cleared: Math.max(0, left), granted_at: at, ...audit(at) });
          }
          b.add("auto_charge_run", { tenant_id: tenantId, id: runId, setting_id: settingId, month, trigger_type: "自动", granted: n, skipped: 0, failed: 0, message: null, operator_name: "系统", started_at: at, finished_at: at + 1000, ...audit(at) });
        },
      });
    }

    // The day's menus: breakfast foods in the morning, a rotating choice of dishes at lunch and dinner.
    const menus = canteens.map((c) =>
      c.meals.map((m, mi) => {
        const menuId = ids.next(start);
        const letter = MEALS[mi].letters;
        const offered = c.foods.filter((f) => f.meals.includes(letter === "b" ? "b" : "l"));
        const staple = offered.filter((f) => f.price < 300 && letter !== "b");
        const dishes = offered.filter((f) => !staple.includes(f) && (letter === "b" || (f.name.length + d + mi) % 3 !== 0));
        const items = [...dishes, ...staple].map((f, k) => ({ id: ids.next(start), food: f, sold: 0, sort: k }));
        return { menuId, meal: m, items, dishes: items.filter((it) => !staple.includes(it.food)), staples: items.filter((it) => staple.includes(it.food)) };
      }),
    );

    // Meals: who eats, where, when, what; how they pay.
    for (let i = 0; i < n; i++) {
      for (let mi = 0; mi < 3; mi++) {
        const p = habit[i * 3 + mi] * (weekend ? WEEKEND : 1) * (weekday === 5 && mi === 2 ? 1.3 : 1);
        // Lunch on a working day is the default order's, made in the morning (below).
        if (mi === 1 && !weekend && onDefault(i)) continue;
        if (!rnd.chance(p)) continue;
        const ci = rnd.chance(0.85) ? home[i] : rnd.int(0, canteens.length - 1);
        const minute = MEALS[mi].peak + rnd.normal() * MEALS[mi].spread;
        const at = Math.min(start + Math.round(minute * MIN) + rnd.int(0, 59_999), start + DAY - 1);
        const overtime = mi === 2 && !weekend && rnd.chance(0.12);
        const booked = mi === 1 && !weekend && rnd.chance(0.2);
        const takeaway = mi === 1 && !weekend && !booked && rnd.chance(0.04);
        events.push({ at, run: () => meal(i, ci, mi, at, overtime, booked, takeaway) });
      }
      // Top-ups: at the cashier in the working day, or in the app at any time; more often after pay day.
      if (rnd.chance(weekend ? 0.004 : 0.012)) {
        const app = rnd.chance(0.45);
        const at = start + (app ? rnd.int(7 * 60, 22 * 60) : rnd.int(8 * 60 + 30, 17 * 60)) * MIN + rnd.int(0, 59_999);
        const amount = rnd.pick([5000, 10_000, 10_000, 20_000, 30_000, 50_000]);
        events.push({ at, run: () => topUp(at, i, amount, app ? rnd.pick([100, 101]) : 0) });
      }
    }
    // Now and then a diner leaving takes the cash back (the cashier's refund).
    if (!weekend && rnd.chance(0.3)) {
      const i = rnd.int(0, n - 1);
      const at = start + rnd.int(9 * 60, 16 * 60) * MIN;
      events.push({ at, run: () => (cash[i] >= 1000 ? topUp(at, i, Math.floor(cash[i] / 2), 0, "TK") : undefined) });
    }

    // The default lunches (generateDefaultOrders), made at six for the day: paid subsidy first, refused (失败) when the
    // accounts cannot pay, skipped for a diner on leave; a few diners cancel theirs in the morning and do not come.
    if (!weekend) {
      const at = start + 6 * 3600_000;
      events.push({ at, run: () => defaults(at) });
    }
    function defaults(at: number) {
      const runId = ids.next(at);
      const counts = { created: 0, skipped: 0, failed: 0, amount: 0 };
      const system = { operator_id: null, operator_name: "系统" };
      for (let i = 5; i < n; i += 12) {
        const ci = home[i];
        const detail = (result: number, orderNo: string | null, reason: string | null) =>
          b.add("user_order_default_generate_detail", { tenant_id: tenantId, id: ids.next(at), run_id: runId, user_info_id: dinerId[i], order_date: day, meal_type: "lunch", result, order_no: orderNo, amount: orderNo ? DEFAULT_LUNCH : null, reason, ...audit(at) });
        if (rnd.chance(0.03)) {
          counts.skipped++;
          detail(GenerateResult.SKIPPED, null, "请假");
          continue;
        }
        if (cash[i] + Math.max(0, subsidy[i]) < DEFAULT_LUNCH || rnd.chance(0.01)) {
          // Now and then a diner's money has run out before their top-up (the payment refuses: 余额不足).
          counts.failed++;
          detail(GenerateResult.FAILED, null, "余额不足");
          continue;
        }
        const orderId = ids.next(at);
        orders++;
        orderSeq++;
        const orderNo = `${day.replaceAll("-", "")}${String(orderSeq).padStart(12, "0")}`;
        const paidLines: Array<{ type: "cash" | "subsidy"; fen: number }> = [];
        const fromSubsidy = Math.min(DEFAULT_LUNCH, Math.max(0, subsidy[i]));
        if (fromSubsidy > 0) {
          line(at, i, "subsidy", -fromSubsidy, BusiType.CONSUME, PAY_FLAG_AUTO, [ORDER_DOC_TYPE, orderId], null, system);
          paidLines.push({ type: "subsidy", fen: fromSubsidy });
        }
        if (DEFAULT_LUNCH > fromSubsidy) {
          line(at, i, "cash", -(DEFAULT_LUNCH - fromSubsidy), BusiType.CONSUME, PAY_FLAG_AUTO, [ORDER_DOC_TYPE, orderId], null, system);
          paidLines.push({ type: "cash", fen: DEFAULT_LUNCH - fromSubsidy });
        }
        const earned = earn(at, i, DEFAULT_LUNCH, orderId, orderNo);
        const row: Row = {
          tenant_id: tenantId, id: orderId, order_no: orderNo, user_info_id: dinerId[i], order_date: day, meal_times_id: canteens[ci].meals[1].timeId, meal_type: "lunch", restaurant_id: canteens[ci].id, stall_id: null,
          order_type: 1, amount: DEFAULT_LUNCH, paid_amount: DEFAULT_LUNCH, refunded_amount: 0, pay_flag: PAY_FLAG_AUTO, pay_result: 1, order_appointment_status: null, order_source: "default", order_status: OrderStatus.PAID,
          cashier_id: null, cashier_name: "系统", device_code: null, card_no: null, paid_at: at, cancel_reason: null, cancelled_by_name: null, cancelled_at: null, ...audit(at),
        };
        b.add("meal_order", row);
        counts.created++;
        counts.amount += DEFAULT_LUNCH;
        detail(GenerateResult.CREATED, orderNo, null);
        if (rnd.chance(0.05)) {
          // Cancelled in the app before lunch: the diner is away and does not eat (未刷卡统计 lists them).
          const when = at + rnd.int(60, 240) * MIN;
          schedule(when, () => {
            for (const p of paidLines) line(when, i, p.type, p.fen, BusiType.CONSUME_RETURN, PAY_FLAG_AUTO, [ORDER_DOC_TYPE, orderId], "取消订单：临时外出", system);
            takeBack(when, i, earned, DEFAULT_LUNCH, DEFAULT_LUNCH, orderId, orderNo);
            Object.assign(row, { order_status: OrderStatus.CANCELLED, refunded_amount: DEFAULT_LUNCH, cancel_reason: "临时外出", cancelled_by_name: "本人", cancelled_at: when, updated_at: when });
          });
        }
      }
      b.add("user_order_default_generate", { tenant_id: tenantId, id: runId, order_date: day, trigger_type: "自动", created_count: counts.created, skipped_count: counts.skipped, failed_count: counts.failed, amount: counts.amount, operator_name: "系统", started_at: at, finished_at: at + 1000, ...audit(at) });
    }

    function meal(i: number, ci: number, mi: number, at: number, overtime: boolean, booked: boolean, takeaway: boolean) {
      const menu = menus[ci][mi];
      const picks = new Map<typeof menu.items[number], number>();
      const take = (list: typeof menu.items) => {
        if (!list.length) return;
        const it = rnd.pick(list);
        picks.set(it, (picks.get(it) ?? 0) + 1);
      };
      if (mi === 0) for (let k = rnd.int(1, 3); k > 0; k--) take(menu.dishes);
      else {
        take(menu.dishes);
        if (rnd.chance(0.55)) take(menu.dishes);
        take(menu.staples.filter((s) => s.food.name === "米饭"));
        if (rnd.chance(0.25)) take(menu.staples.filter((s) => s.food.name !== "米饭"));
      }
      const lines = [...picks].map(([it, q]) => ({ it, q, subtotal: it.food.price * q }));
      const amount = lines.reduce((s, l) => s + l.subtotal, 0);
      if (amount <= 0) return;
      const orderId = ids.next(at);
      const ticket = overtime && amount <= TICKET_FACE;
      const payFlag = ticket ? 3 : rnd.weighted([[0, 55], [1, 30], [2, 15]] as const);
      const source = payFlag === 2 || takeaway ? "app" : "device";
      if (!ticket && cash[i] + Math.max(0, subsidy[i]) < amount) {
        // Not enough money: the diner tops up at the cashier first (the cashier's screen shows the balance).
        topUp(at, i, 20_000, 0);
      }
      orders++;
      orderSeq++;
      const orderNo = `${day.replaceAll("-", "")}${String(orderSeq).padStart(12, "0")}`;
      const paidLines: Array<{ type: "cash" | "subsidy"; fen: number; payFlag: number }> = [];
      if (ticket) {
        const ticketId = ids.next(at - 3600_000);
        b.add("meal_ticket", { tenant_id: tenantId, id: ticketId, user_info_id: dinerId[i], ticket_type: 1, ticket_count: 1, valid_from: day, valid_to: day, reason: "加班", applicant_name: userName, applicant_id: adminId, approved_status: 1, approver_name: userName, approver_id: adminId, approved_at: at - 1800_000, approve_remark: null, used_count: 1, used_status: 1, applied_at: at - 3600_000, ...audit(at - 3600_000) });
        b.add("meal_ticket_use", { tenant_id: tenantId, id: ids.next(at), ticket_id: ticketId, user_info_id: dinerId[i], order_id: orderId, amount, meal_type: "dinner", used_at: at, returned_at: null, ...audit(at) });
      } else {
        // Subsidy first, then cash (the ledger's default order, decision 017).
        let left = amount;
        const fromSubsidy = Math.min(left, Math.max(0, subsidy[i]));
        if (fromSubsidy > 0) {
          line(at, i, "subsidy", -fromSubsidy, BusiType.CONSUME, payFlag, [ORDER_DOC_TYPE, orderId], null);
          paidLines.push({ type: "subsidy", fen: fromSubsidy, payFlag });
          left -= fromSubsidy;
        }
        if (left > 0) {
          line(at, i, "cash", -left, BusiType.CONSUME, payFlag, [ORDER_DOC_TYPE, orderId], null);
          paidLines.push({ type: "cash", fen: left, payFlag });
        }
      }
      const stall = lines.every((l) => l.it.food.stall === lines[0].it.food.stall) ? lines[0].it.food.stall : null;
      const row: Row = {
        tenant_id: tenantId, id: orderId, order_no: orderNo, user_info_id: dinerId[i], order_date: day, meal_times_id: menu.meal.timeId, meal_type: menu.meal.type, restaurant_id: canteens[ci].id, stall_id: stall,
        order_type: booked ? 2 : takeaway ? TAKEAWAY : 1, amount, paid_amount: amount, refunded_amount: 0, pay_flag: payFlag, pay_result: 1, order_appointment_status: booked ? 2 : null, order_source: source, order_status: OrderStatus.PAID,
        cashier_id: adminId, cashier_name: userName, device_code: source === "device" ? `POS-${ci + 1}${String(rnd.int(1, 4)).padStart(2, "0")}` : null, card_no: payFlag === 0 ? cardNo[i] : null, paid_at: at,
        cancel_reason: null, cancelled_by_name: null, cancelled_at: null, ...audit(at),
      };
      b.add("meal_order", row);
      const earned = ticket ? 0 : earn(at, i, amount, orderId, orderNo);
      const deliveryRow: Row | null = takeaway
        ? { tenant_id: tenantId, id: ids.next(at), order_id: orderId, order_no: orderNo, user_info_id: dinerId[i], delivery_date: day, delivery_point_id: rnd.pick(delivery[ci].points), delivery_time_id: delivery[ci].slot, cancelled_at: null, ...audit(at) }
        : null;
      if (deliveryRow) b.add("meal_order_delivery", deliveryRow);
      for (const l of lines) {
        l.it.sold += l.q;
        b.add("meal_order_item", { tenant_id: tenantId, id: ids.next(at), meal_order_id: orderId, food_id: l.it.food.id, food_name: l.it.food.name, price: l.it.food.price, quantity: l.q, subtotal: l.subtotal, food_menu_item_id: l.it.id, ...audit(at) });
        orderItems++;
      }
      if (booked) {
        b.add("appointment_detail", { tenant_id: tenantId, id: ids.next(at), user_info_id: dinerId[i], appointment_date: day, meal_times_id: menu.meal.timeId, period_id: lunchPeriods[ci], appointment_status: 2, order_appointment_status: 2, order_id: orderId, booked_at: at - DAY, remark: null, ...audit(at) });
      }
      // A few cancels at the counter minutes later: everything goes back to the accounts that paid, in that order.
      if (!ticket && rnd.chance(0.012)) {
        // Within the day, so the menu's sold count (written with the day) counts it.
        const when = Math.min(at + rnd.int(2, 15) * MIN, start + DAY - 1);
        schedule(when, () => {
          for (const p of paidLines) line(when, i, p.type, p.fen, BusiType.CONSUME_RETURN, p.payFlag, [ORDER_DOC_TYPE, orderId], "取消订单：打错菜");
          takeBack(when, i, earned, amount, amount, orderId, orderNo);
          if (deliveryRow) Object.assign(deliveryRow, { cancelled_at: when, updated_at: when });
          Object.assign(row, { order_status: OrderStatus.CANCELLED, refunded_amount: amount, cancel_reason: "打错菜", cancelled_by_name: userName, cancelled_at: when, updated_at: when, updated_by: adminId });
          for (const l of lines) l.it.sold -= l.q;
        });
        return;
      }
      // Complaints: filed within a day, handled one or two days later (those not yet due wait, 未处理).
      if (!ticket && rnd.chance(0.004)) {
        const filed = at + rnd.int(30, 20 * 60) * MIN;
        const content = rnd.pick(COMPLAINTS);
        const handled = filed + rnd.int(20, 44) * 3600_000;
        const [status, reply] = rnd.pick(REPLIES);
        schedule(filed, () => {
          const complaintId = ids.next(filed);
          b.add("meal_order_complaints", { tenant_id: tenantId, id: complaintId, order_no: orderNo, order_id: orderId, complainant_id: null, complainant_name: dinerName[i], content, images: null, status: 0, reply: null, handler_id: null, handler_name: null, handled_at: null, revoked_by: null, revoked_at: null, refund_amount: null, ...audit(filed) });
          schedule(handled, () => handle(complaintId));
        });
        const handle = (complaintId: number) => {
          const set: Row = { status, reply, handler_id: adminId, handler_name: userName, handled_at: handled, updated_at: handled, updated_by: adminId };
          updates.push({ table: "meal_order_complaints", id: complaintId, set });
          if (status !== 2) return;
          // The upheld part: the dearest item, given back to the account spent last first (refundPart).
          const refund = Math.min(amount, Math.max(...lines.map((l) => l.it.food.price)));
          let left = refund;
          for (const p of [...paidLines].reverse()) {
            const give = Math.min(left, p.fen);
            if (give <= 0) continue;
            line(handled, i, p.type, give, BusiType.CONSUME_RETURN, p.payFlag, [ORDER_DOC_TYPE, orderId], `部分退款：${reply.slice(0, 20)} mealOrderComplaints#${complaintId}`);
            left -= give;
          }
          takeBack(handled, i, earned, amount, refund, orderId, orderNo);
          set.refund_amount = refund;
          updates.push({ table: "meal_order", id: orderId, set: { refunded_amount: refund, order_status: refund === amount ? OrderStatus.REFUNDED : OrderStatus.PART_REFUNDED, updated_at: handled, updated_by: adminId } });
        };
      }
    }

    events.sort((x, y) => x.at - y.at);
    queue = events;
    playing = dayNo;
    for (played = 0; played < queue.length; played++) if (queue[played].at <= now) queue[played].run();

    // Survey answers: a tenth of a restaurant's regulars answer once, on a day in its month.
    for (const [si, s] of surveys.entries()) {
      if (start < s.from) continue;
      for (let i = si; i < n; i += 37) {
        if (home[i] !== si || (i + d) % 30 !== 0) continue;
        const at = start + rnd.int(12 * 60 + 30, 21 * 60) * MIN;
        if (at > now) continue;
        const answerId = ids.next(at);
        b.add("satisfaction_surve_answer", { tenant_id: tenantId, id: answerId, survey_id: s.id, user_info_id: dinerId[i], answered_at: at, ...audit(at) });
        for (const q of s.questions) {
          b.add("satisfaction_surve_answer_item", { tenant_id: tenantId, id: ids.next(at), answer_id: answerId, survey_id: s.id, question_id: q.id, option_id: q.options[rnd.weighted([[0, 35], [1, 40], [2, 18], [3, 7]] as const)], ...audit(at) });
        }
      }
    }

    // The menus with what they sold (less what was cancelled), published the afternoon before.
    for (const [ci, c] of menus.entries()) {
      for (const m of c) {
        const at = start - 8 * 3600_000;
        b.add("food_menu", { tenant_id: tenantId, id: m.menuId, menu_date: day, food_menu_type_id: m.meal.menuTypeId, restaurant_id: canteens[ci].id, meal_type: m.meal.type, status: 1, remark: null, ...audit(at) });
        for (const it of m.items) b.add("food_menu_item", { tenant_id: tenantId, id: it.id, food_menu_id: m.menuId, food_id: it.food.id, price: it.food.price, quota: null, sold_count: it.sold, sort: it.sort, ...audit(at) });
      }
    }
    const flushStarted = Date.now();
    await db.transaction().execute(async (trx) => {
      await b.flush(trx, TABLES);
      for (const u of updates) await trx.updateTable(u.table).set(u.set as never).where("tenant_id", "=", tenantId).where("id", "=", u.id).execute();
    });
    updates.length = 0;
    flushMs += Date.now() - flushStarted;
    if (d % 10 === 9 || d === days - 1) log(`${day}: ${orders} orders, ${ledgerLines} ledger lines (${((Date.now() - started) / 1000).toFixed(1)} s, ${(flushMs / 1000).toFixed(1)} s of it writing)`);
  }

  // Points accounts (opened by a diner's first line), with the balance their lines left.
  for (let i = 0; i < n; i++) if (hasPoints[i]) b.add("user_integral_account", { tenant_id: tenantId, id: ids.next(now), user_info_id: dinerId[i], balance: points[i], ...audit(now) });
  await db.transaction().execute(async (trx) => b.flush(trx, TABLES));

  // Balances as the lines left them; the setting remembers its last month.
  await db.transaction().execute(async (trx) => {
    for (let from = 0; from < n; from += 500) {
      const slice = Array.from({ length: Math.min(500, n - from) }, (_, k) => from + k);
      for (const [type, balances, accountIds] of [["cash", cash, cashId], ["subsidy", subsidy, subsidyId]] as const) {
        const cases = sql.join(slice.map((i) => sql`when ${sql.lit(accountIds[i])} then ${sql.lit(balances[i])}`), sql` `);
        await trx
          .updateTable("user_account")
          .set({ balance: sql`case id ${cases} end`, updated_at: now })
          .where("tenant_id", "=", tenantId)
          .where("account_type", "=", type)
          .where("id", "in", slice.map((i) => accountIds[i]))
          .execute();
      }
    }
    await trx.updateTable("auto_charge_setting").set({ last_run_month: months.at(-1) ?? null, last_run_at: dayStart(`${months.at(-1)}-01`) + 2 * 3600_000 }).where("tenant_id", "=", tenantId).where("id", "=", settingId).execute();
  });

  // The orders and lines were written here, not through `pay` and `post`: the day's dish sales (decision 038) and
  // the diners' months and the orders' points (decision 040) and the ledger's days (decision 044) are counted from them.
  await recountFoodSales(db, tenantId, firstDay, today);
  await recountDinerMonths(db, TICKET_PAY_FLAGS, tenantId);
  await recountDinerPlaceMonths(db, tenantId);
  await recountPointsOrderDays(db, tenantId);
  await recountOrderDays(db, tenantId);
  await recountLedgerDays(db, tenantId);

  // Month settlement (decision 022) through its own service: past months made formal, the current one 暂存.
  for (const month of months) {
    const closed = monthRange(month).end <= dayStart(today);
    const at = closed ? monthRange(month).end + 9 * 3600_000 : now;
    await generateMonth(db, postgres ? "postgres" : "sqlite", tenantId, month, { now: at, operatorId: adminId });
    if (closed) await makeFormal(db, postgres ? "postgres" : "sqlite", tenantId, month, { now: at, operatorId: adminId });
  }

  return { tenantId, tenantCode, userName, password, diners: n, days, from: firstDay, to: today, orders, orderItems, ledgerLines, seconds: (Date.now() - started) / 1000 };
  }
}
