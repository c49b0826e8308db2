// Bank sub-merchants end to end against the real server and its local bank emulator (demo seed): a
// platform admin, inside the demo company, fills a sub-merchant application on /apply, submits it to the
// bank, has the code sent, reads the SMS code and the random amount on the emulator's page (as the
// merchant reads the phone and the account statement), verifies, opens it; /noteBocLog shows each step.
// The demo's opened sub-merchant withdraws from its sub-account.
import { expect, test, type Page } from '@playwright/test';
import { goInApp, login, pickCompany, toast } from './helpers.ts';

const ADMIN = { username: 'admin', password: 'admin123' };
const DEMO_COMPANY = '阳光物业演示公司';

test.describe.configure({ mode: 'serial' });
test.slow();

async function confirmAction(page: Page, testId: string) {
  await page.getByTestId(testId).click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: /确\s*定/ }).click();
}

test('/apply: an application goes through the bank to 已开通; /noteBocLog shows every step', async ({ page, request }) => {
  await login(page, ADMIN);
  await pickCompany(page, DEMO_COMPANY);
  await goInApp(page, '/apply');
  await expect(page.getByText('二级商户申请').first()).toBeVisible();

  const stamp = Date.now().toString(36);
  const name = `E2E商户${stamp}`;
  const accountNo = `62284800${String(Date.now()).slice(-8)}`;
  await page.getByRole('button', { name: /新增二级商户/ }).click();
  const form = page.getByRole('dialog');
  await form.getByLabel('商户名称').fill(name);
  await form.getByLabel('商户简称').fill('E2E商户');
  await form.getByLabel('统一社会信用代码').fill('91440300MA5FABCD1K');
  await form.getByLabel('法定代表人').fill('张三');
  await form.getByLabel('法人身份证号').fill('11010519491231002X');
  await form.getByLabel('联系人', { exact: true }).fill('李四');
  await form.getByLabel('验证手机号').fill('13812345678');
  await form.getByLabel('结算账户开户行').click();
  await page.locator('.ant-select-item-option').filter({ hasText: '中国农业银行' }).first().click();
  await form.getByLabel('结算账户名').fill('阳光物业演示公司');
  await form.getByLabel('结算账号').fill(accountNo);
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expect(toast(page, '新增成功')).toBeVisible();

  const row = page.locator('.ant-table-row').filter({ hasText: name });
  await expect(row).toContainText('待提交');
  const id = (await row.locator('[data-testid^="register-"]').getAttribute('data-testid'))!.replace('register-', '');
  await confirmAction(page, `register-${id}`);
  await expect(row).toContainText('已提交');
  await expect(row).toContainText(/ABC\d+/);
  await confirmAction(page, `sendCode-${id}`);
  await expect(row).toContainText('待验证');

  await page.getByTestId(`verify-${id}`).click();
  const dialog = page.getByRole('dialog');
  const inbox = await dialog.getByTestId('bank-inbox').getAttribute('href');
  const html = await (await request.get(inbox!)).text();
  const code = new RegExp(`${name}）开户验证码为 (\\d{6})`).exec(html)![1];
  const amount = new RegExp(`<td>${accountNo}</td><td>(\\d+\\.\\d{2})</td>`).exec(html)![1];
  // a wrong code first: refused, counted, the dialog stays
  await dialog.getByLabel('短信验证码').fill(code === '000000' ? '111111' : '000000');
  await dialog.getByLabel('随机金额（元）').fill(amount);
  await dialog.getByRole('button', { name: /提交验证/ }).click();
  await expect(dialog.getByTestId('verify-refusal')).toContainText('短信验证码不正确，还可尝试 2 次');
  await dialog.getByLabel('短信验证码').fill(code);
  await dialog.getByRole('button', { name: /提交验证/ }).click();
  await expect(toast(page, '验证通过，可申请开通')).toBeVisible();
  await expect(row).toContainText('已验证');
  await confirmAction(page, `activate-${id}`);
  await expect(row).toContainText('已开通');

  await page.getByTestId(`account-${id}`).click();
  await expect(page.getByTestId('subacc-available')).toHaveText('¥0.00');
  await page.keyboard.press('Escape');

  const bocLog = await goInApp(page, '/noteBocLog');
  const logs = bocLog.locator('.ant-table-row').filter({ hasText: name });
  await expect(logs.filter({ hasText: '子商户进件' })).toContainText('待提交 → 已提交');
  await expect(logs.filter({ hasText: '验证码与随机金额验证' }).filter({ hasText: '失败' })).toContainText('短信验证码不正确');
  await expect(logs.filter({ hasText: '变更子商户状态' })).toContainText('已验证 → 已开通');
});

test("/apply: the demo's opened sub-merchant withdraws from its sub-account to the settlement account", async ({ page }) => {
  await login(page, ADMIN);
  await pickCompany(page, DEMO_COMPANY);
  await goInApp(page, '/apply');
  const row = page.locator('.ant-table-row').filter({ hasText: '阳光物业演示公司科技园管理处' });
  await expect(row).toContainText('已开通');
  await row.locator('[data-testid^="account-"]').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('subacc-balance')).not.toHaveText('¥0.00');
  await dialog.getByLabel('提现金额').fill('100');
  await dialog.getByRole('button', { name: /提现到结算账户/ }).click();
  await expect(toast(page, '提现 ¥100.00 已到账')).toBeVisible();
  await expect(dialog.locator('.ant-table-row').first()).toContainText('已到账');
});
