import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { refused, success } from '../../../test/helpers.ts';
import { makeCompany, uniq } from '../../../test/factories.ts';
import { loginWith } from '../scheme/fixtures.ts';
import { bankClient } from './client.ts';
import { fileBankApp } from './emulated.test-util.ts';

// Bank sub-merchants against the local bank emulator, through HTTP on a real PostgreSQL: the whole
// application (register → code sent → verified by code and random amount → active), wrong code, wrong
// amount, rejection after three, lost answers retried, illegal steps refused with nothing changed;
// withdrawals idempotent by requestId, never above the bank's available balance (also in parallel);
// other companies kept out.

const AB = '/pay/api/AgricultureBank';
const PI = '/yewu/api/Property_Info';
const MER = '103881000000009';

const { t, bank } = await fileBankApp(MER);
const [admin] = await t.signIn('admin');
const companyA = await makeCompany(t.owner);
const companyB = await makeCompany(t.owner);
const userA = await loginWith(t, companyA, ['noteBocLog', 'noteswithdraw'], ['finance.withdraw']);
const userB = await loginWith(t, companyB, ['noteBocLog', 'noteswithdraw'], ['finance.withdraw']);

type Res = { status: number; body: { code: string; message: string; data: any; count?: number } };
const ok = (r: Res) => success(r).data;
const get = (token: string, url: string) => t.call(token, { method: 'GET', url }) as Promise<Res>;
const send = (token: string, method: 'POST' | 'PUT', url: string, payload: unknown) => t.call(token, { method, url, payload: payload as object }) as Promise<Res>;
const inA = (url: string) => `${url}${url.includes('?') ? '&' : '?'}searchCompanyID=${companyA}`;

let seq = 0;
const rid = () => `bk-${Date.now().toString(36)}-${seq++}`;

async function bankId() {
  const rows = ok(await get(admin, '/yewu/api/Bank/List?index=1&size=999999'));
  return rows.find((b: { name: string }) => b.name === '中国农业银行').id as number;
}

async function addProperty(o: Record<string, unknown> = {}) {
  const body = {
    name: uniq('二级商户'), shortName: '测试商户', licenseNo: '91440300MA5FABCD1K', legalPerson: '张三', legalIdNo: '11010519491231002X',
    contactName: '李四', phone: '13812345678', address: '深圳', bankId: await bankId(), accountName: '测试物业', accountNo: '6228 4800 1234 5678', ...o,
  };
  return ok(await send(admin, 'POST', inA(`${PI}/AddInfo`), body)).id as number;
}

const row = async (id: number) => (await t.owner.query(`SELECT status, sub_mer_id, reason FROM property_infos WHERE id = $1`, [id])).rows[0];
const logCount = async (id: number) => Number((await t.owner.query(`SELECT count(*) FROM bank_logs WHERE property_id = $1`, [id])).rows[0].count);

/** An application taken to 待验证; answers its sub-merchant number. */
async function toCodeSent(o: Record<string, unknown> = {}) {
  const id = await addProperty(o);
  const reg = ok(await send(admin, 'POST', inA(`${AB}/RegSubMerInfo?propertyID=${id}`), {}));
  ok(await get(admin, inA(`${AB}/SendMobileMessageForSubMer?subMerId=${reg.subMerId}`)));
  return { id, subMerId: reg.subMerId as string };
}

const amountOf = (fen: number) => `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;

async function activeSubMer(balanceFen = 0, o: Record<string, unknown> = {}) {
  const { id, subMerId } = await toCodeSent(o);
  const s = bank.secretOf(subMerId)!;
  ok(await send(admin, 'POST', inA(`${AB}/VerifyMessageCodeAndRandomAmount`), { subMerId, code: s.code, amount: amountOf(s.amountFen) }));
  ok(await send(admin, 'POST', inA(`${AB}/UpdateSubMerchantStatusRequest`), { subMerId, status: 'active' }));
  bank.credit(subMerId, balanceFen);
  return { id, subMerId };
}


describe('the application', () => {
  it('goes draft → applied → code sent → verified → active, each step logged with the bank of the company', async () => {
    await t.owner.query(`UPDATE companies SET bank_type = 1 WHERE id = $1`, [companyA]);
    const id = await addProperty();
    expect(ok(await get(admin, inA(`${PI}/GetModel/${id}`)))).toMatchObject({ status: 'draft', subMerId: '', accountNo: '6228480012345678', bankName: '中国农业银行', settleBankName: '中国银行' });
    const reg = ok(await send(admin, 'POST', inA(`${AB}/RegSubMerInfo?propertyID=${id}`), {}));
    expect(reg).toMatchObject({ id, status: 'applied', statusText: '已提交', bankName: '中国银行' });
    expect(reg.subMerId).toMatch(/^ABC\d+$/);
    const sent = ok(await get(admin, inA(`${AB}/SendMobileMessageForSubMer?subMerId=${reg.subMerId}`)));
    expect(sent).toMatchObject({ status: 'code_sent', phone: '138****5678' });
    // the code and the amount reach the merchant by SMS and on the account statement, never in our answers
    expect(JSON.stringify(sent)).not.toContain(bank.secretOf(reg.subMerId)!.code);
    const msg = bank.inbox().messages[0];
    expect(msg.phone).toBe('13812345678');
    const s = bank.secretOf(reg.subMerId)!;
    expect(msg.text).toContain(s.code);
    expect(s.amountFen).toBeGreaterThanOrEqual(1);
    expect(s.amountFen).toBeLessThanOrEqual(99);
    const v = ok(await send(admin, 'POST', inA(`${AB}/VerifyMessageCodeAndRandomAmount`), { subMerId: reg.subMerId, code: s.code, amount: amountOf(s.amountFen) }));
    expect(v).toMatchObject({ status: 'verified' });
    const a = ok(await send(admin, 'POST', inA(`${AB}/UpdateSubMerchantStatusRequest`), { subMerId: reg.subMerId, status: 'active' }));
    expect(a).toMatchObject({ status: 'active', statusText: '已开通' });
    expect(await row(id)).toMatchObject({ status: 'active', sub_mer_id: reg.subMerId });
    const logs = ok(await get(admin, inA(`${AB}/LogList?index=1&size=50&subMerId=${reg.subMerId}`)));
    expect(logs.map((l: { action: string; statusTo: string }) => `${l.action}:${l.statusTo}`).reverse()).toEqual([
      'RegSubMerInfo:applied', 'SendMobileMessageForSubMer:code_sent', 'VerifyMessageCodeAndRandomAmount:verified', 'UpdateSubMerchantStatusRequest:active',
    ]);
    expect(logs[0]).toMatchObject({ bankName: '中国银行', ok: true, actionText: '变更子商户状态' });
    // stopped and reopened
    expect(ok(await send(admin, 'POST', inA(`${AB}/UpdateSubMerchantStatusRequest`), { subMerId: reg.subMerId, status: 'disabled' })).status).toBe('disabled');
    expect(ok(await send(admin, 'POST', inA(`${AB}/UpdateSubMerchantStatusRequest`), { subMerId: reg.subMerId, status: 'active' })).status).toBe('active');
    await t.owner.query(`UPDATE companies SET bank_type = 0 WHERE id = $1`, [companyA]);
  });

  it('a wrong code and a wrong amount are refused and counted; the third wrong answer rejects; resubmitting starts again', async () => {
    const { id, subMerId } = await toCodeSent();
    const s = bank.secretOf(subMerId)!;
    const wrongCode = s.code === '000000' ? '111111' : '000000';
    const wrongAmount = amountOf(s.amountFen === 99 ? 98 : s.amountFen + 1);
    expect(refused(await send(admin, 'POST', inA(`${AB}/VerifyMessageCodeAndRandomAmount`), { subMerId, code: wrongCode, amount: amountOf(s.amountFen) }), 'CODE_WRONG')).toContain('还可尝试 2 次');
    expect(await row(id)).toMatchObject({ status: 'code_sent' });
    expect(refused(await send(admin, 'POST', inA(`${AB}/VerifyMessageCodeAndRandomAmount`), { subMerId, code: s.code, amount: wrongAmount }), 'AMOUNT_WRONG')).toContain('随机金额不正确');
    expect(await row(id)).toMatchObject({ status: 'code_sent' });
    refused(await send(admin, 'POST', inA(`${AB}/VerifyMessageCodeAndRandomAmount`), { subMerId, code: wrongCode, amount: wrongAmount }), 'VERIFY_REJECTED');
    expect(await row(id)).toMatchObject({ status: 'rejected' });
    expect((await row(id)).reason).toContain('驳回');
    // every refusal was logged
    const logs = ok(await get(admin, inA(`${AB}/LogList?index=1&size=50&subMerId=${subMerId}&ok=0`)));
    expect(logs.map((l: { errCode: string }) => l.errCode)).toEqual(['VERIFY_REJECTED', 'AMOUNT_WRONG', 'CODE_WRONG']);
    // a rejected application can be corrected and resubmitted: the bank keeps its number
    ok(await send(admin, 'PUT', inA(`${PI}/EditInfo`), { ...(ok(await get(admin, inA(`${PI}/GetModel/${id}`)))), id, address: '深圳市福田区' }));
    expect(ok(await send(admin, 'POST', inA(`${AB}/RegSubMerInfo?propertyID=${id}`), {}))).toMatchObject({ status: 'applied', subMerId });
  });

  it('an illegal step is refused in Chinese with nothing changed and nothing logged', async () => {
    const id = await addProperty();
    const reg = ok(await send(admin, 'POST', inA(`${AB}/RegSubMerInfo?propertyID=${id}`), {}));
    const logs = await logCount(id);
    const cases: [Promise<Res>, string][] = [
      [send(admin, 'POST', inA(`${AB}/VerifyMessageCodeAndRandomAmount`), { subMerId: reg.subMerId, code: '123456', amount: '0.10' }), '不能验证'],
      [send(admin, 'POST', inA(`${AB}/UpdateSubMerchantStatusRequest`), { subMerId: reg.subMerId, status: 'active' }), '不能开通'],
      [send(admin, 'POST', inA(`${AB}/UpdateSubMerchantStatusRequest`), { subMerId: reg.subMerId, status: 'disabled' }), '不能停用'],
      [send(admin, 'POST', inA(`${AB}/RegSubMerInfo?propertyID=${id}`), {}), '不能提交进件'],
      [send(admin, 'POST', inA(`${AB}/Withdrawal`), { subMerId: reg.subMerId, amount: '1.00', requestId: rid() }), '开通后才能提现'],
    ];
    for (const [call, text] of cases) expect(refused(await call, text === '开通后才能提现' ? 'SUBMER_NOT_ACTIVE' : 'STATUS_INVALID')).toContain(text);
    const model = ok(await get(admin, inA(`${PI}/GetModel/${id}`)));
    expect(refused(await send(admin, 'PUT', inA(`${PI}/EditInfo`), { ...model, id, address: '改' }), 'STATUS_INVALID')).toContain('不能修改');
    expect(refused(await t.call(admin, { method: 'DELETE', url: inA(`${PI}/Delete`), payload: { ids: [id] } }) as Res, 'STATUS_INVALID')).toContain('不能删除');
    expect(await row(id)).toMatchObject({ status: 'applied', sub_mer_id: reg.subMerId });
    expect(await logCount(id)).toBe(logs);
  });

  it('retries: a lost answer to the registration changes nothing here, the retry gets the same sub-merchant; a code can be sent again', async () => {
    const id = await addProperty();
    bank.dropAnswers('register', 1);
    refused(await send(admin, 'POST', inA(`${AB}/RegSubMerInfo?propertyID=${id}`), {}), 'BANK_UNAVAILABLE');
    expect(await row(id)).toMatchObject({ status: 'draft', sub_mer_id: '' });
    const reg = ok(await send(admin, 'POST', inA(`${AB}/RegSubMerInfo?propertyID=${id}`), {}));
    expect(reg.status).toBe('applied');
    ok(await get(admin, inA(`${AB}/SendMobileMessageForSubMer?subMerId=${reg.subMerId}`)));
    const first = bank.secretOf(reg.subMerId)!;
    ok(await get(admin, inA(`${AB}/SendMobileMessageForSubMer?subMerId=${reg.subMerId}`)));
    const second = bank.secretOf(reg.subMerId)!;
    expect(second.amountFen).toBe(first.amountFen);
    ok(await send(admin, 'POST', inA(`${AB}/VerifyMessageCodeAndRandomAmount`), { subMerId: reg.subMerId, code: second.code, amount: amountOf(second.amountFen) }));
    expect(await row(id)).toMatchObject({ status: 'verified' });
  });

  it('a licence the bank refuses keeps the application as it was, with the reason', async () => {
    const id = await addProperty({ licenseNo: '91440300MA5FAB0000' });
    expect(refused(await send(admin, 'POST', inA(`${AB}/RegSubMerInfo?propertyID=${id}`), {}), 'LICENSE_INVALID')).toContain('营业执照');
    expect(await row(id)).toMatchObject({ status: 'draft', reason: expect.stringContaining('营业执照') });
  });
});

describe('the sub-account', () => {
  it('SubAccQuery answers the bank balance; a withdrawal moves it to the settlement account once per requestId', async () => {
    const { subMerId } = await activeSubMer(50_000);
    expect(ok(await get(userA, `${AB}/SubAccQuery?subMerId=${subMerId}`))).toMatchObject({ balance: '500.00', available: '500.00', availableFen: 50_000, bankName: '中国农业银行' });
    const requestId = rid();
    const w = ok(await send(userA, 'POST', `${AB}/Withdrawal`, { subMerId, amount: '120.50', requestId }));
    expect(w).toMatchObject({ amount: '120.50', status: 1, statusText: '已到账', duplicate: false });
    expect(w.bankSerial).toMatch(/^W\d+/);
    const again = ok(await send(userA, 'POST', `${AB}/Withdrawal`, { subMerId, amount: '120.50', requestId }));
    expect(again).toMatchObject({ id: w.id, duplicate: true, status: 1 });
    expect(bank.balanceOf(subMerId)).toBe(50_000 - 12_050);
    // the same requestId for another amount is a conflict
    expect((await send(userA, 'POST', `${AB}/Withdrawal`, { subMerId, amount: '1.00', requestId })).status).toBe(409);
    const list = ok(await get(userA, `${AB}/WithdrawalList?index=1&size=10&subMerId=${subMerId}`));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ orderNo: `BW${companyA}-${w.id}`, amount: '120.50', statusText: '已到账' });
  });

  it('refuses an overdraft and nothing is recorded; parallel withdrawals never take more than the balance', async () => {
    const { subMerId } = await activeSubMer(10_000);
    const before = Number((await t.owner.query(`SELECT count(*) FROM bank_withdrawals WHERE sub_mer_id = $1`, [subMerId])).rows[0].count);
    expect(refused(await send(userA, 'POST', `${AB}/Withdrawal`, { subMerId, amount: '100.01', requestId: rid() }), 'INSUFFICIENT_BALANCE')).toContain('超过子账户可用余额 ¥100.00');
    expect(Number((await t.owner.query(`SELECT count(*) FROM bank_withdrawals WHERE sub_mer_id = $1`, [subMerId])).rows[0].count)).toBe(before);
    const rs = await Promise.all(Array.from({ length: 6 }, () => send(userA, 'POST', `${AB}/Withdrawal`, { subMerId, amount: '40.00', requestId: rid() })));
    const done = rs.filter((r) => r.body.code === 'SUCCESS');
    expect(done).toHaveLength(2);
    for (const r of rs) if (r.body.code !== 'SUCCESS') expect(r.body.code).toBe('INSUFFICIENT_BALANCE');
    expect(bank.balanceOf(subMerId)).toBe(2_000);
  });

  it('a lost answer leaves the withdrawal 处理中; the retry with the same requestId finishes it without paying twice', async () => {
    const { subMerId } = await activeSubMer(30_000);
    const requestId = rid();
    bank.dropAnswers('withdraw', 1);
    const first = ok(await send(userA, 'POST', `${AB}/Withdrawal`, { subMerId, amount: '100.00', requestId }));
    expect(first).toMatchObject({ status: 0, statusText: '处理中' });
    // while it is unconfirmed the available balance counts it out (the bank took it already)
    expect(ok(await get(userA, `${AB}/SubAccQuery?subMerId=${subMerId}`))).toMatchObject({ available: '100.00', processing: '100.00' });
    const retry = ok(await send(userA, 'POST', `${AB}/Withdrawal`, { subMerId, amount: '100.00', requestId }));
    expect(retry).toMatchObject({ id: first.id, status: 1, duplicate: true });
    expect(bank.balanceOf(subMerId)).toBe(20_000);
  });

  it('a withdrawal the bank bounces is 失败 and the money stays in the sub-account', async () => {
    const { subMerId } = await activeSubMer(5_000, { accountNo: '6228480000004444' });
    const w = ok(await send(userA, 'POST', `${AB}/Withdrawal`, { subMerId, amount: '10.00', requestId: rid() }));
    expect(w).toMatchObject({ status: 2, statusText: '失败', reason: expect.stringContaining('退票') });
    expect(bank.balanceOf(subMerId)).toBe(5_000);
  });
});

describe('tenancy and signatures', () => {
  it("another company's user sees none of it and cannot act on it", async () => {
    const { id, subMerId } = await activeSubMer(1_000);
    expect((await get(userB, `${AB}/SubAccQuery?subMerId=${subMerId}`)).status).toBe(404);
    expect((await send(userB, 'POST', `${AB}/Withdrawal`, { subMerId, amount: '1.00', requestId: rid() })).status).toBe(404);
    expect(ok(await get(userB, `${AB}/LogList?index=1&size=100`)).some((l: { subMerId: string }) => l.subMerId === subMerId)).toBe(false);
    expect(ok(await get(userB, `${AB}/WithdrawalList?index=1&size=100`))).toHaveLength(0);
    expect(ok(await get(userA, `${AB}/LogList?index=1&size=100`)).some((l: { subMerId: string }) => l.subMerId === subMerId)).toBe(true);
    // company users hold no /apply: the application steps are the platform's
    expect((await send(userA, 'POST', `${AB}/RegSubMerInfo?propertyID=${id}`, {})).status).toBe(403);
    expect(bank.balanceOf(subMerId)).toBe(1_000);
  });

  it('the bank refuses an unsigned or wrongly signed request, and a forged answer is not believed', async () => {
    const res = await fetch(`${bank.url}/ebus/subacc/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"subMerId":"ABC880000000001"}' });
    expect(await res.json()).toMatchObject({ ok: false, errCode: 'SIGN_ERROR' });
    const wrong = bankClient({ url: bank.url, merId: MER, key: randomBytes(32) });
    expect(await wrong.call('query', { subMerId: 'ABC880000000001' })).toMatchObject({ ok: false, lost: true, errCode: 'ANSWER_SIGN_ERROR' });
  });

  it('companyBocInfo is read and saved per company; Bank/List answers the whole dictionary', async () => {
    ok(await send(admin, 'PUT', inA('/yewu/api/companyBocInfo/detail'), { merId: '103881000000123', branchName: '农行南山支行', accountNo: '4100 5600 0400 1234' }));
    expect(ok(await get(admin, inA('/yewu/api/companyBocInfo/detail')))).toMatchObject({ companyId: companyA, merId: '103881000000123', accountNo: '4100560004001234', bankName: '中国农业银行' });
    expect(ok(await get(admin, `/yewu/api/companyBocInfo/detail?searchCompanyID=${companyB}`))).toMatchObject({ merId: '' });
    const banks = await get(admin, '/yewu/api/Bank/List?index=1&size=999999');
    expect(ok(banks).length).toBeGreaterThanOrEqual(7);
  });
});
