// Excel import end to end (issue 15 item 9) against the real server (demo seed), as demo/demo123, on
// /recordsOwner: the owner template is downloaded through the 导入 dialog, filled with ExcelJS (one
// bad phone first), uploaded; the preview names the row and the column and 确认导入 stays disabled;
// the corrected file previews clean, imports, and the owners are in the list.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { expect, test, type Page } from '@playwright/test';
import { loginAt } from './helpers.ts';

test.slow();

const stamp = String(Date.now());
const tail = (n: number) => stamp.slice(-n);

const rows = (page: Page) => page.locator(':is(.ant-pro-table, .light-table) .ant-table-tbody tr.ant-table-row');

/** The template with these rows written from row 3 (row 2 is the example), saved to a temporary file. */
async function fill(template: string, data: Record<string, string>[], name: string) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(template);
  const ws = wb.getWorksheet('导入数据')!;
  const header = (ws.getRow(1).values as unknown[]).slice(1).map((h) => String(h).replace(/\*$/, ''));
  data.forEach((r, i) => {
    for (const [h, v] of Object.entries(r)) ws.getCell(3 + i, header.indexOf(h) + 1).value = v;
  });
  const path = join(tmpdir(), `${name}-${stamp}.xlsx`);
  await wb.xlsx.writeFile(path);
  return path;
}

test('/recordsOwner: 导入 → template → preview with the row error → corrected file → 确认导入 → owners listed', async ({ page }) => {
  const a = { 业主姓名: `导入甲${tail(4)}`, 手机号码: `137${tail(8)}`, 性别: '男' };
  const b = { 业主姓名: `导入乙${tail(4)}`, 手机号码: `136${tail(8)}`, 性别: '女' };
  await loginAt(page, '/recordsOwner');
  await expect(page.getByText('业主列表')).toBeVisible();

  await page.getByRole('button', { name: /导\s*入\s*$/ }).click();
  const dialog = page.getByRole('dialog').filter({ has: page.locator('.ant-modal-title', { hasText: '导入业主' }) });
  await expect(dialog).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: /下载业主导入模板/ }).click()]);
  expect(download.suggestedFilename()).toBe('业主导入模板.xlsx');
  const template = (await download.path())!;

  // one bad row: the preview names row 4, column 手机号码; nothing can be committed
  const bad = await fill(template, [a, { ...b, 手机号码: '1360000' }], 'owners-bad');
  await dialog.locator('input[type=file]').setInputFiles(bad);
  await expect(dialog.getByText(/有 1 处错误/)).toBeVisible();
  const errors = dialog.locator('.ant-table').first();
  await expect(errors).toContainText('第 4 行');
  await expect(errors).toContainText('手机号码');
  await expect(dialog.getByRole('button', { name: '确认导入' })).toBeDisabled();

  // the corrected file
  await dialog.getByRole('button', { name: '重新选择文件' }).click();
  const good = await fill(template, [a, b], 'owners-good');
  await dialog.locator('input[type=file]').setInputFiles(good);
  await expect(dialog.getByText('全部校验通过，点击「确认导入」写入')).toBeVisible();
  await expect(dialog.getByText(/共 2 行，可导入 2 行/)).toBeVisible();
  await dialog.getByRole('button', { name: '确认导入' }).click();
  await expect(dialog.getByText('导入成功：2 行')).toBeVisible();
  await dialog.getByRole('button', { name: /完\s*成/ }).click();
  await expect(dialog).toBeHidden();

  const form = page.locator(':is(.ant-pro-query-filter, .light-table-search)').first();
  await form.getByLabel('业主姓名', { exact: true }).fill(`导入`);
  await form.getByRole('button', { name: /查\s*询/ }).click();
  await expect(rows(page).filter({ hasText: a.业主姓名 })).toContainText(a.手机号码);
  await expect(rows(page).filter({ hasText: b.业主姓名 })).toContainText(b.手机号码);
});
