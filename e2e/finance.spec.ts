// The finance day end to end against the real server (demo seed):
// - /billprint: a cash top-up's receipt is voided with a reason (作废): a reversal in the journal, the
//   balance back, the receipt marked 已作废 and printed with the 作废 stamp;
// - /dailyClose: finance closes today after a confirmation that shows the figures; the slip reads
//   已日结 with who closed it; a top-up made afterwards lands on the next business day and the closed
//   day's figures stay as they were; a void of a receipt of the closed day is refused;
// - /energy 扫码充值: the payer pays on the local WeChat Pay emulator's page, the order's receipt prints;
//   an unpaid order is cancelled and the payer page can no longer pay it.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiCall, apiToken, countPrints, login, loginAt, openFromMenu, openOnlineReceipt, payByQrAtCounter, printReceiptAndClose, toast } from './helpers.ts';

const Y = '/yewu/api';
let token = '';

async function call(request: APIRequestContext, method: 'GET' | 'POST', url: string, data?: unknown) {
  const res = await request.fetch(url, { method, headers: { Authorization: token }, ...(data !== undefined ? { data } : {}) });
  return res.json();
}
const api = <T>(request: APIRequestContext, method: 'GET' | 'POST', url: string, data?: unknown) => apiCall<T>(request, token, method, url, data);

interface Room { roomId: number; roomName: string; ownerId: number | null; electricBalance: string; electricMeters: number }
interface Counter { journalId: number; receiptId: number; receiptNo: string; balance: string }
interface Detail { day: string; state: string; totals: { net: string; methods: { method: string; net: string }[] } }

const today = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());
let room: Room;

test.describe.configure({ mode: 'serial' });
test.slow();

test.beforeAll(async ({ request }) => {
  token = await apiToken(request);
  const rooms = await api<{ data: Room[] }>(request, 'GET', `${Y}/RoomInfo/GetEnergyRoom?index=1&size=200`);
  const occupied = rooms.data.filter((x) => x.ownerId != null && x.electricMeters > 0);
  room = occupied.find((x) => rooms.data.filter((y) => y.roomName === x.roomName).length === 1) ?? occupied[0];
  expect(room, 'an occupied demo room').toBeTruthy();
});

test('/billprint: 作废 voids a cash top-up by a reversal; the receipt prints as 作废', async ({ page, request }) => {
  const topUp = await api<Counter>(request, 'POST', `${Y}/Energy/Prepay`, { roomId: room.roomId, wallet: 'electric', amount: '33.30', payMethod: 'cash', memo: 'e2e 作废' });
  const before = await api<Counter>(request, 'POST', `${Y}/Energy/Prepay`, { roomId: room.roomId, wallet: 'electric', amount: '0.01', payMethod: 'cash' });

  await loginAt(page, '/billprint');
  const form = page.locator(':is(.ant-pro-query-filter, .light-table-search)').first();
  await form.getByLabel('票据号', { exact: true }).fill(topUp.receiptNo);
  await form.getByRole('button', { name: /查\s*询/ }).click();
  await page.getByTestId(`receipt-void-${topUp.receiptId}`).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(topUp.receiptNo);
  await dialog.getByRole('button', { name: '确认作废' }).click();
  await expect(dialog.getByText('请填写作废原因')).toBeVisible();
  await dialog.getByLabel('作废原因').fill('金额录入错误');
  await dialog.getByRole('button', { name: '确认作废' }).click();
  await expect(toast(page, `票据 ${topUp.receiptNo} 已作废`)).toBeVisible();
  await expect(page.getByTestId(`receipt-voided-${topUp.receiptId}`)).toBeVisible();
  await expect(page.getByTestId(`receipt-void-${topUp.receiptId}`)).toHaveCount(0);

  await page.getByTestId(`receipt-${topUp.receiptId}`).click();
  await expect(page.getByTestId('receipt-void-stamp')).toHaveText('作废');
  await expect(page.getByTestId('receipt-void-info')).toContainText('金额录入错误');

  // the balance went back by exactly the voided amount; both rows in the journal report
  const rooms = await api<{ data: Room[] }>(request, 'GET', `${Y}/RoomInfo/GetEnergyRoom?index=1&size=200`);
  const now = rooms.data.find((x) => x.roomId === room.roomId)!;
  expect(Math.round(Number(now.electricBalance) * 100)).toBe(Math.round(Number(before.balance) * 100) - 3330);
  const stats = await api<{ data: { id: number; kind: string }[] }>(request, 'GET', `${Y}/Statistics/list?index=1&size=20&transactionType=6`);
  expect(stats.data.some((x) => x.kind === 'reversal')).toBe(true);
});

test('/dailyClose: finance closes the day; later money goes to the next day; the closed day stays', async ({ page, request }) => {
  const day = today();
  const late = await api<Counter>(request, 'POST', `${Y}/Energy/Prepay`, { roomId: room.roomId, wallet: 'electric', amount: '12.00', payMethod: 'cash' });
  const open = await api<Detail>(request, 'GET', `${Y}/DailyClosing/Detail?day=${day}`);
  expect(open.state).toBe('open');
  const net = open.totals.net;

  await login(page);
  await openFromMenu(page, '费用管理', '日结交班');
  await expect(page.getByTestId(`day-state-${day}`)).toHaveText('未日结');
  await page.getByTestId(`day-close-${day}`).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`确认日结 ${day}`);
  await expect(dialog).toContainText('日结后该营业日锁定');
  const money = `¥${Number(net).toLocaleString('en-US', { minimumFractionDigits: 2 })}`.replace('¥-', '-¥');
  await expect(page.getByTestId('close-confirm-net')).toHaveText(money);
  await dialog.getByPlaceholder('备注（选填）').fill('e2e 日结');
  await dialog.getByRole('button', { name: '确认日结' }).click();
  await expect(toast(page, `${day} 日结成功`)).toBeVisible();

  const slip = page.getByTestId('closing-slip');
  await expect(slip).toContainText('已日结');
  await expect(slip).toContainText('日结人：');
  await expect(page.getByTestId('slip-net')).toHaveText(money);
  await page.getByRole('button', { name: /关\s*闭/ }).click();
  await expect(page.getByTestId(`day-state-${day}`)).toHaveText('已日结');
  await expect(page.getByTestId(`day-close-${day}`)).toHaveCount(0);

  // after the close: a top-up counts on the next business day, the closed figures stay, no void
  await api<Counter>(request, 'POST', `${Y}/Energy/Prepay`, { roomId: room.roomId, wallet: 'electric', amount: '5.00', payMethod: 'cash' });
  const closed = await api<Detail>(request, 'GET', `${Y}/DailyClosing/Detail?day=${day}`);
  expect(closed.state).toBe('closed');
  expect(closed.totals).toEqual(open.totals);
  const refused = await call(request, 'POST', `${Y}/BillPrinting/Void`, { receiptId: late.receiptId, reason: '日结后作废' });
  expect(refused.code).toBe('DAY_CLOSED');
  expect(refused.message).toContain('已日结');
});

test('/energy 扫码充值 at the counter: paid on the emulator\'s payer page, the receipt prints; an unpaid order is cancelled', async ({ page, context }) => {
  await countPrints(page);
  await login(page);

  // paid: the payer page (local WeChat Pay emulator) → the notification credits → 打印票据
  await payByQrAtCounter(page, context, room, '9.90');
  await openOnlineReceipt(page, '9.90', '玖元玖角');
  await expect(page.getByTestId('receipt')).toContainText('微信');
  await printReceiptAndClose(page);

  // unpaid: 取消订单 → closed at the provider, the payer page can no longer pay
  await page.getByTestId(`online-${room.roomId}`).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/充值金额/).fill('7.00');
  await dialog.getByRole('button', { name: /生成收款码/ }).click();
  const cancelUrl = await page.getByTestId('online-emulator').getAttribute('href');
  await page.getByRole('button', { name: /取消订单/ }).click();
  await page.getByRole('button', { name: '确认取消' }).click();
  await expect(page.getByTestId('online-closed')).toContainText('订单已取消');
  const closedPage = await context.newPage();
  await closedPage.goto(cancelUrl!);
  await expect(closedPage.getByText('订单已关闭')).toBeVisible();
  await expect(closedPage.getByRole('button', { name: '确认支付' })).toHaveCount(0);
  await closedPage.close();
});
