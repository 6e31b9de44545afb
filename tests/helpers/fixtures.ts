import { expect, vi } from "vitest";
import { hashPassword } from "../../server/auth/password";
import { newId } from "../../server/db";
import { DEFAULT_TENANT_ID } from "../../server/modules/seed";
import type { Envelope } from "../../server/http/envelope";
import { uploadReference } from "../../resources/uploads";
import { loginBody, ORIGIN, type TestApp } from "./api";

export interface NewUser {
  userName: string;
  password: string;
  /** 0 forces a password change at first login; the default 1 lets the user in everywhere. */
  pwdSecurityLevel?: number;
  status?: number;
  roleIds?: number[];
}

/** Adds a user straight to the database (one scrypt hash) and returns its id. */
export async function createUser(app: TestApp, user: NewUser): Promise<number> {
  const { db } = app.database;
  const id = newId();
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("user")
      .values({
        tenant_id: DEFAULT_TENANT_ID,
        id,
        user_name: user.userName,
        password_hash: await hashPassword(user.password),
        pwd_security_level: user.pwdSecurityLevel ?? 1,
        real_name: null,
        user_code: null,
        avatar: null,
        introduction: null,
        phone: null,
        email: null,
        sex: null,
        org_id: null,
        navigation_mode: null,
        settings: null,
        status: user.status ?? 1,
        last_login_at: null,
        remark: null,
        created_at: now,
        created_by: null,
        updated_at: now,
        updated_by: null,
      })
      .execute();
    await trx.insertInto("login_name").values({ user_name: user.userName, tenant_id: DEFAULT_TENANT_ID, user_id: id }).execute();
    for (const roleId of user.roleIds ?? []) {
      await trx.insertInto("user_role").values({ tenant_id: DEFAULT_TENANT_ID, user_id: id, role_id: roleId }).execute();
    }
  });
  return id;
}

/** Records an upload (its row only; no bytes are read) so image and file fields may reference it; returns the reference. */
export async function uploadedReference(app: TestApp, kind: "image" | "file", tenantId = DEFAULT_TENANT_ID): Promise<string> {
  const id = newId();
  await app.database.db
    .insertInto("upload")
    .values({ tenant_id: tenantId, id, kind, content_type: kind === "image" ? "image/png" : "application/octet-stream", size: 1, file_name: `${kind}.bin`, sha256: "0".repeat(64), created_at: Date.now(), created_by: null })
    .execute();
  return uploadReference(id);
}

/** POST /login with the given options; returns the whole call result. */
export function postLogin(
  app: TestApp,
  username: string,
  password: string,
  options: { ip?: string; captcha?: string; checkKey?: string } = {},
) {
  const query = new URLSearchParams({ captcha: options.captcha ?? "", checkKey: options.checkKey ?? "" });
  return app.call<{ token: string }>("POST", `/login?${query}`, { body: loginBody(username, password), ip: options.ip });
}

/** Sends a request built by the test straight to the API (for https URLs and raw headers). */
export async function handleRaw(app: TestApp, request: Request, ip = "127.0.0.1") {
  const response = await app.api.handle(request, ip);
  const text = await response.text();
  return { http: response.status, headers: response.headers, text };
}

export function loginRequest(url: string, username: string, password: string, headers: Record<string, string> = {}) {
  return new Request(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(loginBody(username, password)),
  });
}

export const sameOrigin = { Origin: ORIGIN };

/**
 * What an API client sees must not give away internals: no stack frames, no source file
 * positions, no SQL or driver text.
 */
export function expectNoInternals(body: Envelope | string) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  expect(text).not.toContain("at ");
  expect(text).not.toContain(".ts:");
  expect(text).not.toContain(".js:");
  expect(text).not.toMatch(/\b(select|insert|update|delete)\b[\s\S]*\b(from|into|set)\b/i);
  expect(text).not.toMatch(/sqlite|postgres|relation|syntax error|no such table|constraint/i);
}

/** Freezes Date at the given epoch milliseconds (only Date: database drivers keep their timers). */
export function freezeDate(at: number) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(at);
}

export function setDate(at: number) {
  vi.setSystemTime(at);
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/** Every row of a table as JSON text, to look for secrets that must not be stored. */
export async function tableText(app: TestApp, table: "session" | "login_log" | "user" | "captcha" | "login_lock") {
  const rows = await app.database.db.selectFrom(table).selectAll().execute();
  return JSON.stringify(rows);
}

type PostOk = (path: string, body: Record<string, unknown>) => Promise<Record<string, unknown>>;

/**
 * A restaurant's all-day meal time with the day's published menu of `dishes` (name, price in fen), made through the
 * API as staff make it; the meal time and the dishes' ids for the cashier's pay. Meal times of one restaurant may
 * not overlap: a second meal type wants a restaurant of its own.
 */
export async function publishedMenu(ok: PostOk, menu: { restaurantId: number; mealType: string; day: string; foodTypeId: unknown; dishes: Array<[string, number]>; menuTypeName?: string }) {
  const Z = "/api/v1/zhct";
  const { restaurantId, mealType } = menu;
  const mealTime = await ok(`${Z}/mealTimes/create`, { restaurantId, mealTimeName: mealType, mealType, beginTime: "00:00", endTime: "23:59", orderDaysAhead: 0, standardPrice: "0", status: "1" });
  const menuType = await ok(`${Z}/foodMenuType/create`, { typeName: menu.menuTypeName ?? `${mealType}菜单`, restaurantId, mealType, menuMode: "2", mealTimeId: mealTime.id, sort: 0, status: "1" });
  const dayMenu = await ok(`${Z}/foodMenu/create`, { menuDate: menu.day, foodMenuTypeId: menuType.id, status: "0" });
  const foods: number[] = [];
  for (const [foodName, price] of menu.dishes) {
    const food = await ok(`${Z}/food/create`, { foodName, foodTypeId: menu.foodTypeId, restaurantId, price, onShelf: "1" });
    await ok(`${Z}/foodMenuItem/create`, { foodMenuId: dayMenu.id, foodId: food.id, price, sort: 0 });
    foods.push(food.id as number);
  }
  await ok(`${Z}/foodMenu/update`, { id: dayMenu.id, status: "1" });
  return { mealTimesId: mealTime.id as number, foods };
}
