// Declared CRUD resources rendered by CrudPage, end to end against the real server (demo seed), as
// demo/demo123: a 公告类型 (类型设置 on /addedAppeal) and a 收费类型 (/systemFees) are added, edited and
// deleted through their declared endpoints; the form refuses what the declaration refuses.
import { expect, test, type Page } from '@playwright/test';
import { login, openFromMenu, toast } from './helpers.ts';

test.slow();

const suffix = String(Date.now()).slice(-6);
const modal = (page: Page, title: string) => page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });

async function addEditDelete(page: Page, entity: string, nameLabel: string, name: string, fill?: (m: ReturnType<typeof modal>) => Promise<void>) {
  await page.getByRole('button', { name: new RegExp(`新增${entity}`) }).click();
  const add = modal(page, `新增${entity}`);
  await expect(add).toBeVisible();
  // the declaration's rule, in Chinese, before anything is sent
  await add.getByRole('button', { name: /保\s*存/ }).click();
  await expect(add.getByText(`请输入${nameLabel}`)).toBeVisible();
  await add.getByLabel(nameLabel).fill(name);
  if (fill) await fill(add);
  await add.getByRole('button', { name: /保\s*存/ }).click();
  await expect(toast(page, '新增成功')).toBeVisible();

  const row = (n: string) => page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: n });
  await expect(row(name).getByText('在用')).toBeVisible();
  await row(name).getByText('编辑').click();
  const edit = modal(page, `编辑${entity}`);
  await expect(edit.getByLabel(nameLabel)).toHaveValue(name);
  await edit.getByLabel(nameLabel).fill(`${name}改`);
  await edit.getByRole('button', { name: /保\s*存/ }).click();
  await expect(toast(page, '保存成功')).toBeVisible();
  await expect(row(`${name}改`)).toHaveCount(1);

  await row(`${name}改`).getByText('删除').click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: /确\s*定/ }).click();
  await expect(toast(page, '删除成功')).toBeVisible();
  await expect(row(`${name}改`)).toHaveCount(0);
}

test('类型设置: a notice type is added, edited and deleted', async ({ page }) => {
  await login(page);
  await openFromMenu(page, '增值服务', '业主诉求');
  await page.getByRole('tab', { name: '类型设置' }).click();
  await page.getByRole('tab', { name: '公告类型' }).click();
  await addEditDelete(page, '公告类型', '公告类型名称', `e2e公告${suffix}`);
});

test('/systemFees: a charging type is added (its category by default 电费), edited and deleted', async ({ page }) => {
  await login(page);
  await openFromMenu(page, '系统管理', '收费类型');
  await addEditDelete(page, '收费类型', '收费类型名称', `e2e收费${suffix}`, async (m) => {
    await expect(m.locator('.ant-select').filter({ hasText: '电费' })).toBeVisible();
  });
});
