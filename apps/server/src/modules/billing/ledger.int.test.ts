import { describe, expect, it } from 'vitest';
import { fileApp } from '../../../test/helpers.ts';
import { makeArea, makeCompany, makeRoom, uniq } from '../../../test/factories.ts';
import type { Scope } from '../../db/client.ts';
import { post, type Kind } from './ledger.ts';

const t = await fileApp();
const companyId = await makeCompany(t.owner);
const roomId = await makeRoom(t.owner, companyId, await makeArea(t.owner, companyId, uniq('园区')), uniq('房'));
const ownerId = Number((await t.owner.query(`INSERT INTO owners (company_id, room_id, name) VALUES ($1, $2, '账户测试') RETURNING id`, [companyId, roomId])).rows[0].id);
const scope: Scope = { companyId, allCompanies: false, areaIds: null, userId: null };

const base = () => ({ companyId, ownerId, roomId, wallet: 'electric' as const });
const balance = async () => {
  const { rows } = await t.owner.query(`SELECT a.balance_fen, (SELECT coalesce(sum(amount_fen),0) FROM journal j WHERE j.account_id = a.id) AS sum,
    (SELECT count(*) FROM journal j WHERE j.account_id = a.id) AS n FROM accounts a WHERE owner_id = $1 AND wallet = 'electric'`, [ownerId]);
  return { balance: Number(rows[0].balance_fen), sum: Number(rows[0].sum), n: Number(rows[0].n) };
};

describe('ledger', () => {
  it('credits once per idempotency key', async () => {
    const key = uniq('pay');
    const a = await t.db.tx(scope, (tx) => post(tx, { ...base(), kind: 'prepay', amountFen: 10000, idempotencyKey: key }));
    const b = await t.db.tx(scope, (tx) => post(tx, { ...base(), kind: 'prepay', amountFen: 10000, idempotencyKey: key }));
    expect(a.duplicate).toBe(false);
    expect(b).toMatchObject({ duplicate: true, journalId: a.journalId });
    const s = await balance();
    expect(s.balance).toBe(10000);
    expect(s.sum).toBe(s.balance);
  });

  it('refuses a refund above the balance, changing nothing', async () => {
    const before = await balance();
    await expect(
      t.db.tx(scope, (tx) => post(tx, { ...base(), kind: 'refund', amountFen: before.balance + 1, idempotencyKey: uniq('r') })),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE', message: expect.stringContaining('退费金额不能超过账户余额') });
    expect(await balance()).toEqual(before);
  });

  it('100 concurrent prepay/refund/deduction operations: balance == Σ journal, no overdraw, nothing lost or doubled', async () => {
    const start = await balance();
    const ops: { kind: Kind; amountFen: number; key: string }[] = [];
    for (let i = 0; i < 100; i++) {
      const kind: Kind = i % 3 === 0 ? 'prepay' : i % 3 === 1 ? 'refund' : 'deduction';
      ops.push({ kind, amountFen: 100 + ((i * 37) % 900), key: uniq(`c${i}`) });
    }
    // every 10th operation is sent twice, concurrently: it must count once
    const sends = [...ops, ...ops.filter((_, i) => i % 10 === 0)];
    const results = await Promise.allSettled(sends.map((o) => t.db.tx(scope, (tx) => post(tx, { ...base(), kind: o.kind, amountFen: o.amountFen, idempotencyKey: o.key }))));
    const posted = new Map<string, number>();
    results.forEach((r, i) => {
      if (r.status === 'fulfilled' && !r.value.duplicate) posted.set(sends[i].key, r.value.amountFen);
      if (r.status === 'rejected') expect((r.reason as { code?: string }).code).toBe('INSUFFICIENT_BALANCE');
    });
    const s = await balance();
    expect(s.balance).toBe(s.sum);
    expect(s.n - start.n).toBe(posted.size); // no doubles: one row per successful key
    expect(s.balance - start.balance).toBe([...posted.values()].reduce((a, b) => a + b, 0));
    // no refund ever took the balance below zero
    const { rows } = await t.owner.query(`SELECT min(balance_after_fen) AS m FROM journal WHERE owner_id = $1 AND kind = 'refund'`, [ownerId]);
    expect(Number(rows[0].m)).toBeGreaterThanOrEqual(0);
  });

  it('the journal cannot be changed by the app role', async () => {
    const c = await t.db.pool.connect();
    try {
      await c.query('BEGIN');
      await c.query(`SELECT set_config('app.company_id', $1, true)`, [String(companyId)]);
      await expect(c.query('DELETE FROM journal')).rejects.toThrow(/permission denied/);
      await c.query('ROLLBACK');
      await c.query('BEGIN');
      await c.query(`SELECT set_config('app.company_id', $1, true)`, [String(companyId)]);
      await expect(c.query('UPDATE journal SET amount_fen = 0')).rejects.toThrow(/permission denied/);
      await c.query('ROLLBACK');
    } finally {
      c.release();
    }
  });
});
