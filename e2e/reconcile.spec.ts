// 支付平台对账 end to end against the real server (demo seed, the local payment emulators): an order is
// paid on the WeChat Pay emulator's payer page (its signed notification credits it), then on
// /financerecode 支付平台对账 finance runs 对账 for today — the emulator's tradebill is downloaded and
// the order shows 已匹配. At 1440×900 no column of the rows table hides under a fixed one.
import { expect, test } from '@playwright/test';
import { DEMO, loginAt, toast } from './helpers.ts';

const Y = '/yewu/api';
const today = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());

test.slow();
test.use({ viewport: { width: 1440, height: 900 } });

test('pay through the emulator, 对账 today, the order is 已匹配', async ({ page, request }, info) => {
  const r = await request.post('/yonghu/api/admin/login', { data: DEMO });
  const token = (await r.json()).data.token as string;
  const get = async (url: string) => (await (await request.get(url, { headers: { Authorization: token } })).json()).data;
  const rooms = (await get(`${Y}/RoomInfo/GetEnergyRoom?index=1&size=200`)) as { roomId: number; ownerId: number | null; electricMeters: number }[];
  const room = rooms.find((x) => x.ownerId != null && x.electricMeters > 0)!;
  const created = await request.post('/wxpay/api/wxpay/pay', { headers: { Authorization: token }, data: { roomId: room.roomId, wallet: 'electric', amount: '12.34' } });
  const order = (await created.json()).data as { outTradeNo: string; codeUrl: string; emulated: boolean };
  expect(order.emulated).toBe(true);

  // the payer "scans" the QR: the emulator's page, 确认支付
  await page.goto(order.codeUrl);
  await page.getByRole('button', { name: '确认支付' }).click();
  await expect(page.getByText('商户已确认到账')).toBeVisible();

  await loginAt(page, '/financerecode');
  await page.getByRole('tab', { name: '支付平台对账' }).click();
  const pane = page.locator('.ant-tabs-tabpane-active');
  const picker = pane.locator('.ant-picker input');
  await picker.click();
  await picker.fill(today());
  await picker.press('Enter');
  await expect(picker).toHaveValue(today());
  await pane.getByRole('button', { name: /对\s*账/ }).click();
  await expect(toast(page, `${today()} 微信支付对账完成`)).toBeVisible();
  await expect(pane.getByTestId(`outcome-${order.outTradeNo}`)).toHaveText('已匹配');
  await expect(pane.getByTestId('reconcile-ran')).toContainText('上次对账');

  await page.screenshot({ path: info.outputPath('reconcile-1440.png') });
  // 1440×900: the first column after the fixed 对账结果 starts clear of it, and scrolled to the end the
  // last one before the fixed 操作 ends clear of it — every column can be read whole
  const box = async (sel: string) => (await pane.locator(sel).first().boundingBox())!;
  const left = await box('.ant-table-thead th.ant-table-cell-fix-left');
  const first = await box('.ant-table-thead th:not(.ant-table-cell-fix-left):not(.ant-table-cell-fix-right)');
  expect(first.x).toBeGreaterThanOrEqual(left.x + left.width - 1);
  await pane.locator('.ant-table-content, .ant-table-body').first().evaluate((el) => (el.scrollLeft = el.scrollWidth));
  const right = await box('.ant-table-thead th.ant-table-cell-fix-right');
  const middle = pane.locator('.ant-table-thead th:not(.ant-table-cell-fix-left):not(.ant-table-cell-fix-right)');
  const last = (await middle.nth((await middle.count()) - 1).boundingBox())!;
  expect(last.x + last.width).toBeLessThanOrEqual(right.x + 1);
  await expect(pane.getByRole('columnheader', { name: '补单' })).toBeVisible();
  await page.screenshot({ path: info.outputPath('reconcile-1440-scrolled.png') });
});
