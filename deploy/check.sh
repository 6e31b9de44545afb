#!/usr/bin/env bash
# Runs the README's Deploy set-up on this machine, without systemd: a PostgreSQL database of its own, the app on
# loopback with the unit's settings (TRUST_PROXY=on), nginx from deploy/nginx.conf in front, and checks what a
# client sees through nginx. Once per server: `start` (npm start's listener) and `serve` (react-router-serve).
#
#   bash deploy/check.sh [start|serve]      needs: a build (npm run build), nginx, psql, PostgreSQL on 127.0.0.1:5432
#
# Ports: CHECK_PORT (nginx, default 3623) and CHECK_PORT+1 (the app). PG_URL: the server to create the database on.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-start}"
port="${CHECK_PORT:-3623}"
app_port=$((port + 1))
pg_url="${PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
db="canteen_check_${mode}"
work="$(mktemp -d)"
app_pid=""
cleanup() {
  [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null || true
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  psql -q "$pg_url" -c "drop database if exists $db with (force)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; [ -f "$work/app.log" ] && tail -20 "$work/app.log"; exit 1; }

# 1. PostgreSQL: a database for the app (the README's commands, on the local server).
psql -q "$pg_url" -c "drop database if exists $db with (force)" -c "create database $db" 2>&1 | grep -v NOTICE || true
db_url="${pg_url%/*}/$db"

# 2. The app, as the unit starts it: its environment file, loopback only, behind a proxy.
cat >"$work/canteen.env" <<ENV
DATABASE_URL=$db_url
TRUST_PROXY=on
HOST=127.0.0.1
PORT=$app_port
CANTEEN_ADMIN_PASSWORD=Check-Admin-2026
UPLOAD_DIR=$work/uploads
# The check signs in by script; a real unit keeps the captcha on.
CANTEEN_CAPTCHA=off
ENV
if [ "$mode" = serve ]; then command=(node node_modules/@react-router/serve/bin.js ./build/server/index.js); else command=(node --max-old-space-size=1024 scripts/start.mjs --no-build); fi
(set -a; . "$work/canteen.env"; set +a; NODE_ENV=production exec "${command[@]}") >"$work/app.log" 2>&1 &
app_pid=$!

# 3. nginx with deploy/nginx.conf, its ports moved to this check's.
sed -e "s/127.0.0.1:3000/127.0.0.1:$app_port/" -e "s/listen 80;/listen 127.0.0.1:$port;/" deploy/nginx.conf >"$work/site.conf"
cat >"$work/nginx.conf" <<NGINX
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events {}
http {
  access_log off;
  client_body_temp_path $work/body; proxy_temp_path $work/proxy;
  fastcgi_temp_path $work/f; uwsgi_temp_path $work/u; scgi_temp_path $work/s;
  include $work/site.conf;
}
NGINX
nginx -t -q -c "$work/nginx.conf" -p "$work"
nginx -c "$work/nginx.conf" -p "$work"

base="http://127.0.0.1:$port"
for _ in $(seq 1 120); do curl -sf "$base/healthz" >/dev/null && break; sleep 0.5; done
curl -sf "$base/healthz" | grep -q '"database":"ok"' || fail "healthz through nginx"
echo "ok  /healthz through nginx ($mode, PostgreSQL $db)"

# Sign-in: the client address the app records is nginx's \$remote_addr, not what the client claims.
enc() { printf 'ENC:%s' "$(printf '%s' "$1" | base64)"; }
login=$(curl -s -D "$work/login.headers" -H 'Content-Type: application/json' -H 'X-Forwarded-For: 203.0.113.9' \
  -H 'Forwarded: for=198.51.100.7' --data "{\"username\":\"$(enc admin)\",\"password\":\"$(enc Check-Admin-2026)\"}" "$base/login")
echo "$login" | grep -q '"status":200' || fail "sign-in through nginx: $login"
ip=$(psql -qtA "$db_url" -c "select ip from login_log order by id desc limit 1")
[ "$ip" = "127.0.0.1" ] || fail "recorded client address is '$ip', expected nginx's 127.0.0.1"
grep -qi '^set-cookie: Admin-Token=.*HttpOnly' "$work/login.headers" || fail "token cookie"
grep -qi '^set-cookie:.*Secure' "$work/login.headers" && fail "Secure cookie over plain http"
echo "ok  sign-in through nginx; client recorded as $ip (spoofed X-Forwarded-For and Forwarded ignored)"

# Forwarded https (as a TLS-terminating nginx sends it): Secure cookie and HSTS.
curl -s -D "$work/https.headers" -o /dev/null -H 'Content-Type: application/json' -H 'X-Forwarded-Proto: https' \
  --data "{\"username\":\"$(enc admin)\",\"password\":\"$(enc Check-Admin-2026)\"}" "http://127.0.0.1:$app_port/login"
grep -qi '^set-cookie:.*Secure' "$work/https.headers" || fail "Secure cookie behind https"
grep -qi '^strict-transport-security:' "$work/https.headers" || fail "HSTS behind https"
echo "ok  X-Forwarded-Proto: https gives a Secure cookie and HSTS"

# Pages and assets through nginx: security headers, gzip, cacheable assets with nosniff.
curl -s -D "$work/page.headers" -o /dev/null -H 'Accept-Encoding: gzip' "$base/login"
grep -qi "^content-security-policy: .*'nonce-" "$work/page.headers" || fail "page CSP"
grep -qi '^cache-control: no-store' "$work/page.headers" || fail "page no-store"
grep -qi '^content-encoding: gzip' "$work/page.headers" || fail "page gzip"
asset=$(curl -s "$base/login" | grep -o '/assets/[^"]*\.css' | head -1)
curl -s -D "$work/asset.headers" -o /dev/null -H 'Accept-Encoding: gzip' "$base$asset"
grep -qi '^cache-control: public, max-age=31536000, immutable' "$work/asset.headers" || fail "asset caching"
grep -qi '^x-content-type-options: nosniff' "$work/asset.headers" || fail "asset nosniff"
echo "ok  page: nonce CSP, no-store, gzip; asset $asset: immutable, nosniff"

# A method no page takes: nginx or the app answers it (TRACE never reaches react-router-serve's converter).
code=$(curl -s -o /dev/null -w '%{http_code}' -X TRACE "$base/login")
[ "$code" = 405 ] || fail "TRACE answered $code"
echo "ok  TRACE → 405"

# SIGTERM, as systemd stops the unit: drains, closes the database, exits 0.
kill -TERM "$app_pid"
wait "$app_pid" && status=0 || status=$?
app_pid=""
[ "$status" = 0 ] || fail "exit status $status after SIGTERM"
grep -q '已停止' "$work/app.log" || fail "no 已停止 in the log"
echo "ok  SIGTERM → exit 0 ($(grep -c . "$work/app.log") log lines)"
