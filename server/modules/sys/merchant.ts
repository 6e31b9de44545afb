import { permissionCode } from "../../../resources/define";
import { findResource } from "../../../resources/index";
import { merchantConfig as configDef } from "../../../resources/sys/merchantConfig";
import { merchantOrg as orgDef } from "../../../resources/sys/merchantOrg";
import { z } from "../../../resources/z";
import { recordId } from "../../../resources/schemas";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { getInfo, type ResourceService } from "../resource/engine";
import type { Row } from "../resource/rows";
import { sysMessages } from "./messages";
import { nextRecord } from "./rules";

export const parameterConfigService: ResourceService = {
  async beforeDelete(ctx, current) {
    const used = await ctx.services.db
      .selectFrom("merchant_config")
      .select("id")
      .where("tenant_id", "=", ctx.session.tenantId)
      .where("parameter_code", "=", current.param_code as string)
      .limit(1)
      .executeTakeFirst();
    if (used) throw new ApiError(Status.CONFLICT, sysMessages.parameterConfig.hasMerchantConfig);
  },
};

/** A merchant overrides a parameter the tenant has, once. */
async function checkConfig(ctx: SessionContext, next: Row, id?: number) {
  const { db } = ctx.services;
  const { tenantId } = ctx.session;
  const parameter = await db
    .selectFrom("parameter_config")
    .select("id")
    .where("tenant_id", "=", tenantId)
    .where("param_code", "=", String(next.parameterCode))
    .executeTakeFirst();
  if (!parameter) throw fieldError("parameterCode", sysMessages.merchantConfig.unknownParameter);
  let same = db
    .selectFrom("merchant_config")
    .select("id")
    .where("tenant_id", "=", tenantId)
    .where("merchant_id", "=", Number(next.merchantId))
    .where("parameter_code", "=", String(next.parameterCode));
  if (id !== undefined) same = same.where("id", "!=", id);
  if (await same.executeTakeFirst()) throw fieldError("parameterCode", sysMessages.merchantConfig.duplicate);
}

export const merchantConfigService: ResourceService = {
  beforeCreate: (ctx, values) => checkConfig(ctx, values),
  beforeUpdate: (ctx, values, current) => checkConfig(ctx, nextRecord(configDef, values, current), current.id as number),
};

/** A restaurant or stall is run by one merchant: linking it to a second one names the first. */
async function checkOrgFree(ctx: SessionContext, next: Row, id?: number) {
  let taken = ctx.services.db
    .selectFrom("merchant_org")
    .innerJoin("merchant", (join) =>
      join.onRef("merchant.tenant_id", "=", "merchant_org.tenant_id").onRef("merchant.id", "=", "merchant_org.merchant_id"),
    )
    .select("merchant.merchant_name")
    .where("merchant_org.tenant_id", "=", ctx.session.tenantId)
    .where("merchant_org.org_id", "=", Number(next.orgId));
  if (id !== undefined) taken = taken.where("merchant_org.id", "!=", id);
  const other = await taken.executeTakeFirst();
  if (other) throw fieldError("orgId", sysMessages.merchantOrg.taken(other.merchant_name));
}

export const merchantOrgService: ResourceService = {
  beforeCreate: (ctx, values) => checkOrgFree(ctx, values),
  beforeUpdate: (ctx, values, current) => checkOrgFree(ctx, nextRecord(orgDef, values, current), current.id as number),
};

export const merchantEndpoints: Endpoint[] = [
  endpoint({
    method: "GET",
    path: "/api/v1/sys/merchantConfig/getByKey",
    summary: "按商户与参数编码取商户参数配置，附系统参数的名称与默认值（编辑页 edit/{merchantId}/{parameterCode}）",
    access: permission(permissionCode(configDef, "view")),
    query: z.object({
      merchantId: recordId("merchantId"),
      parameterCode: z.string({ error: "缺少 parameterCode" }).min(1, "缺少 parameterCode").max(100),
    }),
    handle: async (ctx, { query }) => {
      const session = ctx as SessionContext;
      const { tenantId } = session.session;
      const row = await ctx.services.db
        .selectFrom("merchant_config")
        .innerJoin("parameter_config", (join) =>
          join
            .onRef("parameter_config.tenant_id", "=", "merchant_config.tenant_id")
            .onRef("parameter_config.param_code", "=", "merchant_config.parameter_code"),
        )
        .select(["merchant_config.id", "parameter_config.param_name", "parameter_config.param_value"])
        .where("merchant_config.tenant_id", "=", tenantId)
        .where("merchant_config.merchant_id", "=", query.merchantId)
        .where("merchant_config.parameter_code", "=", query.parameterCode)
        .executeTakeFirst();
      if (!row) throw new ApiError(Status.NOT_FOUND, sysMessages.merchantConfig.notFound);
      const record = await getInfo(session, configDef, row.id, findResource);
      return { ...record, parameterName: row.param_name, defaultValue: row.param_value };
    },
  }),
];
