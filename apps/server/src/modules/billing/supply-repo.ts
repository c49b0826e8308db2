import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { intArr } from '../../db/array-literal.ts';
import type { SupplyInput } from './supply.ts';

// The SQL behind the supply state of accounts in arrears (supply.ts): each account's meters of its
// wallet's kind in the owner's room (in use, not 公摊), with their read-back valve state, whether a
// close is on its way, their alarm scheme's no-disconnect hours and an active protection.

export async function supplyFacts(tx: Tx, accountIds: number[]): Promise<Map<number, SupplyInput>> {
  if (!accountIds.length) return new Map();
  const r = await tx.execute(sql`
    SELECT a.id, a.wallet, a.alarm_level, a.close_deferred,
      coalesce(json_agg(json_build_object(
        'valveState', m.valve_state,
        'closing', EXISTS (SELECT 1 FROM commands c WHERE c.meter_id = m.id AND c.kind = 'close' AND c.status IN ('queued', 'sent')),
        'noClose', CASE WHEN s.id IS NULL THEN NULL ELSE json_build_object('noCloseStart', s.no_close_start, 'noCloseEnd', s.no_close_end, 'noCloseWeekend', s.no_close_weekend) END,
        'protected', EXISTS (SELECT 1 FROM protections p WHERE p.meter_id = m.id AND p.active AND p.start_at <= now() AND (p.end_at IS NULL OR p.end_at > now()))
      ) ORDER BY m.id) FILTER (WHERE m.id IS NOT NULL), '[]') AS meters
    FROM accounts a
    JOIN owners o ON o.id = a.owner_id
    LEFT JOIN meters m ON m.room_id = o.room_id AND m.kind = CASE a.wallet WHEN 'electric' THEN 1 ELSE 2 END AND m.status = 1
      AND NOT EXISTS (SELECT 1 FROM shared_meters sm WHERE sm.meter_id = m.id)
    LEFT JOIN alarm_schemes s ON s.id = m.alarm_scheme_id AND s.status = 1
    WHERE a.id = ANY(${intArr(accountIds)}::bigint[]) AND a.alarm_level = 3
    GROUP BY a.id`);
  return new Map(r.rows.map((x) => [Number(x.id), {
    wallet: String(x.wallet),
    alarmLevel: Number(x.alarm_level),
    closeDeferred: x.close_deferred === true,
    meters: (x.meters as SupplyInput['meters']).map((m) => ({ ...m, valveState: m.valveState == null ? null : Number(m.valveState) })),
  }]));
}

/** /home: accounts in arrears whose meters all read back 断 (off), and those whose close is deferred (pending). */
export const homeSupplyCounts = sql`
  count(*) FILTER (WHERE a.alarm_level = 3 AND EXISTS (SELECT 1 FROM meters hm WHERE hm.room_id = o.room_id AND hm.status = 1
      AND hm.kind = CASE a.wallet WHEN 'electric' THEN 1 ELSE 2 END)
    AND NOT EXISTS (SELECT 1 FROM meters hm WHERE hm.room_id = o.room_id AND hm.status = 1
      AND hm.kind = CASE a.wallet WHEN 'electric' THEN 1 ELSE 2 END AND hm.valve_state IS DISTINCT FROM 0
      AND NOT EXISTS (SELECT 1 FROM shared_meters sm WHERE sm.meter_id = hm.id)))::bigint AS closed_n,
  count(*) FILTER (WHERE a.alarm_level = 3 AND a.close_deferred)::bigint AS pending_n`;
