/**
 * `npm run ledger:check`: every declared ledger's balances against the sums of their lines, on the configured database
 * (DATABASE_URL, SQLite file by default), read-only. Prints each drift and exits 1 when there is one, 2 when it could
 * not check; `TENANT_ID` limits it to one tenant.
 */
import { existsSync } from "node:fs";
import { loadConfig } from "../server/config";
import { openDatabase } from "../server/db";
import { serverModules } from "../server/modules";
import { checkLedgers, describeDrift } from "../server/modules/ledgerCheck";

const config = loadConfig();
const sqlitePath = /^postgres(ql)?:\/\//i.test(config.DATABASE_URL) ? null : config.DATABASE_URL.replace(/^file:/, "");
if (sqlitePath && !existsSync(sqlitePath)) {
  console.error(`数据库文件 ${sqlitePath} 不存在：请用 DATABASE_URL 指定服务使用的数据库`);
  process.exit(2);
}
const handle = await openDatabase(config.DATABASE_URL);
try {
  const tenantId = process.env.TENANT_ID ? Number(process.env.TENANT_ID) : undefined;
  const checks = await checkLedgers(handle.db, serverModules, tenantId);
  for (const { ledger, drifts } of checks) {
    if (drifts.length === 0) console.log(`账本 ${ledger}：余额与流水一致`);
    for (const drift of drifts) console.log(describeDrift(ledger, drift));
  }
  if (checks.some((c) => c.drifts.length > 0)) process.exitCode = 1;
} catch (error) {
  console.error(`无法核对：${error instanceof Error ? error.message : String(error)}（数据库是否已由服务启动迁移过？）`);
  process.exitCode = 2;
} finally {
  await handle.close();
}
