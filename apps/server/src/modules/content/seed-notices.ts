import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { sanitizeNotice } from './notice-html.ts';

// Demo notices: two published system notices (one read by the demo company), and the demo company's
// 物业公告 — published to everyone and to one area (read by a few owners), withdrawn, and a draft — so
// /systemNotice, /addedNotice and the header badge show something.

const DAY = 86400_000;

export async function seedNotices(tx: Tx, companyId: number, at = new Date()) {
  const staff = (await tx.execute(sql`SELECT id, real_name FROM admin_users WHERE company_id = ${companyId} ORDER BY id LIMIT 1`)).rows[0];
  const platform = (await tx.execute(sql`SELECT id, real_name FROM admin_users WHERE access = 0 ORDER BY id LIMIT 1`)).rows[0];
  const sys = async (category: number, title: string, html: string, daysAgo: number, read: boolean) => {
    const when = new Date(at.getTime() - daysAgo * DAY);
    const r = await tx.execute(sql`INSERT INTO system_notices (category, title, content, status, published_at, created_by_id, created_by_name, created_at, updated_at)
      VALUES (${category}, ${title}, ${sanitizeNotice(html)}, 1, ${when}, ${platform?.id ?? null}, ${String(platform?.real_name ?? '平台管理员')}, ${when}, ${when}) RETURNING id`);
    if (read && staff) {
      await tx.execute(sql`INSERT INTO system_notice_reads (notice_id, user_id, company_id, read_at) VALUES (${r.rows[0]!.id}, ${staff.id}, ${companyId}, ${when})`);
    }
  };
  await sys(3, '平台新增物业公告与设备工单功能', '<h3>本次更新</h3><ul><li>物业公告：富文本编辑、按区域发送、短信通知业主、阅读统计</li><li>设备工单：设备异常自动生成工单，异常消除后自动办结</li></ul>', 2, true);
  await sys(2, '本周六 23:00–24:00 平台例行维护', '<p>维护期间抄表与充值<b>暂停约 30 分钟</b>，设备数据会在维护结束后自动补传，请提前安排。</p>', 0, false);

  const types = new Map((await tx.execute(sql`SELECT id, name FROM notice_types WHERE company_id = ${companyId}`)).rows.map((x) => [String(x.name), Number(x.id)]));
  const area = (await tx.execute(sql`SELECT id FROM areas WHERE company_id = ${companyId} AND parent_id IS NULL ORDER BY id LIMIT 1`)).rows[0];
  const owners = (await tx.execute(sql`SELECT id FROM owners WHERE company_id = ${companyId} AND status = 1 ORDER BY id LIMIT 6`)).rows.map((x) => Number(x.id));
  const notice = async (type: string, title: string, html: string, status: number, daysAgo: number, o: { areaIds?: number[]; pinned?: boolean; sms?: number; readers?: number[] } = {}) => {
    const when = new Date(at.getTime() - daysAgo * DAY);
    const r = await tx.execute(sql`INSERT INTO notices (company_id, type_id, type_name, title, content, area_ids, status, pinned, send_sms, sms_count,
        published_at, withdrawn_at, created_by_id, created_by_name, created_at, updated_at)
      VALUES (${companyId}, ${types.get(type) ?? null}, ${types.has(type) ? type : ''}, ${title}, ${sanitizeNotice(html)}, ${`{${(o.areaIds ?? []).join(',')}}`}::bigint[],
        ${status}, ${o.pinned ?? false}, ${(o.sms ?? 0) > 0}, ${o.sms ?? 0}, ${status === 0 ? null : when}, ${status === 2 ? new Date(when.getTime() + DAY) : null},
        ${staff?.id ?? null}, ${String(staff?.real_name ?? '演示管理员')}, ${when}, ${when}) RETURNING id`);
    for (const ownerId of o.readers ?? []) {
      await tx.execute(sql`INSERT INTO notice_reads (notice_id, owner_id, company_id, read_at) VALUES (${r.rows[0]!.id}, ${ownerId}, ${companyId}, ${when})`);
    }
  };
  await notice('停水停电通知', '12 月 1 日 9:00–12:00 计划停水', '<p>因市政管网检修，<b>12 月 1 日 9:00–12:00</b> 园区全部楼栋停水，请提前储水。</p><p>如有疑问请致电物业服务中心。</p>', 1, 1,
    { pinned: true, sms: owners.length, readers: owners.slice(0, 4) });
  await notice('缴费通知', '关于开通微信、支付宝在线充值的通知', '<p>即日起业主可通过业主端在线充值水电费，充值后自动恢复供电供水。</p>', 1, 6,
    { areaIds: area ? [Number(area.id)] : [], readers: owners.slice(0, 2) });
  await notice('物业公告', '国庆期间物业服务时间调整', '<p>国庆期间物业前台服务时间调整为 9:00–17:00。</p>', 2, 50);
  await notice('物业公告', '冬季供暖设备检修安排（草稿）', '<p>各楼栋供暖设备检修安排如下：</p><ol><li>1 号楼：12 月 3 日</li><li>2 号楼：12 月 4 日</li></ol>', 0, 0);
}
