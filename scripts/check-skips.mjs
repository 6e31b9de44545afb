// Reads the JSON reports of vitest and Playwright after `npm test` and fails when a test was skipped that
// tests/skipped-by-design.json does not list, so a green run proves what it claims. Without TEST_DATABASE_URL
// (a developer's machine) the PostgreSQL half is reported as not run; in CI (CI=1) scripts/test.sh has already
// refused to start without it.
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";

const [vitestReport, playwrightReport] = process.argv.slice(2);
const root = process.cwd();
const byDesign = JSON.parse(readFileSync(join(root, "tests/skipped-by-design.json"), "utf8"));
const withPostgres = Boolean(process.env.TEST_DATABASE_URL);
/** The reason every PostgreSQL-only e2e test gives when it skips. */
const NO_POSTGRES = "TEST_DATABASE_URL is not set";

/** Every skipped test of both runners as { runner, file, title, reason }. */
function skippedTests() {
  const skipped = [];
  const vitest = JSON.parse(readFileSync(vitestReport, "utf8"));
  for (const file of vitest.testResults) {
    for (const test of file.assertionResults) {
      if (test.status === "passed" || test.status === "failed") continue;
      const postgresOnly = test.ancestorTitles.some((t) => /^postgres\b/.test(t));
      skipped.push({ runner: "vitest", file: relative(root, file.name), title: test.title, full: test.fullName, reason: postgresOnly ? NO_POSTGRES : "" });
    }
  }
  const playwright = JSON.parse(readFileSync(playwrightReport, "utf8"));
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status !== "skipped") continue;
        const reason = test.annotations.find((a) => a.type === "skip")?.description ?? "";
        skipped.push({ runner: "playwright", file: join("e2e", spec.file), title: spec.title, full: `[${test.projectName}] ${spec.title}`, reason });
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of playwright.suites) walk(suite);
  return skipped;
}

const skipped = skippedTests();
const notRun = withPostgres ? [] : skipped.filter((s) => s.reason === NO_POSTGRES);
// An entry marked notAsRoot allows its skip only to an account that cannot do what the test needs (CI runs as root).
const asRoot = process.getuid?.() === 0;
const allowance = byDesign.map((entry) => ({ ...entry, left: entry.notAsRoot && asRoot ? 0 : 1 }));
const unexpected = [];
for (const test of skipped) {
  if (notRun.includes(test)) continue;
  const entry = allowance.find((e) => e.runner === test.runner && e.file === test.file && e.title === test.title && e.left > 0);
  if (entry) entry.left -= 1;
  else unexpected.push(test);
}

if (notRun.length) {
  const dialectFiles = readdirSync(join(root, "tests/server")).filter((f) => f.endsWith(".ts") && readFileSync(join(root, "tests/server", f), "utf8").includes("helpers/db")).length;
  console.log(
    `未设置 TEST_DATABASE_URL，PostgreSQL 部分没有运行：vitest 的 ${dialectFiles} 个数据库测试文件只跑了 SQLite，另有 ${notRun.length} 个只在 PostgreSQL 上运行的测试被跳过。` +
      "设置 TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres 后重跑即可覆盖。",
  );
}
const designed = skipped.length - notRun.length - unexpected.length;
console.log(`skipped: ${skipped.length} (by design ${designed}, PostgreSQL not run ${notRun.length}, unexpected ${unexpected.length})`);
if (unexpected.length) {
  console.error("Skipped tests that tests/skipped-by-design.json does not list (run them, or list them with the reason):");
  for (const t of unexpected) console.error(`  ${t.runner} ${t.file}: ${t.full}${t.reason ? ` — ${t.reason}` : ""}`);
  process.exit(1);
}
