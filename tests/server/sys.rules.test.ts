import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { permissionCode, resourceKey } from "../../resources/define";
import { resources } from "../../resources/index";
import { hashPassword } from "../../server/auth/password";
import { newId } from "../../server/db";
import { ROOT_ORG_ID, seed, stableId } from "../../server/modules/seed";
import { adminToken, createTestApp, loginAs, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createUser, uploadedReference } from "../helpers/fixtures";
import { bumpShellGeneration } from "../../server/modules/auth/shellCache";

type Row = Record<string, unknown>;
type Page = { records: Row[]; total: number };
type FieldErrors = { fieldErrors: Record<string, string[]> };

const SYS_GROUP = stableId("group:/admin/sys");

for (const dialect of dialects) {
  describe(dialect, () => {
    let app: TestApp;
    let token: string;
    /** The admin of a second tenant: role code admin, role type admin (not a super admin). */
    let otherToken: string;
    let otherTenantId: number;
    let serial = 0;

    const call = <T = Row>(method: "GET" | "POST", path: string, body?: unknown, as = token) => {
      if (method === "GET") {
        const query = new URLSearchParams(Object.entries((body ?? {}) as Row).map(([k, v]) => [k, String(v)]));
        return app.call<T>("GET", `${path}${body ? `?${query}` : ""}`, { token: as });
      }
      return app.call<T>("POST", path, { token: as, body });
    };
    const get = <T = Row>(path: string, query?: Row, as = token) => call<T>("GET", path, query, as);
    const post = <T = Row>(path: string, body: unknown, as = token) => call<T>("POST", path, body, as);

    async function ok(path: string, body: Row, as = token): Promise<Row> {
      const result = await post(path, body, as);
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data;
    }
    const uid = () => `${++serial}`;

    async function expectFieldError(result: { body: { status: number; message: string; data: unknown } }, field: string, message: string | RegExp) {
      expect(result.body.status).toBe(400);
      const errors = (result.body.data as FieldErrors).fieldErrors[field];
      expect(errors, JSON.stringify(result.body)).toBeDefined();
      if (typeof message === "string") expect(errors).toContain(message);
      else expect(errors.join()).toMatch(message);
    }

    async function orgIn(tenantId: number, name: string): Promise<number> {
      const id = newId();
      const now = Date.now();
      await app.database.db
        .insertInto("org")
        .values({ tenant_id: tenantId, id, parent_id: null, org_name: name, org_code: null, org_type: "stall", sort: 0, status: 1, remark: null, created_at: now, created_by: null, updated_at: now, updated_by: null })
        .execute();
      return id;
    }

    const device = (extra: Row = {}, as = token) =>
      ok("/api/v1/sys/device/create", { deviceCode: `D${uid()}`, deviceName: "结算台", deviceType: "box", status: "1", ...extra }, as);

    beforeAll(async () => {
      app = await createTestApp(dialect);
      token = await adminToken(app);
      const tenant = await ok("/api/v1/sys/tenant/create", { tenantName: "第二食堂", tenantCode: "second", status: "1" });
      otherTenantId = tenant.id as number;
      const role = await app.database.db
        .selectFrom("role")
        .select("id")
        .where("tenant_id", "=", otherTenantId)
        .where("role_code", "=", "admin")
        .executeTakeFirstOrThrow();
      const userId = newId();
      const now = Date.now();
      await app.database.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("user")
          .values({
            tenant_id: otherTenantId, id: userId, user_name: "second-admin", password_hash: await hashPassword("Second-Admin-2026"), pwd_security_level: 1,
            real_name: null, user_code: null, avatar: null, introduction: null, phone: null, email: null, sex: null, org_id: null, navigation_mode: null,
            settings: null, status: 1, last_login_at: null, remark: null, created_at: now, created_by: null, updated_at: now, updated_by: null,
          })
          .execute();
        await trx.insertInto("login_name").values({ user_name: "second-admin", tenant_id: otherTenantId, user_id: userId }).execute();
        await trx.insertInto("user_role").values({ tenant_id: otherTenantId, user_id: userId, role_id: role.id }).execute();
      });
      otherToken = await loginAs(app, "second-admin", "Second-Admin-2026");
    });
    afterAll(async () => {
      await app?.close();
    });

    describe("global data (subsystems, menus, dictionaries) is for the super admin", () => {
      test("a tenant's admin is refused with 403, and the menus it gets leave those screens out", async () => {
        for (const path of ["/api/v1/sys/subsystem/findPage", "/api/v1/sys/menu/findPage", "/api/v1/sys/dict/findPage", "/api/v1/sys/dictItem/findPage"]) {
          const result = await get(path, undefined, otherToken);
          expect(result.http, path).toBe(403);
          expect(result.body.message).toBe("只有超级管理员可以管理此数据");
        }
        expect((await get("/api/v1/sys/menu/tree", { subsystemId: 1 }, otherToken)).body.status).toBe(403);
        expect((await post("/api/v1/sys/dict/create", { dictCode: "sneaky", dictName: "x", status: "1" }, otherToken)).body.status).toBe(403);
        type Node = { menuPath: string; children?: Node[] };
        const info = await get<{ menuTreeList: Node[] }>("/api/v1/auth/user/info", undefined, otherToken);
        // Pages sit under their module's sections (decision 053): the whole tree, however deep.
        const pathsOf = (nodes: Node[]): string[] => nodes.flatMap((m) => [m.menuPath, ...pathsOf(m.children ?? [])]);
        const paths = pathsOf(info.body.data.menuTreeList);
        expect(paths).toContain("/admin/sys/device/index");
        expect(paths).not.toContain("/admin/sys/menu/index");
        expect(paths).not.toContain("/admin/sys/dict/index");
      });
    });

    describe("subsystem", () => {
      test("a subsystem that still has menus cannot be deleted; an empty one can", async () => {
        const sub = await ok("/api/v1/sys/subsystem/create", { sysCode: `s${uid()}`, sysName: "测试子系统", sort: 9, status: "1" });
        const entry = await ok("/api/v1/sys/menu/create", { subsystemId: sub.id, menuName: "页", menuType: "page", menuPath: "/x/index", menuTarget: "other", sort: 0, status: "1" });
        const refused = await get("/api/v1/sys/subsystem/delete", { id: sub.id });
        expect(refused.http).toBe(409);
        expect(refused.body.message).toBe("该子系统下还有菜单，不能删除");
        expect((await get("/api/v1/sys/menu/delete", { id: entry.id })).body.status).toBe(200);
        expect((await get("/api/v1/sys/subsystem/delete", { id: sub.id })).body.status).toBe(200);
      });

      test("codes are unique", async () => {
        await expectFieldError(await post("/api/v1/sys/subsystem/create", { sysCode: "admin", sysName: "重复", sort: 0, status: "1" }), "sysCode", "子系统编码已存在");
      });
    });

    describe("menu", () => {
      let subsystemId: number;
      let otherSubsystemId: number;
      const entry = (extra: Row) => ({ subsystemId, menuName: `菜单${uid()}`, menuType: "page", menuPath: `/m/${serial}`, menuTarget: "other", sort: 0, status: "1", ...extra });

      beforeAll(async () => {
        subsystemId = (await ok("/api/v1/sys/subsystem/create", { sysCode: "menuRules", sysName: "菜单规则", sort: 0, status: "1" })).id as number;
        otherSubsystemId = (await ok("/api/v1/sys/subsystem/create", { sysCode: "menuOther", sysName: "另一个", sort: 0, status: "1" })).id as number;
      });

      test("a button needs a permission code and a page above it", async () => {
        const dir = await ok("/api/v1/sys/menu/create", entry({ menuType: "path" }));
        const page = await ok("/api/v1/sys/menu/create", entry({ parentId: dir.id }));
        await expectFieldError(await post("/api/v1/sys/menu/create", entry({ menuType: "button", parentId: page.id, menuPath: "" })), "permission", "按钮必须填写权限标识");
        await expectFieldError(await post("/api/v1/sys/menu/create", entry({ menuType: "button", permission: "x:y:z" })), "parentId", "按钮只能添加在页面类型的菜单下");
        await expectFieldError(await post("/api/v1/sys/menu/create", entry({ menuType: "button", permission: "x:y:z", parentId: dir.id })), "parentId", "按钮只能添加在页面类型的菜单下");
        const button = await ok("/api/v1/sys/menu/create", entry({ menuType: "button", permission: "x:y:create", parentId: page.id, menuPath: "" }));
        expect(button.menuPath).toBeNull();
        await expectFieldError(await post("/api/v1/sys/menu/create", entry({ parentId: button.id })), "parentId", "按钮下不能再添加菜单");
        await expectFieldError(await post("/api/v1/sys/menu/create", entry({ permission: "bad code" })), "permission", /权限标识由字母/);
      });

      test("entries other than buttons need a path", async () => {
        await expectFieldError(await post("/api/v1/sys/menu/create", entry({ menuPath: "" })), "menuPath", "请输入菜单路径");
      });

      test("the parent is in the same subsystem, and never the entry itself or one below it", async () => {
        const a = await ok("/api/v1/sys/menu/create", entry({ menuType: "path" }));
        const b = await ok("/api/v1/sys/menu/create", entry({ menuType: "path", parentId: a.id }));
        const c = await ok("/api/v1/sys/menu/create", entry({ parentId: b.id }));
        await expectFieldError(await post("/api/v1/sys/menu/create", entry({ subsystemId: otherSubsystemId, parentId: a.id })), "parentId", "上级菜单必须属于同一子系统");
        await expectFieldError(await post("/api/v1/sys/menu/update", { id: a.id, updatedAt: a.updatedAt, parentId: a.id }), "parentId", "上级菜单不能是自己");
        await expectFieldError(await post("/api/v1/sys/menu/update", { id: a.id, updatedAt: a.updatedAt, parentId: c.id }), "parentId", "上级菜单不能是自己的下级菜单");
        await expectFieldError(await post("/api/v1/sys/menu/update", { id: a.id, updatedAt: a.updatedAt, parentId: 123456789 }), "parentId", /不存在/);
        const moved = await post("/api/v1/sys/menu/update", { id: c.id, updatedAt: c.updatedAt, parentId: a.id });
        expect(moved.body.status).toBe(200);
        expect(moved.body.data.parentId).toBe(a.id);
      });

      test("an entry with children keeps its subsystem, cannot become a button, and is deleted after them", async () => {
        const page = await ok("/api/v1/sys/menu/create", entry({}));
        const button = await ok("/api/v1/sys/menu/create", entry({ menuType: "button", permission: "p:q:r", parentId: page.id, menuPath: null }));
        const v = { id: page.id, updatedAt: page.updatedAt };
        await expectFieldError(await post("/api/v1/sys/menu/update", { ...v, subsystemId: otherSubsystemId }), "subsystemId", "该菜单下还有子菜单，不能更换子系统");
        await expectFieldError(await post("/api/v1/sys/menu/update", { ...v, menuType: "button", permission: "a:b" }), "menuType", "该菜单下还有子菜单，不能改为按钮");
        await expectFieldError(await post("/api/v1/sys/menu/update", { ...v, menuType: "path" }), "menuType", "该菜单下还有按钮，只有页面类型的菜单可以包含按钮");
        const refused = await get("/api/v1/sys/menu/delete", { id: page.id });
        expect(refused.http).toBe(409);
        expect(refused.body.message).toBe("该菜单下还有子菜单，请先删除子菜单");
        expect((await get("/api/v1/sys/menu/delete", { id: button.id })).body.status).toBe(200);
        expect((await get("/api/v1/sys/menu/delete", { id: page.id })).body.status).toBe(200);
      });

      test("the tree of a subsystem nests entries by parent, in sort order, disabled ones included", async () => {
        const sub = await ok("/api/v1/sys/subsystem/create", { sysCode: "treeSys", sysName: "树", sort: 0, status: "1" });
        const root = await ok("/api/v1/sys/menu/create", entry({ subsystemId: sub.id, menuType: "path", menuName: "根" }));
        const second = await ok("/api/v1/sys/menu/create", entry({ subsystemId: sub.id, parentId: root.id, menuName: "第二", sort: 2, status: "0" }));
        const first = await ok("/api/v1/sys/menu/create", entry({ subsystemId: sub.id, parentId: root.id, menuName: "第一", sort: 1 }));
        await ok("/api/v1/sys/menu/create", entry({ subsystemId: sub.id, parentId: first.id, menuType: "button", permission: "t:r:e", menuName: "按钮" }));
        type Node = { id: number; menuName: string; status: number; parentIds: number[]; children: Node[] };
        const tree = await get<{ subsystem: Row; tree: Node[] }>("/api/v1/sys/menu/tree", { subsystemId: sub.id });
        expect(tree.body.status).toBe(200);
        expect(tree.body.data.subsystem).toMatchObject({ id: sub.id, sysCode: "treeSys" });
        expect(tree.body.data.tree.map((n) => n.menuName)).toEqual(["根"]);
        const children = tree.body.data.tree[0].children;
        expect(children.map((n) => [n.menuName, n.status])).toEqual([["第一", 1], ["第二", 0]]);
        expect(children[0].children.map((n) => n.menuName)).toEqual(["按钮"]);
        expect(children[0].children[0].parentIds).toEqual([root.id, first.id]);
        expect(second.id).toBe(children[1].id);
        const missing = await get("/api/v1/sys/menu/tree", { subsystemId: 42 });
        expect(missing.http).toBe(404);
        expect(missing.body.message).toBe("子系统不存在");
        expect((await get("/api/v1/sys/menu/tree")).body.status).toBe(400);
      });

      test("the tree reads a page's buttons only when asked, and counts every page's buttons", async () => {
        const sub = await ok("/api/v1/sys/subsystem/create", { sysCode: "foldSys", sysName: "折叠", sort: 0, status: "1" });
        const root = await ok("/api/v1/sys/menu/create", entry({ subsystemId: sub.id, menuType: "path", menuName: "根" }));
        const one = await ok("/api/v1/sys/menu/create", entry({ subsystemId: sub.id, parentId: root.id, menuName: "甲", sort: 1 }));
        const two = await ok("/api/v1/sys/menu/create", entry({ subsystemId: sub.id, parentId: root.id, menuName: "乙", sort: 2 }));
        for (const [page, code] of [[one, "f:a:x"], [one, "f:a:y"], [two, "f:b:x"]] as const) {
          await ok("/api/v1/sys/menu/create", entry({ subsystemId: sub.id, parentId: page.id, menuType: "button", permission: code, menuName: code }));
        }
        type Node = { menuName: string; buttonCount: number; children: Node[] };
        const pages = async (buttons?: string) => {
          const tree = await get<{ tree: Node[] }>("/api/v1/sys/menu/tree", { subsystemId: sub.id, ...(buttons ? { buttons } : {}) });
          expect(tree.body.status).toBe(200);
          return tree.body.data.tree[0].children.map((n) => [n.menuName, n.buttonCount, n.children.map((c) => c.menuName)]);
        };
        expect(await pages()).toEqual([["甲", 2, ["f:a:x", "f:a:y"]], ["乙", 1, ["f:b:x"]]]);
        expect(await pages("none")).toEqual([["甲", 2, []], ["乙", 1, []]]);
        expect(await pages(String(two.id))).toEqual([["甲", 2, []], ["乙", 1, ["f:b:x"]]]);
        const bad = await get("/api/v1/sys/menu/tree", { subsystemId: sub.id, buttons: "some" });
        expect(bad.http).toBe(400);
        expect(bad.body.message).toContain("按钮");
      });

      describe("the menu index's rows (issue 38, decision 092)", () => {
        // 3 folders, 2 sections each, 10 pages each: levels of 3, 6 and 60 entries; two pages have buttons.
        let sub: number;
        const ids = { folder: [] as number[], section: [] as number[][], page: [] as number[][][] };
        const buttonsOf = { p000: [newId(), newId()], p110: [newId(), newId(), newId()] };
        type IndexRow = { id: number; depth: number; menuName: string; menuType: string; entries: number; buttons: number; open: boolean; match: boolean };
        type View = { levels: number; open: number[] | "all"; rows: IndexRow[]; total: number; search: { matches: number; shown: number } | null };
        const view = async (query: Row = {}) => {
          const result = await get<View>("/api/v1/sys/menu/treeRows", { subsystemId: sub, ...query });
          expect(result.body.status, JSON.stringify(result.body)).toBe(200);
          return result.body.data;
        };
        const names = (v: View) => v.rows.map((r) => r.menuName);

        beforeAll(async () => {
          sub = (await ok("/api/v1/sys/subsystem/create", { sysCode: "indexSys", sysName: "索引", sort: 0, status: "1" })).id as number;
          const now = Date.now();
          const rows: Row[] = [];
          const add = (parent: number | null, type: string, name: string, path: string | null, permission: string | null, sort: number, id = newId()) => {
            rows.push({
              id, subsystem_id: sub, parent_id: parent, menu_name: name, menu_path: path, menu_icon: null, menu_type: type, menu_target: "other", permission, roles: null,
              sort, status: 1, remark: null, created_at: now, created_by: null, updated_at: now, updated_by: null,
            });
            return id;
          };
          for (let f = 0; f < 3; f++) {
            ids.folder[f] = add(null, "path", `目录${f}`, `/idx/${f}`, null, f);
            ids.section[f] = [];
            ids.page[f] = [];
            for (let s = 0; s < 2; s++) {
              ids.section[f][s] = add(ids.folder[f], "path", `分组${f}${s}`, `/idx/${f}/${s}`, null, s);
              ids.page[f][s] = [];
              for (let p = 0; p < 10; p++) ids.page[f][s][p] = add(ids.section[f][s], "page", `页面${f}${s}${p}`, `/idx/${f}/${s}/${p}/index`, `idx:p${f}${s}${p}:view`, p);
            }
          }
          buttonsOf.p000.forEach((id, i) => add(ids.page[0][0][0], "button", `按钮${i}`, null, `idx:p000:export${"AB"[i]}`, i, id));
          buttonsOf.p110.forEach((id, i) => add(ids.page[1][1][0], "button", `导出${i}`, null, `idx:p110:Export_${i}`, i, id));
          await app.database.db.insertInto("menu").values(rows as never).execute();
        });

        test("unasked, the whole levels that fit a list page: here the folders and their sections, with what each holds", async () => {
          const v = await view();
          expect(v.levels).toBe(2);
          expect(v.total).toBe(3 + 6 + 60 + 5);
          expect(v.search).toBeNull();
          expect(v.rows.map((r) => [r.menuName, r.depth, r.entries, r.open])).toEqual(
            [0, 1, 2].flatMap((f) => [[`目录${f}`, 0, 2, false], [`分组${f}0`, 1, 10, false], [`分组${f}1`, 1, 10, false]]),
          );
          // A subsystem that fits is drawn whole, buttons folded.
          const small = await ok("/api/v1/sys/subsystem/create", { sysCode: "indexSmall", sysName: "小", sort: 0, status: "1" });
          const dir = await ok("/api/v1/sys/menu/create", { subsystemId: small.id, menuName: "小目录", menuType: "path", menuPath: "/small", menuTarget: "other", sort: 0, status: "1" });
          const page = await ok("/api/v1/sys/menu/create", { subsystemId: small.id, parentId: dir.id, menuName: "小页面", menuType: "page", menuPath: "/small/index", menuTarget: "other", sort: 0, status: "1" });
          await ok("/api/v1/sys/menu/create", { subsystemId: small.id, parentId: page.id, menuName: "小按钮", menuType: "button", permission: "small:x", menuTarget: "other", sort: 0, status: "1" });
          const whole = await get<View>("/api/v1/sys/menu/treeRows", { subsystemId: small.id });
          expect(whole.body.data.rows.map((r) => [r.menuName, r.depth, r.buttons])).toEqual([["小目录", 0, 0], ["小页面", 1, 1]]);
        });

        test("an opened section draws its pages in order; an opened page its buttons, its folders opened with it", async () => {
          const section = await view({ open: String(ids.section[0][0]) });
          expect(section.open).toEqual([ids.section[0][0]]);
          expect(names(section)).toEqual(["目录0", "分组00", ...Array.from({ length: 10 }, (_, p) => `页面00${p}`), "分组01", "目录1", "分组10", "分组11", "目录2", "分组20", "分组21"]);
          expect(section.rows.find((r) => r.id === ids.page[0][0][0])).toMatchObject({ depth: 2, buttons: 2, open: false });
          expect(section.rows.filter((r) => r.menuType === "button")).toEqual([]);

          const page = await view({ open: String(ids.page[1][1][0]) });
          const at = names(page).indexOf("页面110");
          expect(names(page).slice(at - 1, at + 5)).toEqual(["分组11", "页面110", "导出0", "导出1", "导出2", "页面111"]);
          expect(page.rows.filter((r) => r.menuType === "button").map((r) => r.id)).toEqual(buttonsOf.p110);
          expect(page.rows.filter((r) => r.open).map((r) => r.menuName)).toEqual(["目录1", "分组11", "页面110"]);
          expect(page.rows).toHaveLength(9 + 10 + 3);

          const both = await view({ open: `${ids.section[0][0]},${ids.page[1][1][0]}` });
          expect(both.rows).toHaveLength(9 + 10 + 10 + 3);
          const all = await view({ open: "all" });
          expect(all.open).toBe("all");
          expect(all.rows).toHaveLength(74);
          expect(all.rows.filter((r) => r.menuType === "button").map((r) => r.id)).toEqual([...buttonsOf.p000, ...buttonsOf.p110]);
        });

        test("what open names that is not an entry of the subsystem (a button, another subsystem's page, nothing) opens nothing", async () => {
          const other = await get<View>("/api/v1/sys/menu/treeRows", { subsystemId: 1, open: "all" });
          const elsewhere = other.body.data.rows.find((r) => r.menuType === "page")?.id;
          const v = await view({ open: `${buttonsOf.p000[0]},${elsewhere},42` });
          expect(v.open).toEqual([]);
          expect(v.rows).toHaveLength(9);
        });

        test("a search draws the matches of name, path or permission code under their folders, the first 50 in the tree's order", async () => {
          const byName = await view({ keyword: " 页面11 " });
          expect(byName.search).toEqual({ matches: 10, shown: 10 });
          expect(byName.rows.map((r) => [r.menuName, r.match])).toEqual([["目录1", false], ["分组11", false], ...Array.from({ length: 10 }, (_, p) => [`页面11${p}`, true])]);
          // Letters without case, and `_` is the character typed, not any one.
          const byCode = await view({ keyword: "EXPORT_" });
          expect(byCode.rows.filter((r) => r.match).map((r) => r.id)).toEqual(buttonsOf.p110);
          expect(names(byCode)).toEqual(["目录1", "分组11", "页面110", "导出0", "导出1", "导出2"]);
          const byPath = await view({ keyword: "/idx/2/" });
          expect(byPath.search).toEqual({ matches: 22, shown: 22 });
          const many = await view({ keyword: "页面" });
          expect(many.search).toEqual({ matches: 60, shown: 50 });
          expect(many.rows.filter((r) => r.match)).toHaveLength(50);
          expect(many.rows.at(-1)?.menuName).toBe("页面209");
          expect(names(many).filter((n) => !n.startsWith("页面"))).toEqual(["目录0", "分组00", "分组01", "目录1", "分组10", "分组11", "目录2", "分组20"]);
          const none = await view({ keyword: "没有这个菜单" });
          expect(none).toMatchObject({ rows: [], search: { matches: 0, shown: 0 } });
        });

        test("bad input is a 400 naming the field; an unknown subsystem 404; a tenant's admin 403", async () => {
          for (const [query, field, message] of [
            [{ open: "abc" }, "open", /展开的菜单只能是 all 或以逗号分隔的菜单 id/],
            [{ open: "1,,2" }, "open", /展开的菜单/],
            [{ open: Array.from({ length: 101 }, (_, i) => i + 1).join(",") }, "open", /至多 100 个/],
            [{ keyword: "a\u0000b" }, "keyword", "关键字含有无法保存的字符"],
            [{ open: "1\u0000" }, "open", "展开的菜单含有无法保存的字符"],
            [{ keyword: "名".repeat(51) }, "keyword", "关键字不能超过 50 个字符"],
          ] as const) {
            const refused = await get("/api/v1/sys/menu/treeRows", { subsystemId: sub, ...query });
            await expectFieldError(refused, field, message);
            // The message names the field in Chinese too (a hand-written endpoint's own parameter, by its description).
            expect(refused.body.message).toMatch(/^[^a-z]*(展开的菜单|关键字)/);
          }
          expect((await get("/api/v1/sys/menu/treeRows")).body.status).toBe(400);
          const missing = await get("/api/v1/sys/menu/treeRows", { subsystemId: 42 });
          expect(missing.http).toBe(404);
          expect(missing.body.message).toBe("子系统不存在");
          expect((await get("/api/v1/sys/menu/treeRows", { subsystemId: sub }, otherToken)).http).toBe(403);
        });
      });

      test("the seed gives every system-management screen a page entry and its buttons, and seeding again adds nothing", async () => {
        const menus = await app.database.db.selectFrom("menu").select(["id", "parent_id", "menu_path", "menu_type", "permission"]).execute();
        for (const def of resources.filter((r) => r.screenBase === "/admin/sys")) {
          const page = menus.find((m) => m.menu_path === `/admin/sys/${def.screen}/index`);
          expect(page, def.screen).toMatchObject({ menu_type: "page", permission: permissionCode(def, "view") });
          // Under a section of 系统管理 (decision 053).
          expect(menus.find((m) => m.id === page?.parent_id), def.screen).toMatchObject({ parent_id: SYS_GROUP, menu_type: "path" });
          const buttons = menus.filter((m) => m.parent_id === page?.id).map((m) => m.permission);
          for (const action of [...def.actions, ...Object.keys(def.workflowActions ?? {})]) expect(buttons, resourceKey(def)).toContain(permissionCode(def, action));
        }
        await seed(app.database.db);
        const again = await app.database.db.selectFrom("menu").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
        expect(Number(again.n)).toBe(menus.length);
      });
    });

    describe("dict and dictItem", () => {
      test("a dictionary with items cannot be deleted; built-in ones are neither deleted nor renamed", async () => {
        const dict = await ok("/api/v1/sys/dict/create", { dictCode: "mealArea", dictName: "就餐区域", status: "1" });
        await expectFieldError(await post("/api/v1/sys/dict/create", { dictCode: "mealArea", dictName: "重复", status: "1" }), "dictCode", "字典编码已存在");
        const item = await ok("/api/v1/sys/dictItem/create", { dictCode: "mealArea", itemValue: "east", itemText: "东区", itemType: "0", sort: 0, status: "1" });
        const refused = await get("/api/v1/sys/dict/delete", { id: dict.id });
        expect(refused.http).toBe(409);
        expect(refused.body.message).toBe("该字典下还有字典项，不能删除");

        const renamed = await post("/api/v1/sys/dict/update", { id: dict.id, updatedAt: dict.updatedAt, dictCode: "diningArea" });
        expect(renamed.body.status).toBe(200);
        expect((await get("/api/v1/sys/dictItem/getInfo", { id: item.id })).body.data.dictCode).toBe("diningArea");

        const status = await app.database.db.selectFrom("dict").select(["id", "updated_at"]).where("dict_code", "=", "status").executeTakeFirstOrThrow();
        const builtIn = await get("/api/v1/sys/dict/delete", { id: status.id });
        expect(builtIn.http).toBe(409);
        expect(builtIn.body.message).toBe("内置字典不能删除，可以停用");
        await expectFieldError(await post("/api/v1/sys/dict/update", { id: status.id, updatedAt: status.updated_at, dictCode: "state" }), "dictCode", "内置字典的编码不能修改");
        expect((await post("/api/v1/sys/dict/update", { id: status.id, updatedAt: status.updated_at, dictName: "有效状态" })).body.status).toBe(200);
      });

      test("an item's value is unique within its dictionary, numeric when typed so, and its dictionary exists", async () => {
        await ok("/api/v1/sys/dict/create", { dictCode: "seatZone", dictName: "座位区", status: "1" });
        await ok("/api/v1/sys/dict/create", { dictCode: "seatRow", dictName: "座位排", status: "1" });
        const item = { itemText: "一", itemType: "0", sort: 0, status: "1" };
        await ok("/api/v1/sys/dictItem/create", { ...item, dictCode: "seatZone", itemValue: "1" });
        await expectFieldError(await post("/api/v1/sys/dictItem/create", { ...item, dictCode: "seatZone", itemValue: "1" }), "itemValue", "该字典下已有此字典值");
        const other = await ok("/api/v1/sys/dictItem/create", { ...item, dictCode: "seatRow", itemValue: "1" });
        await expectFieldError(
          await post("/api/v1/sys/dictItem/update", { id: other.id, updatedAt: other.updatedAt, dictCode: "seatZone" }),
          "itemValue",
          "该字典下已有此字典值",
        );
        await expectFieldError(await post("/api/v1/sys/dictItem/create", { ...item, dictCode: "noSuchDict", itemValue: "1" }), "dictCode", "字典不存在，请先添加字典");
        await expectFieldError(await post("/api/v1/sys/dictItem/create", { ...item, dictCode: "seatZone", itemValue: "A", itemType: "1" }), "itemValue", "值类型为数字时，字典值必须是数字");
        expect((await post("/api/v1/sys/dictItem/create", { ...item, dictCode: "seatZone", itemValue: "-2.5", itemType: "1" })).body.status).toBe(200);
      });

      test("built-in items keep their code and value and are not deleted, but their text may change", async () => {
        const row = await app.database.db
          .selectFrom("dict_item")
          .select(["id", "updated_at"])
          .where("dict_code", "=", "userStatus")
          .where("item_value", "=", "2")
          .executeTakeFirstOrThrow();
        const refused = await get("/api/v1/sys/dictItem/delete", { id: row.id });
        expect(refused.http).toBe(409);
        expect(refused.body.message).toBe("内置字典项不能删除，可以停用");
        await expectFieldError(await post("/api/v1/sys/dictItem/update", { id: row.id, updatedAt: row.updated_at, itemValue: "9" }), "itemValue", "内置字典项的字典编码和字典值不能修改");
        const text = await post("/api/v1/sys/dictItem/update", { id: row.id, updatedAt: row.updated_at, itemText: "已禁用" });
        expect(text.body.status).toBe(200);
        const info = await get<{ dictItemList: Row[] }>("/api/v1/auth/user/info");
        expect(info.body.data.dictItemList).toContainEqual({ dictCode: "userStatus", itemValue: "2", itemText: "已禁用" });
      });
    });

    describe("device", () => {
      test("codes are unique within a tenant; another tenant has its own devices and cannot see these", async () => {
        const mine = await device({ deviceCode: "GATE-1" });
        await expectFieldError(await post("/api/v1/sys/device/create", { deviceCode: "GATE-1", deviceName: "重复", deviceType: "box", status: "1" }), "deviceCode", "设备编码已存在");
        const theirs = await device({ deviceCode: "GATE-1" }, otherToken);
        expect(theirs.tenantId).toBe(otherTenantId);
        expect((await get("/api/v1/sys/device/getInfo", { id: mine.id }, otherToken)).http).toBe(404);
        const page = await get<Page>("/api/v1/sys/device/findPage", { deviceCode: "GATE-1" }, otherToken);
        expect(page.body.data.records.map((r) => r.id)).toEqual([theirs.id]);
        expect((await get("/api/v1/sys/device/delete", { id: mine.id }, otherToken)).http).toBe(404);
        expect((await get("/api/v1/sys/device/getInfo", { id: mine.id })).body.status).toBe(200);
      });

      test("the restaurant is one of the tenant's orgs, shown by name in lists", async () => {
        const foreign = await orgIn(otherTenantId, "别家餐厅");
        await expectFieldError(await post("/api/v1/sys/device/create", { deviceCode: `D${uid()}`, deviceName: "x", deviceType: "box", status: "1", orgId: foreign }), "orgId", /不存在/);
        const mine = await device({ orgId: ROOT_ORG_ID });
        const page = await get<Page>("/api/v1/sys/device/findPage", { deviceCode: mine.deviceCode as string });
        expect(page.body.data.records[0].orgIdLabel).toBe("总部");
      });

      test("IP and MAC addresses are checked with Chinese messages", async () => {
        const bad = await post<FieldErrors>("/api/v1/sys/device/create", { deviceCode: `D${uid()}`, deviceName: "x", deviceType: "box", status: "1", ip: "300.1.1.1", mac: "AA-BB" });
        await expectFieldError(bad, "ip", /有效的 IPv4 地址/);
        await expectFieldError(bad, "mac", /有效的 MAC 地址/);
      });

      test("parameters are saved as a whole with the device's version, and read back in order", async () => {
        const d = await device();
        const empty = await get<{ params: Row[]; updatedAt: number }>("/api/v1/sys/device/getParams", { id: d.id });
        expect(empty.body.data).toMatchObject({ id: d.id, deviceCode: d.deviceCode, params: [], updatedAt: d.updatedAt });
        const saved = await post<{ params: Row[]; updatedAt: number }>("/api/v1/sys/device/saveParams", {
          id: d.id,
          updatedAt: d.updatedAt,
          params: [
            { paramKey: "volume", paramValue: "80" },
            { paramKey: "scale.tare", paramValue: 12, remark: "皮重（克）" },
          ],
        });
        expect(saved.body.status).toBe(200);
        expect(saved.body.data.params).toEqual([
          { paramKey: "volume", paramValue: "80", remark: null },
          { paramKey: "scale.tare", paramValue: "12", remark: "皮重（克）" },
        ]);
        expect(saved.body.data.updatedAt).toBeGreaterThan(d.updatedAt as number);

        const stale = await post("/api/v1/sys/device/saveParams", { id: d.id, updatedAt: d.updatedAt, params: [] });
        expect(stale.http).toBe(409);
        expect(stale.body.message).toContain("数据已被他人修改");
        const staleEdit = await post("/api/v1/sys/device/update", { id: d.id, updatedAt: d.updatedAt, deviceName: "旧表单" });
        expect(staleEdit.http).toBe(409);

        const replaced = await post<{ params: Row[] }>("/api/v1/sys/device/saveParams", { id: d.id, updatedAt: saved.body.data.updatedAt, params: [{ paramKey: "volume", paramValue: "60" }] });
        expect(replaced.body.data.params).toEqual([{ paramKey: "volume", paramValue: "60", remark: null }]);
        const log = await app.database.db.selectFrom("operation_log").select(["action", "changes"]).where("entity", "=", "sys/device").where("entity_id", "=", d.id as number).where("action", "=", "setting").orderBy("id").execute();
        expect(log).toHaveLength(2);
        expect(JSON.parse(log[1].changes as string)).toEqual({ params: [{ volume: "80", "scale.tare": "12" }, { volume: "60" }] });
      });

      test("parameter names are checked and must not repeat; nothing is saved then", async () => {
        const d = await device();
        const result = await post<FieldErrors>("/api/v1/sys/device/saveParams", {
          id: d.id,
          params: [{ paramKey: "volume", paramValue: "1" }, { paramKey: "volume", paramValue: "2" }, { paramKey: "", paramValue: "3" }, { paramKey: "9lives", paramValue: "4" }],
        });
        expect(result.body.status).toBe(400);
        expect(result.body.data.fieldErrors["params.1.paramKey"]).toEqual(["参数名重复"]);
        expect(result.body.data.fieldErrors["params.2.paramKey"]).toEqual(["请输入参数名"]);
        expect(result.body.data.fieldErrors["params.3.paramKey"]).toEqual(["参数名以字母开头，只能包含字母、数字、下划线、点和短横线"]);
        expect((await get<{ params: Row[] }>("/api/v1/sys/device/getParams", { id: d.id })).body.data.params).toEqual([]);
        expect((await get("/api/v1/sys/device/getParams", { id: d.id }, otherToken)).http).toBe(404);
      });

      test("saving parameters takes the 参数设置 permission, viewing the device's", async () => {
        const d = await device();
        const codes = ["sys:device:view"];
        const roleId = newId();
        const now = Date.now();
        const { db } = app.database;
        await db.insertInto("role").values({ tenant_id: 1, id: roleId, role_code: "deviceViewer", role_name: "设备查看", role_type: "user", status: 1, remark: null, created_at: now, created_by: null, updated_at: now, updated_by: null }).execute();
        const grant = async (code: string) => {
          const entry = await db.selectFrom("menu").select("id").where("permission", "=", code).executeTakeFirstOrThrow();
          await db.insertInto("role_menu").values({ tenant_id: 1, role_id: roleId, menu_id: entry.id }).execute();
          // A grant written behind the app's back tells its shell cache through the shared counter (decision 019).
          await bumpShellGeneration(db);
        };
        for (const code of codes) await grant(code);
        await createUser(app, { userName: "device-viewer", password: "Device-Viewer-2026", roleIds: [roleId] });
        const viewer = await loginAs(app, "device-viewer", "Device-Viewer-2026");
        expect((await get("/api/v1/sys/device/getParams", { id: d.id }, viewer)).body.status).toBe(200);
        const body = { id: d.id, params: [{ paramKey: "volume", paramValue: "1" }] };
        expect((await post("/api/v1/sys/device/saveParams", body, viewer)).http).toBe(403);
        expect((await post("/api/v1/sys/device/update", { id: d.id, deviceName: "x" }, viewer)).http).toBe(403);
        await grant("sys:device:setting");
        expect((await post("/api/v1/sys/device/saveParams", body, viewer)).body.status).toBe(200);
      });

      test("a heartbeat marks the device online with its version and address, returns its parameters, and ages out silent ones", async () => {
        const silent = await device();
        const d = await device();
        await ok("/api/v1/sys/device/saveParams", { id: d.id, params: [{ paramKey: "volume", paramValue: "70" }] });
        const before = (await get("/api/v1/sys/device/getInfo", { id: d.id })).body.data;
        expect(before.aliveStatus).toBe("0");
        await app.database.db.updateTable("device").set({ alive_status: 1, last_heartbeat_at: Date.now() - 6 * 60_000 }).where("id", "=", silent.id as number).execute();

        const beat = await post<{ params: Row; serverTime: number }>("/api/v1/sys/device/heartbeat", { deviceCode: d.deviceCode, appVersion: "2.3.1", ip: "192.168.3.9" });
        expect(beat.body.status).toBe(200);
        expect(beat.body.data.params).toEqual({ volume: "70" });
        const after = (await get("/api/v1/sys/device/getInfo", { id: d.id })).body.data;
        expect(after).toMatchObject({ aliveStatus: "1", appVersion: "2.3.1", ip: "192.168.3.9", updatedAt: before.updatedAt });
        expect(after.lastHeartbeatAt).toBe(beat.body.data.serverTime);
        expect((await get("/api/v1/sys/device/getInfo", { id: silent.id })).body.data.aliveStatus).toBe("0");
        const online = await get<Page>("/api/v1/sys/device/findPage", { aliveStatus: "1" });
        expect(online.body.data.records.map((r) => r.id)).toEqual([d.id]);

        const unknown = await post("/api/v1/sys/device/heartbeat", { deviceCode: "NOPE" });
        expect(unknown.http).toBe(404);
        expect(unknown.body.message).toBe("设备编码不存在");
        expect((await post("/api/v1/sys/device/heartbeat", { deviceCode: d.deviceCode }, otherToken)).http).toBe(404);
        const off = await device({ status: "0" });
        const disabled = await post("/api/v1/sys/device/heartbeat", { deviceCode: off.deviceCode });
        expect(disabled.http).toBe(403);
        expect(disabled.body.message).toBe("设备已停用");
      });

      test("a device with exception records is kept; deleting one takes its parameters and recognition settings along", async () => {
        const kept = await device();
        await ok("/api/v1/sys/exceptionInfo/create", { deviceId: kept.id, occurredAt: Date.now(), level: "3", message: "称重模块无响应", handled: "0" });
        const refused = await get("/api/v1/sys/device/delete", { id: kept.id });
        expect(refused.http).toBe(409);
        expect(refused.body.message).toBe("该设备仍被其他数据引用，不能删除");

        const gone = await device();
        await ok("/api/v1/sys/device/saveParams", { id: gone.id, params: [{ paramKey: "volume", paramValue: "1" }] });
        const config = await ok("/api/v1/sys/deviceDetectConfig/create", { deviceId: gone.id, confidenceThreshold: 85, status: "1" });
        expect((await get("/api/v1/sys/device/delete", { id: gone.id })).body.status).toBe(200);
        expect((await get("/api/v1/sys/deviceDetectConfig/getInfo", { id: config.id })).http).toBe(404);
        const params = await app.database.db.selectFrom("device_param").select("param_key").where("device_id", "=", gone.id as number).execute();
        expect(params).toEqual([]);
      });
    });

    describe("deviceDetectConfig", () => {
      test("one configuration per device, thresholds within their range", async () => {
        const d = await device();
        await ok("/api/v1/sys/deviceDetectConfig/create", { deviceId: d.id, confidenceThreshold: 80, status: "1" });
        await expectFieldError(await post("/api/v1/sys/deviceDetectConfig/create", { deviceId: d.id, confidenceThreshold: 70, status: "1" }), "deviceId", "该设备已有识别配置");
        const other = await device();
        const bad = await post("/api/v1/sys/deviceDetectConfig/create", { deviceId: other.id, confidenceThreshold: 120, detectInterval: 5, status: "1" });
        await expectFieldError(bad, "confidenceThreshold", "置信度阈值（%）不能大于 100");
        await expectFieldError(bad, "detectInterval", "识别间隔（毫秒）不能小于 100");
      });
    });

    describe("appVersion and modelVersion", () => {
      // A file field names an upload of the caller's tenant.
      const files = { home: "", other: "" };
      beforeAll(async () => {
        files.home = await uploadedReference(app, "file");
        files.other = await uploadedReference(app, "file", otherTenantId);
      });
      const version = (extra: Row, tenant: keyof typeof files = "home") => ({ versionName: "1.0.0", fileType: "apk", fileUrl: files[tenant], status: "0", ...extra });

      test("a version code appears once per file type", async () => {
        await ok("/api/v1/sys/appVersion/create", version({ versionCode: 100 }));
        await expectFieldError(await post("/api/v1/sys/appVersion/create", version({ versionCode: 100 })), "versionCode", "该文件类型下已有此版本号");
        const bdu = await ok("/api/v1/sys/appVersion/create", version({ versionCode: 100, fileType: "bdu" }));
        await expectFieldError(await post("/api/v1/sys/appVersion/update", { id: bdu.id, fileType: "apk" }), "versionCode", "该文件类型下已有此版本号");
        expect((await ok("/api/v1/sys/appVersion/create", version({ versionCode: 100 }, "other"), otherToken)).tenantId).toBe(otherTenantId);
      });

      test("publishing stamps the time, withdrawing clears it; a published version is not deleted", async () => {
        const v = await ok("/api/v1/sys/appVersion/create", version({ versionCode: 200, versionName: "2.0.0" }));
        expect(v.publishedAt).toBeNull();
        const published = await post("/api/v1/sys/appVersion/update", { id: v.id, updatedAt: v.updatedAt, status: "1" });
        expect(published.body.data.status).toBe("1");
        expect(typeof published.body.data.publishedAt).toBe("number");
        const refused = await get("/api/v1/sys/appVersion/delete", { id: v.id });
        expect(refused.http).toBe(409);
        expect(refused.body.message).toBe("已发布的应用版本不能删除，请先取消发布");
        const edited = await post("/api/v1/sys/appVersion/update", { id: v.id, releaseNotes: "修复称重" });
        expect(edited.body.data.publishedAt).toBe(published.body.data.publishedAt);
        const withdrawn = await post("/api/v1/sys/appVersion/update", { id: v.id, status: "0" });
        expect(withdrawn.body.data.publishedAt).toBeNull();
        expect((await get("/api/v1/sys/appVersion/delete", { id: v.id })).body.status).toBe(200);
      });

      test("latest answers the published version with the highest code of a file type", async () => {
        await ok("/api/v1/sys/appVersion/create", version({ versionCode: 301, versionName: "3.0.1", fileType: "bdu", status: "1" }));
        await ok("/api/v1/sys/appVersion/create", version({ versionCode: 303, versionName: "3.0.3", fileType: "bdu", status: "1" }));
        await ok("/api/v1/sys/appVersion/create", version({ versionCode: 309, versionName: "3.0.9", fileType: "bdu", status: "0" }));
        const latest = await get("/api/v1/sys/appVersion/latest", { fileType: "bdu" });
        expect(latest.body.data).toMatchObject({ versionCode: 303, versionName: "3.0.3", status: "1" });
        expect((await get("/api/v1/sys/appVersion/latest", { fileType: "bdu" }, otherToken)).body.data).toBeNull();
        await expectFieldError(await get("/api/v1/sys/appVersion/latest", { fileType: "exe" }), "fileType", "文件类型只能是 apk 或 bdu");
      });

      test("a published model version is not deleted until withdrawn", async () => {
        const m = await ok("/api/v1/sys/modelVersion/create", { version: "food-2026.03", fileUrl: files.home, status: "1" });
        expect(typeof m.publishedAt).toBe("number");
        await expectFieldError(await post("/api/v1/sys/modelVersion/create", { version: "food-2026.03", fileUrl: files.home, status: "0" }), "version", "模型版本已存在");
        const refused = await get("/api/v1/sys/modelVersion/delete", { id: m.id });
        expect(refused.http).toBe(409);
        expect(refused.body.message).toBe("已发布的模型版本不能删除，请先取消发布");
        await ok("/api/v1/sys/modelVersion/update", { id: m.id, status: "0" });
        expect((await get("/api/v1/sys/modelVersion/delete", { id: m.id })).body.status).toBe(200);
      });
    });

    describe("announcement and exceptionInfo", () => {
      test("publishing an announcement stamps the time; withdrawing clears it; the list filters by it", async () => {
        const draft = await ok("/api/v1/sys/announcement/create", { title: "五一放假", content: "食堂五一期间只开放一楼。", publishStatus: "0" });
        expect(draft.publishedAt).toBeNull();
        const published = await ok("/api/v1/sys/announcement/update", { id: draft.id, publishStatus: "1" });
        const at = published.publishedAt as number;
        expect(typeof at).toBe("number");
        const page = await get<Page>("/api/v1/sys/announcement/findPage", { publishedAtBegin: at, publishedAtEnd: at, publishStatus: "1" });
        expect(page.body.data.records.map((r) => r.id)).toEqual([draft.id]);
        expect((await ok("/api/v1/sys/announcement/update", { id: draft.id, publishStatus: "0" })).publishedAt).toBeNull();
        expect((await get("/api/v1/sys/announcement/delete", { id: draft.id })).body.status).toBe(200);
      });

      test("marking an exception handled records who and when; reopening clears both", async () => {
        const d = await device();
        const e = await ok("/api/v1/sys/exceptionInfo/create", { deviceId: d.id, occurredAt: Date.UTC(2026, 2, 1), level: "4", message: "识别服务崩溃", handled: "0" });
        expect(e).toMatchObject({ handledAt: null, handlerName: null });
        const handled = await ok("/api/v1/sys/exceptionInfo/update", { id: e.id, handled: "1", handleNote: "已重启" });
        expect(handled).toMatchObject({ handled: "1", handlerName: "admin", handleNote: "已重启" });
        expect(typeof handled.handledAt).toBe("number");
        const page = await get<Page>("/api/v1/sys/exceptionInfo/findPage", { deviceId: d.id as number, handled: "1" });
        expect(page.body.data.records[0]).toMatchObject({ id: e.id, deviceIdLabel: "结算台" });
        expect(await ok("/api/v1/sys/exceptionInfo/update", { id: e.id, handled: "0" })).toMatchObject({ handledAt: null, handlerName: null });
        await expectFieldError(await post("/api/v1/sys/exceptionInfo/create", { deviceId: 99, occurredAt: 1, level: "1", message: "x", handled: "0" }), "deviceId", /不存在/);
      });
    });

    describe("holiday", () => {
      test("a date appears once per tenant", async () => {
        await ok("/api/v1/sys/holiday/create", { holidayDate: "2026-10-01", holidayName: "国庆节", holidayType: "1" });
        await expectFieldError(await post("/api/v1/sys/holiday/create", { holidayDate: "2026-10-01", holidayName: "又一个", holidayType: "1" }), "holidayDate", "日期已存在");
        await ok("/api/v1/sys/holiday/create", { holidayDate: "2026-10-01", holidayName: "国庆节", holidayType: "1" }, otherToken);
        await ok("/api/v1/sys/holiday/create", { holidayDate: "2026-10-11", holidayName: "国庆调休", holidayType: "2" });
        await expectFieldError(await post("/api/v1/sys/holiday/create", { holidayDate: "2026/10/02", holidayName: "x", holidayType: "1" }), "holidayDate", "日期格式应为 YYYY-MM-DD");
        const october = await get<Page>("/api/v1/sys/holiday/findPage", { holidayDateBegin: "2026-10-01", holidayDateEnd: "2026-10-31", sort: "holidayDate,asc" });
        expect(october.body.data.records.map((r) => [r.holidayDate, r.holidayType])).toEqual([["2026-10-01", "1"], ["2026-10-11", "2"]]);
      });
    });

    describe("parameterConfig, merchant, merchantConfig, merchantOrg", () => {
      let merchantId: number;
      beforeAll(async () => {
        merchantId = (await ok("/api/v1/sys/merchant/create", { merchantCode: "NOODLE", merchantName: "兰州拉面", status: "1" })).id as number;
        await ok("/api/v1/sys/parameterConfig/create", { paramCode: "order.cancelMinutes", paramName: "取消订单时限（分钟）", paramValue: "30" });
      });

      test("a merchant overrides a parameter the tenant has, once; getByKey gives the override and the default", async () => {
        await expectFieldError(await post("/api/v1/sys/merchantConfig/create", { merchantId, parameterCode: "no.such" }), "parameterCode", "参数编码不存在，请先在系统参数中添加");
        const config = await ok("/api/v1/sys/merchantConfig/create", { merchantId, parameterCode: "order.cancelMinutes", paramValue: "10" });
        await expectFieldError(await post("/api/v1/sys/merchantConfig/create", { merchantId, parameterCode: "order.cancelMinutes", paramValue: "5" }), "parameterCode", "该商户已配置此参数");
        const byKey = await get("/api/v1/sys/merchantConfig/getByKey", { merchantId, parameterCode: "order.cancelMinutes" });
        expect(byKey.body.data).toMatchObject({ id: config.id, paramValue: "10", defaultValue: "30", parameterName: "取消订单时限（分钟）", merchantIdLabel: "兰州拉面" });
        const missing = await get("/api/v1/sys/merchantConfig/getByKey", { merchantId, parameterCode: "other" });
        expect(missing.http).toBe(404);
        expect(missing.body.message).toBe("商户参数配置不存在");
        expect((await get("/api/v1/sys/merchantConfig/getByKey", { merchantId, parameterCode: "order.cancelMinutes" }, otherToken)).http).toBe(404);
      });

      test("a parameter with merchant overrides is not deleted; renaming it carries the overrides along", async () => {
        const p = await ok("/api/v1/sys/parameterConfig/create", { paramCode: "meal.maxPerDay", paramName: "每日最多就餐次数", paramValue: "3" });
        await expectFieldError(await post("/api/v1/sys/parameterConfig/create", { paramCode: "meal.maxPerDay", paramName: "重复" }), "paramCode", "参数编码已存在");
        const config = await ok("/api/v1/sys/merchantConfig/create", { merchantId, parameterCode: "meal.maxPerDay", paramValue: "2" });
        const refused = await get("/api/v1/sys/parameterConfig/delete", { id: p.id });
        expect(refused.http).toBe(409);
        expect(refused.body.message).toBe("该参数已有商户配置，不能删除");
        await ok("/api/v1/sys/parameterConfig/update", { id: p.id, paramCode: "meal.maxTimesPerDay" });
        expect((await get("/api/v1/sys/merchantConfig/getInfo", { id: config.id })).body.data.parameterCode).toBe("meal.maxTimesPerDay");
        await ok("/api/v1/sys/parameterConfig/create", { paramCode: "meal.maxPerDay", paramName: "旧编码可再用" }, otherToken);
      });

      test("a restaurant or stall is run by one merchant; a merchant running one is kept, its configuration goes with it", async () => {
        const stall = await orgIn(1, "三号档口");
        const link = await ok("/api/v1/sys/merchantOrg/create", { merchantId, orgId: stall });
        const other = await ok("/api/v1/sys/merchant/create", { merchantCode: "RICE", merchantName: "盖浇饭", status: "1" });
        await expectFieldError(await post("/api/v1/sys/merchantOrg/create", { merchantId: other.id, orgId: stall }), "orgId", "该餐厅/档口已由商户「兰州拉面」经营");
        const page = await get<Page>("/api/v1/sys/merchantOrg/findPage", { merchantId });
        expect(page.body.data.records).toEqual([expect.objectContaining({ id: link.id, merchantIdLabel: "兰州拉面", orgIdLabel: "三号档口" })]);
        const refused = await get("/api/v1/sys/merchant/delete", { id: merchantId });
        expect(refused.http).toBe(409);
        expect(refused.body.message).toBe("该商户仍被其他数据引用，不能删除");
        const foreign = await orgIn(otherTenantId, "别家档口");
        await expectFieldError(await post("/api/v1/sys/merchantOrg/create", { merchantId: other.id, orgId: foreign }), "orgId", /不存在/);

        await ok("/api/v1/sys/merchantConfig/create", { merchantId: other.id, parameterCode: "order.cancelMinutes", paramValue: "15" });
        expect((await get("/api/v1/sys/merchant/delete", { id: other.id })).body.status).toBe(200);
        expect((await get<Page>("/api/v1/sys/merchantConfig/findPage", { merchantId: other.id as number })).body.data.total).toBe(0);
      });

      test("merchant codes are unique and bank accounts are digits", async () => {
        const result = await post("/api/v1/sys/merchant/create", { merchantCode: "NOODLE", merchantName: "x", status: "1", settlementAccount: "62220000123" });
        await expectFieldError(result, "merchantCode", "商户编码已存在");
        const bad = await post("/api/v1/sys/merchant/create", { merchantCode: "NEW1", merchantName: "x", status: "1", settlementAccount: "6222-0000" });
        await expectFieldError(bad, "settlementAccount", "结算账号应为 8 至 30 位数字");
      });
    });

    describe("iccardInit", () => {
      const init = (extra: Row, as = token) => post("/api/v1/sys/iccardInit/create", { keyVersion: 1, sectors: "1-15", result: "1", ...extra }, as);

      test("the serial is 8 or 16 hexadecimal characters, kept in upper case, with the operator and time", async () => {
        for (const cardSerial of ["1234567", "1234567890", "GHIJKLMN", "12 34 56 78"]) {
          await expectFieldError(await init({ cardSerial }), "cardSerial", "卡序列号应为 8 位或 16 位十六进制字符");
        }
        const short = await init({ cardSerial: "a1b2c3d4" });
        expect(short.body.data).toMatchObject({ cardSerial: "A1B2C3D4", operatorName: "admin", result: "1", keyVersion: 1 });
        expect(typeof short.body.data.initializedAt).toBe("number");
        expect((await init({ cardSerial: "04A1B2C3D4E5F607" })).body.status).toBe(200);
      });

      test("a card initialised in the tenant is refused, saying when; another tenant may initialise it", async () => {
        expect((await init({ cardSerial: "CAFEBABE" })).body.status).toBe(200);
        await expectFieldError(await init({ cardSerial: "cafebabe" }), "cardSerial", /^该卡已于 \d{4}-\d{2}-\d{2} \d{2}:\d{2} 初始化，不能重复初始化$/);
        await expectFieldError(await init({ cardSerial: "CAFEBABE", result: "0", message: "写卡失败" }), "cardSerial", /该卡已于/);
        expect((await init({ cardSerial: "CAFEBABE" }, otherToken)).body.status).toBe(200);
        const mine = await get<Page>("/api/v1/sys/iccardInit/findPage", { cardSerial: "CAFEBABE" });
        expect(mine.body.data.total).toBe(1);
      });

      test("a failed attempt is logged with its reason and does not block the next one", async () => {
        await expectFieldError(await init({ cardSerial: "0BADF00D", result: "0" }), "message", "初始化失败时请填写失败原因");
        expect((await init({ cardSerial: "0BADF00D", result: "0", message: "密钥校验失败" })).body.status).toBe(200);
        expect((await init({ cardSerial: "0BADF00D" })).body.status).toBe(200);
        const log = await get<Page>("/api/v1/sys/iccardInit/findPage", { cardSerial: "0BADF00D", sort: "initializedAt,asc" });
        expect(log.body.data.records.map((r) => r.result)).toEqual(["0", "1"]);
      });

      test("sectors are within the card", async () => {
        await expectFieldError(await init({ cardSerial: "11112222", sectors: "1-40" }), "sectors", "扇区编号应在 0 至 39 之间，范围的起始不能大于结束");
        await expectFieldError(await init({ cardSerial: "11112222", sectors: "9-3" }), "sectors", "扇区编号应在 0 至 39 之间，范围的起始不能大于结束");
        await expectFieldError(await init({ cardSerial: "11112222", sectors: "1..3" }), "sectors", "扇区格式如 1-15 或 1,2,5-8");
        expect((await init({ cardSerial: "11112222", sectors: "0,2,5-8" })).body.status).toBe(200);
      });
    });
  });
}
