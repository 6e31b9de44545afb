#!/usr/bin/env bash
# `npm test`: typecheck, lint, vitest (SQLite, and PostgreSQL when TEST_DATABASE_URL is set), Playwright e2e.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ]; then
    echo "未找到 Chromium，正在安装 Debian 的 chromium……"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "e2e 测试需要 Chromium，请先运行：sudo apt-get install -y chromium" >&2
    exit 1
  fi
fi

echo "== typecheck"; npm run --silent typecheck
echo "== lint"; npm run --silent lint
echo "== vitest"; npx vitest run
echo "== build"; npx react-router build >/dev/null
echo "== e2e"
# Playwright's exit code alone passes a run that ended before its first test (a process that quit in the global
# setup); its JSON report, written only when the run completes, must count the tests that passed.
report=test-results/e2e-report.json
rm -f "$report"
E2E_REPORT="$report" npx playwright test
node -e '
const { stats } = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
if (!(stats.expected > 0) || stats.unexpected > 0) { console.error(`e2e: ${stats.expected} passed, ${stats.unexpected} failed`); process.exit(1); }
console.log(`e2e: ${stats.expected} passed, ${stats.skipped} skipped, ${stats.flaky} flaky`);
' "$report"
