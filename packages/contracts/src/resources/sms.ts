import { defineResource } from '../resource.ts';

// 短信模板 (/alermSmsConfigTemplate, SPEC §7 alermSmsConfigTemplate): platform-wide message templates
// per event, with variables the sender fills in; companies bind them per meter kind and event in
// alermSmsConfig (/systemSend 提醒规则).

/** The events a template is for. */
export const SMS_EVENTS: Record<string, string> = { 1: '余额不足', 2: '欠费停止供应', 3: '恢复供应', 4: '缴费到账', 5: '公告通知' };
export const SMS_TEMPLATE_STATUS: Record<string, string> = { 1: '在用', 0: '停用' };

/** The variables a template may use, written {name}. */
export const SMS_VARIABLES: Record<string, string> = {
  company: '单位名称',
  owner: '业主姓名',
  room: '房间',
  kind: '电费/水费',
  balance: '当前余额（元）',
  threshold: '报警金额（元）',
  amount: '缴费金额（元）',
  title: '公告标题',
};

export const smsTemplateResource = defineResource({
  name: 'smsTemplate',
  title: '短信模板',
  fields: [
    { key: 'name', label: '模板名称', type: 'text', required: true, max: 64, search: 'like', unique: true, width: 180 },
    { key: 'event', label: '适用事件', type: 'enum', options: SMS_EVENTS, required: true, search: 'eq', default: 1 },
    {
      key: 'content', label: '模板内容', type: 'textarea', required: true, max: 300,
      tooltip: `可用变量：${Object.entries(SMS_VARIABLES).map(([k, v]) => `{${k}} ${v}`).join('，')}`,
    },
    { key: 'status', label: '状态', type: 'enum', options: SMS_TEMPLATE_STATUS, default: 1, search: 'eq' },
    { key: 'memo', label: '备注', type: 'textarea', max: 200, hideInTable: true },
    { key: 'createdAt', label: '创建时间', type: 'datetime', readonly: true },
  ],
});

/** Why a template naming an unknown variable is refused. */
export const SMS_UNKNOWN_VARIABLE = '模板内容含未知变量（可用：{company} {owner} {room} {kind} {balance} {threshold} {amount} {title}）';

/** The variables named in a template that are not known ({x} with x not a variable). */
export function unknownVariables(content: string): string[] {
  return [...content.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).filter((v) => !(v in SMS_VARIABLES));
}

/** A template with its variables filled in (an unknown variable stays as written). */
export function renderTemplate(content: string, vars: Partial<Record<keyof typeof SMS_VARIABLES, string>>): string {
  return content.replace(/\{(\w+)\}/g, (all, k: string) => (k in vars ? String(vars[k as keyof typeof vars]) : all));
}
