// 物业公告 and 设备工单 end to end, as demo/demo123 against the real server (demo seed):
// - /addedNotice: a notice is written in the editor, saved as a draft, published, and shows 已发布;
// - /addedAppeal 设备工单: the demo collector that is offline (the demo seed's fault; the e2e server runs
//   no fleet) has an open work order; a simulated collector (the simulator CLI, over the gateway's TCP
//   port) registers as it, and the order closes by itself with the note 设备已恢复在线.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO, login, openFromMenu, startFleet, stopFleet, toast } from './helpers.ts';

test.slow();

let fleet: ChildProcess | undefined;

test.afterAll(async () => {
  await stopFleet(fleet);
});

async function api<T>(request: APIRequestContext, token: string, url: string): Promise<T> {
  const body = await (await request.get(url, { headers: { Authorization: token } })).json();
  expect(body.code, `${url}: ${JSON.stringify(body)}`).toBe('SUCCESS');
  return body.data as T;
}

test('a company writes and publishes a notice', async ({ page }) => {
  await login(page);
  await openFromMenu(page, '增值服务', '物业公告');
  await page.getByRole('button', { name: /新建公告/ }).click();
  const modal = page.locator('.ant-modal').filter({ hasText: '新建物业公告' });
  const title = `e2e停电通知${String(Date.now()).slice(-6)}`;
  await modal.getByPlaceholder(/关于 12 月 1 日停水/).fill(title);
  const box = modal.getByRole('textbox', { name: '公告内容' });
  await box.click();
  await page.keyboard.type('本周六 8:00–10:00 配电房检修停电。');
  await modal.getByRole('button', { name: /保存草稿/ }).click();
  await expect(toast(page, /公告草稿已保存/)).toBeVisible();
  const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: title });
  await expect(row.getByText('草稿')).toBeVisible();
  await row.getByText('发布').click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定/ }).click();
  await expect(toast(page, '公告已发布')).toBeVisible();
  await expect(row.getByText('已发布')).toBeVisible();
  await row.getByText('预览').click();
  await expect(page.locator('.notice-body')).toContainText('配电房检修停电');
});

test('an offline collector\'s work order closes by itself when the collector comes back', async ({ page, request }) => {
  const r = await request.post('/yonghu/api/admin/login', { data: DEMO });
  const token = (await r.json()).data.token as string;
  const open = await api<{ id: number; collectorId: number | null; exceptionKind: string; title: string }[]>(request, token, '/yewu/api/WorkOrder/List?index=1&size=100&status=0');
  const order = open.find((o) => o.exceptionKind === 'offline' && o.collectorId);
  expect(order, 'the demo seed leaves a demo collector offline with an open work order').toBeTruthy();

  await login(page);
  await openFromMenu(page, '增值服务', '业主诉求');
  await page.getByRole('tab', { name: '设备工单' }).click();
  // other device orders may fill the first page: find this one by its title
  const search = page.locator(':is(.ant-pro-query-filter, .light-table-search)').filter({ visible: true }).first();
  await search.getByLabel('关键字').fill(order!.title);
  await search.getByRole('button', { name: /查\s*询/ }).click();
  const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: order!.title });
  await expect(row.getByText('设备离线', { exact: true })).toBeVisible();
  await expect(row.getByText('待受理')).toBeVisible();

  // the collector comes back: the simulator registers with its archive's IMEI and secret
  const g = await api<{ imei: string }>(request, token, `/device/api/v1/gather?id=${order!.collectorId}`);
  const { secret } = await api<{ secret: string }>(request, token, `/device/api/v1/gather/secret?id=${order!.collectorId}`);
  const file = join(mkdtempSync(join(tmpdir(), 'meter-e2e-notices-')), 'fleet.json');
  writeFileSync(file, JSON.stringify({ collectors: [{ imei: g.imei, secret, meters: [] }] }));
  fleet = startFleet(file);
  await expect.poll(async () => {
    const d = await api<{ status: number }>(request, token, `/yewu/api/WorkOrder/Detail?id=${order!.id}`);
    return d.status;
  }, { timeout: 60_000, message: 'the work order closes when the collector is back' }).toBe(2);

  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(row.getByText('已完成')).toBeVisible();
  await row.getByText('查看处理').click();
  await expect(page.locator('.ant-drawer')).toContainText('异常已消除：设备已恢复在线（自动）');
});
