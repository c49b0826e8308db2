// Pay-application accounts end to end against the real server (demo seed, the worker's simulated
// provider): the demo company's online payment is collected; a platform admin, inside the demo
// company, registers an account on /huifu → the provider opens it; the company's collecting account
// (its oldest opened one, the demo's seeded 阳光物业汇付收款账户) shows the collected balance → 提现 with
// the fee shown and a confirmation → the withdrawal is on /noteswithdraw (商户提现) and succeeds.
import { expect, test, type Page } from '@playwright/test';
import { apiToken, goInApp, login, pickCompany, toast } from './helpers.ts';

const ADMIN = { username: 'admin', password: 'admin123' };
const DEMO_COMPANY = '阳光物业演示公司';

test.describe.configure({ mode: 'serial' });
test.slow();

test.beforeAll(async ({ request }) => {
  // an online payment of the demo company, paid on the local payment emulator's payer page (WeChat Pay v3 notify)
  const token = await apiToken(request);
  const h = { Authorization: token };
  const rooms = await (await request.get('/yewu/api/RoomInfo/GetEnergyRoom?index=1&size=50', { headers: h })).json();
  const room = rooms.data.find((x: { ownerId: number | null }) => x.ownerId != null);
  expect(room, 'an occupied demo room').toBeTruthy();
  const order = await (await request.post('/wxpay/api/wxpay/pay', { headers: h, data: { roomId: room.roomId, wallet: 'electric', amount: '200' } })).json();
  expect(order.code).toBe('SUCCESS');
  expect(order.data.emulated).toBe(true);
  const page = await (await request.get(order.data.codeUrl)).text();
  const action = /action="([^"]+)"/.exec(page)![1];
  expect(await (await request.post(new URL(action, order.data.codeUrl).toString())).text()).toContain('商户已确认到账');
});

async function searchName(page: Page, name: string) {
  const form = page.locator(':is(.ant-pro-query-filter, .light-table-search)').first();
  await form.getByLabel('账户名称', { exact: true }).fill(name);
  await form.getByRole('button', { name: /查\s*询/ }).click();
}

test('/huifu: register an account, it opens; the collecting account holds the payment, withdraw; /noteswithdraw lists the withdrawal', async ({ page }) => {
  await login(page, ADMIN);
  await pickCompany(page, DEMO_COMPANY);
  await goInApp(page, '/huifu');
  await expect(page.getByText('汇付用户申请').first()).toBeVisible();

  const name = `E2E收款户${Date.now().toString(36)}`;
  await page.getByRole('button', { name: /新增汇付账户/ }).click();
  const form = page.getByRole('dialog');
  await form.getByLabel('账户名称').fill(name);
  await form.getByLabel('法人/负责人').fill('张三');
  await form.getByLabel('证件号码').fill('91310000MA1FL0000X');
  await form.getByLabel('联系电话').fill('13800138000');
  await form.getByLabel('开户银行').fill('中国银行深圳分行');
  await form.getByLabel('开户名').fill('阳光物业演示公司');
  await form.getByLabel('银行账号').fill('6217 0000 1234 5678');
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expect(toast(page, '新增成功')).toBeVisible();

  // the worker's provider opens it and collects the company's online payments into it
  const row = page.locator('.ant-table-row').filter({ hasText: name });
  await expect(async () => {
    await searchName(page, name);
    await expect(row).toContainText('已开通', { timeout: 1000 });
    await expect(row.locator('[data-testid^="withdraw-"]')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(row).toContainText('6217 **** **** 5678');
  // a company's oldest opened account collects its online payments: in the demo that is the seeded
  // 阳光物业汇付收款账户 (demo/payapp seed), which holds the ¥200 paid above
  const collecting = '阳光物业汇付收款账户';
  const crow = page.locator('.ant-table-row').filter({ hasText: collecting });
  await expect(async () => {
    await searchName(page, collecting);
    // 可用余额: the collected ¥200 (and whatever else the demo company was paid online)
    await expect(crow).toContainText(/¥[1-9][\d,]*\.\d{2}/, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });

  await crow.locator('[data-testid^="withdraw-"]').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('withdraw-balance')).not.toHaveText('¥0.00');
  await dialog.getByPlaceholder('如 100 或 100.50').fill('100');
  await expect(dialog.getByTestId('withdraw-fee')).toHaveText('手续费 ¥1.00，合计扣除 ¥101.00');
  await dialog.getByRole('button', { name: /下一步/ }).click();
  await expect(page.getByTestId('confirm-amount')).toHaveText('¥100.00');
  await expect(page.getByTestId('confirm-fee')).toHaveText('¥1.00');
  await page.getByRole('button', { name: /确认提现/ }).click();
  await expect(page.getByTestId('withdraw-result')).toContainText('状态：处理中');
  await page.getByRole('button', { name: /完\s*成/ }).click();

  const withdrawals = await goInApp(page, '/noteswithdraw');
  const wd = withdrawals.locator('.ant-table-row').filter({ hasText: collecting }).filter({ hasText: '¥100.00' }).first();
  await expect(wd).toContainText('¥100.00');
  await expect(wd).toContainText('¥1.00');
  await expect(async () => {
    await withdrawals.locator(':is(.ant-pro-query-filter, .light-table-search)').first().getByRole('button', { name: /查\s*询/ }).click();
    await expect(wd).toContainText('提现成功', { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
});
