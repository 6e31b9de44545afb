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
echo "== e2e"; npx playwright test
