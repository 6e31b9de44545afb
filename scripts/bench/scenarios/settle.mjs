// Month settlement (decision 022) of BENCH_SETTLE_DINERS diners (default 20,000), BENCH_SETTLE_LINES ledger lines
// each (default 10): bench/settle.ts seeds a database of its own (bench/data/settle.db, or schema bench_settle on
// PostgreSQL), then times 生成 and 转正式 of the month in its own process.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { dir, env, log } from "../lib.mjs";

const DINERS = Number(env.BENCH_SETTLE_DINERS ?? 20_000);

function settle(target) {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["vite-node", "bench/settle.ts", target], { env: { ...env, BENCH_SETTLE_DINERS: String(DINERS) }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr = (stderr + c).slice(-20_000)));
    child.once("error", reject);
    child.once("exit", (code) => {
      const line = stdout.split("\n").filter((l) => l.startsWith("{")).at(-1);
      if (code !== 0 || !line) return reject(new Error(`settlement bench failed (${code}):\n${stderr}`));
      resolve(JSON.parse(line));
    });
  });
}

export default {
  name: "settle",
  title: `month settlement of ${DINERS} diners`,
  once: true,
  sizes: { settleDiners: DINERS },
  async run({ dialect }) {
    // The bench's own database is left alone: settle.ts migrates and seeds a fresh one (the Postgres URL unscoped,
    // since it picks its own schema).
    const target = dialect === "sqlite" ? join(dir, "settle.db") : env.BENCH_DATABASE_URL;
    log(`${dialect}: bench/settle.ts ${dialect === "sqlite" ? target : "(schema bench_settle)"}…`);
    return settle(target);
  },
  rows: (r) => [[`month settlement, ${DINERS} diners`, `generate ${r.generateSeconds} s, make formal ${r.formalSeconds} s (${r.accounts} accounts, ${r.ledgerLines} lines)`]],
};
