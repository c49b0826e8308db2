// 个人中心 and 收费码 end to end against the real server (demo seed): a fresh account changes its
// password on /headUser (its login history shows the session in use; afterwards only the new password
// logs in), and demo adds a 收费码 on /chargeCode through the declared form, then deletes it.
import { expect, test, type Page } from '@playwright/test';
import { DEMO, goInApp, loginThroughForm as login, toast } from './helpers.ts';

test.slow();

const suffix = String(Date.now()).slice(-6);
const modal = (page: Page, title: string) => page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });

test('/headUser: the login history shows this session; a password change ends it and only the new password works', async ({ page, request }) => {
  const auth = (await (await request.post('/yonghu/api/admin/login', { data: DEMO })).json()).data.token as string;
  const user = { username: `e2e_pwd${suffix}`, password: 'Start1234' };
  const created = await request.post('/yonghu/api/admin/user', {
    headers: { authorization: auth }, data: { ...user, realName: '改密测试', phone: '' },
  });
  expect((await created.json()).code).toBe('SUCCESS');

  await login(page, user);
  await goInApp(page, '/headUser');
  await expect(page.locator('.ant-table-row').filter({ hasText: '当前在线' })).toHaveCount(1);

  await page.getByLabel('原密码').fill(user.password);
  await page.getByLabel('新密码', { exact: true }).fill('short');
  await page.getByLabel('确认新密码').fill('short');
  await page.getByRole('button', { name: '修改密码' }).click();
  await expect(page.getByText('密码至少 8 位')).toBeVisible();
  await page.getByLabel('新密码', { exact: true }).fill('Changed5678');
  await page.getByLabel('确认新密码').fill('Changed5678');
  await page.getByRole('button', { name: '修改密码' }).click();
  await expect(toast(page, '密码修改成功，请重新登录')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByPlaceholder('用户名').fill(user.username);
  await page.getByPlaceholder('密码').fill(user.password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(toast(page, /用户名或密码错误|密码错误|登录失败/)).toBeVisible();
  await login(page, { username: user.username, password: 'Changed5678' });
  await goInApp(page, '/headUser');
  await expect(page.locator('.ant-table-row').filter({ hasText: '失败：密码错误' })).toHaveCount(1);
});

test('/chargeCode: a charge code is added through the declared form, listed with its 收费类别 in words, and deleted', async ({ page }) => {
  await login(page);
  await goInApp(page, '/chargeCode');
  await page.getByRole('button', { name: /新增收费码/ }).click();
  const add = modal(page, '新增收费码');
  await add.getByLabel('收费码', { exact: true }).fill('W Y');
  await add.getByRole('button', { name: /保\s*存/ }).click();
  await expect(add.getByText('收费码只能包含字母、数字、下划线和短横线')).toBeVisible();
  await expect(add.getByText('请输入收费名称')).toBeVisible();
  const code = `E2E${suffix}`;
  await add.getByLabel('收费码', { exact: true }).fill(code);
  await add.getByLabel('收费名称').fill('e2e车位管理费');
  await add.getByLabel('收费类别').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '物业费' }).click();
  await add.getByLabel('金额（元）').fill('88');
  await add.getByRole('button', { name: /保\s*存/ }).click();
  await expect(toast(page, '新增成功')).toBeVisible();
  const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: code });
  await expect(row.getByText('物业费')).toBeVisible();
  await expect(row.getByText(/88\.00/)).toBeVisible();
  await row.getByText('删除').click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: /确\s*定/ }).click();
  await expect(toast(page, '删除成功')).toBeVisible();
  await expect(row).toHaveCount(0);
});
