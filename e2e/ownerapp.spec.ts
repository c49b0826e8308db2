// 业主端 H5 end to end (issue 15 item 8), in Chromium at 375×812 against the real server (demo seed):
// the company publishes a notice in the back-office; the demo owner signs in to /h5 by phone + SMS code
// (the code read from the outbox row the SMS carries: /notesMessage hides it from staff), chooses the
// demo company (the phone is also an owner's in a second company), reads the notice (marked read),
// submits an appeal with a photo; the company accepts, answers and completes it on /addedAppeal; the
// owner sees it completed with the answer, and the photo is served to them; then signs in again by room +
// password and walks the room's usage, bills and payment history and the top-up page.
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { DEMO, login, openFromMenu, toast } from './helpers.ts';

test.slow();

const OWNER_PHONE = '13900000001';
const stamp = String(Date.now()).slice(-6);
const noticeTitle = `e2e业主公告${stamp}`;
const appealTitle = `e2e业主报修${stamp}`;
// a 1×1 PNG (the upload checks the type by its first bytes)
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

// the e2e server's embedded PostgreSQL (playwright.config.ts: E2E_PORT + 1), or E2E_PG_URL
const db = new pg.Pool({
  connectionString: process.env.E2E_PG_URL ?? `postgres://postgres:postgres@127.0.0.1:${process.env.E2E_PG_PORT ?? Number(process.env.E2E_PORT ?? 18480) + 1}/meter`,
  max: 1,
});
let second: { ownerId: number; companyName: string; roomName: string } | null = null;

// the demo owner's phone is also an owner's in a second company (a vacant room of another company)
test.beforeAll(async () => {
  const { rows: [demo] } = await db.query(`SELECT o.company_id, c.name FROM owners o JOIN companies c ON c.id = o.company_id WHERE o.phone = $1 AND o.status = 1 ORDER BY o.id LIMIT 1`, [OWNER_PHONE]);
  const { rows: [room] } = await db.query(`SELECT r.id, r.company_id, r.name, c.name AS company_name FROM rooms r JOIN companies c ON c.id = r.company_id
    WHERE r.company_id <> $1 AND r.status = 1 AND NOT EXISTS (SELECT 1 FROM owners o WHERE o.room_id = r.id AND o.status = 1) ORDER BY r.id LIMIT 1`, [demo.company_id]);
  expect(room, 'a vacant room of another company in the demo').toBeTruthy();
  const { rows: [o] } = await db.query(`INSERT INTO owners (company_id, name, phone, status, room_id, moved_in_at) VALUES ($1, 'e2e双公司业主', $2, 1, $3, now()) RETURNING id`,
    [room.company_id, OWNER_PHONE, room.id]);
  second = { ownerId: Number(o.id), companyName: String(room.company_name), roomName: String(room.name) };
});
// the second owner is retired, not deleted: by now the server may have opened an account for it (the journal
// and accounts reference owners and are never deleted)
test.afterAll(async () => {
  if (second) await db.query(`UPDATE owners SET status = 0, room_id = NULL WHERE id = $1`, [second.ownerId]);
  await db.end();
});

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
  // the SMS carries the code (the outbox row the sender hands over); staff on /notesMessage never see it
  const { rows: [sent] } = await db.query(`SELECT content FROM notifications WHERE phone = $1 AND level = 8 ORDER BY id DESC LIMIT 1`, [OWNER_PHONE]);
  const code = /验证码为 (\d{6})/.exec(sent.content)![1];
  const staff = (await (await request.post('/yonghu/api/admin/login', { data: DEMO })).json()).data.token as string;
  const sms = await (await request.get(`/sms/log/list?index=1&size=5&phone=${OWNER_PHONE}&level=8`, { headers: { Authorization: staff } })).json();
  expect(sms.data[0].content).toContain('【验证码已隐藏】');
  expect(JSON.stringify(sms)).not.toContain(code);
  await owner.getByPlaceholder('6 位验证码').fill(code);
  await owner.getByRole('button', { name: /登\s*录/ }).click();
  // registered in two companies: choose the demo company (its rooms only from then on)
  await expect(owner.getByRole('heading', { name: '选择物业' })).toBeVisible();
  await expect(owner.locator('.h5-choice').filter({ hasText: second!.companyName })).toContainText(second!.roomName);
  await owner.locator('.h5-choice').filter({ hasNotText: second!.companyName }).click();
  await expect(owner).toHaveURL(/\/h5$/);
  await expect(owner.getByRole('heading', { name: '我的房间' })).toBeVisible();
  await expect(owner.getByText('电费余额').first()).toBeVisible();
  await expect(owner.getByText('e2e双公司业主')).toHaveCount(0);

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

test('room + password sign-in; the room\'s usage, bills and payment history; a top-up on the payer page; 我的', async ({ browser }, info) => {
  const { rows: [mine] } = await db.query(`SELECT o.room_id, r.name FROM owners o JOIN rooms r ON r.id = o.room_id WHERE o.phone = $1 AND o.status = 1 AND o.password_hash <> '' ORDER BY o.id LIMIT 1`, [OWNER_PHONE]);
  const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: 'zh-CN', timezoneId: 'Asia/Shanghai', isMobile: true, hasTouch: true });
  const owner = await phone.newPage();
  const shot = (name: string) => (process.env.E2E_SHOTS ? owner.screenshot({ path: info.outputPath(`${name}.png`), fullPage: true }) : Promise.resolve());
  await owner.goto('/h5/login');
  await owner.getByRole('tab', { name: '房间密码登录' }).click();
  await owner.getByLabel('房间编号').fill('999999');
  await owner.getByPlaceholder('业主密码').fill('owner123');
  await owner.getByRole('button', { name: /登\s*录/ }).last().click();
  await expect(toast(owner, /房间编号或密码错误/)).toBeVisible();
  await owner.getByLabel('房间编号').fill(String(mine.room_id));
  await owner.getByRole('button', { name: /登\s*录/ }).last().click();
  await expect(owner.getByRole('heading', { name: '我的房间' })).toBeVisible();
  await expect(owner.locator('.h5-card h2')).toHaveCount(1);
  // the refusal of the first try does not stay over the signed-in page
  await expect(toast(owner, /房间编号或密码错误/)).toHaveCount(0);
  await shot('home');

  // usage by day and month, the monthly bills, the payment history
  await owner.getByRole('button', { name: '用量与账单' }).click();
  await expect(owner.getByRole('heading', { name: String(mine.name) })).toBeVisible();
  await expect(owner.getByText(/kWh|暂无用量记录/).first()).toBeVisible();
  await shot('usage-day');
  await owner.getByText('按月（近 12 个月）').click();
  await expect(owner.getByText(/kWh|暂无用量记录/).first()).toBeVisible();
  await shot('usage-month');
  await owner.getByRole('tab', { name: '账单' }).click();
  await expect(owner.getByText(/\d{4}-\d{2} 账单|暂无账单/).first()).toBeVisible();
  await shot('bills');
  await owner.getByRole('tab', { name: '缴费记录' }).click();
  await expect(owner.getByText(/余额 ¥|暂无缴费记录/).first()).toBeVisible();
  await shot('journal');

  // a top-up: the provider's payer page (the emulator) opens, the owner confirms, this page follows
  await owner.getByRole('link', { name: '返回' }).click();
  await owner.getByRole('link', { name: /充\s*值/ }).first().click();
  await expect(owner.getByRole('heading', { name: '充值' })).toBeVisible();
  await shot('pay');
  await owner.getByRole('button', { name: '¥50', exact: true }).click();
  const popup = owner.waitForEvent('popup');
  await owner.getByRole('button', { name: /确认充值/ }).click();
  await expect(owner.getByTestId('pay-order')).toContainText('待支付 ¥50.00');
  const payer = await popup;
  await payer.getByRole('button', { name: '确认支付' }).click();
  await expect(owner.getByText('充值成功')).toBeVisible();
  await shot('paid');
  await payer.close();

  // notices and appeals lists, then 我的: the password form and signing out
  await owner.getByRole('link', { name: '公告' }).click();
  await expect(owner.getByRole('heading', { name: /公告/ })).toBeVisible();
  await shot('notices');
  await owner.getByRole('link', { name: '诉求' }).click();
  await expect(owner.getByRole('button', { name: /提交诉求/ })).toBeVisible();
  await shot('appeals');
  await owner.getByRole('link', { name: '我的' }).click();
  await expect(owner.getByRole('heading', { name: '修改房间登录密码' })).toBeVisible();
  await shot('me');
  await owner.getByRole('button', { name: /退出登录/ }).click();
  await expect(owner).toHaveURL(/\/h5\/login$/);
  await phone.close();
});
