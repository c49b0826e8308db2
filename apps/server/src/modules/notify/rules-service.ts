import type { z } from 'zod';
import { renderTemplate, type SmsRulesBody } from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import { companyOf, type Ctx } from '../../http/context.ts';
import { badRequest, conflict } from '../../http/errors.ts';
import * as repo from './rules-repo.ts';

// 短信模板 (platform admins, /alermSmsConfigTemplate: a declared CRUD resource, registered in routes.ts)
// and each company's reminder rules (alermSmsConfig, /systemSend 提醒规则): for each meter kind and event, the template, the channel and — for 余额不足 —
// the balance at or below which to remind. The billing alarms ask `noticeRules` which rule applies.

/** Hooks of 短信模板 (registerCrud): a template still bound by a company's rule is not deleted. */
export const templateHooks = {
  async beforeDelete(tx: Tx, _ctx: Ctx, ids: number[]) {
    const used = await repo.templateUses(tx, ids);
    if (used) throw conflict(`模板正被 ${used} 条单位提醒规则使用，不能删除（可改为停用）`);
  },
};

const KINDS = [1, 2];
const EVENTS = [1, 2, 3, 4];

/** Every meter kind × event of the company: its saved rule, or the default (the scheme's channels, the built-in text). */
export function listRules(ctx: Ctx) {
  const companyId = companyOf(ctx);
  return ctx.tx(async (tx) => {
    const saved = await repo.rulesOf(tx, [companyId]);
    return KINDS.flatMap((meterKind) => EVENTS.map((event) => {
      const r = saved.find((x) => x.meterKind === meterKind && x.event === event);
      return r
        ? { meterKind, event, templateId: r.templateId, thresholdFen: r.thresholdFen, channel: r.channel, templateName: r.templateName, templateContent: r.templateContent, saved: true }
        : { meterKind, event, templateId: null, thresholdFen: 0, channel: event <= 2 ? ('sms' as const) : ('off' as const), templateName: null, templateContent: null, saved: false };
    }));
  });
}

export async function saveRules(ctx: Ctx, b: z.output<typeof SmsRulesBody>) {
  const companyId = companyOf(ctx);
  await ctx.tx(async (tx) => {
    for (const r of b.rules) {
      if (r.templateId != null) {
        const t = await repo.getTemplate(tx, r.templateId);
        if (!t) throw badRequest('所选短信模板不存在');
        if (t.event !== r.event) throw badRequest(`模板「${t.name}」不适用于该事件`);
        if (t.status !== 1) throw badRequest(`模板「${t.name}」已停用`);
      } else if (r.event > 2 && r.channel !== 'off') {
        throw badRequest('恢复供应、缴费到账提醒须选择短信模板');
      }
      await repo.saveRule(tx, companyId, { meterKind: r.meterKind, event: r.event, templateId: r.templateId, thresholdFen: r.event === 1 ? r.thresholdFen : 0, channel: r.channel });
    }
    ctx.audit.target = '短信提醒规则';
  });
  return listRules(ctx);
}

/** The events of the billing alarms. */
export const NOTICE_EVENT = { lowBalance: 1, cut: 2, restored: 3, received: 4 } as const;

export type NoticeRules = Map<string, repo.RuleRow>;

/** The saved rules of these companies, by company, meter kind and event (for the billing alarms). */
export async function noticeRules(tx: Tx, companyIds: number[]): Promise<NoticeRules> {
  const rows = await repo.rulesOf(tx, [...new Set(companyIds)]);
  return new Map(rows.map((r) => [`${r.companyId}:${r.meterKind}:${r.event}`, r]));
}

export const ruleFor = (rules: NoticeRules, companyId: number, meterKind: number, event: number) => rules.get(`${companyId}:${meterKind}:${event}`);

/** The channels a rule sends on. */
export const channelsOf = (channel: string): ('sms' | 'phone')[] =>
  channel === 'both' ? ['sms', 'phone'] : channel === 'sms' ? ['sms'] : channel === 'phone' ? ['phone'] : [];

/** A rule's text: its template with the variables filled in, or null (no template in use). */
export function ruleText(rule: repo.RuleRow | undefined, vars: Parameters<typeof renderTemplate>[1]): string | null {
  return rule?.templateContent ? renderTemplate(rule.templateContent, vars) : null;
}
