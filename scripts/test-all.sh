#!/usr/bin/env bash
# `npm test`: every test — lint (module boundaries), type checks, unit, web components (jsdom), integration against a real
# PostgreSQL (plus a smoke run on the embedded database), and end-to-end in Chromium.
# Needs: PostgreSQL on 127.0.0.1:5432 (TEST_PG_ADMIN_URL to change), Mosquitto on 127.0.0.1:1883,
# Chromium at /usr/bin/chromium (CHROMIUM_PATH to change). .ci/run starts/installs them.
set -euo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export TZ=${TZ:-Asia/Shanghai}

step() { printf '\n\033[1m== %s ==\033[0m\n' "$*"; }

step "代码检查 (lint: typescript-eslint + module boundaries)"
npm run lint --silent

step "类型检查 (typecheck)"
npx tsc --noEmit -p tsconfig.json
npx tsc --noEmit -p apps/web/tsconfig.json

step "构建 (web build; server, simulator and packages to JavaScript)"
npm run build -w @meter/web --silent
npm run build -w @meter/server --silent

step "单元、组件与集成测试 (vitest: unit, web, integration on PostgreSQL + embedded)"
npx vitest run

step "前端首屏体积 (first-load JS budget)"
npx tsx bench/web-bundle.ts

step "端到端测试 (Playwright in Chromium)"
npx playwright test -c e2e/playwright.config.ts
