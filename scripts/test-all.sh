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

CHECKS="npm run lint --silent && npx tsc --noEmit -p tsconfig.json && npx tsc --noEmit -p apps/web/tsconfig.json"
BUILD="npm run build -w @meter/server --silent && npm run build -w @meter/web --silent && npx tsx bench/web-bundle.ts"
E2E="E2E_SERVER=compiled npx playwright test -c e2e/playwright.config.ts"
UNIT="npx vitest run --project unit --project 'web*'"
INTEGRATION="npx vitest run --project integration"
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
  step "检查、构建与全部测试，三条线并行 (lint, typecheck, unit and web | build, first-load JS budget, end to end in Chromium | integration on PostgreSQL + embedded)"
  # three lines side by side from the start, so that no core idles while one of them still has work and the
  # longest (integration: 2 files at once, each in its own database copy, mostly waiting on PostgreSQL, MQTT and
  # its own timers) does not wait for the checks and builds. End to end needs the builds (it runs the compiled
  # server and the built web app); it runs its own server, embedded PostgreSQL and MQTT broker on E2E_PORT..
  # (playwright.config.ts) and shares nothing with integration. TEST_SERIAL=1: one after the other.
  together "$CHECKS && $UNIT" "$BUILD && $E2E" "$INTEGRATION"
fi
