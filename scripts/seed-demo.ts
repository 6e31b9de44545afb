/**
 * `npm run seed:demo`: migrates the configured database (DATABASE_URL, SQLite file by default) and adds the demo
 * canteen (server/modules/zhct/demo.ts, decision 035). Refused when the demo tenant is already there. Options by environment:
 * DEMO_DINERS (2000), DEMO_DAYS (90), DEMO_SEED (15); the demo admin's password is CANTEEN_DEMO_PASSWORD or the
 * documented default, to be changed at the first sign-in.
 */
import { loadConfig } from "../server/config";
import { migrateToLatest, openDatabase } from "../server/db";
import { DemoExistsError, seedDemo } from "../server/modules/zhct/demo";
import { seed } from "../server/modules/seed";
import { runRequestedRecounts } from "../server/modules/projections";

const config = loadConfig();
const handle = await openDatabase(config.DATABASE_URL);
try {
  await handle.exclusive(async () => {
    await migrateToLatest(handle.db);
    await runRequestedRecounts(handle.db);
    const first = await seed(handle.db, { adminPassword: config.CANTEEN_ADMIN_PASSWORD });
    if (first.adminPassword && !config.CANTEEN_ADMIN_PASSWORD) console.log(`首次初始化：管理员账号 admin，一次性密码 ${first.adminPassword}（首次登录后须修改）`);
  });
  const result = await seedDemo(handle.db, {
    diners: process.env.DEMO_DINERS ? Number(process.env.DEMO_DINERS) : undefined,
    days: process.env.DEMO_DAYS ? Number(process.env.DEMO_DAYS) : undefined,
    seed: process.env.DEMO_SEED ? Number(process.env.DEMO_SEED) : undefined,
    log: (line) => console.log(line),
  });
  console.log(
    `示例食堂已生成（${result.seconds.toFixed(1)} 秒）：${result.diners} 名就餐人员，${result.from} 至 ${result.to} 共 ${result.orders} 笔订单、${result.ledgerLines} 条账户流水。\n` +
      `登录：用户名 ${result.userName}，密码 ${process.env.CANTEEN_DEMO_PASSWORD ? "取自 CANTEEN_DEMO_PASSWORD" : result.password}（首次登录后须修改）`,
  );
} catch (error) {
  if (error instanceof DemoExistsError) {
    console.error(error.message);
    process.exitCode = 1;
  } else throw error;
} finally {
  await handle.close();
}
