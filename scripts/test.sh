#!/usr/bin/env bash
# `npm test`: typecheck, lint and the build side by side, then vitest (SQLite, and PostgreSQL when TEST_DATABASE_URL
# is set), Playwright e2e, and the check that nothing was skipped that tests/skipped-by-design.json does not list.
# CI=1 (set by .ci/run) refuses to run without PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${CI:-}" ] && [ -z "${TEST_DATABASE_URL:-}" ]; then
  echo "CI 必须在 PostgreSQL 上运行：请设置 TEST_DATABASE_URL（.ci/run 会安装并启动 PostgreSQL）" >&2
  exit 1
fi

if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ]; then
    echo "未找到 Chromium，正在安装 Debian 的 chromium……"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "e2e 测试需要 Chromium，请先运行：sudo apt-get install -y chromium" >&2
    exit 1
  fi
fi

mkdir -p test-results
started=$SECONDS
phase() { echo "== $1 ($((SECONDS - started)) s)"; }

# The four read the sources and write nothing the others read (typegen's types come first), so they share the cores.
phase "typecheck, lint, build, import rules"
npx react-router typegen >/dev/null
node scripts/check-decisions.mjs
pids=()
npx tsc > test-results/typecheck.log 2>&1 & pids+=($!)
npx eslint . > test-results/lint.log 2>&1 & pids+=($!)
npx react-router build > test-results/build.log 2>&1 & pids+=($!)
npm run --silent deps > test-results/deps.log 2>&1 & pids+=($!)
failed=0
for i in 0 1 2 3; do
  if ! wait "${pids[$i]}"; then
    log=(test-results/typecheck.log test-results/lint.log test-results/build.log test-results/deps.log)
    echo "-- ${log[$i]}" >&2; cat "${log[$i]}" >&2
    failed=1
  fi
done
[ "$failed" = 0 ] || exit 1
cat test-results/lint.log

vitest_report=test-results/vitest-report.json
e2e_report=test-results/e2e-report.json
rm -f "$vitest_report" "$e2e_report"

phase vitest
npx vitest run --reporter=default --reporter=json --outputFile.json="$vitest_report"

phase e2e
# Playwright's exit code alone passes a run that ended before its first test (a process that quit in the global
# setup); its JSON report, written only when the run completes, must count the tests that passed.
E2E_REPORT="$e2e_report" npx playwright test
node -e '
const { stats } = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
if (!(stats.expected > 0) || stats.unexpected > 0) { console.error(`e2e: ${stats.expected} passed, ${stats.unexpected} failed`); process.exit(1); }
console.log(`e2e: ${stats.expected} passed, ${stats.skipped} skipped, ${stats.flaky} flaky`);
' "$e2e_report"

phase "skipped tests"
node scripts/check-skips.mjs "$vitest_report" "$e2e_report"
phase done
