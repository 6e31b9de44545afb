import type { Kysely } from "kysely";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../server/db";
import { loader as indexLoader } from "../../app/routes/sys/menu-tree";
import { action as formAction } from "../../app/routes/sys/menu-form";
import { adminToken, createTestApp, ORIGIN, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";

/**
 * The menu index (系统管理 › 菜单管理, issue 38) folds each page's button codes under the page: a subsystem of hundreds
 * of pages and thousands of buttons draws its pages, and a page's buttons only when asked for (`?open=<page>`, or
 * `all`), so the index costs what a list costs. The loader against the real API, on both databases.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
type Row = Record<string, unknown>;
type IndexData = { rows: Array<Row & { id: number; depth: number; buttons: number; menuType: string }>; open: string | null; target: Row | null };

for (const dialect of dialects) {
  describe(`${dialect}: the menu index folds buttons under their page`, () => {
    let app: TestApp;
    let token: string;
    let subsystemId: number;
    const folder = newId();
    const page = newId();
    const other = newId();
    const buttons = [newId(), newId(), newId()];
    const otherButton = newId();
    const context = (): AppLoadContext => ({ apiFetch: (request: Request) => app.api.handle(request, "127.0.0.1") }) as unknown as AppLoadContext;
    const request = (path: string, form?: FormData) =>
      new Request(`${ORIGIN}${path}`, { method: form ? "POST" : "GET", headers: { Cookie: `Admin-Token=${token}`, Origin: ORIGIN }, body: form });
    const load = async (query: string) =>
      (await indexLoader({ request: request(`/admin/sys/menu/index?subsystemId=${subsystemId}${query}`), context: context(), params: {} } as never)) as unknown as IndexData;
    const buttonRows = (data: IndexData) => data.rows.filter((r) => r.menuType === "button").map((r) => r.id);

    beforeAll(async () => {
      app = await createTestApp(dialect);
      token = await adminToken(app);
      const db = app.database.db as AnyDb;
      subsystemId = Number((await db.selectFrom("subsystem").select("id").orderBy("id").executeTakeFirstOrThrow()).id);
      const now = Date.now();
      const entry = (id: number, parent: number | null, type: string, name: string, permission: string | null, sort: number) => ({
        id, subsystem_id: subsystemId, parent_id: parent, menu_name: name, menu_path: type === "button" ? null : `/admin/fold/${id}`, menu_icon: null,
        menu_type: type, menu_target: "other", permission, roles: null, sort, status: 1, remark: null, created_at: now, created_by: null, updated_at: now, updated_by: null,
      });
      await db
        .insertInto("menu")
        .values([
          entry(folder, null, "path", "折叠目录", null, 900),
          entry(page, folder, "page", "折叠页面", "fold:page:view", 1),
          ...buttons.map((id, i) => entry(id, page, "button", `折叠按钮${i}`, `fold:page:action${i}`, i)),
          entry(other, folder, "page", "另一页面", "fold:other:view", 2),
          entry(otherButton, other, "button", "另一按钮", "fold:other:action", 0),
        ])
        .execute();
    }, 60_000);
    afterAll(async () => {
      await app?.close();
    });

    test("folded by default: every page with the number of its buttons, no button row", async () => {
      const data = await load("");
      expect(buttonRows(data)).toEqual([]);
      const mine = data.rows.filter((r) => [folder, page, other].includes(r.id)).map((r) => [r.id, r.depth, r.buttons]);
      expect(mine).toEqual([
        [folder, 0, 0],
        [page, 1, 3],
        [other, 1, 1],
      ]);
      // The seeded pages fold theirs too: the index draws far fewer rows than the subsystem holds.
      const total = await (app.database.db as AnyDb).selectFrom("menu").select((eb) => eb.fn.countAll().as("n")).where("subsystem_id", "=", subsystemId).executeTakeFirstOrThrow();
      expect(data.rows.length + data.rows.reduce((sum, r) => sum + r.buttons, 0)).toBe(Number(total.n));
    });

    test("one page opened shows its buttons under it, in order, and no other page's", async () => {
      const data = await load(`&open=${page}`);
      const at = data.rows.findIndex((r) => r.id === page);
      expect(data.rows.slice(at + 1, at + 4).map((r) => [r.id, r.depth, r.permission])).toEqual(buttons.map((id, i) => [id, 2, `fold:page:action${i}`]));
      expect(buttonRows(data)).toEqual(buttons);
      expect(data.open).toBe(String(page));
    });

    test("all opened shows every button of the subsystem", async () => {
      const data = await load("&open=all");
      expect(buttonRows(data)).toEqual(expect.arrayContaining([...buttons, otherButton]));
      expect(data.rows.length).toBe((await load("")).rows.length + data.rows.filter((r) => r.menuType === "button").length);
    });

    test("deleting a folded button still asks by its name", async () => {
      expect((await load(`&delete=${otherButton}`)).target).toEqual({ id: otherButton, menuName: "另一按钮" });
      expect((await load(`&delete=1`)).target).toBeNull();
    });

    test("a button added under a page comes back to the index with that page opened", async () => {
      const form = new FormData();
      for (const [k, v] of Object.entries({ subsystemId: String(subsystemId), parentId: String(page), menuName: "新按钮", menuType: "button", permission: "fold:page:new", sort: "9", status: "1", menuTarget: "other" })) {
        form.append(k, v);
      }
      const answer = (await formAction({ request: request(`/admin/sys/menu/create/${subsystemId}`, form), context: context(), params: { subsystemId: String(subsystemId) } } as never)) as Response;
      expect(answer.status, JSON.stringify(answer)).toBe(302);
      expect(answer.headers.get("Location")).toBe(`/admin/sys/menu/index?subsystemId=${subsystemId}&open=${page}#menu-${page}`);
      const data = await load(`&open=${page}`);
      expect(data.rows.filter((r) => r.menuType === "button").map((r) => r.menuName)).toEqual(["折叠按钮0", "折叠按钮1", "折叠按钮2", "新按钮"]);
    });
  });
}
