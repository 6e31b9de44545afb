import { permissionCode } from "../../../resources/define";
import { recordId } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { autoChargeSetting } from "../../../resources/zhct/settle";
import { newId, type Db, type Dialect } from "../../db";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import type { ResourceService } from "../resource/engine";
import { databaseFault } from "../../db/faults";
import { startLeasedJob } from "../../kernel/leasedJob";
import { recordOperation } from "../resource/operationLog";
import { inWriteTransaction } from "../../kernel/writeTransaction";
import { BusiType, lockDiner, PAY_FLAG_AUTO, post } from "./ledger";
import { dayOfMonth, monthOf } from "./months";

/**
 * Monthly subsidy grants (decision 022). A run grants each diner the setting names at most once per month: the
 * grant row (setting, month, diner) is inserted first in the diner's ledger transaction, and its unique key makes a
 * retry, a second click or a second instance a no-op. The scheduler runs due settings by itself under a job lease.
 */

export const autoChargeMessages = {
  target: "请填写人员类别或选择部门",
  missing: "自动充值设置不存在",
  disabled: "该设置已停用，请先启用",
};

export const autoChargeService: ResourceService = {
  beforeCreate(_ctx, values) {
    if (!values.staffType && !values.deptId) throw fieldError("staffType", autoChargeMessages.target);
  },
  beforeUpdate(_ctx, values, current) {
    const staffType = values.staffType !== undefined ? values.staffType : current.staff_type;
    const deptId = values.deptId !== undefined ? values.deptId : current.dept_id;
    if (!staffType && !deptId) throw fieldError("staffType", autoChargeMessages.target);
  },
};

export interface RunResult {
  runId: number;
  month: string;
  granted: number;
  skipped: number;
  failed: number;
  message: string | null;
}

interface RunBy {
  now: number;
  trigger: "手动" | "自动";
  operatorId?: number | null;
  operatorName?: string | null;
}

/** Grants the setting's month to each diner it names who has not had it; logs the run with its counts. */
export async function runSetting(db: Db, dialect: Dialect, tenantId: number, settingId: number, by: RunBy): Promise<RunResult> {
  const setting = await db.selectFrom("auto_charge_setting").selectAll().where("tenant_id", "=", tenantId).where("id", "=", settingId).executeTakeFirst();
  if (!setting) throw new ApiError(Status.NOT_FOUND, autoChargeMessages.missing);
  // Not set means enabled (the form's default); only an explicit 0 stops it.
  if (setting.enabled !== null && Number(setting.enabled) === 0) throw new ApiError(Status.CONFLICT, autoChargeMessages.disabled);
  const month = monthOf(by.now);
  const runId = newId();
  await db
    .insertInto("auto_charge_run")
    .values({ tenant_id: tenantId, id: runId, setting_id: settingId, month, trigger_type: by.trigger, granted: 0, skipped: 0, failed: 0, message: null, operator_name: by.operatorName ?? null, started_at: by.now, finished_at: null, created_at: by.now, created_by: by.operatorId ?? null, updated_at: by.now, updated_by: by.operatorId ?? null })
    .execute();
  let diners = db.selectFrom("user_info").select("id").where("tenant_id", "=", tenantId).where((eb) => eb.or([eb("user_status", "=", 1), eb("user_status", "is", null)]));
  if (setting.staff_type) diners = diners.where("staff_type", "=", setting.staff_type);
  if (setting.dept_id) diners = diners.where("dept_id", "=", setting.dept_id);
  const ids = (await diners.orderBy("id").execute()).map((d) => d.id);
  const done = new Set(
    (await db.selectFrom("auto_charge_grant").select("user_info_id").where("tenant_id", "=", tenantId).where("setting_id", "=", settingId).where("month", "=", month).execute()).map((g) => g.user_info_id),
  );
  let granted = 0;
  let skipped = 0;
  let failed = 0;
  let firstError: string | null = null;
  for (const userInfoId of ids) {
    if (done.has(userInfoId)) {
      skipped++;
      continue;
    }
    try {
      const did = await inWriteTransaction(db, dialect, async (trx) => {
        const grantId = newId();
        // The unique key (setting, month, diner) decides: a concurrent run inserted it first → nothing to do.
        const claimed = await trx
          .insertInto("auto_charge_grant")
          .values({ tenant_id: tenantId, id: grantId, setting_id: settingId, month, user_info_id: userInfoId, run_id: runId, amount: setting.amount, cleared: 0, granted_at: by.now, created_at: by.now, created_by: by.operatorId ?? null, updated_at: by.now, updated_by: by.operatorId ?? null })
          .onConflict((oc) => oc.columns(["tenant_id", "setting_id", "month", "user_info_id"]).doNothing())
          .returning("id")
          .executeTakeFirst();
        if (!claimed) return false;
        const common = { tenantId, userInfoId, accountType: "subsidy" as const, payFlag: PAY_FLAG_AUTO, operatorId: by.operatorId ?? null, operatorName: by.operatorName ?? "系统", docType: "grant", docId: grantId, occurredAt: by.now };
        let cleared = 0;
        if (setting.clear_unused) {
          // Locked first (PostgreSQL), so what is cleared is the balance as it is, not as a payment left it a moment ago.
          await lockDiner(trx, tenantId, userInfoId);
          const account = await trx.selectFrom("user_account").select("balance").where("tenant_id", "=", tenantId).where("user_info_id", "=", userInfoId).where("account_type", "=", "subsidy").executeTakeFirst();
          const left = Number(account?.balance ?? 0);
          if (left > 0) {
            await post(trx, { ...common, amount: -left, busiType: BusiType.CLEAR, remark: `${setting.setting_name}：清零未用补贴` });
            cleared = left;
          }
        }
        await post(trx, { ...common, amount: Number(setting.amount), busiType: BusiType.GRANT, remark: `${setting.setting_name}：${month} 补贴` });
        if (cleared) await trx.updateTable("auto_charge_grant").set({ cleared }).where("tenant_id", "=", tenantId).where("id", "=", grantId).execute();
        return true;
      });
      if (did) granted++;
      else skipped++;
    } catch (error) {
      if (databaseFault(error)) throw error;
      failed++;
      firstError ??= error instanceof Error ? error.message : String(error);
    }
  }
  const finishedAt = Math.max(Date.now(), by.now);
  const message = firstError ? `失败 ${failed} 人：${firstError}`.slice(0, 500) : null;
  await db.updateTable("auto_charge_run").set({ granted, skipped, failed, message, finished_at: finishedAt, updated_at: finishedAt }).where("tenant_id", "=", tenantId).where("id", "=", runId).execute();
  await db.updateTable("auto_charge_setting").set({ last_run_month: month, last_run_at: by.now }).where("tenant_id", "=", tenantId).where("id", "=", settingId).execute();
  return { runId, month, granted, skipped, failed, message };
}

/** The settings whose day has come this month and that have not run this month, over all tenants. */
export async function runDueSettings(db: Db, dialect: Dialect, now: number): Promise<RunResult[]> {
  const month = monthOf(now);
  const due = await db
    .selectFrom("auto_charge_setting")
    .select(["tenant_id", "id"])
    .where((eb) => eb.or([eb("enabled", "=", 1), eb("enabled", "is", null)]))
    .where("day_of_month", "<=", dayOfMonth(now))
    .where((eb) => eb.or([eb("last_run_month", "is", null), eb("last_run_month", "!=", month)]))
    .execute();
  const results: RunResult[] = [];
  for (const s of due) {
    try {
      results.push(await runSetting(db, dialect, s.tenant_id, s.id, { now, trigger: "自动" }));
    } catch (error) {
      // One setting's fault (a database fault aside) must not keep the others from their day.
      if (databaseFault(error)) throw error;
      console.error(`自动充值设置 ${s.id} 执行失败：`, error);
    }
  }
  return results;
}

const JOB = "zhct.autoCharge";

/**
 * Checks every `everyMs` for due settings; the instance that takes the lease runs them, the others skip the turn.
 * The grant's unique key keeps a diner's month single even if a lease expired mid-run and another instance started.
 */
export function startAutoChargeScheduler(db: Db, dialect: Dialect, everyMs = 60_000, leaseMs = 10 * 60_000): { stop(): Promise<void> } {
  return startLeasedJob(db, JOB, (now) => runDueSettings(db, dialect, now), everyMs, leaseMs);
}

const runBody = z.strictObject({ id: recordId("自动充值设置", "请选择自动充值设置") });

export const autoChargeEndpoints: Endpoint[] = [
  endpoint({
    method: "POST",
    path: "/api/v1/zhct/autoChargeSetting/run",
    summary: "立即执行：为本月尚未发放的人员发放补贴（每人每设置每月一次）→ { runId, month, granted, skipped, failed }",
    access: permission(permissionCode(autoChargeSetting, "run")),
    body: runBody,
    handle: async (context, { body }) => {
      const ctx = context as SessionContext;
      const result = await runSetting(ctx.services.db, ctx.services.dialect, ctx.session.tenantId, body.id, { now: ctx.now, trigger: "手动", operatorId: ctx.session.userId, operatorName: ctx.session.userName });
      await recordOperation(ctx.services.db, ctx, autoChargeSetting, body.id, "run", result);
      return result;
    },
  }),
];

