import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { localTime } from '../../db/local-time.ts';

// The only SQL of 短信模板 (sms_templates, platform-wide) and 短信提醒规则 (sms_rules, per company).

export interface TemplateRow {
  id: number;
  name: string;
  event: number;
  content: string;
  status: number;
  memo: string;
  createdAt: string;
}

const templateOf = (x: Record<string, unknown>): TemplateRow => ({
  id: Number(x.id), name: String(x.name), event: Number(x.event), content: String(x.content), status: Number(x.status), memo: String(x.memo),
  createdAt: String(x.createdAt),
});
const templateCols = sql`id, name, event, content, status, memo, ${localTime(sql`created_at`)} AS "createdAt"`;

export async function getTemplate(tx: Tx, id: number): Promise<TemplateRow | null> {
  const r = await tx.execute(sql`SELECT ${templateCols} FROM sms_templates WHERE id = ${id}`);
  return r.rows[0] ? templateOf(r.rows[0]) : null;
}

/** The content of the first template in use for an event (the oldest), if any. */
export async function firstTemplateContent(tx: Tx, event: number): Promise<string | undefined> {
  const r = await tx.execute(sql`SELECT content FROM sms_templates WHERE event = ${event} AND status = 1 ORDER BY id LIMIT 1`);
  return r.rows[0] ? String(r.rows[0].content) : undefined;
}

/** How many companies' rules use these templates (all companies: the platform admin's question). */
export async function templateUses(tx: Tx, ids: number[]) {
  const r = await tx.execute(sql`SELECT count(*)::int AS n FROM sms_rules WHERE template_id = ANY(${sql.param(ids)}::bigint[])`);
  return Number(r.rows[0]?.n ?? 0);
}

export interface RuleRow {
  companyId: number;
  meterKind: number;
  event: number;
  templateId: number | null;
  thresholdFen: number;
  channel: 'sms' | 'phone' | 'both' | 'off';
  /** the template's text, when it is set and in use */
  templateName: string | null;
  templateContent: string | null;
}

/** The saved rules of these companies, each with its template when that is in use (status 1). */
export async function rulesOf(tx: Tx, companyIds: number[]): Promise<RuleRow[]> {
  if (!companyIds.length) return [];
  const r = await tx.execute(sql`
    SELECT r.company_id, r.meter_kind, r.event, r.template_id, r.threshold_fen, r.channel, t.name AS template_name, t.content AS template_content
    FROM sms_rules r LEFT JOIN sms_templates t ON t.id = r.template_id AND t.status = 1
    WHERE r.company_id = ANY(${sql.param(companyIds)}::bigint[])`);
  return r.rows.map((x) => ({
    companyId: Number(x.company_id), meterKind: Number(x.meter_kind), event: Number(x.event), templateId: x.template_id == null ? null : Number(x.template_id),
    thresholdFen: Number(x.threshold_fen), channel: String(x.channel) as RuleRow['channel'],
    templateName: x.template_name == null ? null : String(x.template_name), templateContent: x.template_content == null ? null : String(x.template_content),
  }));
}

export async function saveRule(tx: Tx, companyId: number, r: Omit<RuleRow, 'companyId' | 'templateName' | 'templateContent'>) {
  await tx.execute(sql`
    INSERT INTO sms_rules (company_id, meter_kind, event, template_id, threshold_fen, channel, updated_at)
    VALUES (${companyId}, ${r.meterKind}, ${r.event}, ${r.templateId}, ${r.thresholdFen}, ${r.channel}, now())
    ON CONFLICT (company_id, meter_kind, event) DO UPDATE SET template_id = EXCLUDED.template_id, threshold_fen = EXCLUDED.threshold_fen,
      channel = EXCLUDED.channel, updated_at = now()`);
}
