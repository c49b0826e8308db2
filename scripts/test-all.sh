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

step "代码检查、类型检查与构建 (lint: typescript-eslint + module boundaries; typecheck; server, simulator and packages to JavaScript; web build)"
together "npm run lint --silent" "npx tsc --noEmit -p tsconfig.json"
together "npx tsc --noEmit -p apps/web/tsconfig.json" "npm run build -w @meter/server --silent && npm run build -w @meter/web --silent"

step "前端首屏体积 (first-load JS budget)"
npx tsx bench/web-bundle.ts

E2E="E2E_SERVER=compiled npx playwright test -c e2e/playwright.config.ts"
if [ "${TEST_SERIAL:-0}" = 1 ]; then
  step "单元、组件与集成测试 (vitest: unit, web, integration on PostgreSQL + embedded)"
  npx vitest run
  step "端到端测试 (Playwright in Chromium, against the compiled server)"
  bash -c "$E2E"
else
  step "单元、组件、集成与端到端测试 (vitest: unit and web; Playwright in Chromium against the compiled server; vitest integration on PostgreSQL + embedded — side by side)"
  # three lines side by side, so that no core idles while one of them still has work: unit and web (CPU), end to
  # end (Chromium, mostly CPU), integration (2 files at once, each in its own database copy, mostly waiting on
  # PostgreSQL, MQTT and its own timers). End-to-end runs its own server, embedded PostgreSQL and MQTT broker on
  # E2E_PORT.. (playwright.config.ts): it shares nothing with integration. TEST_SERIAL=1: one after the other.
  together "npx vitest run --project unit --project 'web*'" "$E2E" "npx vitest run --project integration"
fi
