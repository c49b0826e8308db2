// /addedAppeal end to end against the real server (demo seed), as demo/demo123: staff register an
// owner's appeal (room picker, type with its time limit), accept it, reply, and complete it; the
// drawer's history shows each step and the list shows the final state.
import { expect, test, type Page } from '@playwright/test';
import { login, openFromMenu, toast } from './helpers.ts';

test.slow();

const title = `e2e报修${String(Date.now()).slice(-6)}`;
const dropdown = (page: Page) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();
const stepModal = (page: Page, name: string) => page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: name }) });

async function step(page: Page, button: RegExp, name: string, text: string) {
  const drawer = page.locator('.ant-drawer');
  await drawer.getByRole('button', { name: button }).click();
  const m = stepModal(page, name);
  await expect(m).toBeVisible();
  if (text) await m.locator('textarea').fill(text);
  await m.getByRole('button', { name: /确\s*定/ }).click();
  await expect(toast(page, `${name}成功`)).toBeVisible();
}

test('staff register an owner appeal, accept it, reply and complete it', async ({ page }) => {
  await login(page);
  await openFromMenu(page, '增值服务', '业主诉求');
  // the demo has appeals already, one of them overdue
  await expect(page.locator('.ant-table-tbody').getByText('已超时').first()).toBeVisible();

  await page.getByRole('button', { name: /登记诉求/ }).click();
  const form = page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: '登记业主诉求' }) });
  await form.locator('.ant-select').filter({ hasText: '请选择房间' }).click();
  await dropdown(page).locator('.ant-select-item-option').first().click();
  await form.locator('.ant-select').filter({ hasText: '请选择诉求类型' }).click();
  await dropdown(page).getByText('水电报修（4 小时）').click();
  await form.getByLabel('标题').fill(title);
  await form.getByLabel('内容').fill('阳台水龙头关不紧，一直滴水。');
  await form.getByRole('button', { name: /提\s*交/ }).click();
  await expect(toast(page, '诉求已登记')).toBeVisible();

  const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: title });
  await expect(row.getByText('待受理')).toBeVisible();
  await row.getByText(title).click();
  const drawer = page.locator('.ant-drawer');
  await expect(drawer.getByText('处理记录')).toBeVisible();

  await step(page, /受\s*理/, '受理', '');
  await expect(drawer.locator('.ant-descriptions').getByText('处理中')).toBeVisible();
  await step(page, /回\s*复/, '回复', '师傅明天上午上门更换水龙头。');
  await expect(drawer.getByText('师傅明天上午上门更换水龙头。')).toBeVisible();
  await step(page, /办\s*结/, '办结', '已更换水龙头，业主确认不再滴水。');
  await expect(drawer.locator('.ant-descriptions').getByText('已完成')).toBeVisible();
  await expect(drawer.locator('.ant-timeline-item')).toHaveCount(4);
  await expect(drawer.getByRole('button', { name: /办\s*结/ })).toHaveCount(0);

  await drawer.locator('.ant-drawer-close').click();
  await expect(row.getByText('已完成')).toBeVisible();
});
