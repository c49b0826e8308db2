import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

// Demo data of 增值服务: the demo company's notice/appeal/work-order types, a few owner appeals in
// every state (one overdue) and two platform appeals, so /addedAppeal and /systemAppeal are not empty.

const HOUR = 3600_000;

export async function seedContent(tx: Tx, companyId: number, at = new Date()) {
  const ids = async (table: string, rows: [string, number | null][]) => {
    const out: number[] = [];
    for (const [i, [name, hours]] of rows.entries()) {
      const r = hours === null
        ? await tx.execute(sql`INSERT INTO ${sql.identifier(table)} (company_id, name, sort) VALUES (${companyId}, ${name}, ${i}) RETURNING id`)
        : await tx.execute(sql`INSERT INTO ${sql.identifier(table)} (company_id, name, sort, limit_hours) VALUES (${companyId}, ${name}, ${i}, ${hours}) RETURNING id`);
      out.push(Number(r.rows[0]!.id));
    }
    return out;
  };
  await ids('notice_types', [['停水停电通知', null], ['缴费通知', null], ['物业公告', null]]);
  await ids('work_order_types', [['采集器离线', 24], ['读数异常', 48], ['阀门异常', 12]]);
  const [repair, complaint, billing] = await ids('appeal_types', [['水电报修', 4], ['投诉建议', 72], ['缴费咨询', 24]]);

  const staff = (await tx.execute(sql`SELECT id, real_name FROM admin_users WHERE company_id = ${companyId} ORDER BY id LIMIT 1`)).rows[0];
  const platform = (await tx.execute(sql`SELECT id, real_name FROM admin_users WHERE access = 0 ORDER BY id LIMIT 1`)).rows[0];
  const by = { id: staff ? Number(staff.id) : null, name: staff ? String(staff.real_name) : '演示管理员' };
  const admin = { id: platform ? Number(platform.id) : null, name: platform ? String(platform.real_name) : '平台管理员' };
  const rooms = (await tx.execute(sql`SELECT r.id, r.area_id, o.id AS owner_id, o.name, o.phone FROM rooms r
    JOIN owners o ON o.room_id = r.id AND o.status = 1 WHERE r.company_id = ${companyId} ORDER BY r.id LIMIT 5`)).rows;

  type Step = [action: string, from: number | null, to: number, content: string, hoursAfter: number, platform?: boolean];
  const add = async (kind: number, typeId: number, typeName: string, limit: number, title: string, content: string, ageHours: number,
    room: Record<string, unknown> | undefined, steps: Step[]) => {
    const created = new Date(at.getTime() - ageHours * HOUR);
    const last = steps.at(-1);
    const status = last ? last[2] : 0;
    const finished = status >= 2 && last ? new Date(created.getTime() + last[4] * HOUR) : null;
    const handler = steps.some((s) => s[0] === 'accept') ? (kind === 2 ? admin : by) : null;
    const r = await tx.execute(sql`INSERT INTO appeals (company_id, kind, type_id, type_name, title, content, status, area_id, room_id, owner_id,
        contact_name, contact_phone, assignee_id, assignee_name, deadline_at, finished_at, created_by_id, created_by_name, created_at, updated_at)
      VALUES (${companyId}, ${kind}, ${typeId}, ${typeName}, ${title}, ${content}, ${status}, ${room ? Number(room.area_id) : null},
        ${room ? Number(room.id) : null}, ${room ? Number(room.owner_id) : null}, ${room ? String(room.name) : by.name},
        ${room ? String(room.phone) : ''}, ${handler?.id ?? null}, ${handler?.name ?? ''}, ${new Date(created.getTime() + limit * HOUR)},
        ${finished}, ${by.id}, ${by.name}, ${created}, ${created}) RETURNING id`);
    const appealId = Number(r.rows[0]!.id);
    for (const [action, from, to, text, after, plat] of [['create', null, 0, content, 0] as Step, ...steps]) {
      const who = plat ? admin : by;
      await tx.execute(sql`INSERT INTO appeal_events (company_id, appeal_id, action, from_status, to_status, content, by_id, by_name, by_access, created_at)
        VALUES (${companyId}, ${appealId}, ${action}, ${from}, ${to}, ${text}, ${who.id}, ${who.name}, ${plat ? 0 : 1}, ${new Date(created.getTime() + after * HOUR)})`);
    }
  };

  await add(1, repair, '水电报修', 4, '卫生间水管漏水', '卫生间洗手盆下方水管接头滴水，请尽快安排维修。', 1, rooms[0], []);
  await add(1, repair, '水电报修', 4, '厨房插座没电', '厨房两个插座都没有电，空开没有跳闸。', 9, rooms[1], []);
  await add(1, billing, '缴费咨询', 24, '充值后仍显示欠费', '昨晚在前台充值 100 元，电表仍提示欠费断电。', 30, rooms[2], [
    ['accept', 0, 1, '处理人：演示管理员', 2],
    ['reply', 1, 1, '已核对充值记录，正在重新下发合闸指令，请稍候。', 3],
  ]);
  await add(1, complaint, '投诉建议', 72, '楼道灯不亮', '3 号楼 2 层楼道灯坏了一周。', 50, rooms[3], [
    ['accept', 0, 1, '处理人：演示管理员', 1],
    ['reply', 1, 1, '电工已更换灯管。', 20],
    ['complete', 1, 2, '已更换楼道灯管并试亮正常。', 21],
  ]);
  await add(1, complaint, '投诉建议', 72, '要求减免物业费', '本月出差未住，要求减免物业费。', 80, rooms[4], [
    ['reject', 0, 3, '物业费按合同按月收取，出差不在减免范围内，如有疑问请到物业前台咨询。', 5],
  ]);
  await add(2, billing, '缴费咨询', 24, '申请开通银行代收', '我司希望开通农业银行代收业主水电费，请告知所需资料。', 3, undefined, []);
  await add(2, repair, '水电报修', 4, '集中器批量离线', '1 号楼集中器昨晚起全部离线，现场供电正常。', 40, undefined, [
    ['accept', 0, 1, '平台已受理，正在排查网关。', 1, true],
    ['reply', 1, 1, '补充：离线前曾停电检修。', 2],
    ['complete', 1, 2, '网关证书过期已更新，集中器已全部上线。', 6, true],
  ]);
}
