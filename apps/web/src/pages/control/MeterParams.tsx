// 电表参数配置 (/constant) and 高级参数配置 (/advConfig): read a meter's parameters from the device and
// write new ones, through the control module's commands (device/read/config, device/order/config/set,
// and for LoRa / NB-IoT meters device/order/lora/config/read and lora|nb/config/set); /constant also
// syncs the clock and sends the overdraft limit. Every read and write is kept in the parameter log
// (/notesConfig, GET config/list), whose latest read is shown beside the form.
import { useMemo, useRef, useState } from 'react';
import { Alert, Button, Descriptions, Drawer, Form, InputNumber, Space, Spin, Typography } from 'antd';
import type { ActionType } from '@ant-design/pro-components';
import { ELECTRIC_PLAN_KINDS, WATER_PLAN_KINDS } from '@meter/contracts';
import { toast } from '../../app/feedback.tsx';
import { useCan } from '../../app/session.ts';
import { controlApi, type Command } from './api.ts';
import { ControlMeterTable, timeText, useCompany, type MeterRow } from './shared.tsx';

interface ParamDef {
  key: string;
  label: string;
  unit: string;
  /** 'money' (2 decimals), 'int', 'day' (1–28) */
  type: 'money' | 'int' | 'day';
}

export const ELECTRIC_PARAMS: ParamDef[] = [
  { key: 'alarm1Money', label: '报警金额1限值', unit: '元', type: 'money' },
  { key: 'alarm2Money', label: '报警金额2限值', unit: '元', type: 'money' },
  { key: 'overdraftLimit', label: '透支金额限值', unit: '元', type: 'money' },
  { key: 'hoardLimit', label: '囤积金额限值', unit: '元', type: 'money' },
  { key: 'closeAllowMoney', label: '合闸允许金额限值', unit: '元', type: 'money' },
  { key: 'ctRatio', label: '电流互感器变比', unit: '', type: 'int' },
  { key: 'ptRatio', label: '电压互感器变比', unit: '', type: 'int' },
];
export const WATER_PARAMS: ParamDef[] = [{ key: 'settleDay', label: '结算日', unit: '日', type: 'day' }];

/** Which set endpoint a meter's plan uses: LoRa, NB-IoT, or the generic one. */
export function channelOf(m: { kind: number; plan: number }): 'lora' | 'nb' | '' {
  const kinds = m.kind === 2 ? WATER_PLAN_KINDS : ELECTRIC_PLAN_KINDS;
  if (kinds.lora?.includes(m.plan)) return 'lora';
  if (kinds.nb?.includes(m.plan)) return 'nb';
  return '';
}

/** Only the filled fields, as strings (money with 2 decimals). */
export function paramBody(defs: ParamDef[], v: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of defs) {
    const x = v[d.key];
    if (x === undefined || x === null || x === '') continue;
    out[d.key] = d.type === 'money' ? Number(x).toFixed(2) : String(Math.round(Number(x)));
  }
  return out;
}

function ParamsView({ params, defs }: { params: Record<string, unknown> | null; defs: ParamDef[] }) {
  if (!params) return <Typography.Text type="secondary">尚未读取过参数</Typography.Text>;
  const known = defs.filter((d) => params[d.key] !== undefined);
  const extra = Object.keys(params).filter((k) => !defs.some((d) => d.key === k));
  return (
    <Descriptions size="small" column={2} bordered>
      {known.map((d) => (
        <Descriptions.Item key={d.key} label={d.label}>{`${String(params[d.key])}${d.unit ? ` ${d.unit}` : ''}`}</Descriptions.Item>
      ))}
      {extra.map((k) => (
        <Descriptions.Item key={k} label={k}>{typeof params[k] === 'object' ? JSON.stringify(params[k]) : String(params[k])}</Descriptions.Item>
      ))}
    </Descriptions>
  );
}

export default function MeterParams({ advanced }: { advanced: boolean }) {
  const company = useCompany();
  const canConfig = useCan('device.constant');
  const canLimit = useCan('device.overdraft');
  const tableRef = useRef<ActionType | undefined>(undefined);
  const [meter, setMeter] = useState<MeterRow | null>(null);
  const [latest, setLatest] = useState<{ params: Record<string, unknown>; at: string } | null>(null);
  const [loading, setLoading] = useState(false);
  const [busy, setBusy] = useState('');
  const [form] = Form.useForm<Record<string, unknown>>();
  const [limitForm] = Form.useForm<{ limitPrice: number }>();
  const defs = meter?.kind === 2 ? WATER_PARAMS : ELECTRIC_PARAMS;

  const loadLatest = async (m: MeterRow) => {
    setLoading(true);
    try {
      const r = await controlApi.configs({ index: 1, size: 1, meterId: m.id, op: 'read', searchCompanyID: company });
      const row = r.data[0] as { params: Record<string, unknown>; createdAt: string } | undefined;
      setLatest(row ? { params: row.params, at: row.createdAt } : null);
    } catch {
      setLatest(null);
    } finally {
      setLoading(false);
    }
  };

  const open = (m: MeterRow) => {
    form.resetFields();
    limitForm.resetFields();
    setMeter(m);
    void loadLatest(m);
  };

  const run = async (what: string, fn: () => Promise<Command>) => {
    setBusy(what);
    try {
      const c = await fn();
      if (c.status === 'succeeded') toast.success(c.message ?? `${what}成功`);
      else toast.info(c.message ?? `${what}指令已下发`);
      if (meter) await loadLatest(meter);
      tableRef.current?.reload();
    } catch {
      // the request wrapper showed why
    } finally {
      setBusy('');
    }
  };

  const read = () => {
    if (!meter) return;
    const ch = channelOf(meter);
    void run('读取参数', () => (advanced && ch === 'lora' ? controlApi.loraConfigRead(meter.id, company) : controlApi.configRead(meter.id, company)));
  };

  const write = async () => {
    if (!meter) return;
    const params = paramBody(defs, form.getFieldsValue());
    if (!Object.keys(params).length) {
      toast.warning('请至少填写一个参数');
      return;
    }
    const ch = advanced ? channelOf(meter) : '';
    void run('参数设置', () => controlApi.configSet(ch, { id: meter.id, params, memo: `设置参数：${Object.keys(params).join('、')}` }, company));
  };

  const sendLimit = async () => {
    if (!meter) return;
    let v: { limitPrice: number };
    try {
      v = await limitForm.validateFields();
    } catch {
      return;
    }
    void run('透支限额下发', () => controlApi.limit({ id: meter.id, limitPrice: Number(v.limitPrice).toFixed(2) }, company));
  };

  const columnsAfter = useMemo(
    () => (advanced ? [{ title: '通信方式', dataIndex: 'plan', width: 90, render: (_d: unknown, r: MeterRow) => ({ lora: 'LoRa', nb: 'NB-IoT', '': '有线/4G' })[channelOf(r)] }] : []),
    [advanced],
  );

  return (
    <>
      <ControlMeterTable
        headerTitle={advanced ? '高级参数配置' : '电表参数配置'}
        kind={advanced ? undefined : 1}
        actionRef={tableRef}
        columnsAfter={columnsAfter}
        rowActions={(r) => (canConfig || canLimit ? [<a key="cfg" onClick={() => open(r)}>参数</a>] : [])}
      />
      <Drawer open={!!meter} width={640} title={meter ? `表具参数：${meter.name || meter.address}（${meter.address}）` : ''} onClose={() => setMeter(null)} destroyOnHidden>
        {meter && (
          <Space direction="vertical" style={{ width: '100%' }} size={16}>
            {advanced && (
              <Alert type="info" showIcon message={`通信方式：${({ lora: 'LoRa', nb: 'NB-IoT', '': '有线/4G' } as const)[channelOf(meter)]}，参数通过对应通道读取与下发`} />
            )}
            <div>
              <Space style={{ marginBottom: 8 }}>
                <Typography.Text strong>最近一次读取</Typography.Text>
                {latest && <Typography.Text type="secondary">{timeText(latest.at)}</Typography.Text>}
                {canConfig && (
                  <Button size="small" loading={busy === '读取参数'} onClick={read}>从表具读取</Button>
                )}
              </Space>
              <Spin spinning={loading}>
                <ParamsView params={latest?.params ?? null} defs={defs} />
              </Spin>
            </div>
            {canConfig && (
              <div>
                <Typography.Text strong>设置参数</Typography.Text>
                <Typography.Paragraph type="secondary">只下发填写了的参数；设置后表具回读确认才算成功。</Typography.Paragraph>
                <Form form={form} layout="vertical" name="meter-params">
                  {defs.map((d) => (
                    <Form.Item key={d.key} label={`${d.label}${d.unit ? `（${d.unit}）` : ''}`} name={d.key}>
                      <InputNumber
                        style={{ width: '100%' }}
                        min={d.type === 'day' ? 1 : 0}
                        max={d.type === 'day' ? 28 : d.type === 'money' ? 999999.99 : 999999}
                        precision={d.type === 'money' ? 2 : 0}
                        placeholder="不修改请留空"
                      />
                    </Form.Item>
                  ))}
                </Form>
                <Space>
                  <Button type="primary" loading={busy === '参数设置'} onClick={() => void write()}>下发参数</Button>
                  {!advanced && meter.kind === 1 && (
                    <Button loading={busy === '校时'} onClick={() => void run('校时', () => controlApi.timeSync(meter.id, company))}>校时</Button>
                  )}
                </Space>
              </div>
            )}
            {!advanced && canLimit && meter.kind === 1 && (
              <div>
                <Typography.Text strong>透支限额</Typography.Text>
                <Form form={limitForm} layout="inline" name="meter-limit" style={{ marginTop: 8 }}>
                  <Form.Item name="limitPrice" rules={[{ required: true, message: '请输入透支限额' }]}>
                    <InputNumber min={0} max={999999.99} precision={2} addonAfter="元" placeholder="透支限额" />
                  </Form.Item>
                  <Button loading={busy === '透支限额下发'} onClick={() => void sendLimit()}>下发</Button>
                </Form>
              </div>
            )}
          </Space>
        )}
      </Drawer>
    </>
  );
}

export function Constant() {
  return <MeterParams advanced={false} />;
}

export function AdvConfig() {
  return <MeterParams advanced />;
}
