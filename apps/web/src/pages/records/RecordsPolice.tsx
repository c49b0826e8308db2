// 报警方案 (/recordsPolice): low-balance alarm thresholds (一级 ≥ 二级 ≥ 断闸, 元), overdraft allowance,
// notify channels (短信 / 电话) and the hours in which an exhausted balance does not disconnect.
import { Space, Tag } from 'antd';
import type { Rule } from 'antd/es/form';
import { alarmIssues, alarmSchemeResource, amountError, amountToFen, parseHm, type AlarmScheme } from '@meter/contracts';
import type { ResourceColumn } from '../../components/ResourceTable.tsx';
import { CrudPage, type CrudPageProps } from '../../components/CrudPage.tsx';
import { yuanColumn } from '../../components/resourceColumns.tsx';
import { alarmSchemeApi, type AlarmSchemeRow as Row } from '../../api/scheme.ts';
import { E } from '../../api/endpoints.gen.ts';

const AMOUNTS = ['alarmAmount1', 'alarmAmount2', 'closeAmount', 'overdraftAmount'] as const;

/** The no-disconnect window in words: 22:00-08:00（次日）· 周末. */
export function noCloseText(r: Pick<AlarmScheme, 'noCloseStart' | 'noCloseEnd' | 'noCloseWeekend'>): string {
  const parts: string[] = [];
  const s = parseHm(r.noCloseStart);
  const e = parseHm(r.noCloseEnd);
  if (s !== null && e !== null) parts.push(`${r.noCloseStart}-${r.noCloseEnd}${e < s ? '（次日）' : ''}`);
  if (r.noCloseWeekend) parts.push('周末全天');
  return parts.length ? parts.join(' · ') : '无';
}

/** The form's values → the POST/PUT body: amounts as 元 strings, times trimmed. */
export function alarmBody(v: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: String(v.name ?? '').trim(),
    kind: v.kind,
    notifySms: !!v.notifySms,
    notifyPhone: !!v.notifyPhone,
    noCloseStart: String(v.noCloseStart ?? '').trim(),
    noCloseEnd: String(v.noCloseEnd ?? '').trim(),
    noCloseWeekend: !!v.noCloseWeekend,
    status: v.status ?? 1,
    memo: String(v.memo ?? '').trim(),
  };
  for (const k of AMOUNTS) body[k] = v[k] === undefined || v[k] === null ? '' : String(v[k]);
  return body;
}

/** A form rule running the server's cross-field check (alarm1 ≥ alarm2 ≥ close, the window) for one field. */
const crossRule = (field: string): Rule => ({ getFieldsValue }) => ({
  validator: () => {
    const v = alarmBody(getFieldsValue(true));
    if (AMOUNTS.slice(0, 3).some((k) => amountError(v[k]))) return Promise.resolve(); // the field's own rule speaks
    const issue = alarmIssues({
      alarm1Fen: amountToFen(v.alarmAmount1),
      alarm2Fen: amountToFen(v.alarmAmount2),
      closeFen: amountToFen(v.closeAmount),
      noCloseStart: v.noCloseStart as string,
      noCloseEnd: v.noCloseEnd as string,
    }).find((i) => i.path[0] === field);
    return issue ? Promise.reject(new Error(issue.message)) : Promise.resolve();
  },
});

const HM_RULE = (example: string): Rule => ({ pattern: /^(([01]\d|2[0-3]):[0-5]\d)?$/, message: `时间格式应为 HH:mm（如 ${example}）` });

/** The declared fields as the page shows them: amounts in ¥ checked against each other, the window in words. */
const OVERRIDES: CrudPageProps<Row>['overrides'] = {
  alarmAmount1: yuanColumn('alarmAmount1'),
  alarmAmount2: { ...yuanColumn('alarmAmount2', ['alarmAmount1']), rules: [crossRule('alarmAmount2')] },
  closeAmount: { ...yuanColumn('closeAmount', ['alarmAmount2']), rules: [crossRule('closeAmount')] },
  overdraftAmount: yuanColumn('overdraftAmount'),
  notifySms: { hideInTable: true },
  notifyPhone: { hideInTable: true },
  noCloseStart: { hideInTable: true, formFieldProps: { placeholder: '如 22:00' }, rules: [HM_RULE('22:00'), crossRule('noCloseStart')], dependencies: ['noCloseEnd'] },
  noCloseEnd: { hideInTable: true, formFieldProps: { placeholder: '如 08:00（可跨零点）' }, rules: [HM_RULE('08:00'), crossRule('noCloseEnd')], dependencies: ['noCloseStart'] },
  noCloseWeekend: { hideInTable: true },
  status: { initialValue: '1', render: (_d, r) => <Tag color={r.status === 1 ? 'green' : 'default'}>{r.status === 1 ? '在用' : '停用'}</Tag> },
  memo: { hideInTable: true, colProps: { span: 24 } },
  createdAt: { hideInTable: true },
};

const EXTRA: ResourceColumn<Row>[] = [
  {
    title: '通知方式', key: 'notify', hideInForm: true,
    render: (_d, r) => (
      <Space size={4}>
        {r.notifySms && <Tag color="blue">短信</Tag>}
        {r.notifyPhone && <Tag color="purple">电话</Tag>}
        {!r.notifySms && !r.notifyPhone && '-'}
      </Space>
    ),
  },
  { title: '不断闸时段', key: 'noClose', hideInForm: true, render: (_d, r) => noCloseText(r) },
];

const DEFAULTS = { kind: '1', alarmAmount1: '20', alarmAmount2: '10', closeAmount: '0' };

export default function RecordsPolice() {
  return (
    <CrudPage<Row>
      resource={alarmSchemeResource}
      api={E.alarmScheme}
      overrides={OVERRIDES}
      extraColumns={EXTRA}
      formColumns={2}
      modalWidth={760}
      load={(r, company) => alarmSchemeApi.detail(r.id, company)}
      fromForm={alarmBody}
      createDefaults={DEFAULTS}
    />
  );
}
