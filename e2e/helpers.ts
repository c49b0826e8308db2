import { expect, type Page } from '@playwright/test';

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
    await page.goto('/healthz');
    await page.evaluate((s) => {
      for (const [k, v] of Object.entries(s.session)) sessionStorage.setItem(k, v);
      for (const [k, v] of Object.entries(s.local)) localStorage.setItem(k, v);
    }, saved);
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
