#!/usr/bin/env bash
# `npm test`: every test — lint (module boundaries), type checks, unit, web components, integration against a real
# PostgreSQL (plus a smoke run on the embedded database), and end-to-end in Chromium.
# Needs: PostgreSQL on 127.0.0.1:5432 (TEST_PG_ADMIN_URL to change), Mosquitto on 127.0.0.1:1883,
# Chromium at /usr/bin/chromium (CHROMIUM_PATH to change). .ci/run starts/installs them.
set -euo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export TZ=${TZ:-Asia/Shanghai}

step() { printf '\n\033[1m== %s ==\033[0m\n' "$*"; }

# Runs the given commands side by side, prints each one's output whole once all have ended, in the order
# given, and fails if any of them failed.
together() {
  local dir; dir=$(mktemp -d)
  local pids=() i=0 failed=0
  for cmd in "$@"; do
    bash -c "$cmd" >"$dir/$i" 2>&1 &
    pids+=($!)
    i=$((i + 1))
  done
  i=0
  for cmd in "$@"; do
    local rc=0
    wait "${pids[$i]}" || rc=$?
    printf '\033[2m$ %s\033[0m\n' "$cmd"
    cat "$dir/$i"
    if [ "$rc" -ne 0 ]; then echo "failed ($rc): $cmd"; failed=1; fi
    i=$((i + 1))
  done
  rm -rf "$dir"
  return "$failed"
}

E2E="E2E_SERVER=compiled npx playwright test -c e2e/playwright.config.ts"
BUILD="npm run build -w @meter/server --silent && npm run build -w @meter/web --silent && npx tsx bench/web-bundle.ts"
CHECKS="npm run lint --silent && npx tsc --noEmit -p tsconfig.json && npx tsc --noEmit -p apps/web/tsconfig.json"
if [ "${TEST_SERIAL:-0}" = 1 ]; then
  step "代码检查与类型检查 (lint: typescript-eslint + module boundaries; typecheck)"
  bash -c "$CHECKS"
  step "构建与前端首屏体积 (server, simulator and packages to JavaScript; web build; first-load JS budget)"
  bash -c "$BUILD"
  step "单元、组件与集成测试 (vitest: unit, web, integration on PostgreSQL + embedded)"
  npx vitest run
  step "端到端测试 (Playwright in Chromium, against the compiled server)"
  bash -c "$E2E"
else
  step "检查、构建与全部测试并行 (lint, typecheck, unit and web; build then Playwright in Chromium against the compiled server; integration on PostgreSQL + embedded — side by side)"
  # three lanes from the start. End to end is the longest (a test after another, mostly waiting on the browser
  # and the server) and needs the builds, so its lane goes first: build, bundle guard, then Playwright in two
  # lanes of its own (E2E_WORKERS, playwright.config.ts) against its own server, embedded PostgreSQL and MQTT
  # broker on E2E_PORT.. — it shares nothing with integration. Checks, unit and web (CPU) and integration
  # (2 files at once, each worker in its own database copy) run beside it at a lower priority (nice), so the
  # longest lane is not the one that waits for a core. TEST_SERIAL=1: one after the other.
  together "$BUILD && E2E_WORKERS=\${E2E_WORKERS:-2} $E2E" \
    "nice -n 5 bash -c \"$CHECKS && npx vitest run --project unit --project 'web*'\"" \
    "nice -n 5 npx vitest run --project integration"
fi
