// 大屏可视化 (/screen) in Chromium as the demo company's administrator: every panel with the demo's
// figures at 1920×1080, no panel over another at 1920×1080 or 1440×900, and a counter top-up made
// through the API changes 今日缴费 within 5 s, without a reload.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO, loginAt } from './helpers.ts';

const PANELS = ['panel-online', 'panel-supply', 'panel-payments', 'panel-kpi', 'panel-hourly', 'panel-month', 'panel-top', 'panel-workorders', 'panel-alarms'];

async function api(request: APIRequestContext) {
  const token = (await (await request.post('/yonghu/api/admin/login', { data: DEMO })).json()).data.token as string;
  const headers = { Authorization: token };
  const rooms = (await (await request.get('/yewu/api/RoomInfo/GetEnergyRoom?index=1&size=50', { headers })).json()).data as { roomId: number; ownerId: number | null }[];
  const room = rooms.find((r) => r.ownerId != null)!;
  const prepay = async (amount: string) => {
    const r = await request.post('/yewu/api/Energy/Prepay', {
      headers, data: { roomId: room.roomId, wallet: 'electric', amount, payMethod: 'cash', memo: 'e2e 大屏', requestId: `e2e-screen-${Date.now()}` },
    });
    const body = await r.json();
    expect(body.code, body.message).toBe('SUCCESS');
  };
  return { headers, prepay };
}

/** Pairs of panels whose boxes intersect, and panels that stick out of the screen's viewport. */
function overlaps(page: Page) {
  return page.evaluate((ids) => {
    const view = document.querySelector('[data-testid="screen"]')!.getBoundingClientRect();
    const boxes = ids.map((id) => ({ id, b: document.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect() }));
    const out: string[] = [];
    for (let i = 0; i < boxes.length; i++) {
      const a = boxes[i].b;
      if (a.width < 50 || a.height < 50) out.push(`${boxes[i].id} too small`);
      if (a.left < view.left - 1 || a.right > view.right + 1 || a.top < view.top - 1 || a.bottom > view.bottom + 1) out.push(`${boxes[i].id} outside`);
      for (let j = i + 1; j < boxes.length; j++) {
        const b = boxes[j].b;
        if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push(`${boxes[i].id} × ${boxes[j].id}`);
      }
    }
    // nothing of the page below the window: the screen fits without scrolling
    if (document.documentElement.scrollHeight > window.innerHeight + 1) out.push('page scrolls');
    return out;
  }, PANELS);
}

test('the large screen shows the demo and follows a top-up live', async ({ page, request }) => {
  const { headers, prepay } = await api(request);
  await prepay('10.00');
  // a manual reading of 2 more kWh, settled: today's consumption and the month's top rooms
  const [meter] = (await (await request.get('/device/api/v1/control/meter/list?index=1&size=1', { headers })).json()).data as { id: number; lastTotal: string | null; initialReading: string }[];
  const total = (Number(meter.lastTotal ?? meter.initialReading) + 2).toFixed(2);
  expect((await (await request.post('/device/api/v1/manual/reading', { headers, data: { id: meter.id, total } })).json()).code).toBe('SUCCESS');
  expect((await (await request.post('/yewu/api/CopySettlement/Settle', { headers, data: { meterIds: [meter.id] } })).json()).code).toBe('SUCCESS');

  await page.setViewportSize({ width: 1920, height: 1080 });
  await loginAt(page, '/screen');
  await expect(page.getByTestId('screen-title')).toContainText('阳光物业演示公司');
  for (const id of PANELS) await expect(page.getByTestId(id), id).toBeVisible();
  for (const id of ['chart-online', 'chart-payments', 'chart-hourly', 'chart-month', 'chart-top']) {
    await expect(page.getByTestId(id).locator('canvas'), id).toHaveCount(1);
  }
  // the demo's figures: its meters, the reading and top-up above, the seeded appeals
  await expect(page.getByTestId('kpi-electric')).not.toContainText(/今日用电0kWh/);
  await expect(page.getByTestId('kpi-paid')).not.toContainText('今日缴费0.00元');
  await expect(page.getByTestId('screen-workorders').locator('li').first()).toBeVisible();
  await expect(page.getByTestId('panel-alarms')).toContainText(/条未处理/);
  expect(await overlaps(page)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('screen-1920x1080.png') });

  // a top-up through the API: 今日缴费 changes within 5 s, the page is not reloaded
  const before = Number(((await page.getByTestId('kpi-paid').textContent()) ?? '').replace(/[^\d.]/g, ''));
  const after = (before + 23.45).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  await page.evaluate(() => {
    window.__sameDocument = true;
  });
  await prepay('23.45');
  await expect(page.getByTestId('kpi-paid')).toHaveText(`今日缴费${after}元`, { timeout: 5_000 });
  expect(await page.evaluate(() => window.__sameDocument)).toBe(true);

  await page.setViewportSize({ width: 1440, height: 900 });
  await expect.poll(() => overlaps(page)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('screen-1440x900.png') });
});
