import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

// The only SQL of the 设备工单 (appeals kind 3): opened by a device exception, one open per device and
// exception (unique partial index appeals_one_open_device_order), closed with a note when it clears.

const arr = (v: unknown[]) => sql.param(v);

/** The device's name, area and room (system scope: any company). */
export async function device(tx: Tx, meterId: number | null, collectorId: number | null) {
  const r = meterId != null
    ? await tx.execute(sql`SELECT m.name, m.address AS code, m.area_id, m.room_id, r.name AS room_name, a.name AS area_name
        FROM meters m LEFT JOIN rooms r ON r.id = m.room_id LEFT JOIN areas a ON a.id = m.area_id WHERE m.id = ${meterId}`)
    : await tx.execute(sql`SELECT c.name, c.imei AS code, c.area_id, NULL::bigint AS room_id, NULL AS room_name, a.name AS area_name
        FROM collectors c LEFT JOIN areas a ON a.id = c.area_id WHERE c.id = ${collectorId}`);
  const x = r.rows[0];
  return x
    ? {
      name: String(x.name ?? ''), code: String(x.code ?? ''), areaId: x.area_id == null ? null : Number(x.area_id),
      roomId: x.room_id == null ? null : Number(x.room_id), roomName: String(x.room_name ?? ''), areaName: String(x.area_name ?? ''),
    }
    : undefined;
}

/** The company's 工单类型 in use with one of these names (the first by sort), for the deadline. */
export async function orderType(tx: Tx, companyId: number, names: string[]) {
  const r = await tx.execute(sql`SELECT id, name, limit_hours FROM work_order_types
    WHERE company_id = ${companyId} AND status = 1 AND name = ANY(${arr(names)}::text[])
    ORDER BY sort, id LIMIT 1`);
  const x = r.rows[0];
  return x ? { id: Number(x.id), name: String(x.name), limitHours: Number(x.limit_hours) } : undefined;
}

/** 区域权限 → a person: an enabled user bound to the area or the nearest area above it. */
export async function areaHandler(tx: Tx, areaId: number) {
  const r = await tx.execute(sql`
    WITH RECURSIVE up AS (SELECT id, parent_id, 0 AS depth FROM areas WHERE id = ${areaId}
      UNION ALL SELECT a.id, a.parent_id, up.depth + 1 FROM areas a JOIN up ON a.id = up.parent_id WHERE up.depth < 20)
    SELECT u.id, COALESCE(NULLIF(u.real_name, ''), u.username) AS name
    FROM up JOIN user_areas ua ON ua.area_id = up.id JOIN admin_users u ON u.id = ua.user_id AND u.status = 1
    ORDER BY up.depth, u.id LIMIT 1`);
  const x = r.rows[0];
  return x ? { id: Number(x.id), name: String(x.name) } : undefined;
}

export interface NewDeviceOrder {
  companyId: number;
  meterId: number | null;
  collectorId: number | null;
  exceptionKind: string;
  typeId: number | null;
  typeName: string;
  title: string;
  content: string;
  areaId: number | null;
  roomId: number | null;
  assigneeId: number | null;
  assigneeName: string;
  deadlineAt: Date;
}

/** Opens the order unless one is open for this device and exception; answers its id when opened. */
export async function open(tx: Tx, o: NewDeviceOrder) {
  const r = await tx.execute(sql`INSERT INTO appeals (company_id, kind, type_id, type_name, title, content, area_id, room_id, meter_id, collector_id,
      exception_kind, assignee_id, assignee_name, deadline_at, contact_name, created_by_name)
    VALUES (${o.companyId}, 3, ${o.typeId}, ${o.typeName}, ${o.title}, ${o.content}, ${o.areaId}, ${o.roomId}, ${o.meterId}, ${o.collectorId},
      ${o.exceptionKind}, ${o.assigneeId}, ${o.assigneeName}, ${o.deadlineAt}, '系统', '系统')
    ON CONFLICT (coalesce(meter_id, 0), coalesce(collector_id, 0), exception_kind) WHERE kind = 3 AND status IN (0, 1) DO NOTHING
    RETURNING id`);
  const id = r.rows[0] ? Number(r.rows[0].id) : undefined;
  if (id !== undefined) {
    const text = o.assigneeId ? `${o.content}\n按区域指派给 ${o.assigneeName}` : `${o.content}\n该区域未设置负责人，待指派`;
    await event(tx, o.companyId, id, 'create', null, 0, text);
  }
  return id;
}

async function event(tx: Tx, companyId: number, appealId: number, action: string, from: number | null, to: number, content: string) {
  await tx.execute(sql`INSERT INTO appeal_events (company_id, appeal_id, action, from_status, to_status, content, by_id, by_name, by_access)
    VALUES (${companyId}, ${appealId}, ${action}, ${from}, ${to}, ${content}, NULL, '系统', 1)`);
}

export interface ClearTarget {
  kinds: string[];
  meterIds?: number[];
  collectorIds?: number[];
}

/** Closes (已完成) the open orders of these devices and exceptions with the note; answers how many. */
export async function close(tx: Tx, t: ClearTarget, note: string) {
  const who: SQL[] = [];
  if (t.meterIds?.length) who.push(sql`meter_id = ANY(${arr(t.meterIds)}::bigint[])`);
  if (t.collectorIds?.length) who.push(sql`collector_id = ANY(${arr(t.collectorIds)}::bigint[])`);
  if (!who.length || !t.kinds.length) return 0;
  const r = await tx.execute(sql`UPDATE appeals a SET status = 2, finished_at = now(), updated_at = now()
    FROM (SELECT id, status FROM appeals WHERE kind = 3 AND status IN (0, 1)
            AND exception_kind = ANY(${arr(t.kinds)}::varchar[]) AND (${sql.join(who, sql` OR `)}) FOR UPDATE) o
    WHERE a.id = o.id RETURNING a.id, a.company_id, o.status AS from_status`);
  for (const x of r.rows) await event(tx, Number(x.company_id), Number(x.id), 'complete', Number(x.from_status), 2, note);
  return r.rows.length;
}
