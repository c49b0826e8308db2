// 业主端 H5 end to end (issue 15 item 8), in Chromium at 375×812 against the real server (demo seed):
// the company publishes a notice in the back-office; the demo owner signs in to /h5 by phone + SMS code
// (the code read from the outbox as /notesMessage lists it), reads the notice (marked read), submits an
// appeal with a photo; the company accepts, answers and completes it on /addedAppeal; the owner sees it
// completed with the answer, and the photo is served to them.
import { expect, test, type Page } from '@playwright/test';
import { DEMO, login, openFromMenu, toast } from './helpers.ts';

test.slow();

const OWNER_PHONE = '13900000001';
const stamp = String(Date.now()).slice(-6);
const noticeTitle = `e2e业主公告${stamp}`;
const appealTitle = `e2e业主报修${stamp}`;
// a 1×1 PNG (the upload checks the type by its first bytes)
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

async function step(page: Page, button: RegExp, name: string, text: string) {
  const drawer = page.locator('.ant-drawer');
  await drawer.getByRole('button', { name: button }).click();
  const m = page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: name }) });
  await expect(m).toBeVisible();
  if (text) await m.locator('textarea').fill(text);
  await m.getByRole('button', { name: /确\s*定/ }).click();
  await expect(toast(page, `${name}成功`)).toBeVisible();
}

test('a notice published in the back-office is read in the owner app; an appeal with a photo is answered and closed', async ({ page, browser, request }) => {
  // ---- the company publishes a notice to all owners ----
  await login(page);
  await openFromMenu(page, '增值服务', '物业公告');
  await page.getByRole('button', { name: /新建公告/ }).click();
  const modal = page.locator('.ant-modal').filter({ hasText: '新建物业公告' });
  await modal.getByPlaceholder(/关于 12 月 1 日停水/).fill(noticeTitle);
  await modal.getByRole('textbox', { name: '公告内容' }).click();
  await page.keyboard.type('本周六上午小区停水检修，请提前储水。');
  await modal.getByRole('button', { name: /保存草稿/ }).click();
  await expect(toast(page, /公告草稿已保存/)).toBeVisible();
  const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: noticeTitle });
  await row.getByText('发布').click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定/ }).click();
  await expect(toast(page, '公告已发布')).toBeVisible();

  // ---- the owner signs in on a phone: phone + SMS code ----
  const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: 'zh-CN', timezoneId: 'Asia/Shanghai', isMobile: true, hasTouch: true });
  const owner = await phone.newPage();
  await owner.goto('/h5');
  await expect(owner).toHaveURL(/\/h5\/login$/);
  await owner.getByLabel('手机号').fill(OWNER_PHONE);
  await owner.getByRole('button', { name: '获取验证码' }).click();
  await expect(owner.getByRole('button', { name: /秒后重发/ })).toBeVisible();
  const staff = (await (await request.post('/yonghu/api/admin/login', { data: DEMO })).json()).data.token as string;
  const sms = await (await request.get(`/sms/log/list?index=1&size=5&phone=${OWNER_PHONE}&level=8`, { headers: { Authorization: staff } })).json();
  const code = /验证码为 (\d{6})/.exec(sms.data[0].content)![1];
  await owner.getByPlaceholder('6 位验证码').fill(code);
  await owner.getByRole('button', { name: /登\s*录/ }).click();
  await expect(owner).toHaveURL(/\/h5$/);
  await expect(owner.getByRole('heading', { name: '我的房间' })).toBeVisible();
  await expect(owner.getByText('电费余额').first()).toBeVisible();

  // ---- reads the notice: unread, then read ----
  await owner.getByRole('link', { name: '公告' }).click();
  const item = owner.locator('.h5-row').filter({ hasText: noticeTitle });
  await expect(item.getByLabel('未读')).toBeVisible();
  await item.getByText(noticeTitle).click();
  await expect(owner.getByText('本周六上午小区停水检修，请提前储水。')).toBeVisible();
  await owner.getByRole('link', { name: '返回' }).click();
  await expect(owner.locator('.h5-row').filter({ hasText: noticeTitle })).toContainText('已读');

  // ---- submits an appeal with a photo ----
  await owner.getByRole('link', { name: '诉求' }).click();
  await owner.getByRole('button', { name: /提交诉求/ }).click();
  await owner.locator('.ant-form-item').filter({ hasText: '诉求类型' }).locator('.ant-select').click();
  await owner.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').first().click();
  await owner.getByLabel('标题').fill(appealTitle);
  await owner.getByLabel('内容').fill('卫生间水管漏水，请安排维修。');
  await owner.getByTestId('appeal-photo-input').setInputFiles({ name: '漏水.png', mimeType: 'image/png', buffer: PNG });
  await expect(owner.locator('.h5-photos img')).toHaveCount(1);
  await owner.getByRole('button', { name: /提\s*交/ }).click();
  await expect(toast(owner, '诉求已提交')).toBeVisible();
  await expect(owner.getByTestId('appeal-status')).toHaveText('待受理');
  // the photo is served to the owner (a private file of their room)
  await expect(owner.locator('.h5-photos img[src^="blob:"]')).toHaveCount(1);
  const appealUrl = owner.url();

  // ---- the company accepts, answers and completes it ----
  await openFromMenu(page, '增值服务', '业主诉求');
  const appeal = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: appealTitle });
  await expect(appeal.getByText('待受理')).toBeVisible();
  await appeal.getByText(appealTitle).click();
  await step(page, /受\s*理/, '受理', '');
  await step(page, /回\s*复/, '回复', '维修师傅今天下午上门。');
  await step(page, /办\s*结/, '办结', '已更换漏水管件。');

  // ---- the owner sees it completed, with the answer ----
  await owner.goto(appealUrl);
  await expect(owner.getByTestId('appeal-status')).toHaveText('已完成');
  await expect(owner.getByText('维修师傅今天下午上门。')).toBeVisible();
  await expect(owner.getByText('已更换漏水管件。')).toBeVisible();
  await phone.close();
});
