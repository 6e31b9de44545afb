import { createHash } from "node:crypto";
import type { MenuNode, UserInfo } from "../../../resources/auth";
import { readerOf, type Db } from "../../db";
import type { MenuRow } from "../../db/schema";
import type { AuthSession } from "../../http/endpoint";
import { buildTree, menuRowsFor } from "../sys/menu";
import { isAdmin, isSuper } from "./session";
import { tenantDictItems } from "../resource/tenantRows";

/**
 * What a user's shell shows — the menu tree of their roles and the dictionaries — built once per change instead of
 * once per page (decision 019: the shell's cost must not grow with the menu). Every write that changes menus,
 * grants, roles, role assignments or dictionaries adds one to `shell_generation` in its own transaction; a page reads
 * that one row, and a new number empties this instance's cache. Users with the same roles share one tree.
 */

type DictItems = UserInfo["dictItemList"];
interface Cached<T> {
  value: T;
  /** A hash of the value's JSON: part of the shell version the browser caches the shell data under. */
  hash: string;
}

/** Role sets kept at once; a tenant has a handful, so this only bounds a pathological number of them. */
const MAX_MENU_TREES = 500;

/** One cache per database (a test process opens several; a server one). */
interface ShellCache {
  generation: number;
  menuTrees: Map<string, Promise<MenuEntry>>;
  dictionaries: Promise<Cached<DictItems>> | null;
  /** Each tenant's own dictionaries (decision 064: its top-up channels), by the tenant the user works in. */
  tenantDictionaries: Map<number, Promise<Cached<DictItems>>>;
}
const caches = new WeakMap<Db, ShellCache>();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Writer = { updateTable: (table: "shell_generation") => any };

/** Marks every instance's cached shells stale; call inside the transaction of the write that changes them. */
export async function bumpShellGeneration(trx: Writer): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  await trx.updateTable("shell_generation").set((eb: any) => ({ generation: eb("generation", "+", 1) })).where("id", "=", 1).execute();
}

function hashOf(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("base64url").slice(0, 16);
}

async function generation(db: Db): Promise<number> {
  const row = await db.selectFrom("shell_generation").select("generation").where("id", "=", 1).executeTakeFirst();
  return Number(row?.generation ?? 0);
}

/** The roles that give the user menus (as menuRowsFor reads them), so users of the same roles share a tree. */
async function activeRoleIds(db: Db, session: AuthSession): Promise<number[]> {
  const rows = await db
    .selectFrom("user_role")
    .innerJoin("role", (join) => join.onRef("role.tenant_id", "=", "user_role.tenant_id").onRef("role.id", "=", "user_role.role_id"))
    .select("user_role.role_id")
    .where("user_role.tenant_id", "=", session.homeTenantId)
    .where("user_role.user_id", "=", session.userId)
    .where("role.status", "=", 1)
    .orderBy("user_role.role_id")
    .execute();
  return rows.map((r) => Number(r.role_id));
}

function loadDictionaries(db: Db): Promise<Cached<DictItems>> {
  return db
    .selectFrom("dict_item")
    .innerJoin("dict", "dict.dict_code", "dict_item.dict_code")
    .select(["dict_item.dict_code", "dict_item.item_value", "dict_item.item_text"])
    .where("dict_item.status", "=", 1)
    .where("dict.status", "=", 1)
    .orderBy("dict_item.dict_code")
    .orderBy("dict_item.sort")
    .execute()
    .then((items) => {
      const value = items.map((i) => ({ dictCode: i.dict_code, itemValue: i.item_value, itemText: i.item_text }));
      return { value, hash: hashOf(value) };
    });
}

function loadTenantDictionaries(db: Db, tenantId: number): Promise<Cached<DictItems>> {
  return tenantDictItems(db, tenantId).then((value) => ({ value, hash: hashOf(value) }));
}

/** A failed load is not kept: the next page tries again. */
function remember<T>(load: Promise<T>, forget: () => void): Promise<T> {
  load.catch(forget);
  return load;
}

export interface ShellOf {
  menuTreeList: MenuNode[];
  dictItemList: DictItems;
  /** Changes exactly when the menus or dictionaries this user sees change. */
  shellVersion: string;
}

interface MenuEntry extends Cached<MenuNode[]> {
  /** The permission codes of the tree's pages and buttons: what the API checks on every call. */
  codes: Set<string>;
}

function menuEntry(rows: MenuRow[]): MenuEntry {
  const value = buildTree(rows);
  return { value, hash: hashOf(value), codes: new Set(rows.filter((r) => r.permission).map((r) => r.permission as string)) };
}

type Entry = { menus: Promise<MenuEntry>; dictionaries: () => Promise<Cached<DictItems>>; tenantDictionaries: () => Promise<Cached<DictItems>> };

/**
 * The calls one page makes in-process share one authenticated session object (api.ts's CallScope, which a call that
 * may write replaces): they share one read of the generation and the roles too, instead of one per call.
 */
const readBySession = new WeakMap<AuthSession, Promise<Entry>>();

function cached(db: Db, session: AuthSession): Promise<Entry> {
  let read = readBySession.get(session);
  if (!read) readBySession.set(session, (read = cachedAnew(db, session)));
  return read;
}

/** The user's menu entry and the dictionaries, from this instance's cache while the generation holds. */
async function cachedAnew(db: Db, session: AuthSession): Promise<Entry> {
  // Read from committed rows (readerOf): a request checks its permissions while a ledger group holds the writer.
  const from = readerOf(db);
  const [current, roleIds] = await Promise.all([generation(from), activeRoleIds(from, session)]);
  if (current < (caches.get(db)?.generation ?? -1)) {
    // Read before a write another request has already seen: build it afresh and keep nothing.
    return { menus: menuRowsFor(from, session).then(menuEntry), dictionaries: () => loadDictionaries(from), tenantDictionaries: () => loadTenantDictionaries(from, session.tenantId) };
  }
  let cache = caches.get(db);
  if (!cache || current > cache.generation) {
    cache = { generation: current, menuTrees: new Map(), dictionaries: null, tenantDictionaries: new Map() };
    caches.set(db, cache);
  }
  const held = cache;
  const key = `${session.homeTenantId}:${isSuper(session) ? "s" : ""}${isAdmin(session) ? "a" : ""}:${roleIds.join(",")}`;
  let menus = held.menuTrees.get(key);
  if (!menus) {
    if (held.menuTrees.size >= MAX_MENU_TREES) held.menuTrees.delete(held.menuTrees.keys().next().value as string);
    menus = remember(menuRowsFor(from, session).then(menuEntry), () => held.menuTrees.delete(key));
    held.menuTrees.set(key, menus);
  }
  const dictionaries = () => (held.dictionaries ??= remember(loadDictionaries(from), () => (held.dictionaries = null)));
  const tenantDictionaries = () => {
    let own = held.tenantDictionaries.get(session.tenantId);
    if (!own) {
      if (held.tenantDictionaries.size >= MAX_MENU_TREES) held.tenantDictionaries.delete(held.tenantDictionaries.keys().next().value as number);
      own = remember(loadTenantDictionaries(from, session.tenantId), () => held.tenantDictionaries.delete(session.tenantId));
      held.tenantDictionaries.set(session.tenantId, own);
    }
    return own;
  };
  return { menus, dictionaries, tenantDictionaries };
}

/** The user's menu tree and the dictionaries, built once per change of either. */
export async function shellOf(db: Db, session: AuthSession): Promise<ShellOf> {
  const entry = await cached(db, session);
  const [menus, dicts, own] = await Promise.all([entry.menus, entry.dictionaries(), entry.tenantDictionaries()]);
  return { menuTreeList: menus.value, dictItemList: [...dicts.value, ...own.value], shellVersion: `${menus.hash}${hashOf(dicts.hash + own.hash)}` };
}

/** Permission codes the user holds (its pages' view and its buttons), from the same cache as its menus. */
export async function permissionCodesOf(db: Db, session: AuthSession): Promise<Set<string>> {
  return (await (await cached(db, session)).menus).codes;
}
