import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expect400, signedInStaff, success, testApp, type TestApp } from '../../../test/helpers.ts';
import { makeRole, makeUser } from '../../../test/factories.ts';
import { addReadings, balances, billingCompany, makeMeter, type BillingCompany } from '../billing/fixtures.ts';
import { sweep } from '../billing/settlement.ts';
import { dayKey } from '../billing/period.ts';
import { sign } from './provider.ts';

// Online payments (simulated provider: signed notifications credit once per out_trade_no) and the
// finance reports, through HTTP.

let t: TestApp;
let a: BillingCompany;
let b: BillingCompany;
let weak: string;
let bOrder: string;

const ok = success;
const get = (token: string, url: string) => t.call(token, { method: 'GET', url });
const post = (token: string | null, url: string, payload: unknown) => t.call(token, { method: 'POST', url, payload: payload as object });
const notify = (channel: 'wxpay' | 'alipay', n: { out_trade_no: string; trade_no: string; total_fee: number }, s = sign(n)) =>
  post(null, `/${channel}/api/${channel}/notify`, { ...n, sign: s });

beforeAll(async () => {
  t = await testApp();
  a = await billingCompany(t, { rooms: 2 });
  b = await billingCompany(t, { rooms: 1 });
  ({ token: weak } = await signedInStaff(t, a.companyId, ['recordsArea']));
  bOrder = ok(await post(b.token, '/wxpay/api/wxpay/pay', { roomId: b.rooms[0], wallet: 'electric', amount: '10' })).data.outTradeNo;
});
afterAll(() => t.close());

describe('online payments', () => {
  it('wxpay/pay creates an order with a QR code; the signed notification credits once', async () => {
    const r = ok(await post(a.token, '/wxpay/api/wxpay/pay', { roomId: a.rooms[0], wallet: 'electric', amount: '66.60' }));
    expect(r.data).toMatchObject({ channel: 'wechat', amount: '66.60', status: 'created', simulated: true });
    expect(r.data.outTradeNo).toMatch(/^WX\d{22}$/);
    expect(r.data.codeUrl).toMatch(/^weixin:\/\//);
    expect(r.data.qrCode).toMatch(/^data:image\/png;base64,/);
    expect((await balances(t.owner, a.owners[0])).electric.balance).toBe(0);

    const n = { out_trade_no: r.data.outTradeNo, trade_no: '4200000001', total_fee: 6660 };
    // a forged notification changes nothing
    expect((await notify('wxpay', n, 'f'.repeat(64))).body.code).toBe('SIGN_INVALID');
    expect((await notify('wxpay', { ...n, total_fee: 1 })).body.code).toBe('AMOUNT_MISMATCH');
    expect((await balances(t.owner, a.owners[0])).electric.balance).toBe(0);
    // the provider retries its notification, several at once: one credit
    const all = await Promise.all([...Array(8)].map(() => notify('wxpay', n)));
    expect(all.every((x) => x.body.code === 'SUCCESS')).toBe(true);
    expect(all.filter((x) => x.body.data.duplicate === false)).toHaveLength(1);
    const bal = await balances(t.owner, a.owners[0]);
    expect(bal.electric).toMatchObject({ balance: 6660, sum: 6660 });
    const [p] = (await t.owner.query(`SELECT status, journal_id, provider_trade_no FROM payments WHERE out_trade_no = $1`, [n.out_trade_no])).rows;
    expect(p.status).toBe('paid');
    expect(p.provider_trade_no).toBe('4200000001');
    const [j] = (await t.owner.query(`SELECT kind, pay_method, idempotency_key FROM journal WHERE id = $1`, [p.journal_id])).rows;
    expect(j).toEqual({ kind: 'prepay', pay_method: 'wechat', idempotency_key: `pay:${n.out_trade_no}` });
    // a notification on the other channel's endpoint names no order of it
    expect((await notify('alipay', n)).status).toBe(404);
  });

  it('alipay/pay and the simulated payer; query and list (page, size)', async () => {
    const r = ok(await post(a.token, '/alipay/api/alipay/pay', { roomId: a.rooms[1], wallet: 'water', amount: 12.5 }));
    expect(r.data.outTradeNo).toMatch(/^ALI\d{22}$/);
    const paid = ok(await post(a.token, '/alipay/api/alipay/simulatePaid', { outTradeNo: r.data.outTradeNo }));
    expect(paid.data).toMatchObject({ status: 'paid', duplicate: false, balance: '12.50' });
    expect(ok(await post(a.token, '/alipay/api/alipay/simulatePaid', { outTradeNo: r.data.outTradeNo })).data.duplicate).toBe(true);
    expect((await balances(t.owner, a.owners[1])).water.balance).toBe(1250);
    const q = ok(await get(a.token, `/wxpay/api/wxpay/query?outTradeNo=${r.data.outTradeNo}`));
    expect(q.data).toMatchObject({ status: 'paid', statusText: '已支付', channelText: '支付宝', amount: '12.50' });
    const list = ok(await get(a.token, '/wxpay/api/wxpay/list?page=1&size=1'));
    expect(list.count).toBe(2);
    expect(list.data).toHaveLength(1);
    expect(ok(await get(a.token, '/wxpay/api/wxpay/list?page=2&size=1')).data[0].outTradeNo).not.toBe(list.data[0].outTradeNo);
    expect(ok(await get(a.token, '/wxpay/api/wxpay/list?page=1&size=10&channel=alipay')).count).toBe(1);
  });

  it('400 names the field, 404, 403, and another company\'s orders are out of reach', async () => {
    expect400(await post(a.token, '/wxpay/api/wxpay/pay', { roomId: a.rooms[0], wallet: 'electric', amount: '0.001' }), 'amount');
    expect400(await post(a.token, '/wxpay/api/wxpay/pay', { roomId: a.rooms[0], wallet: 'x', amount: '1' }), 'wallet');
    expect400(await get(a.token, '/wxpay/api/wxpay/list?page=0&size=10'), 'page');
    expect400(await post(null, '/wxpay/api/wxpay/notify', { out_trade_no: 'nope', trade_no: '1', total_fee: 1, sign: 'x' }), 'out_trade_no');
    expect((await post(a.token, '/wxpay/api/wxpay/pay', { roomId: 99999999, wallet: 'electric', amount: '1' })).status).toBe(404);
    expect((await post(a.token, '/wxpay/api/wxpay/pay', { roomId: b.rooms[0], wallet: 'electric', amount: '1' })).status).toBe(404);
    expect((await post(weak, '/wxpay/api/wxpay/pay', { roomId: a.rooms[0], wallet: 'electric', amount: '1' })).status).toBe(403);
    expect((await get(weak, '/wxpay/api/wxpay/list')).status).toBe(403);
    expect((await post(a.token, '/wxpay/api/wxpay/simulatePaid', { outTradeNo: bOrder })).status).toBe(404);
    expect((await get(a.token, `/wxpay/api/wxpay/query?outTradeNo=${bOrder}`)).status).toBe(404);
    expect(ok(await get(a.token, '/wxpay/api/wxpay/list?page=1&size=100')).data.some((x: { outTradeNo: string }) => x.outTradeNo === bOrder)).toBe(false);
    expect((await balances(t.owner, b.owners[0])).electric?.balance ?? 0).toBe(0);
  });
});

describe('finance reports', () => {
  beforeAll(async () => {
    ok(await post(a.token, '/yewu/api/Energy/Prepay', { roomId: a.rooms[0], wallet: 'electric', amount: '20', payMethod: 'cash' }));
    ok(await post(a.token, '/yewu/api/Energy/Prepay', { roomId: a.rooms[0], wallet: 'electric', amount: '30', payMethod: 'bank' }));
    ok(await post(a.token, '/yewu/api/Energy/Refund', { roomId: a.rooms[0], wallet: 'electric', amount: '5', payMethod: 'cash' }));
    const m = await makeMeter(t.owner, { companyId: a.companyId, roomId: a.rooms[0], schemeId: a.schemes.flat });
    await addReadings(t, a.companyId, m, [{ at: new Date(Date.now() - 3600_000), total: '10' }]);
    await sweep(t.db);
  });
  const today = dayKey(new Date());

  it('Check: per day and pay method, with totals', async () => {
    const r = ok(await get(a.token, `/yewu/api/Report/Check?startTime=${today}&endTime=${today}`));
    expect(r.data.period).toEqual({ startTime: today, endTime: today });
    expect(r.data.rows).toHaveLength(1);
    expect(r.data.rows[0]).toMatchObject({ day: today, cash: '20.00', bank: '30.00', wechat: '66.60', alipay: '12.50', income: '129.10', refund: '5.00', net: '124.10', deduction: '6.80' });
    expect(r.data.totals).toMatchObject({ day: '合计', income: '129.10', net: '124.10' });
    expect400(await get(a.token, '/yewu/api/Report/Check?startTime=2025-05-02&endTime=2025-05-01'), 'endTime');
    expect400(await get(a.token, '/yewu/api/Report/Check?startTime=20250501'), 'startTime');
    expect((await get(weak, '/yewu/api/Report/Check')).status).toBe(403);
    expect(ok(await get(a.token, `/yewu/api/Report/Check?searchArea=${b.parkId}`)).data.rows).toEqual([]);
  });

  it('Bank, Deduct and Fees', async () => {
    const bank = ok(await get(a.token, '/yewu/api/Report/Bank'));
    expect(bank.data.totals).toMatchObject({ amount: '109.10', bank: { count: 1, amount: '30.00' }, wechat: { count: 1, amount: '66.60' } });
    expect(bank.data.bankName).toBeTruthy();
    const deduct = ok(await get(a.token, '/yewu/api/Report/Deduct'));
    expect(deduct.data.totals.electric).toMatchObject({ readings: 1, quantity: '10', amount: '6.80', charged: '6.80' });
    const fees = ok(await get(a.token, '/yewu/api/Report/Fees?index=1&size=10'));
    expect(fees.data.rows.find((x: { roomId: number }) => x.roomId === a.rooms[0])).toMatchObject({ electricAmount: '6.80', electricQuantity: '10.0000', prepay: '116.60', refund: '5.00' });
    expect(fees.data.totals.electricAmount).toBe('6.80');
    expect400(await get(a.token, '/yewu/api/Report/Fees?index=0'), 'index');
    for (const p of ['Bank', 'Deduct', 'Fees']) expect((await get(weak, `/yewu/api/Report/${p}`)).status).toBe(403);
  });

  it('exports are real .xlsx files with the report\'s rows; they need the export operation', async () => {
    const sheets: Record<string, ExcelJS.Worksheet> = {};
    // each export ends with the 合计 row(s) of its page: 扣费 one per meter kind and one overall
    for (const [path, sheet, rows] of [['CheckExport', '对账报表', 2], ['BankExport', '银行报表', 4], ['DeductExport', '扣费报表', 4], ['FeesExport', '费用报表', 3]] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/yewu/api/Report/${path}`, headers: { authorization: a.token } });
      expect(res.statusCode, path).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const ws = wb.getWorksheet(sheet)!;
      expect(ws.rowCount - 1, path).toBe(rows);
      expect(ws.getRow(ws.rowCount).getCell(1).value, path).toBe('合计');
      sheets[path] = ws;
    }
    // the cells of a row in column order, an empty cell as ''
    const values = (ws: ExcelJS.Worksheet, r: number) => Array.from({ length: ws.columnCount }, (_, i) => ws.getRow(r).getCell(i + 1).value ?? '');
    const deduct = sheets.DeductExport;
    expect(values(deduct, 3)).toEqual(['电表合计', '', 1, '', 10, 'kWh', 6.8, 6.8, 0]);
    expect(values(deduct, 4)).toEqual(['水表合计', '', 0, '', 0, 'm³', 0, 0, 0]);
    expect(values(deduct, 5)).toEqual(['合计', '', 1, '', '', '', 6.8, 6.8, 0]);
    const fees = sheets.FeesExport;
    const total = values(fees, fees.rowCount);
    // 电费 and 充值实收 of the 合计 row add up the room rows above it
    const sum = (col: number) => [2, 3].reduce((s, r) => s + Number(values(fees, r)[col] ?? 0), 0);
    expect(total[3]).toBeCloseTo(sum(3), 2);
    expect(total[9]).toBeCloseTo(sum(9), 2);
    expect(total[2]).toBeCloseTo(sum(2), 4);
    const noExport = await makeRole(t.owner, a.companyId, ['reportCheck'], []);
    const u = await makeUser(t.owner, { companyId: a.companyId, roleId: noExport });
    const token = await t.login(u.username, u.password);
    expect((await get(token, '/yewu/api/Report/CheckExport')).status).toBe(403);
    expect(ok(await get(token, '/yewu/api/Report/Check')).data.rows).toHaveLength(1);
  });
});
