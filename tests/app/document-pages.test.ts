import type { Kysely } from "kysely";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ResourceDef } from "../../resources/define";
import { documentPath, transitionPermission, type DocumentDef } from "../../resources/document";
import { declaredTable } from "../../server/db/declared";
import { newId } from "../../server/db";
import { DEFAULT_TENANT_ID } from "../../server/modules/seed";
import { createTable } from "../../server/db/tables";
import { bumpShellGeneration } from "../../server/modules/auth/shellCache";
import { serverModules } from "../../server/modules/index";
import type { ServerModule } from "../../server/modules/manifest";
import { loadDetail, saveEditor, takeTransition } from "../../app/lib/document.server";
import { adminToken, createTestApp, loginAs, ORIGIN, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createUser } from "../helpers/fixtures";
import { sampleReceipt } from "../server/fixtures/sampleDocuments";

/**
 * The document pages' loaders and actions (decision 061) against the real API: what the editor's form sends, where a
 * refusal lands, and which steps the detail page offers to whom. The sample receipt without its posting, guard and
 * effect (tests/server/documents.test.ts proves those).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
type Row = Record<string, unknown>;
const doc: DocumentDef = {
  ...sampleReceipt,
  postings: [],
  workflow: { ...sampleReceipt.workflow, transitions: sampleReceipt.workflow.transitions.map(({ guard: _guard, effect: _effect, ...step }) => step) },
};
const base = `${doc.screenBase}/${doc.screen}`;
/** The sample served as a module of its own beside the product's, as tests/server/documents.test.ts serves it. */
const sampleModule: ServerModule = {
  declaration: { name: "sample", resources: [], reports: [], documents: [doc] },
  services: {},
  endpoints: [],
  documentRules: {},
  ledgers: [],
  paymentHooks: [],
};

/** A role holding these codes under one page of the document, and a signed-in user with it. */
async function userWithCodes(app: TestApp, userName: string, codes: string[]): Promise<string> {
  const db = app.database.db as AnyDb;
  const now = Date.now();
  const audit = { created_at: now, created_by: null, updated_at: now, updated_by: null };
  const subsystem = await db.selectFrom("subsystem").select("id").orderBy("id").executeTakeFirstOrThrow();
  const pageId = newId();
  const menu = (id: number, parent: number | null, type: string, permission: string) => ({
    id, subsystem_id: subsystem.id, parent_id: parent, menu_name: permission, menu_path: parent ? null : `${base}/index`,
    menu_icon: null, menu_type: type, menu_target: "other", permission, roles: null, sort: 0, status: 1, remark: null, ...audit,
  });
  const buttons = codes.map((code) => menu(newId(), pageId, "button", code));
  await db.insertInto("menu").values([menu(pageId, null, "page", `${doc.module}:${doc.entity}:view`), ...buttons]).execute();
  const roleId = newId();
  await db.insertInto("role").values({ tenant_id: DEFAULT_TENANT_ID, id: roleId, role_code: `r${roleId}`, role_name: `单据${roleId}`, role_type: "user", status: 1, remark: null, ...audit }).execute();
  await db.insertInto("role_menu").values([pageId, ...buttons.map((b) => b.id)].map((menu_id) => ({ tenant_id: DEFAULT_TENANT_ID, role_id: roleId, menu_id }))).execute();
  await createUser(app, { userName, password: "Clerk-Pass-2026!", roleIds: [roleId] });
  await bumpShellGeneration(db);
  return loginAs(app, userName, "Clerk-Pass-2026!");
}

for (const dialect of dialects) {
  describe(`${dialect}: the document pages' loaders and actions`, () => {
    let app: TestApp;
    let admin: string;
    let clerk: string;
    const context = (): AppLoadContext => ({ apiFetch: (request: Request) => app.api.handle(request, "127.0.0.1") }) as unknown as AppLoadContext;
    const page = (path: string, token: string, form?: FormData) =>
      new Request(`${ORIGIN}${path}`, { method: form ? "POST" : "GET", headers: { Cookie: `Admin-Token=${token}`, Origin: ORIGIN }, body: form });
    const posted = (values: Record<string, string>) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(values)) form.append(k, v);
      return form;
    };
    const header = { warehouseId: "3", supplier: "城东蔬菜", bizDate: "2026-11-28" };
    const getInfo = async (id: unknown) => (await app.call<Row & { lines: Row[] }>("GET", `${documentPath(doc, "getInfo")}?id=${id}`, { token: admin })).body.data;

    beforeAll(async () => {
      app = await createTestApp(dialect, {}, [...serverModules, sampleModule]);
      const find = (key: string): ResourceDef | undefined => (key === doc.docType ? doc.header : undefined);
      await createTable(app.database.db as AnyDb, declaredTable(doc.header, find));
      await createTable(app.database.db as AnyDb, declaredTable(doc.lines, find));
      admin = await adminToken(app);
      const code = (action: string) => `${doc.module}:${doc.entity}:${action}`;
      clerk = await userWithCodes(app, `clerk${dialect}`, [code("create"), code("update"), transitionPermission(doc, { name: "submit" })]);
    }, 60_000);
    afterAll(async () => {
      await app.close();
    });

    /** Saves the no-script editor's rows as posted and answers the new document's id. */
    async function created(token = admin): Promise<number> {
      const form = posted({ ...header, "lines[0].goodsId": "", "lines[1].goodsId": "7", "lines[1].goodsName": "白菜", "lines[1].quantity": "2000", "lines[1].amount": "12.5" });
      const answer = (await saveEditor(page(`${base}/create`, token, form), context(), doc, undefined)) as Response;
      expect(answer.status).toBe(302);
      const id = /\/detail\/(\d+)$/.exec(answer.headers.get("Location") ?? "")?.[1];
      expect(id).toBeTruthy();
      return Number(id);
    }

    test("the no-script editor creates the document from its filled rows, money typed in yuan stored in fen", async () => {
      const id = await created();
      const saved = await getInfo(id);
      expect(saved).toMatchObject({ supplier: "城东蔬菜", status: "draft" });
      expect(saved.lines.map((l) => [l.lineNo, l.goodsId, l.goodsName, l.amount])).toEqual([[1, 7, "白菜", 1250]]);
    });

    test("增加行 answers the form as typed with five more rows and saves nothing", async () => {
      const form = posted({ ...header, intent: "addRows", rowCount: "5", "lines[0].goodsName": "萝卜", "lines[0].amount": "abc" });
      const answer = (await saveEditor(page(`${base}/create`, admin, form), context(), doc, undefined)) as unknown as { data: { rows: number; result: { error?: unknown; initialValue: { lines: Row[] } } } };
      expect(answer.data.rows).toBe(10);
      expect(answer.data.result.error).toBeUndefined();
      expect(answer.data.result.initialValue.lines[0]).toMatchObject({ goodsName: "萝卜", amount: "abc" });
    });

    test("a stale edit is refused in the API's words, and the form keeps what was typed", async () => {
      const id = await created();
      const line = (await getInfo(id)).lines[0];
      const form = posted({ ...header, supplier: "城西粮油", id: String(id), version: "9", "lines[0].id": String(line.id), "lines[0].goodsId": "7", "lines[0].goodsName": "白菜", "lines[0].quantity": "1000", "lines[0].amount": "1" });
      const answer = (await saveEditor(page(`${base}/edit/${id}`, admin, form), context(), doc, String(id))) as unknown as { init: { status: number }; data: { result: { error: Record<string, string[]>; initialValue: Row } } };
      expect(answer.init.status).toBe(409);
      expect(answer.data.result.error[""]).toEqual(["数据已被他人修改，请刷新后重试"]);
      expect(answer.data.result.initialValue).toMatchObject({ supplier: "城西粮油" });
      expect((await getInfo(id)).supplier).toBe("城东蔬菜");
    });

    test("the detail page offers the steps the status and the user's permissions allow; a forged step is 403", async () => {
      const id = await created(clerk);
      const asClerk = await loadDetail(page(`${base}/detail/${id}`, clerk), context(), doc, String(id));
      expect(asClerk.transitions.map((t) => t.name)).toEqual(["submit"]);
      expect(asClerk.canEdit).toBe(true);
      const submit = (await takeTransition(page(`${base}/detail/${id}`, clerk, posted({ transition: "submit", version: "1" })), context(), doc, String(id))) as Response;
      expect(submit.status).toBe(302);
      const submitted = await loadDetail(page(`${base}/detail/${id}`, clerk), context(), doc, String(id));
      expect(submitted.status.label).toBe("已提交");
      expect(submitted.transitions).toEqual([]);
      expect(submitted.canEdit).toBe(false);
      const asAdmin = await loadDetail(page(`${base}/detail/${id}`, admin), context(), doc, String(id));
      expect(asAdmin.transitions.map((t) => [t.name, t.reasonRequired])).toEqual([["reject", true], ["approve", false]]);
      const forged = (await takeTransition(page(`${base}/detail/${id}`, clerk, posted({ transition: "approve" })), context(), doc, String(id))) as unknown as { init: { status: number } };
      expect(forged.init.status).toBe(403);
      expect((await getInfo(id)).status).toBe("submitted");
    });

    test("a step from a status that moved is 409 naming the current status; a reason left out is named on the reason", async () => {
      const id = await created();
      await takeTransition(page(`${base}/detail/${id}`, admin, posted({ transition: "submit" })), context(), doc, String(id));
      const again = (await takeTransition(page(`${base}/detail/${id}`, admin, posted({ transition: "submit" })), context(), doc, String(id))) as unknown as { init: { status: number }; data: Row };
      expect(again.init.status).toBe(409);
      expect(again.data).toMatchObject({ error: "当前状态为「已提交」，不能提交", transition: "submit" });
      const bare = (await takeTransition(page(`${base}/detail/${id}`, admin, posted({ transition: "reject", reason: "  " })), context(), doc, String(id))) as unknown as { init: { status: number }; data: Row };
      expect(bare.init.status).toBe(400);
      expect(bare.data).toMatchObject({ reasonError: "请输入驳回原因", transition: "reject" });
    });
  });
}
