import { permissionCode } from "../../../resources/define";
import { device as def } from "../../../resources/sys/device";
import { deviceParamList } from "../../../resources/sys/deviceParams";
import { z } from "../../../resources/z";
import { recordId } from "../../../resources/schemas";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, Status } from "../../http/envelope";
import { getRow, messages as engineMessages } from "../resource/engine";
import { recordOperation } from "../resource/operationLog";
import { sysMessages } from "./messages";

const m = sysMessages.device;

/** A device that has not sent a heartbeat for this long is shown offline. */
export const HEARTBEAT_TIMEOUT_MS = 5 * 60_000;

export interface DeviceParam {
  paramKey: string;
  paramValue: string;
  remark: string | null;
}

export interface DeviceParams {
  id: number;
  deviceCode: string;
  deviceName: string;
  /** The device's version: send it back with saveParams. */
  updatedAt: number;
  params: DeviceParam[];
}

export async function getParams(ctx: SessionContext, id: number): Promise<DeviceParams> {
  const device = await getRow(ctx, def, id);
  const params = await ctx.services.db
    .selectFrom("device_param")
    .select(["param_key", "param_value", "remark"])
    .where("tenant_id", "=", ctx.session.tenantId)
    .where("device_id", "=", id)
    .orderBy("sort")
    .orderBy("param_key")
    .execute();
  return {
    id,
    deviceCode: device.device_code as string,
    deviceName: device.device_name as string,
    updatedAt: device.updated_at as number,
    params: params.map((p) => ({ paramKey: p.param_key, paramValue: p.param_value, remark: p.remark })),
  };
}

export const saveParamsSchema = z.object({
  id: recordId(),
  updatedAt: recordId("updatedAt").optional(),
  params: deviceParamList,
});

/**
 * Replaces the device's parameters as a whole. The parameters are part of the device, so saving them moves the
 * device's version: an editor holding an older version gets the 409, as with any edit.
 */
export async function saveParams(ctx: SessionContext, body: z.output<typeof saveParamsSchema>): Promise<DeviceParams> {
  const current = await getRow(ctx, def, body.id);
  if (body.updatedAt !== undefined && body.updatedAt !== current.updated_at) throw new ApiError(Status.CONFLICT, engineMessages.stale);
  const { tenantId, userId } = ctx.session;
  const now = Math.max(ctx.now, (current.updated_at as number) + 1);
  await ctx.services.db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable("device")
      .set({ updated_at: now, updated_by: userId })
      .where("tenant_id", "=", tenantId)
      .where("id", "=", body.id)
      .where("updated_at", "=", current.updated_at as number)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw new ApiError(Status.CONFLICT, engineMessages.stale);
    const before = await trx
      .selectFrom("device_param")
      .select(["param_key", "param_value"])
      .where("tenant_id", "=", tenantId)
      .where("device_id", "=", body.id)
      .execute();
    await trx.deleteFrom("device_param").where("tenant_id", "=", tenantId).where("device_id", "=", body.id).execute();
    if (body.params.length) {
      await trx
        .insertInto("device_param")
        .values(
          body.params.map((p, index) => ({
            tenant_id: tenantId,
            device_id: body.id,
            param_key: p.paramKey,
            param_value: p.paramValue,
            remark: p.remark || null,
            sort: index,
            created_at: now,
            created_by: userId,
            updated_at: now,
            updated_by: userId,
          })),
        )
        .execute();
    }
    await recordOperation(trx, ctx, def, body.id, "setting", {
      params: [Object.fromEntries(before.map((p) => [p.param_key, p.param_value])), Object.fromEntries(body.params.map((p) => [p.paramKey, p.paramValue]))],
    });
  });
  return getParams(ctx, body.id);
}

export const heartbeatSchema = z.object({
  deviceCode: z.string({ error: "请输入设备编码" }).trim().min(1, "请输入设备编码").max(50),
  appVersion: z.string().trim().max(50, "应用版本不能超过 50 个字符").optional(),
  ip: z.ipv4({ error: "请输入有效的 IPv4 地址" }).optional(),
});

/**
 * A device reports it is alive: it is marked online with the time, version and address it sends, and gets its
 * parameters back. Devices silent for longer than the timeout are marked offline on the way. Telemetry does not
 * move the device's version, so an open edit form stays valid.
 */
export async function heartbeat(ctx: SessionContext, body: z.output<typeof heartbeatSchema>) {
  const { db } = ctx.services;
  const { tenantId } = ctx.session;
  const device = await db
    .selectFrom("device")
    .select(["id", "status"])
    .where("tenant_id", "=", tenantId)
    .where("device_code", "=", body.deviceCode)
    .executeTakeFirst();
  if (!device) throw new ApiError(Status.NOT_FOUND, m.unknownCode);
  if (device.status !== 1) throw new ApiError(Status.FORBIDDEN, m.disabled);
  await db
    .updateTable("device")
    .set({
      alive_status: 1,
      last_heartbeat_at: ctx.now,
      ...(body.appVersion ? { app_version: body.appVersion } : {}),
      ...(body.ip ? { ip: body.ip } : {}),
    })
    .where("tenant_id", "=", tenantId)
    .where("id", "=", device.id)
    .execute();
  await db
    .updateTable("device")
    .set({ alive_status: 0 })
    .where("tenant_id", "=", tenantId)
    .where("alive_status", "=", 1)
    .where("last_heartbeat_at", "<", ctx.now - HEARTBEAT_TIMEOUT_MS)
    .execute();
  const { params } = await getParams(ctx, device.id);
  return { serverTime: ctx.now, params: Object.fromEntries(params.map((p) => [p.paramKey, p.paramValue])) };
}

const idQuery = z.object({ id: recordId() });

export const deviceEndpoints: Endpoint[] = [
  endpoint({
    method: "GET",
    path: "/api/v1/sys/device/getParams",
    summary: "设备参数（键值对）与设备当前版本 updatedAt",
    access: permission(permissionCode(def, "view")),
    query: idQuery,
    handle: (ctx, { query }) => getParams(ctx as SessionContext, query.id),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/sys/device/saveParams",
    summary: "整体保存设备参数；带 updatedAt 时检查设备是否已被他人修改",
    access: permission(permissionCode(def, "setting")),
    body: saveParamsSchema,
    handle: (ctx, { body }) => saveParams(ctx as SessionContext, body),
  }),
  endpoint({
    method: "POST",
    path: "/api/v1/sys/device/heartbeat",
    summary: "设备心跳：标记在线并上报版本与 IP，返回设备参数",
    access: permission(permissionCode(def, "heartbeat")),
    body: heartbeatSchema,
    handle: (ctx, { body }) => heartbeat(ctx as SessionContext, body),
  }),
];
