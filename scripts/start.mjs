// `npm start`: build when the sources are newer than the build, then serve (API + web app).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const entry = "build/server/index.js";

function newest(dir) {
  let latest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    latest = Math.max(latest, stat.isDirectory() ? newest(path) : stat.mtimeMs);
  }
  return latest;
}

const sources = ["app", "server", "resources"].filter(existsSync);
const inputs = ["package-lock.json", "vite.config.ts", "react-router.config.ts"].filter(existsSync);
const sourceTime = Math.max(...sources.map(newest), ...inputs.map((f) => statSync(f).mtimeMs));
// `--no-build` serves the build as it is (benchmarks and e2e build once, then start servers).
const mayBuild = !process.argv.includes("--no-build");
if (mayBuild && (!existsSync(entry) || statSync(entry).mtimeMs < sourceTime)) {
  console.log("正在构建……（约需一两分钟）");
  const began = Date.now();
  // The build's own output (Rollup's notes on comments it drops, React Router's future flags, empty chunks) is for
  // developers, who run `npm run build`; an operator sees it only when the build fails.
  const result = spawnSync("npx", ["react-router", "build"], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ""}${result.stderr ?? ""}${result.error ? `${result.error.message}\n` : ""}`);
    console.error("构建失败，原因见上");
    process.exit(result.status ?? 1);
  }
  console.log(`构建完成（${Math.round((Date.now() - began) / 1000)} 秒）`);
}

if (process.argv.includes("--build-only")) process.exit(0);

// The build serves any other host that imports it (decision 020); this flag says we listen ourselves.
globalThis[Symbol.for("canteen.ownListener")] = true;
const { start, loadConfig, ConfigError, startupErrorMessage } = await import(new URL(`../${entry}`, import.meta.url).href);
let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
let running;
try {
  running = await start(config);
} catch (error) {
  // A database or port an operator must fix gets one line saying what to do, not a stack trace.
  const message = startupErrorMessage(error, config);
  if (!message) throw error;
  console.error(message);
  process.exit(1);
}
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, async () => {
    await running.close();
    process.exit(0);
  });
}
