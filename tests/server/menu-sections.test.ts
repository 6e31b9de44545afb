import { afterEach, describe, expect, test } from "vitest";
import { migrateToLatest } from "../../server/db";
import * as menuSections from "../../server/db/migrations/0041_menu_sections";
import { seed, seedMenus, sectionId, stableId, subsystems } from "../../server/modules/seed";
import { buildTree } from "../../server/modules/sys/menu";
import type { MenuNode } from "../../resources/auth";
import { menuGroups } from "../../resources/screens";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/db";

const BEFORE = "0040_meal_order_diner_day_index";
const audit = { created_at: 0, created_by: null, updated_at: 0, updated_by: null };

/** Names along the tree down to the page with this path, e.g. ["智慧餐厅", "订单与收银", "收银台"]. */
function trail(nodes: MenuNode[], path: string, above: string[] = []): string[] | undefined {
  for (const node of nodes) {
    if (node.menuPath === path) return [...above, node.menuName];
    const found = trail(node.children, path, [...above, node.menuName]);
    if (found) return found;
  }
  return undefined;
}

describe("seeded menus in sections", () => {
  test("every seeded menu entry has an id of its own (a hash collision would make a role's grant of one grant the other)", () => {
    const ids = seedMenus().map((m) => m.id);
    expect(ids.length).toBeGreaterThan(500);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("every page of a module with sections sits in one of them, and each section lists only screens that exist", () => {
    const menus = seedMenus();
    for (const group of menuGroups.filter((g) => g.sections)) {
      const groupId = stableId(`group:${group.path}`);
      const sectionIds = new Set(group.sections?.map((s) => sectionId(group.path, s.title)));
      const pages = menus.filter((m) => m.menu_type === "page" && (m.parent_id === groupId || sectionIds.has(m.parent_id as number)));
      // A new screen of the module must be placed in a section (resources/modules.ts), not left below them.
      expect(pages.filter((p) => p.parent_id === groupId).map((p) => p.menu_path)).toEqual([]);
      for (const section of group.sections ?? []) {
        const held = pages.filter((p) => p.parent_id === sectionId(group.path, section.title)).map((p) => p.menu_path);
        expect(held).toEqual(expect.arrayContaining(section.screens.map((s) => `${group.path}/${s}/index`)));
        expect(held).toHaveLength(section.screens.length);
      }
    }
  });
});

for (const dialect of dialects) {
  describe(`migration 0041 on ${dialect}`, () => {
    let database: TestDatabase;
    afterEach(async () => database?.destroy());

    test("moves a database's pages under the new sections, leaves its own pages, and a role still sees its pages under their sections", async () => {
      database = await createTestDatabase(dialect, { migrate: false });
      const { db } = database;
      await migrateToLatest(db, BEFORE);
      // The menus as the seed wrote them before sections: every page directly under its module's group. 智慧后勤's
      // came after them (issue 40), seeded into its sections from its first start, so a database of then had none.
      const zhhq = subsystems.find((s) => s.sys_code === "zhhq")?.id;
      // 收支管理's (issue 37) likewise.
      const sc = subsystems.find((s) => s.sys_code === "sc")?.id;
      // 充值渠道 (decision 064) came later too, into its section, with its buttons.
      // So did 菜品用料 and a dish's 用料 button (decision 088).
      const later = (m: { menu_path: string | null; permission: string | null }) =>
        m.menu_path === "/zhct/topupchannel/index" || m.menu_path === "/zhct/foodrecipe/index" || m.permission === "zhct:food:recipe" || Boolean(m.permission?.match(/^zhct:(topUpChannel|foodRecipe):/));
      const menus = seedMenus().filter((m) => m.subsystem_id !== zhhq && m.subsystem_id !== sc && !later(m));
      const sections = menus.filter((m) => m.menu_type === "path" && m.parent_id !== null);
      for (const m of menus.filter((x) => !sections.includes(x))) {
        const section = sections.find((s) => s.id === m.parent_id);
        await db.insertInto("subsystem").values({ id: m.subsystem_id, sys_code: `s${m.subsystem_id}`, sys_name: `s${m.subsystem_id}`, icon: null, sort: m.subsystem_id, status: 1, ...audit }).onConflict((oc) => oc.column("id").doNothing()).execute();
        await db.insertInto("menu").values({ ...m, parent_id: section ? section.parent_id : m.parent_id, menu_target: "other", status: 1, ...audit }).execute();
      }
      const zhct = stableId("group:/zhct");
      const own = { id: 42, subsystem_id: 2, parent_id: zhct, menu_name: "本单位自建页面", menu_path: "/zhct/ourown/index", menu_icon: null, menu_type: "page", permission: null, sort: 99 };
      await db.insertInto("menu").values({ ...own, menu_target: "other", status: 1, ...audit }).execute();
      // A cashier role of a second tenant, granted the group and two pages (with a button) the way assignMenus did.
      const tenant = 7;
      await db.insertInto("tenant").values({ id: tenant, tenant_name: "第二食堂", tenant_code: "t2", status: 1, ...audit }).execute();
      await db.insertInto("role").values({ tenant_id: tenant, id: 5, role_code: "cashier", role_name: "收银员", role_type: "normal", status: 1, ...audit }).execute();
      const page = (path: string) => stableId(`page:${path}`);
      const held = [zhct, page("/zhct/cashier/index"), page("/zhct/mealorder/index"), stableId("button:/zhct/mealorder/index:export"), page("/zhct/food/index"), 42];
      for (const menuId of held) await db.insertInto("role_menu").values({ tenant_id: tenant, role_id: 5, menu_id: menuId }).execute();

      await migrateToLatest(db);

      const rows = await db.selectFrom("menu").selectAll().execute();
      const parentOf = new Map(rows.map((r) => [Number(r.id), r.parent_id === null ? null : Number(r.parent_id)]));
      // Every seeded entry now sits where a new database's seed puts it.
      for (const m of menus) expect([m.menu_name, parentOf.get(m.id)]).toEqual([m.menu_name, m.parent_id]);
      expect(parentOf.get(42)).toBe(zhct);

      const granted = (await db.selectFrom("role_menu").select("menu_id").where("tenant_id", "=", tenant).where("role_id", "=", 5).execute()).map((r) => Number(r.menu_id));
      const tree = buildTree(rows.filter((r) => granted.includes(Number(r.id))).map((r) => ({ ...r, id: Number(r.id), parent_id: r.parent_id === null ? null : Number(r.parent_id) })));
      expect(tree.map((n) => n.menuName)).toEqual(["智慧餐厅"]);
      expect(trail(tree, "/zhct/cashier/index")).toEqual(["智慧餐厅", "订单与收银", "收银台"]);
      expect(trail(tree, "/zhct/mealorder/index")).toEqual(["智慧餐厅", "订单与收银", "订单管理"]);
      expect(trail(tree, "/zhct/food/index")).toEqual(["智慧餐厅", "基础资料", "菜品管理"]);
      expect(trail(tree, "/zhct/ourown/index")).toEqual(["智慧餐厅", "本单位自建页面"]);
      // Sections the role holds no page of are not given to it.
      expect(granted).not.toContain(sectionId("/zhct", "设置"));

      // Run again, it changes nothing.
      const count = async (table: "menu" | "role_menu") => Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
      const before = [await count("menu"), await count("role_menu")];
      await menuSections.up(db);
      expect([await count("menu"), await count("role_menu")]).toEqual(before);

      // And the seed of the next start finds every entry in place, adding only 智慧后勤's and 收支管理's.
      await seed(db);
      expect(await count("menu")).toBe(before[0] + seedMenus().length - menus.length);
    });
  });
}
