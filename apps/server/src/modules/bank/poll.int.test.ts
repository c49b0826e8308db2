import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { ok } from '../../../test/helpers.ts';
import { makeCompany } from '../../../test/factories.ts';
import { addBillingJobs } from '../../jobs/billing.ts';
import { Scheduler } from '../scheduler/index.ts';
import { SANDBOX_SUB_MER } from './emulator.ts';
import { fileBankApp } from './emulated.test-util.ts';
import { pollWithdrawals } from './poll.ts';

// The poll job of lost bank withdrawals: the emulator drops the answer to a withdrawal, the
// withdrawal stays 处理中, and bank.withdrawals (registered on the one scheduler) asks the bank and
// settles it — once; one the bank never received is failed only after no request for it can arrive.

const AB = '/pay/api/AgricultureBank';
const MER = '103881000000019';

/** the emulator's sandbox sub-merchant (opened, with money): the demo company's when seeded, else a new company's */
async function sandbox(owner: pg.Pool) {
  const seeded = (await owner.query(`SELECT id, company_id FROM property_infos WHERE sub_mer_id = $1`, [SANDBOX_SUB_MER])).rows[0];
  if (seeded) return { propertyId: Number(seeded.id), companyId: Number(seeded.company_id) };
  const companyId = await makeCompany(owner);
  const bankRow = (await owner.query(`SELECT id FROM banks ORDER BY id LIMIT 1`)).rows[0];
  const propertyId = Number((await owner.query(
    `INSERT INTO property_infos (company_id, name, short_name, license_no, legal_person, legal_id_no, contact_name, phone, address, bank_id, account_name, account_no, status, sub_mer_id)
     VALUES ($1, '查单测试商户', '查单', '91440300MA5FABCD1K', '张三', '11010519491231002X', '李四', '13812345678', '深圳', $2, '测试物业', '6228480000000000000', 'active', $3) RETURNING id`,
    [companyId, bankRow.id, SANDBOX_SUB_MER],
  )).rows[0].id);
  return { propertyId, companyId };
}

const { t, bank, client } = await fileBankApp(MER);
const [admin] = await t.signIn('admin');
const { companyId, propertyId } = await sandbox(t.owner);

const status = async (id: number) => (await t.owner.query(`SELECT status, bank_serial, reason FROM bank_withdrawals WHERE id = $1`, [id])).rows[0];

describe('bank.withdrawals', () => {
  it('is a job of the one scheduler (shown on /task)', () => {
    const log = { info() {}, error() {} };
    const s = new Scheduler({ log, role: 'worker' });
    addBillingJobs(s, { db: t.db, log, bank: client });
    expect(s.names()).toContain('bank.withdrawals');
    const without = new Scheduler({ log, role: 'worker' });
    addBillingJobs(without, { db: t.db, log });
    expect(without.names()).not.toContain('bank.withdrawals');
  });

  it('a withdrawal whose answer was lost is asked of the bank and settled once, paid once', async () => {
    const before = bank.balanceOf(SANDBOX_SUB_MER)!;
    bank.dropAnswers('withdraw', 1);
    const w = ok(await t.call(admin, { method: 'POST', url: `${AB}/Withdrawal?searchCompanyID=${companyId}`, payload: { subMerId: SANDBOX_SUB_MER, amount: '12.34', requestId: `poll-${Date.now()}` } }));
    expect(w).toMatchObject({ status: 0, statusText: '处理中' });
    // too young: left to its own answer
    expect((await pollWithdrawals(t.db, client, { minAgeMs: 60_000 })).asked).toBe(0);
    // the query's answer lost too: still 处理中, asked again next time
    bank.dropAnswers('withdrawQuery', 1);
    await pollWithdrawals(t.db, client, { minAgeMs: 0 });
    expect((await status(w.id)).status).toBe(0);
    const r = await pollWithdrawals(t.db, client, { minAgeMs: 0 });
    expect(r.succeeded).toBeGreaterThanOrEqual(1);
    const after = await status(w.id);
    expect(after.status).toBe(1);
    expect(after.bank_serial).toMatch(/^W\d+/);
    expect(bank.balanceOf(SANDBOX_SUB_MER)).toBe(before - 1234);
    // asked again: nothing more happens
    await pollWithdrawals(t.db, client, { minAgeMs: 0 });
    expect((await status(w.id)).status).toBe(1);
    const logs = (await t.owner.query(`SELECT action, message FROM bank_logs WHERE property_id = $1 AND action = 'WithdrawalQuery'`, [propertyId])).rows;
    expect(logs).toHaveLength(1);
    expect(logs[0].message).toContain('已到账');
    const list = ok(await t.call(admin, { method: 'GET', url: `${AB}/WithdrawalList?index=1&size=10&searchCompanyID=${companyId}` }));
    expect(list.find((x: { id: number }) => x.id === w.id)).toMatchObject({ statusText: '已到账' });
    // /reportBank shows it with the money received
    const report = ok(await t.call(admin, { method: 'GET', url: `/yewu/api/Report/Bank?searchCompanyID=${companyId}` }));
    expect(report.withdrawals.find((x: { id: number }) => x.id === w.id)).toMatchObject({ amount: '12.34', status: 1, statusText: '已到账', subMerId: SANDBOX_SUB_MER });
    const inDb = (await t.owner.query(
      `SELECT count(*)::int AS n, coalesce(sum(amount_fen), 0)::int AS fen FROM bank_withdrawals WHERE company_id = $1 AND status = 1
       AND created_at >= date_trunc('month', now() AT TIME ZONE 'Asia/Shanghai') AT TIME ZONE 'Asia/Shanghai'`, [companyId])).rows[0];
    expect(report.withdrawalTotals.succeeded).toEqual({ count: inDb.n, amount: (inDb.fen / 100).toFixed(2) });
  });

  it('one the bank never received is failed only after the signing window, and no money moves', async () => {
    const before = bank.balanceOf(SANDBOX_SUB_MER)!;
    const id = Number((await t.owner.query(
      `INSERT INTO bank_withdrawals (company_id, property_id, sub_mer_id, request_id, amount_fen, account_name, account_no, memo, operator_id, operator_name, created_at)
       VALUES ($1, $2, $3, $4, 500, '测试物业', '6228480000000000000', '', NULL, '测试', now() - interval '2 minutes') RETURNING id`,
      [companyId, propertyId, SANDBOX_SUB_MER, `never-${Date.now()}`],
    )).rows[0].id);
    await pollWithdrawals(t.db, client, { minAgeMs: 0 });
    expect((await status(id)).status).toBe(0);
    await t.owner.query(`UPDATE bank_withdrawals SET created_at = now() - interval '10 minutes' WHERE id = $1`, [id]);
    await pollWithdrawals(t.db, client, { minAgeMs: 0 });
    const after = await status(id);
    expect(after.status).toBe(2);
    expect(after.reason).toContain('未送达银行');
    expect(bank.balanceOf(SANDBOX_SUB_MER)).toBe(before);
    const report = ok(await t.call(admin, { method: 'GET', url: `/yewu/api/Report/Bank?searchCompanyID=${companyId}` }));
    expect(report.withdrawals.find((x: { id: number }) => x.id === id)).toMatchObject({ status: 2, statusText: '失败' });
  });
});
