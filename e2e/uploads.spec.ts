// Uploads and the image viewer, end to end against the real server (demo seed): the platform adds a
// text tutorial on /teachingVideo with two pictures uploaded through the upload field (Public token,
// multipart upload, type checked by content), views them in the image viewer (SPEC §4 keys), and finds
// the tutorial on the help page (/headQuestion) with the demo's videos playable.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { login, openFromMenu, toast } from './helpers.ts';

test.slow();

const ADMIN = { username: 'admin', password: 'admin123' };
const assets = join(import.meta.dirname, '../apps/server/src/demo/assets');
const picture = (n: number) => ({ name: `步骤${n}.jpg`, mimeType: 'image/jpeg', buffer: readFileSync(join(assets, `meter-${n}.jpg`)) });
const title = `e2e图文教程${String(Date.now()).slice(-6)}`;

const viewer = (page: Page) => page.getByRole('dialog', { name: '图片查看器' });

async function viewerLoaded(page: Page) {
  await expect.poll(() => viewer(page).locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(800);
}

test('the platform uploads pictures for a tutorial and views them; the help page shows it and plays the videos', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page, ADMIN);
  await openFromMenu(page, '平台管理', '教学视频');
  // the demo's tutorials
  await expect(page.locator('.ant-table-tbody').getByText('平台概览：建立区域、房间和表具')).toBeVisible();

  await page.getByRole('button', { name: /新增教学视频/ }).click();
  const add = page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: '新增教学视频' }) });
  await add.getByLabel('标题').fill(title);
  await add.getByLabel('类别').click();
  await page.locator('.ant-select-dropdown:visible').getByText('文字教程', { exact: true }).click();
  await add.getByLabel('文字内容').fill('e2e：上传两张图片并在查看器中浏览。');
  // the second upload field is 图片 (the first is 视频)
  await add.locator('input[type=file]').nth(1).setInputFiles([picture(1), picture(2)]);
  await expect(add.locator('.ant-upload-list-item-done img')).toHaveCount(2);
  // a picture given to the video field is refused by the server, by its content
  await add.locator('input[type=file]').nth(0).setInputFiles(picture(3));
  await expect(toast(page, '上传失败：文件类型不符：请上传视频（MP4、WebM、OGG、MOV）')).toBeVisible();
  await add.getByRole('button', { name: /保\s*存/ }).click();
  await expect(toast(page, '新增成功')).toBeVisible();

  // the row's thumbnails open the viewer: l / → next, h / ← previous, Esc closes
  const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: title });
  await expect(row.locator('img')).toHaveCount(2);
  await row.locator('img').first().click();
  await expect(viewer(page)).toBeVisible();
  await viewerLoaded(page);
  await expect(viewer(page).getByText('1 / 2')).toBeVisible();
  await page.keyboard.press('l');
  await expect(viewer(page).getByText('2 / 2')).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(viewer(page).getByText('1 / 2')).toBeVisible();
  // the bar hides after 3.5 s without a mouse movement
  await expect(page.getByTestId('image-viewer-ui')).toHaveAttribute('aria-hidden', 'true', { timeout: 6000 });
  await page.keyboard.press('Escape');
  await expect(viewer(page)).toHaveCount(0);

  // the help page: the header shortcut 文字教程
  await page.getByRole('button', { name: '文字教程' }).click();
  await expect(page).toHaveURL(/\/headQuestion\?mode=text/);
  // the first text tutorial is open at once (the new one: sort 0); any other opens with a click
  const panel = page.locator('.ant-collapse-item').filter({ hasText: title });
  await expect(panel).toBeVisible();
  if (!(await panel.evaluate((e) => e.classList.contains('ant-collapse-item-active')))) await panel.getByRole('button', { name: title }).click();
  const pictures = panel.locator('img');
  await expect(pictures).toHaveCount(2);
  await pictures.nth(1).click();
  await viewerLoaded(page);
  await expect(viewer(page).getByText('2 / 2')).toBeVisible();
  await page.keyboard.press('q');
  await expect(viewer(page)).toHaveCount(0);

  // 视频教程: the demo's videos, served by the upload store, play in the page
  await page.getByRole('tab', { name: '视频教程' }).click();
  const video = page.locator('video[aria-label="平台概览：建立区域、房间和表具"]');
  await expect(video).toBeVisible();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 1 && v.duration > 10)).toBe(true);
  await page.screenshot({ path: 'test-results/uploads-help.png' });
});
