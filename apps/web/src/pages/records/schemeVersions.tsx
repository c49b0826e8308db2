// The price-version editor of the charging-scheme form (/recordsFees): each version has an effective
// moment, a pricing mode (统一单价 / 阶梯计价 / 分时计价 尖峰平谷), the mode's prices and the monthly
// fee and minimum charge. The rules are the server's own (contracts pricing.ts), checked as you type.
import { useMemo } from 'react';
import { Button, Card, DatePicker, Empty, Input, Radio, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { NoFormStyle } from 'antd/es/form/context';
import {
  DAY_MINUTES, PRICE_MODES, TOU_PERIOD_NAMES, dateToLocal, formatHm, normalizeLocalDateTime, parseTimeRange, rangeSegments,
  schemeIssues, versionAt, versionIssues, type ChargingSchemeVersion, type Issue, type PriceMode, type PriceVersion,
} from '@meter/contracts';
import { companyPick } from '../../app/page.tsx';
import { useStore } from '../../app/store.ts';

/** The company a platform admin picked in the header (searchCompanyID), undefined for company staff. */
export function useCompany(): string | undefined {
  return useStore(companyPick) || undefined;
}

/** A price version as the form edits it: fees in 元 as typed. */
export interface VersionDraft extends Omit<PriceVersion, 'monthlyFeeFen' | 'minimumChargeFen'> {
  id?: number;
  monthlyFee: string;
  minimumCharge: string;
}

export const PERIOD_COLORS: Record<string, string> = { 尖: '#f5222d', 峰: '#fa8c16', 平: '#1677ff', 谷: '#52c41a' };

const emptyTou = () => ({ periods: TOU_PERIOD_NAMES.map((name) => ({ name, price: '', ranges: [] as string[] })) });
const emptyTiers = () => [{ upTo: '', price: '' }, { upTo: null, price: '' }];

/** A new version: from the first moment of the next month, copying the prices of `from` when given. */
export function newVersion(from?: VersionDraft): VersionDraft {
  const start = dayjs().add(1, 'month').startOf('month').format('YYYY-MM-DD HH:mm:ss');
  if (from) return { ...structuredClone(from), id: undefined, effectiveFrom: start };
  return { effectiveFrom: dayjs().startOf('day').format('YYYY-MM-DD HH:mm:ss'), mode: 'flat', unitPrice: '', tiers: emptyTiers(), tou: emptyTou(), monthlyFee: '', minimumCharge: '' };
}

/** A stored version (detail answer) as a draft: every mode's part present, so switching keeps input. */
export function draftOf(v: ChargingSchemeVersion): VersionDraft {
  const periods = emptyTou().periods.map((p) => v.tou.periods.find((x) => x.name === p.name) ?? p);
  return {
    id: v.id,
    effectiveFrom: v.effectiveFrom,
    mode: v.mode,
    unitPrice: v.mode === 'flat' ? v.unitPrice : '',
    tiers: v.mode === 'tiered' ? v.tiers.map((t) => ({ ...t })) : emptyTiers(),
    tou: { periods },
    monthlyFee: v.monthlyFee === '0.00' ? '' : v.monthlyFee,
    minimumCharge: v.minimumCharge === '0.00' ? '' : v.minimumCharge,
  };
}

/** The request body of a version: only its mode's part; unused TOU rows (no price, no range) dropped. */
export function versionBody(v: VersionDraft): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...(v.id ? { id: v.id } : {}),
    effectiveFrom: v.effectiveFrom,
    mode: v.mode,
    monthlyFee: v.monthlyFee.trim(),
    minimumCharge: v.minimumCharge.trim(),
  };
  if (v.mode === 'flat') body.unitPrice = v.unitPrice.trim();
  if (v.mode === 'tiered') {
    body.tiers = v.tiers.map((t, i, all) => ({ upTo: i === all.length - 1 ? null : (t.upTo ?? '').trim(), price: t.price.trim() }));
  }
  if (v.mode === 'tou') {
    body.tou = { periods: v.tou.periods.filter((p) => p.price.trim() !== '' || p.ranges.length > 0).map((p) => ({ ...p, price: p.price.trim() })) };
  }
  return body;
}

const issueText = (i: Issue, n?: number) => `${n !== undefined ? `第 ${n + 1} 个版本：` : ''}${i.message}`;

/** The first problem of the versions (as the form rule shows it), or null. */
export function versionsProblem(versions: VersionDraft[] | undefined): string | null {
  const bodies = (versions ?? []).map(versionBody);
  // the accumulation is the scheme field's own rule; here only the versions
  const issue = schemeIssues({ chargingMonthType: bodies.some((b) => b.mode === 'tiered') ? 1 : null, versions: bodies })[0];
  if (!issue) return null;
  return issueText(issue, typeof issue.path[1] === 'number' ? issue.path[1] : undefined);
}

/** A stored or answered version in one line: 0.6800 元 / 阶梯 0.5283·0.5783·0.8283 / 尖 1.2000 … */
export function priceSummary(v: Pick<ChargingSchemeVersion, 'mode' | 'unitPrice' | 'tiers' | 'tou'> | null | undefined, unit = ''): string {
  if (!v) return '-';
  if (v.mode === 'flat') return `${v.unitPrice} 元${unit}`;
  if (v.mode === 'tiered') return `阶梯 ${v.tiers.map((t) => (t.upTo ? `≤${t.upTo}:${t.price}` : `>${v.tiers[v.tiers.length - 2]?.upTo ?? 0}:${t.price}`)).join(' / ')}`;
  return v.tou.periods.map((p) => `${p.name} ${p.price}`).join(' / ');
}

/** The 24 hours as a bar: each TOU range in its period's colour, gaps and overlaps marked. */
export function CoverageBar({ periods }: { periods: VersionDraft['tou']['periods'] }) {
  const segs = periods.flatMap((p) =>
    p.ranges.flatMap((text) => {
      const r = parseTimeRange(text);
      return r ? rangeSegments(r).map(([a, b]) => ({ a, b, name: p.name })) : [];
    }),
  );
  const covered = new Array<number>(DAY_MINUTES).fill(0);
  for (const s of segs) for (let m = s.a; m < s.b; m++) covered[m]++;
  const gaps = covered.some((c) => c === 0);
  const overlaps = covered.some((c) => c > 1);
  return (
    <div>
      <div style={{ position: 'relative', height: 14, background: 'repeating-linear-gradient(45deg,#f0f0f0,#f0f0f0 4px,#fff 4px,#fff 8px)', borderRadius: 3, overflow: 'hidden' }} aria-label="分时时段覆盖">
        {segs.map((s, i) => (
          <Tooltip key={i} title={`${s.name} ${formatHm(s.a)}-${formatHm(s.b)}`}>
            <div style={{ position: 'absolute', left: `${(s.a / DAY_MINUTES) * 100}%`, width: `${((s.b - s.a) / DAY_MINUTES) * 100}%`, top: 0, bottom: 0, background: PERIOD_COLORS[s.name] ?? '#999', opacity: 0.85 }} />
          </Tooltip>
        ))}
      </div>
      <div style={{ display: 'flex', justifyContent: 'space-between', fontSize: 11, color: '#999' }}>
        {[0, 6, 12, 18, 24].map((h) => <span key={h}>{h}:00</span>)}
      </div>
      {(gaps || overlaps) && (
        <Typography.Text type="warning" style={{ fontSize: 12 }}>
          {gaps ? '尚有时间未设置时段（斜线部分）' : ''}{gaps && overlaps ? '；' : ''}{overlaps ? '有时段重叠' : ''}
        </Typography.Text>
      )}
    </div>
  );
}

const priceInput = (value: string, onChange: (v: string) => void, placeholder = '单价', id?: string) => (
  <Input id={id} value={value} onChange={(e) => onChange(e.target.value)} placeholder={placeholder} suffix="元" style={{ width: 170 }} inputMode="decimal" />
);

function TiersEditor({ tiers, unit, onChange }: { tiers: VersionDraft['tiers']; unit: string; onChange(t: VersionDraft['tiers']): void }) {
  const set = (i: number, patch: Partial<VersionDraft['tiers'][number]>) => onChange(tiers.map((t, k) => (k === i ? { ...t, ...patch } : t)));
  return (
    <Space direction="vertical" size={6} style={{ width: '100%' }}>
      {tiers.map((t, i) => {
        const last = i === tiers.length - 1;
        const from = i === 0 ? '0' : (tiers[i - 1].upTo || '?');
        return (
          <Space key={i} wrap>
            <Tag color="blue" style={{ width: 56, textAlign: 'center' }}>第 {i + 1} 档</Tag>
            <span style={{ width: 64, display: 'inline-block', textAlign: 'right' }}>{from} –</span>
            {last
              ? <Input value="以上" disabled style={{ width: 140 }} />
              : <Input value={t.upTo ?? ''} onChange={(e) => set(i, { upTo: e.target.value })} placeholder="用量上限" suffix={unit} style={{ width: 140 }} inputMode="decimal" />}
            {priceInput(t.price, (price) => set(i, { price }))}
            {tiers.length > 2 && (
              <Button type="text" danger icon={<DeleteOutlined />} aria-label={`删除第 ${i + 1} 档`}
                onClick={() => onChange(tiers.filter((_, k) => k !== i).map((x, k, all) => (k === all.length - 1 ? { ...x, upTo: null } : { ...x, upTo: x.upTo ?? '' })))} />
            )}
          </Space>
        );
      })}
      {tiers.length < 10 && (
        <Button size="small" icon={<PlusOutlined />} onClick={() => onChange([...tiers.slice(0, -1), { upTo: '', price: '' }, tiers[tiers.length - 1]])}>
          增加一档
        </Button>
      )}
    </Space>
  );
}

function TouEditor({ periods, onChange }: { periods: VersionDraft['tou']['periods']; onChange(p: VersionDraft['tou']['periods']): void }) {
  const set = (i: number, patch: Partial<VersionDraft['tou']['periods'][number]>) => onChange(periods.map((p, k) => (k === i ? { ...p, ...patch } : p)));
  return (
    <Space direction="vertical" size={6} style={{ width: '100%' }}>
      {periods.map((p, i) => (
        <Space key={p.name} wrap align="start">
          <Tag color={PERIOD_COLORS[p.name]} style={{ width: 36, textAlign: 'center' }}>{p.name}</Tag>
          {priceInput(p.price, (price) => set(i, { price }))}
          <Select
            mode="tags"
            value={p.ranges}
            onChange={(ranges: string[]) => set(i, { ranges: ranges.map((r) => r.replace(/\s+/g, '').replace(/[~～—]/, '-')) })}
            tokenSeparators={[',', '，', ';', '；', ' ']}
            open={false}
            placeholder="时间范围，如 08:00-12:00（可跨零点：22:00-06:00），回车添加"
            style={{ minWidth: 360 }}
            tagRender={({ label, closable, onClose, value }) => (
              <Tag color={parseTimeRange(value) ? undefined : 'error'} closable={closable} onClose={onClose} style={{ marginInlineEnd: 4 }}>{label}</Tag>
            )}
          />
        </Space>
      ))}
      <CoverageBar periods={periods} />
    </Space>
  );
}

export interface VersionsEditorProps {
  value?: VersionDraft[];
  onChange?: (v: VersionDraft[]) => void;
  /** 1 电 (kWh), 2 水 (m³) */
  kind?: number;
}

/** The versions of a scheme, each a card; the one in effect now is tagged. */
export function VersionsEditor(props: VersionsEditorProps) {
  // the form item's error belongs to the whole list: the inputs inside keep their own look
  return (
    <NoFormStyle status override>
      <VersionCards {...props} />
    </NoFormStyle>
  );
}

function VersionCards({ value, onChange, kind }: VersionsEditorProps) {
  const versions = useMemo(() => value ?? [], [value]);
  const unit = Number(kind) === 2 ? 'm³' : 'kWh';
  const now = dateToLocal(new Date());
  const current = useMemo(() => versionAt(versions.filter((v) => normalizeLocalDateTime(v.effectiveFrom)).map((v) => ({ ...v, effectiveFrom: normalizeLocalDateTime(v.effectiveFrom) as string })), now), [versions, now]);
  const set = (i: number, patch: Partial<VersionDraft>) => onChange?.(versions.map((v, k) => (k === i ? { ...v, ...patch } : v)));

  if (versions.length === 0) {
    return (
      <Empty description="尚无价格版本" image={Empty.PRESENTED_IMAGE_SIMPLE}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => onChange?.([newVersion()])}>添加价格版本</Button>
      </Empty>
    );
  }
  return (
    <Space direction="vertical" size={10} style={{ width: '100%' }}>
      {versions.map((v, i) => {
        const at = normalizeLocalDateTime(v.effectiveFrom);
        const state = !at ? null : current && current.effectiveFrom === at ? '当前生效' : at > now ? '待生效' : '已过期';
        const problem = versionIssues(versionBody(v))[0];
        return (
          <Card
            key={v.id ?? `new-${i}`}
            size="small"
            title={<Space>价格版本 {i + 1}{state && <Tag color={state === '当前生效' ? 'green' : state === '待生效' ? 'blue' : 'default'}>{state}</Tag>}</Space>}
            extra={versions.length > 1 && (
              <Button type="text" danger size="small" icon={<DeleteOutlined />} onClick={() => onChange?.(versions.filter((_, k) => k !== i))}>删除版本</Button>
            )}
          >
            <Space direction="vertical" size={10} style={{ width: '100%' }}>
              <Space wrap>
                <span>生效时间</span>
                <DatePicker
                  showTime
                  allowClear={false}
                  format="YYYY-MM-DD HH:mm:ss"
                  value={at ? dayjs(at) : null}
                  onChange={(d) => set(i, { effectiveFrom: d ? d.format('YYYY-MM-DD HH:mm:ss') : '' })}
                />
                <span style={{ marginLeft: 12 }}>计价方式</span>
                <Radio.Group
                  optionType="button"
                  value={v.mode}
                  onChange={(e) => set(i, { mode: e.target.value as PriceMode })}
                  options={Object.entries(PRICE_MODES).map(([value, label]) => ({ value, label }))}
                />
              </Space>
              {v.mode === 'flat' && <Space><span>单价</span>{priceInput(v.unitPrice, (unitPrice) => set(i, { unitPrice }), `元/${unit}，最多 4 位小数`)}<span>/{unit}</span></Space>}
              {v.mode === 'tiered' && <TiersEditor tiers={v.tiers} unit={unit} onChange={(tiers) => set(i, { tiers })} />}
              {v.mode === 'tou' && <TouEditor periods={v.tou.periods} onChange={(periods) => set(i, { tou: { periods } })} />}
              <Space wrap>
                <span>月固定费</span>
                <Input value={v.monthlyFee} onChange={(e) => set(i, { monthlyFee: e.target.value })} placeholder="0.00" suffix="元/月" style={{ width: 160 }} inputMode="decimal" />
                <span style={{ marginLeft: 12 }}>最低消费</span>
                <Input value={v.minimumCharge} onChange={(e) => set(i, { minimumCharge: e.target.value })} placeholder="0.00" suffix="元/月" style={{ width: 160 }} inputMode="decimal" />
              </Space>
              {problem && <Typography.Text type="secondary" style={{ fontSize: 12 }}>待完善：{problem.message}</Typography.Text>}
            </Space>
          </Card>
        );
      })}
      <Button icon={<PlusOutlined />} onClick={() => onChange?.([...versions, newVersion(versions[versions.length - 1])])}>新增调价版本</Button>
    </Space>
  );
}
