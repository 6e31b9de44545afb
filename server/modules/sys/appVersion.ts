import { permissionCode } from "../../../resources/define";
import { findResource } from "../../../resources/index";
import { appVersion as def } from "../../../resources/sys/appVersion";
import { z } from "../../../resources/z";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { fieldError } from "../../http/envelope";
import { getInfo } from "../resource/engine";
import type { Row } from "../resource/rows";
import { sysMessages } from "./messages";
import { combine, nextRecord, publishing } from "./rules";

/** Devices compare version codes to decide on an update, so a code appears once per file type. */
async function checkVersionCode(ctx: SessionContext, next: Row, id?: number) {
  let same = ctx.services.db
    .selectFrom("app_version")
    .select("id")
    .where("tenant_id", "=", ctx.session.tenantId)
    .where("file_type", "=", String(next.fileType))
    .where("version_code", "=", Number(next.versionCode));
  if (id !== undefined) same = same.where("id", "!=", id);
  if (await same.executeTakeFirst()) throw fieldError("versionCode", sysMessages.version.duplicateCode);
}

export const appVersionService = combine(
  {
    beforeCreate: (ctx, values) => checkVersionCode(ctx, values),
    beforeUpdate: (ctx, values, current) => checkVersionCode(ctx, nextRecord(def, values, current), current.id as number),
  },
  publishing(def, "status", "publishedAt", true),
);

export const appVersionEndpoints: Endpoint[] = [
  endpoint({
    method: "GET",
    path: "/api/v1/sys/appVersion/latest",
    summary: "某文件类型已发布的最新版本（版本号最大）；没有时为 null",
    access: permission(permissionCode(def, "view")),
    query: z.object({ fileType: z.enum(["apk", "bdu"], { error: "文件类型只能是 apk 或 bdu" }) }),
    handle: async (ctx, { query }) => {
      const session = ctx as SessionContext;
      const latest = await ctx.services.db
        .selectFrom("app_version")
        .select("id")
        .where("tenant_id", "=", session.session.tenantId)
        .where("file_type", "=", query.fileType)
        .where("status", "=", 1)
        .orderBy("version_code", "desc")
        .limit(1)
        .executeTakeFirst();
      return latest ? getInfo(session, def, latest.id, findResource) : null;
    },
  }),
];
