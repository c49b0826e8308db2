import { describe, expect, it } from 'vitest';
import { ok } from '../../../../test/helpers.ts';
import { uniq } from '../../../../test/factories.ts';
import { fileSmsHarness } from './emulated.test-util.ts';

// 短信余额: a company whose SMS credit is kept by the platform is charged per priced message when it is
// handed to the provider; when the credit does not cover the next one it is held (余额不足, not sent)
// and the company is warned; a top-up releases it and it is sent exactly once; a message that fails
// for good gets its charge back. Every movement is in the credit's own journal.

const h = await fileSmsHarness();
const { t, em, send, row } = h;
const [admin] = await t.signIn('admin');

async function company() {
  const { companyId, token } = await h.company({ smsFen: 7 });
  const cfg = await t.call(token, { method: 'POST', url: '/sms/config', payload: { provider: 'aliyun', accessKeyId: uniq('AK'), secret: 'k'.repeat(20), signName: '测试物业', templateCode: 'SMS_100000001' } });
  expect(cfg.status).toBe(200);
  return { companyId, token };
}

const queue = (companyId: number, phone = '13800000000') => h.queue(companyId, phone, 'credit');

const topUp = (companyId: number, amount: string) => t.call(admin, { method: 'POST', url: '/sms/credit/topup', payload: { companyId, amount, memo: '测试充值' } });
const delivered = (id: number) => em.aliyun.messages.filter((m) => m.outId === `notify-${id}`).length;

describe('短信余额', () => {
  it('credit runs out → the next message is held, not sent, and the company warned; a top-up sends it exactly once', async () => {
    const { companyId, token } = await company();
    // no credit kept yet: nothing to warn about
    expect(ok(await t.call(token, { method: 'GET', url: '/sms/credit' }))).toMatchObject({ kept: false, state: '', warning: '' });
    expect(ok(await topUp(companyId, '0.07'))).toMatchObject({ kept: true, balanceFen: 7, released: 0 });
    const first = await queue(companyId);
    const second = await queue(companyId);
    const calls = em.aliyun.calls;
    await send();
    expect((await row(first)).status).toBe('sent');
    expect((await row(first)).credit_fen).toBe(7);
    const held = await row(second);
    expect(held.status).toBe('held');
    expect(held.error).toContain('余额不足');
    expect(held.send_attempts).toBe(0);
    expect(em.aliyun.calls).toBe(calls + 1);
    expect(delivered(second)).toBe(0);
    // warned: the header's call and the SMS log
    const c = ok(await t.call(token, { method: 'GET', url: '/sms/credit' }));
    expect(c).toMatchObject({ kept: true, balanceFen: 0, heldCount: 1, state: 'out' });
    expect(c.warning).toContain('短信余额不足');
    const log = ok(await t.call(token, { method: 'GET', url: '/sms/log/list?index=1&size=10&status=held' }));
    expect(log.map((x: { id: number }) => x.id)).toEqual([second]);
    // the sender keeps it held
    await send();
    expect((await row(second)).status).toBe('held');
    expect(em.aliyun.calls).toBe(calls + 1);
    // a company user cannot top up
    expect((await t.call(token, { method: 'POST', url: '/sms/credit/topup', payload: { companyId, amount: '1' } })).status).toBe(403);
    // topped up: released and sent once
    expect(ok(await topUp(companyId, '0.07'))).toMatchObject({ balanceFen: 7, released: 1 });
    await send();
    await send();
    expect((await row(second)).status).toBe('sent');
    expect(delivered(second)).toBe(1);
    expect(em.aliyun.calls).toBe(calls + 2);
    expect(ok(await t.call(token, { method: 'GET', url: '/sms/credit' }))).toMatchObject({ balanceFen: 0, heldCount: 0 });
    const journal = ok(await t.call(token, { method: 'GET', url: '/sms/credit/journal?index=1&size=20' }));
    expect(journal.map((j: { kind: string; amount: string; balance: string }) => `${j.kind}:${j.amount}:${j.balance}`).reverse()).toEqual([
      'topup:0.07:0.07', 'charge:-0.07:0.00', 'topup:0.07:0.07', 'charge:-0.07:0.00',
    ]);
  });

  it('a message that fails for good gets its charge back; a company whose credit is not kept is not limited', async () => {
    const { companyId, token } = await company();
    ok(await topUp(companyId, '0.10'));
    await t.owner.query(`UPDATE sms_configs SET template_code = 'BAD' WHERE company_id = $1`, [companyId]);
    const id = await queue(companyId);
    await send();
    expect((await row(id))).toMatchObject({ status: 'failed', credit_fen: 0 });
    expect(ok(await t.call(token, { method: 'GET', url: '/sms/credit' }))).toMatchObject({ balanceFen: 10, state: 'low' });
    const kinds = ok(await t.call(token, { method: 'GET', url: '/sms/credit/journal?index=1&size=20' })).map((j: { kind: string }) => j.kind);
    expect(kinds).toEqual(['refund', 'charge', 'topup']);
    // another company, no credit kept: sent
    const other = await company();
    const free = await queue(other.companyId);
    await send();
    expect((await row(free)).status).toBe('sent');
  });
});
