// The shell's flows in a real browser against the real server: login, guards, lock screen, tabs,
// session expiry, and duplicate-request refusal (SPEC §2, §4, §5, §8).
import { expect, test } from '@playwright/test';
import { DEMO, loginThroughForm as login, openFromMenu, storedToken, tabLabels, toast } from './helpers.ts';

test('logging in as demo lands on home with the company and the edition title', async ({ page }) => {
  await page.goto('/energy');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: '智能水电表物联网管理平台' })).toBeVisible();
  await login(page);
  await expect(page.locator('.shell-title')).toHaveText('智能水电表物联网管理平台');
  await expect(page.getByTestId('company-name')).not.toBeEmpty();
  await expect(page.getByTestId('clock')).toHaveText(/^\d{4}-\d{2}-\d{2} 星期. \d{2}:\d{2}:\d{2}$/);
  for (const name of ['视频教程', '文字教程', '设置', '个人中心', '退出']) {
    await expect(page.getByRole('button', { name })).toBeVisible();
  }
  // the side menu comes from the registry: company groups present, platform management absent
  await expect(page.locator('.shell-sider')).toContainText('档案管理');
  await expect(page.locator('.shell-sider')).not.toContainText('平台管理');
});

test('a wrong password is refused with the server message and stays on /login', async ({ page }) => {
  await page.goto('/login');
  await page.getByPlaceholder('用户名').fill('nobody-e2e');
  await page.getByPlaceholder('密码').fill('wrong-password');
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(toast(page, /用户名或密码错误/)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('a company user opening a platform route gets the 403 page; an unknown route 404', async ({ page }) => {
  await login(page);
  await page.goto('/administrator');
  await expect(page.getByText('抱歉，您没有权限访问该页面')).toBeVisible();
  await expect(page.locator('.ant-result-403')).toBeVisible();
  await page.goto('/noSuchPage');
  await expect(page.getByText('抱歉，您访问的页面不存在')).toBeVisible();
});

// Locking right after a menu click must return to the page clicked (/systemRole): the header once took the
// page to return to from the router's rendered location, which names the previous page (/home) until the
// new one has rendered (HeaderBar.tsx).
test('lock screen: every route redirects to /locking; a wrong password is refused; the right one returns', async ({ page }) => {
  await login(page);
  await openFromMenu(page, '系统管理', '角色管理');
  await expect(page).toHaveURL(/\/systemRole$/);
  // the overlay shows for its 3 s animation only: watch for it from the click on (on a loaded machine the
  // click's own checks can outlast it)
  const overlay = expect(page.getByTestId('lock-overlay')).toBeVisible();
  await page.getByRole('button', { name: '锁屏' }).click();
  await overlay;
  await expect(page).toHaveURL(/\/locking$/, { timeout: 3000 });

  for (const path of ['/home', '/energy', '/systemRole', '/headUser']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/locking$/);
  }
  await page.getByLabel('解锁密码').fill('not-the-password');
  await page.getByRole('button', { name: /解\s*锁/ }).click();
  await expect(toast(page, '密码错误')).toBeVisible();
  await expect(page).toHaveURL(/\/locking$/);

  await page.getByLabel('解锁密码').fill(DEMO.password);
  await page.getByRole('button', { name: /解\s*锁/ }).click();
  await expect(page).toHaveURL(/\/systemRole$/);
  // unlocked: /locking is no longer reachable
  await page.goto('/locking');
  await expect(page).toHaveURL(/\/home$/);
});

test('tabs: open three pages, close others, reload — the tabs come back', async ({ page }) => {
  await login(page);
  await openFromMenu(page, '档案管理', '房间档案');
  await openFromMenu(page, '系统管理', '角色管理');
  await openFromMenu(page, '记录查询', '操作日志');
  await expect.poll(() => tabLabels(page)).toEqual(['首页', '房间档案', '角色管理', '操作日志']);
  await expect(page.locator('.shell-breadcrumb .ant-breadcrumb-link')).toHaveText(['首页', '记录查询', '操作日志']);

  await page.getByRole('button', { name: /页签操作/ }).click();
  await page.getByRole('menuitem', { name: '关闭其他' }).click();
  await expect.poll(() => tabLabels(page)).toEqual(['首页', '操作日志']);

  await openFromMenu(page, '系统管理', '账号管理');
  await expect.poll(() => tabLabels(page)).toEqual(['首页', '操作日志', '账号管理']);

  await page.reload();
  await expect(page).toHaveURL(/\/systemRecords$/);
  await expect.poll(() => tabLabels(page)).toEqual(['首页', '操作日志', '账号管理']);
  await expect(page.locator('.shell-tabs .ant-tabs-tab-active')).toHaveText('账号管理');

  // home is pinned: close all keeps only home
  await page.getByRole('button', { name: /页签操作/ }).click();
  await page.getByRole('menuitem', { name: '关闭全部' }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect.poll(() => tabLabels(page)).toEqual(['首页']);
});

test('a page keeps its search while switching tabs', async ({ page }) => {
  await login(page);
  await openFromMenu(page, '系统管理', '账号管理');
  const search = page.locator('[data-page="systemRecords"]').getByLabel('用户名');
  await search.fill('reader');
  await page.locator('[data-page="systemRecords"]').getByRole('button', { name: /查\s*询/ }).click();
  await expect(page.locator('[data-page="systemRecords"] .ant-table-row')).toHaveCount(1);
  await openFromMenu(page, '系统管理', '角色管理');
  await page.locator('.shell-tabs').getByText('账号管理').click();
  await expect(search).toHaveValue('reader');
  await expect(page.locator('[data-page="systemRecords"] .ant-table-row')).toHaveCount(1);
});

test('an expired session: 登录状态过期，请重新登录 and back to the login page', async ({ page }) => {
  // the home page's own calls done first: one still in flight when the session is revoked would meet
  // the 401 on /home (toast there, session cleared), and the reload below would land on /login silently.
  // Its area tree and billing figures load with lazy chunks, which on a busy machine can come after a
  // quiet network moment: wait for their answers themselves.
  const homeCalls = Promise.all(
    ['/yewu/api/GetAreaTree', '/Home/BillingSummary'].map((p) => page.waitForResponse((r) => r.url().includes(p), { timeout: 120_000 })),
  );
  await login(page);
  await homeCalls;
  await page.waitForLoadState('networkidle');
  const token = await storedToken(page);
  const res = await page.request.post('/yonghu/api/logout', { headers: { Authorization: token } });
  expect(res.ok()).toBeTruthy();
  // act: open a page that loads data (a reload keeps the stored session, as a user's F5 would)
  await page.goto('/systemRecords');
  await expect(toast(page, '登录状态过期，请重新登录')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => sessionStorage.getItem('meter.token'))).toBeNull();
});

test('a double-clicked save sends one request and shows 请勿重复操作', async ({ page }) => {
  await login(page);
  await openFromMenu(page, '系统管理', '角色管理');
  const name = `e2e角色${Date.now() % 100000}`;
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/yonghu/api/admin/role') posts.push(r.postData() ?? '');
  });
  await page.getByRole('button', { name: /新增角色/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('角色名称').fill(name);
  await dialog.getByLabel('备注').fill('端到端测试');
  await dialog.getByRole('button', { name: /保\s*存/ }).dblclick();
  await expect(toast(page, '请勿重复操作')).toBeVisible();
  await expect(toast(page, '新增成功')).toBeVisible();
  await expect(page.locator('[data-page="systemRole"] .ant-table-row').filter({ hasText: name })).toBeVisible();
  expect(posts).toHaveLength(1);
  expect(JSON.parse(posts[0])).toMatchObject({ name, memo: '端到端测试' });

  // clean up through the API
  const token = await storedToken(page);
  const list = await page.request.get(`/yonghu/api/admin/role/list?index=1&size=100&name=${encodeURIComponent(name)}`, { headers: { Authorization: token } });
  const row = ((await list.json()).data as { id: number; name: string }[]).find((r) => r.name === name);
  if (row) await page.request.delete(`/yonghu/api/admin/role?id=${row.id}`, { headers: { Authorization: token } });
});
