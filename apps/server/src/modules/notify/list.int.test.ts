import { describe, expect, it } from 'vitest';
import { fileApp } from '../../../test/helpers.ts';
import { makeCompany, uniq } from '../../../test/factories.ts';
import { loginWith } from '../scheme/fixtures.ts';

// 短信记录 (/sms/log/list): queued and sent notifications as the list answers them (the answer is
// checked against its declaration, NotificationRow, under tests).

const t = await fileApp();
// a company of its own: no other test's sender or count sees these rows
const companyId = await makeCompany(t.owner);
const token = await loginWith(t, companyId, ['notesMessage']);

describe('the notifications list', () => {
  it('lists a failed and a sent message with their state, price and Beijing times', async () => {
    const key = uniq('list-test');
    await t.owner.query(
      `INSERT INTO notifications (company_id, level, channel, phone, content, price_fen, idempotency_key, status, error, sent_at, created_at)
       VALUES ($1, 1, 'sms', '', $2, 8, $3, 'failed', '业主未登记有效手机号', NULL, '2026-11-25T01:00:00Z'),
              ($1, 3, 'phone', '13800000001', $2, 20, $4, 'sent', '', '2026-11-25T01:05:00Z', '2026-11-25T01:00:00Z')`,
      [companyId, `余额不足 ${key}`, `${key}:1`, `${key}:2`],
    );
    const r = await t.call(token, { method: 'GET', url: '/sms/log/list?index=1&size=50' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const mine = r.body.data as { content: string }[];
    expect(r.body.count).toBe(2);
    expect(mine).toEqual(expect.arrayContaining([
      expect.objectContaining({ level: 1, channel: 'sms', status: 'failed', error: '业主未登记有效手机号', priceFen: 8, sentAt: null, createdAt: '2026-11-25 09:00:00', ownerId: null }),
      expect.objectContaining({ level: 3, channel: 'phone', status: 'sent', priceFen: 20, sentAt: '2026-11-25 09:05:00' }),
    ]));
    const sent = await t.call(token, { method: 'GET', url: '/sms/log/list?index=1&size=50&status=sent&level=3' });
    expect(sent.body.data).toEqual([expect.objectContaining({ status: 'sent', level: 3 })]);
  });
});
