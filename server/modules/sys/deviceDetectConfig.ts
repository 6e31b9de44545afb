import { deviceDetectConfig as def } from "../../../resources/sys/deviceDetectConfig";
import type { SessionContext } from "../../http/endpoint";
import { fieldError } from "../../http/envelope";
import type { ResourceService } from "../resource/engine";
import type { Row } from "../resource/rows";
import { sysMessages } from "./messages";
import { nextRecord } from "./rules";

async function checkOnePerDevice(ctx: SessionContext, next: Row, id?: number) {
  let same = ctx.services.db
    .selectFrom("device_detect_config")
    .select("id")
    .where("tenant_id", "=", ctx.session.tenantId)
    .where("device_id", "=", Number(next.deviceId));
  if (id !== undefined) same = same.where("id", "!=", id);
  if (await same.executeTakeFirst()) throw fieldError("deviceId", sysMessages.detectConfig.duplicate);
}

export const deviceDetectConfigService: ResourceService = {
  beforeCreate: (ctx, values) => checkOnePerDevice(ctx, values),
  beforeUpdate: (ctx, values, current) => checkOnePerDevice(ctx, nextRecord(def, values, current), current.id as number),
};
