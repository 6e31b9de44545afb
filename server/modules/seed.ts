import { builtInDicts } from "../../resources/dicts";
import { permissionCode } from "../../resources/define";
import { documents, reportScreens, resources } from "../../resources/index";
import { menuGroups } from "../../resources/screens";
import { actionLabels } from "../../resources/modules";
import { hashPassword, randomPassword } from "../auth/password";
import { newId, type Db } from "../db/index";
import { bumpShellGeneration } from "./auth/shellCache";
import { writeTenantRows } from "./resource/tenantRows";

export const DEFAULT_TENANT_ID = 1;
export const ADMIN_USER_ID = 1;
export const ADMIN_ROLE_ID = 1;
export const ROOT_ORG_ID = 1;

export const subsystems = [
  { id: 1, sys_code: "admin", sys_name: "系统管理", icon: "settings", sort: 1 },
  { id: 2, sys_code: "zhct", sys_name: "智慧餐厅", icon: "tools-kitchen-2", sort: 2 },
  { id: 3, sys_code: "report", sys_name: "报表中心", icon: "chart-bar", sort: 3 },
  { id: 4, sys_code: "zhhq", sys_name: "智慧后勤", icon: "building-warehouse", sort: 4 },
  { id: 5, sys_code: "sc", sys_name: "收支管理", icon: "report-money", sort: 5 },
];

/** Stable ids for seeded menu entries, so a later seed finds (and keeps) what an earlier one wrote. */
export function stableId(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return 1_000_000 + hash;
}

/** The id of a section (目录) of a module group; migration 0041 wrote the same ids into existing databases. */
export function sectionId(groupPath: string, title: string): number {
  return stableId(`section:${groupPath}:${title}`);
}

interface SeedMenu {
  id: number;
  subsystem_id: number;
  parent_id: number | null;
  menu_name: string;
  menu_path: string | null;
  menu_icon: string | null;
  menu_type: string;
  permission: string | null;
  sort: number;
}

/**
 * Menu entries for the screens that exist: the dashboard, a `path` entry per module group and per section of it, a
 * `page` entry per declared resource and report screen (its view permission) and a `button` entry per action it offers.
 */
export function seedMenus(): SeedMenu[] {
  const subsystemId = (code: string) => subsystems.find((s) => s.sys_code === code)?.id ?? 1;
  const menus: SeedMenu[] = [
    { id: 100, subsystem_id: 1, parent_id: null, menu_name: "首页", menu_path: "/admin/dashboard", menu_icon: "home", menu_type: "page", permission: null, sort: 0 },
  ];
  // A 32-bit hash of ~1,000 names can collide (智慧后勤's 批次追溯 page and 房型's 编辑 button did): the later entry, in
  // this fixed order, takes the hash of its name with a suffix. Ids already written stay what they were unless a new
  // screen placed before one of them hashes onto it.
  const taken = new Set<number>([100]);
  const idOf = (text: string) => {
    let id = stableId(text);
    for (let n = 1; taken.has(id); n++) id = stableId(`${text}#${n}`);
    taken.add(id);
    return id;
  };
  for (const group of menuGroups) {
    const groupId = idOf(`group:${group.path}`);
    const subsystem = subsystemId(group.subsystem);
    menus.push({ id: groupId, subsystem_id: subsystem, parent_id: null, menu_name: group.title, menu_path: group.path, menu_icon: group.icon, menu_type: "path", permission: null, sort: group.sort });
    // A long module's pages sit in its sections (目录 under the group, decision 053); a screen no section lists stays
    // under the group, after them.
    const sections = group.sections ?? [];
    const sectionIds = sections.map((section) => idOf(`section:${group.path}:${section.title}`));
    sections.forEach((section, index) => {
      menus.push({ id: sectionIds[index], subsystem_id: subsystem, parent_id: groupId, menu_name: section.title, menu_path: null, menu_icon: null, menu_type: "path", permission: null, sort: index });
    });
    const placeOf = (screen: string, index: number) => {
      const at = sections.findIndex((s) => s.screens.includes(screen));
      return at >= 0 ? { parent_id: sectionIds[at], sort: sections[at].screens.indexOf(screen) } : { parent_id: groupId, sort: sections.length + index };
    };
    const screens = [
      ...resources
        .filter((r) => r.screenBase === group.path)
        .map((r) => ({ def: r, title: r.menuTitle ?? r.title, buttons: [...r.actions.map((action): [string, string] => [action, actionLabels[action]]), ...Object.entries(r.workflowActions ?? {})] })),
      ...reportScreens.filter((r) => r.screenBase === group.path).map((r) => ({ def: r, title: r.title, buttons: Object.entries(r.buttons ?? {}) })),
      // A document's page is its header's list; its buttons are the header's actions and the workflow's steps.
      ...documents
        .filter((d) => d.screenBase === group.path)
        .flatMap((d) => [
          { def: d.header, title: d.menuTitle ?? d.title, buttons: [...d.header.actions.map((action): [string, string] => [action, actionLabels[action]]), ...Object.entries(d.header.workflowActions ?? {})] },
          // A view's page is read with the document's own view permission; its steps are the document's buttons.
          ...(d.views ?? []).map((view) => ({ def: { ...d.header, screen: view.screen }, title: view.title, buttons: [] as Array<[string, string]> })),
        ]),
    ];
    screens.forEach(({ def, title, buttons }, index) => {
      const path = `${def.screenBase}/${def.screen}/index`;
      const pageId = idOf(`page:${path}`);
      menus.push({ id: pageId, subsystem_id: subsystem, menu_name: title, menu_path: path, menu_icon: null, menu_type: "page", permission: permissionCode(def, "view"), ...placeOf(def.screen, index) });
      buttons.forEach(([action, label], actionIndex) => {
        menus.push({ id: idOf(`button:${path}:${action}`), subsystem_id: subsystem, parent_id: pageId, menu_name: label, menu_path: null, menu_icon: null, menu_type: "button", permission: permissionCode(def, action), sort: actionIndex });
      });
    });
  }
  return menus;
}

export interface SeedResult {
  /** Set when this run created the first admin: shown once on the console. */
  adminPassword?: string;
}

export async function seed(db: Db, options: { adminPassword?: string } = {}): Promise<SeedResult> {
  const now = Date.now();
  const audit = { created_at: now, created_by: null, updated_at: now, updated_by: null };
  const result: SeedResult = {};

  await db
    .insertInto("tenant")
    .values({ id: DEFAULT_TENANT_ID, tenant_name: "默认租户", tenant_code: "default", status: 1, ...audit })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();

  for (const s of subsystems) {
    await db.insertInto("subsystem").values({ ...s, status: 1, ...audit }).onConflict((oc) => oc.column("id").doNothing()).execute();
  }
  for (const m of seedMenus()) {
    await db
      .insertInto("menu")
      .values({ ...m, menu_target: "other", status: 1, ...audit })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
  }

  await db
    .insertInto("org")
    .values({ tenant_id: DEFAULT_TENANT_ID, id: ROOT_ORG_ID, parent_id: null, org_name: "总部", org_type: "org", sort: 0, status: 1, ...audit })
    .onConflict((oc) => oc.columns(["tenant_id", "id"]).doNothing())
    .execute();
  await db
    .insertInto("role")
    .values({ tenant_id: DEFAULT_TENANT_ID, id: ADMIN_ROLE_ID, role_code: "admin", role_name: "超级管理员", role_type: "super", status: 1, ...audit })
    .onConflict((oc) => oc.columns(["tenant_id", "id"]).doNothing())
    .execute();

  await writeTenantRows(db, DEFAULT_TENANT_ID, now, null);

  const admin = await db.selectFrom("login_name").select("user_id").where("user_name", "=", "admin").executeTakeFirst();
  if (!admin) {
    const password = options.adminPassword ?? randomPassword();
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("user")
        .values({
          tenant_id: DEFAULT_TENANT_ID,
          id: ADMIN_USER_ID,
          user_name: "admin",
          password_hash: await hashPassword(password),
          pwd_security_level: 0,
          real_name: "系统管理员",
          org_id: ROOT_ORG_ID,
          navigation_mode: "top",
          status: 1,
          ...audit,
        })
        .execute();
      await trx.insertInto("login_name").values({ user_name: "admin", tenant_id: DEFAULT_TENANT_ID, user_id: ADMIN_USER_ID }).execute();
      await trx.insertInto("user_role").values({ tenant_id: DEFAULT_TENANT_ID, user_id: ADMIN_USER_ID, role_id: ADMIN_ROLE_ID }).execute();
    });
    result.adminPassword = password;
  }

  const existingDicts = new Set((await db.selectFrom("dict").select("dict_code").execute()).map((d) => d.dict_code));
  const existingItems = new Set(
    (await db.selectFrom("dict_item").select(["dict_code", "item_value"]).execute()).map((i) => `${i.dict_code}\u0000${i.item_value}`),
  );
  await db.transaction().execute(async (trx) => {
    for (const [code, dict] of Object.entries(builtInDicts)) {
      if (!existingDicts.has(code)) {
        await trx.insertInto("dict").values({ id: newId(), dict_code: code, dict_name: dict.name, status: 1, ...audit }).execute();
      }
      const items = dict.options
        .map((option, index) => ({ option, index }))
        .filter(({ option }) => !existingItems.has(`${code}\u0000${option.value}`))
        .map(({ option, index }) => ({
          id: newId(),
          dict_code: code,
          item_value: option.value,
          item_text: option.label,
          item_type: /^-?\d+$/.test(option.value) ? 1 : 0,
          sort: index,
          status: 1,
          ...audit,
        }));
      if (items.length) await trx.insertInto("dict_item").values(items).execute();
    }
  });
  // A start may have brought menus or dictionaries (this seed, a migration) that instances still running have cached.
  await bumpShellGeneration(db);
  return result;
}
