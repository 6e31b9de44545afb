import { permissionCode, resourceKey, type ResourceDef } from "../../../resources/define";
import { findPageSchema, recordId, updateSchema } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { createRecord, deleteRecords, findPage, getInfo, updateRecord, type ResourceService } from "./engine";
import { exportResponse } from "./export";
import { importRows, importTemplate, readImportFile } from "./import";
import type { Row } from "./rows";

const idQuery = z.object({ id: recordId() });

/** The five actions of ARCHITECTURE.md ("API contract") plus bulk delete and export, for one declaration. */
export function resourceEndpoints(
  def: ResourceDef,
  lookup: (key: string) => ResourceDef | undefined,
  service?: ResourceService,
): Endpoint[] {
  const base = `/api/v1/${def.module}/${def.entity}`;
  const view = permission(permissionCode(def, "view"));
  const session = (ctx: unknown) => ctx as SessionContext;
  const list: Endpoint[] = [
    endpoint({
      method: "GET",
      path: `${base}/findPage`,
      summary: `${def.title}分页查询`,
      access: view,
      query: findPageSchema(def),
      handle: (ctx, { query }) => findPage(session(ctx), def, query, lookup),
    }),
    endpoint({
      method: "GET",
      path: `${base}/getInfo`,
      summary: `${def.title}详情`,
      access: view,
      query: idQuery,
      handle: (ctx, { query }) => getInfo(session(ctx), def, query.id, lookup),
    }),
  ];
  if (def.actions.includes("create")) {
    list.push(
      endpoint({
        method: "POST",
        path: `${base}/create`,
        summary: `新增${def.title}`,
        access: permission(permissionCode(def, "create")),
        body: z.record(z.string(), z.unknown()),
        handle: (ctx, { body }) => createRecord(session(ctx), def, body as Row, service),
      }),
    );
  }
  if (def.actions.includes("update")) {
    list.push(
      endpoint({
        method: "POST",
        path: `${base}/update`,
        summary: `修改${def.title}（带 updatedAt 时检查是否已被他人修改）`,
        access: permission(permissionCode(def, "update")),
        body: updateSchema(def),
        handle: (ctx, { body }) => updateRecord(session(ctx), def, body as Row, service),
      }),
    );
  }
  if (def.actions.includes("delete")) {
    list.push(
      endpoint({
        method: "GET",
        path: `${base}/delete`,
        summary: `删除${def.title}`,
        access: permission(permissionCode(def, "delete")),
        mutates: true,
        query: idQuery,
        handle: (ctx, { query }) => deleteRecords(session(ctx), def, [query.id], service),
      }),
      endpoint({
        method: "POST",
        path: `${base}/deleteBatch`,
        summary: `批量删除${def.title}`,
        access: permission(permissionCode(def, "delete")),
        body: z.object({ ids: z.array(recordId("记录"), { error: "请选择要删除的记录" }).min(1, "请选择要删除的记录").max(500) }),
        handle: (ctx, { body }) => deleteRecords(session(ctx), def, body.ids, service),
      }),
    );
  }
  if (def.actions.includes("export")) {
    list.push(
      endpoint({
        method: "GET",
        path: `${base}/export`,
        summary: `按当前条件导出${def.title}（xlsx 或 csv）`,
        access: permission(permissionCode(def, "export")),
        query: findPageSchema(def)
          .omit({ pageNum: true, pageSize: true })
          .extend({ format: z.enum(["xlsx", "csv"]).default("xlsx") }),
        handle: (ctx, { query }) => {
          const { format, ...params } = query;
          return exportResponse(session(ctx), def, { ...params, pageNum: 1, pageSize: 20 }, format, lookup);
        },
      }),
    );
  }
  if (def.actions.includes("import")) {
    const access = permission(permissionCode(def, "import"));
    list.push(
      endpoint({
        method: "GET",
        path: `${base}/importTemplate`,
        summary: `下载${def.title}导入模板（xlsx）`,
        access,
        // No parameters: any other is refused, as findPage refuses undeclared ones.
        query: z.strictObject({}),
        handle: (ctx) => importTemplate(session(ctx), def, lookup),
      }),
      endpoint({
        method: "POST",
        path: `${base}/import`,
        summary: `导入${def.title}（xlsx，multipart 字段 file 或请求体本身；dryRun=1 只检查不写入；否则全部成功或全部不导入）`,
        access,
        rawBody: true,
        query: z.object({ dryRun: z.enum(["0", "1", "true", "false"], { error: "dryRun 只能是 0 或 1" }).optional() }),
        handle: async (ctx, { query }) => {
          const bytes = await readImportFile(ctx.request);
          return importRows(session(ctx), def, bytes, query.dryRun === "1" || query.dryRun === "true", lookup, service);
        },
      }),
    );
  }
  return list.map((e) => ({ ...e, resource: resourceKey(def) }));
}
