import { permissionCode, resourceKey, type ResourceDef } from "../../../resources/define";
import { findPageSchema, recordId, updateSchema } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { createRecord, deleteRecords, findPage, getInfo, updateRecord, type ResourceService } from "./engine";
import { exportResponse } from "./export";
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
  return list.map((e) => ({ ...e, resource: resourceKey(def) }));
}
