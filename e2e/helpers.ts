import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, type APIRequestContext, type BrowserContext, type Locator, type Page } from '@playwright/test';

export const DEMO = { username: 'demo', password: 'demo123' };

/** Log in through the login page and land on /home (what shell.spec and settings.spec test). */
export async function loginThroughForm(page: Page, user = DEMO): Promise<void> {
  await page.goto('/login');
  await page.getByPlaceholder('用户名').fill(user.username);
  await page.getByPlaceholder('密码').fill(user.password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByText('快捷入口')).toBeVisible();
}

/** What a sign-in left in the tab's storage (sessionStorage: the session; localStorage: e.g. the edition). */
interface SignedIn {
  session: Record<string, string>;
  local: Record<string, string>;
}
/** Per worker: the storage a sign-in left, by user and password. */
const signedIn = new Map<string, SignedIn>();

/**
 * Be signed in as `user` on /home. The worker's first sign-in as that user goes through the login page;
 * later tests get the storage it left (the session is in sessionStorage, which Playwright's storageState does not keep) —
 * while the server still accepts its token (no test revoked it) — and open /home with it.
 */
export async function login(page: Page, user = DEMO): Promise<void> {
  const key = `${user.username}\n${user.password}`;
  const saved = signedIn.get(key);
  if (saved && (await tokenAccepted(page, saved.session['meter.token']))) {
    await restore(page, saved);
    await page.goto('/home');
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByText('快捷入口')).toBeVisible();
    return;
  }
  await loginThroughForm(page, user);
  signedIn.set(key, await page.evaluate(() => ({
    session: Object.fromEntries(Object.entries(sessionStorage)),
    local: Object.fromEntries(Object.entries(localStorage)),
  })));
}

/**
 * Be signed in as `user` on `route` (a page of the shell): as login(), but a session the worker already has
 * opens the page at once, without going through /home first; a first sign-in goes through the login page
 * to /home, then to the page.
 */
export async function loginAt(page: Page, route: string, user = DEMO): Promise<void> {
  const saved = signedIn.get(`${user.username}\n${user.password}`);
  if (saved && (await tokenAccepted(page, saved.session['meter.token']))) {
    await restore(page, saved);
    await page.goto(route);
  } else {
    await login(page, user);
    await page.goto(route);
  }
  // the shell, signed in (not sent to /login); waited for as the test's own first action on the page would
  // wait for it (no expect timeout: on a busy machine the page's chunks can take longer)
  await page.locator('.shell-title').waitFor();
}

/**
 * Opens a route inside the running app, without loading it again (each full load parses the app's
 * JavaScript anew): the history changes as a link's click changes it, and the router follows (popstate).
 * The page opens in its tab as from the menu; the pages opened before stay mounted in theirs, hidden —
 * so look for the page's own elements inside the locator this answers (the page's container, shown).
 * A tab not showing the app yet (no shell) loads the route instead.
 */
export async function goInApp(page: Page, route: string): Promise<Locator> {
  if ((await page.locator('.shell-title').count()) === 0) {
    await page.goto(route);
  } else {
    await page.evaluate((r) => {
      window.history.pushState({}, '', r);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, route);
  }
  await expect(page).toHaveURL(new RegExp(`${route}$`));
  const shown = page.locator(`.shell-page[data-page="${route.slice(1)}"]`);
  // shown, so every other page is hidden (no expect timeout: on a busy machine the page's chunk can take longer)
  await shown.waitFor();
  return shown;
}

/** Puts a sign-in's storage back in this tab (the app's origin, before the app loads). */
async function restore(page: Page, saved: SignedIn): Promise<void> {
  await page.goto('/healthz');
  await page.evaluate((s) => {
    for (const [k, v] of Object.entries(s.session)) sessionStorage.setItem(k, v);
    for (const [k, v] of Object.entries(s.local)) localStorage.setItem(k, v);
  }, saved);
}

async function tokenAccepted(page: Page, token: string | undefined): Promise<boolean> {
  if (!token) return false;
  const res = await page.request.get('/yonghu/api/admin/user/token', { headers: { Authorization: token } });
  return res.ok() && (await res.json()).code === 'SUCCESS';
}

/** The session token the web app stored (sessionStorage). */
export async function storedToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => sessionStorage.getItem('meter.token'));
  expect(token, 'a session token in sessionStorage').toBeTruthy();
  return token!;
}

/** Sign in through the API: the session token (for the specs' own API calls). */
export async function apiToken(request: APIRequestContext, user = DEMO): Promise<string> {
  return (await (await request.post('/yonghu/api/admin/login', { data: user })).json()).data.token as string;
}

/**
 * A call of the server's JSON API with a session token: the answer's code must be SUCCESS; answers its
 * data, or the whole body of a list (data and count).
 */
export async function apiCall<T>(request: APIRequestContext, token: string, method: 'GET' | 'POST' | 'PUT', url: string, data?: unknown): Promise<T> {
  const res = await request.fetch(url, { method, headers: { Authorization: token }, ...(data !== undefined ? { data } : {}) });
  const body = await res.json();
  expect(body.code, `${method} ${url}: ${JSON.stringify(body)}`).toBe('SUCCESS');
  return ('count' in body ? body : body.data) as T;
}

/** A platform administrator picks the company whose data they look at (the header's 选择单位). */
export async function pickCompany(page: Page, name: string): Promise<void> {
  const picker = page.getByRole('combobox', { name: '选择单位' });
  await picker.click();
  await picker.fill(name);
  await page.locator('.ant-select-item-option').filter({ hasText: name }).first().click();
}

/** window.print() counts in window.__printed instead of opening the print dialog (from the next page load on). */
export async function countPrints(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__printed = 0;
    window.print = () => {
      window.__printed += 1;
    };
  });
}

/**
 * At the counter (/energy 扫码充值): the room's payer scans the QR and pays `amount` on the local WeChat Pay
 * emulator's payer page; the dialog shows it credited. Answers the payer page's address.
 */
export async function payByQrAtCounter(page: Page, context: BrowserContext, room: { roomId: number; roomName: string }, amount: string): Promise<string> {
  const shown = `¥${Number(amount).toFixed(2)}`;
  const energy = await goInApp(page, '/energy');
  const form = energy.locator(':is(.ant-pro-query-filter, .light-table-search)').first();
  await form.getByLabel('房间', { exact: true }).fill(room.roomName);
  await form.getByRole('button', { name: /查\s*询/ }).click();
  await page.getByTestId(`online-${room.roomId}`).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/充值金额/).fill(amount);
  await dialog.getByRole('button', { name: /生成收款码/ }).click();
  const payUrl = await page.getByTestId('online-emulator').getAttribute('href');
  expect(payUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  const payer = await context.newPage();
  await payer.goto(payUrl!);
  await expect(payer.getByText(shown)).toBeVisible();
  await payer.getByRole('button', { name: '确认支付' }).click();
  await expect(payer.getByText(/商户已确认到账/)).toBeVisible();
  await payer.close();
  await expect(page.getByTestId('online-paid')).toContainText(`${shown} 已入账`, { timeout: 30_000 });
  return payUrl!;
}

/** The paid order's receipt (打印票据 in the 扫码充值 dialog): its amount and the amount in capitals. */
export async function openOnlineReceipt(page: Page, amount: string, capitals: string): Promise<void> {
  await page.getByTestId('online-receipt').click();
  await expect(page.getByTestId('receipt-amount')).toHaveText(`¥${Number(amount).toFixed(2)}`);
  await expect(page.getByTestId('receipt-capitals')).toHaveText(capitals);
}

/** 打印 in the receipt preview prints once (countPrints), then 关闭 and 完成 close the preview and the dialog. */
export async function printReceiptAndClose(page: Page): Promise<void> {
  const preview = page.getByRole('dialog', { name: '票据预览' });
  await preview.getByRole('button', { name: /打\s*印/ }).click();
  await expect.poll(() => page.evaluate(() => window.__printed)).toBe(1);
  await preview.getByRole('button', { name: /关\s*闭/ }).click();
  await page.getByRole('button', { name: /完\s*成/ }).click();
}

/** The e2e server's device gateway (playwright.config.ts: E2E_PORT + 3); against an external server give E2E_GATEWAY_PORT. */
export const gatewayPort = Number(process.env.E2E_GATEWAY_PORT ?? Number(process.env.E2E_PORT ?? 18480) + 3);

/**
 * Starts a small simulated fleet (the simulator CLI with a definition file) connecting to the gateway: the
 * compiled CLI when the server is the compiled one (E2E_SERVER=compiled, built with it), else the sources.
 */
export function startFleet(definition: string): ChildProcess {
  const cli = process.env.E2E_SERVER === 'compiled'
    ? ['--conditions=compiled', 'apps/simulator/dist/cli.js']
    : ['--import', 'tsx', 'apps/simulator/src/cli.ts'];
  const fleet = spawn(process.execPath, [...cli, '--gateway', `127.0.0.1:${gatewayPort}`, '--definition', definition, '--status-every', '600000'], {
    cwd: resolve(import.meta.dirname, '..'),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  fleet.stderr?.on('data', (d) => process.stderr.write(`[simulator] ${d}`));
  return fleet;
}

/** Stops a fleet startFleet started, if it still runs. */
export async function stopFleet(fleet: ChildProcess | undefined): Promise<void> {
  if (fleet && fleet.exitCode === null) {
    fleet.kill('SIGTERM');
    await new Promise((r) => fleet.once('exit', r));
  }
}

/** Labels of the open-page tabs, in order. */
export async function tabLabels(page: Page): Promise<string[]> {
  return (await page.locator('.shell-tabs .ant-tabs-tab').allInnerTexts()).map((t) => t.trim());
}

/** Open a page through the side menu: group title, then page title. */
export async function openFromMenu(page: Page, group: string, title: string): Promise<void> {
  const menu = page.locator('.shell-sider');
  const item = menu.getByRole('menuitem', { name: title, exact: true });
  if (!(await item.isVisible())) await menu.getByRole('menuitem', { name: group }).click();
  await item.click();
  await expect(page.locator('.shell-tabs .ant-tabs-tab').filter({ hasText: title })).toHaveCount(1);
}

/** A visible antd message toast with this text. */
export function toast(page: Page, text: string | RegExp) {
  return page.locator('.ant-message-notice').filter({ hasText: text });
}

declare global {
  interface Window {
    /** how many times the page printed (specs replace window.print to count) */
    __printed: number;
    /** screen.spec: set before a live update, still there after it (no reload happened) */
    __sameDocument?: boolean;
  }
}
