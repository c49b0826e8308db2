import { describe, expect, it } from 'vitest';
import { fileApp } from '../../../test/helpers.ts';
import { balances, billingCompany, FINANCE_ROUTES, type BillingCompany } from '../billing/fixtures.ts';
import { dayKey } from '../billing/index.ts';

// 日结 while the counter keeps taking money: every top-up lands either in the closed day — and then
// it is in the closing's figures — or on the next day; the closed figures equal the journal of the
// closed day afterwards, whatever the interleaving (the day lock of migration 0036).

const today = dayKey(new Date());
const Y = '/yewu/api';

const t = await fileApp();
const a: BillingCompany = await billingCompany(t, { routes: [...FINANCE_ROUTES, 'dailyClose'], rooms: 3 });

describe('closing under concurrent top-ups', () => {
  it('the closed figures equal the closed day\'s journal; nothing is lost or counted twice', async () => {
    const prepay = (i: number) =>
      t.call(a.token, { method: 'POST', url: `${Y}/Energy/Prepay`, payload: { roomId: a.rooms[i % 3], wallet: 'electric', amount: `${1 + (i % 7)}.${String(i % 100).padStart(2, '0')}`, payMethod: i % 2 ? 'cash' : 'wechat' } });
    const first = Array.from({ length: 12 }, (_, i) => prepay(i));
    const close = t.call(a.token, { method: 'POST', url: `${Y}/DailyClosing/Close`, payload: { day: today } });
    const rest = Array.from({ length: 12 }, (_, i) => prepay(12 + i));
    const results = await Promise.all([...first, ...rest]);
    for (const r of results) expect(r.body.code, JSON.stringify(r.body)).toBe('SUCCESS');
    expect((await close).body.code).toBe('SUCCESS');

    const { rows } = await t.owner.query(
      `SELECT to_char(business_day, 'YYYY-MM-DD') AS day, pay_method, sum(amount_fen)::bigint AS fen, count(*)::int AS n FROM journal
       WHERE company_id = $1 AND kind = 'prepay' GROUP BY 1, 2`,
      [a.companyId],
    );
    const closedDay = rows.filter((r) => r.day === today);
    expect(rows.every((r) => r.day === today || r.day > today)).toBe(true);
    expect(rows.reduce((s, r) => s + r.n, 0)).toBe(24);

    const c = await t.owner.query(`SELECT totals, net_fen, entries FROM finance_closings WHERE company_id = $1 AND day = $2::date AND operator_id IS NULL`, [a.companyId, today]);
    const totals = c.rows[0].totals;
    for (const m of ['cash', 'wechat']) {
      const j = closedDay.find((r) => r.pay_method === m);
      expect(totals.methods[m].receiptFen).toBe(j ? Number(j.fen) : 0);
      expect(totals.methods[m].count).toBe(j ? j.n : 0);
    }
    expect(Number(c.rows[0].net_fen)).toBe(closedDay.reduce((s, r) => s + Number(r.fen), 0));
    for (const o of a.owners) {
      const b = (await balances(t.owner, o)).electric;
      expect(b.sum).toBe(b.balance);
    }
  });
});
