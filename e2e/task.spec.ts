import { expect, test } from '@playwright/test';
import { login, loginAt, openFromMenu } from './helpers.ts';

// /task as a platform administrator: the server's timed jobs (the one scheduler's record) above the
// reading tasks — each with its state, last and next run; a company user sees the reading tasks only.

test('/task: a platform administrator sees every timed job with its last and next run', async ({ page }) => {
  await login(page, { username: 'admin', password: 'admin123' });
  await openFromMenu(page, '任务管理', '任务列表');
  const jobs = page.locator('.ant-card', { hasText: '定时任务' });
  await expect(jobs).toBeVisible();
  // the worker's frequent jobs have run by now (the server started with every role)
  const settlement = jobs.locator('tr', { hasText: '抄表结算' });
  await expect(settlement).toBeVisible({ timeout: 30_000 });
  await expect(settlement).toContainText('正常');
  await expect(settlement).toContainText('5 秒');
  await expect(settlement.locator('td').nth(3)).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/); // 上次运行
  await expect(settlement.locator('td').nth(5)).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/); // 下次运行
  await expect(jobs.locator('tr', { hasText: '短信/电话提醒发送' })).toBeVisible();
  await expect(page.getByText('抄表任务')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('task-1440.png'), fullPage: false });
});

test('/task: a company user sees the reading tasks only', async ({ page }) => {
  await loginAt(page, '/task');
  await expect(page.getByText('抄表任务')).toBeVisible();
  await expect(page.locator('.ant-card', { hasText: '定时任务' })).toHaveCount(0);
});
