// 业主端 充值: an order through WeChat Pay or Alipay (their H5/JSAPI flow: the payer page opens, here the
// local emulator's in the demo), then the order is followed until the provider's notification credits it
// — the same credit as any top-up, which reopens a cut supply. With the offline simulated provider the
// owner confirms the payment on this page.
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Button, Form, Input } from 'antd';
import Loading from './Loading.tsx';
import { useQueryClient } from '@tanstack/react-query';
import type { PaymentOrder } from '@meter/contracts';
import { E } from '../api/endpoints.gen.ts';
import { call } from '../api/endpoint.ts';
import { ME_KEY, accountOf, useMe } from './data.ts';

const PRESETS = ['50', '100', '200', '500'];

/** A choice of a few options as buttons (a Form.Item control: value / onChange). */
function Choice({ options, value, onChange }: { options: { value: string; label: string }[]; value?: string; onChange?: (v: string) => void }) {
  return (
    <div className="h5-presets" role="radiogroup">
      {options.map((o) => (
        <Button key={o.value} role="radio" aria-checked={value === o.value} type={value === o.value ? 'primary' : 'default'} onClick={() => onChange?.(o.value)}>
          {o.label}
        </Button>
      ))}
    </div>
  );
}
const POLL_MS = 2000;

export default function Pay() {
  const roomId = Number(useParams().roomId);
  const navigate = useNavigate();
  const client = useQueryClient();
  const me = useMe();
  const [form] = Form.useForm<{ wallet: 'electric' | 'water'; amount: string; channel: 'wechat' | 'alipay' }>();
  const [order, setOrder] = useState<PaymentOrder | null>(null);
  const [paid, setPaid] = useState(false);
  const [busy, setBusy] = useState(false);

  // follow the order until it is paid (the provider's notification credits it)
  useEffect(() => {
    if (!order || paid) return;
    const t = setInterval(() => {
      call(E.ownerApp.order, { query: { outTradeNo: order.outTradeNo } }, { silent: true })
        .then((o) => {
          if (o.status === 'paid') {
            setPaid(true);
            void client.invalidateQueries({ queryKey: ME_KEY });
          }
        })
        .catch(() => {});
    }, POLL_MS);
    return () => clearInterval(t);
  }, [order, paid, client]);

  const room = me.data?.rooms.find((r) => r.roomId === roomId);
  if (me.isLoading) return <Loading block />;
  if (!room) return <section className="h5-card"><h2>房间不存在或无权查看</h2><Link to="/h5">返回首页</Link></section>;

  if (paid && order) {
    return (
      <section className="h5-card" style={{ textAlign: 'center' }} role="status">
        <h2 style={{ color: '#389e0d', fontSize: 22 }}>充值成功</h2>
        <p>已到账 ¥{order.amount}，余额已更新；如曾欠费断电，将自动恢复供电/供水</p>
        <Button type="primary" onClick={() => navigate('/h5')}>返回首页</Button>
      </section>
    );
  }

  const submit = async (v: { wallet: 'electric' | 'water'; amount: string; channel: 'wechat' | 'alipay' }) => {
    setBusy(true);
    try {
      const o = await call(E.ownerApp.pay, { body: { roomId, ...v } });
      setOrder(o);
      // the provider's payer page (H5 flow), in a new tab: this page keeps following the order
      if (o.emulated) window.open(o.codeUrl, '_blank', 'noopener');
    } catch {
      /* shown by the request wrapper */
    } finally {
      setBusy(false);
    }
  };

  const simulate = async () => {
    if (!order) return;
    setBusy(true);
    try {
      const o = await call(E.ownerApp.simulatePaid, { body: { outTradeNo: order.outTradeNo } });
      if (o.status === 'paid') {
        setPaid(true);
        void client.invalidateQueries({ queryKey: ME_KEY });
      }
    } catch {
      /* shown */
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <div className="h5-head"><h1>充值</h1><Link to="/h5">返回</Link></div>
      <section className="h5-card">
        <h2>{room.path}</h2>
        <div className="h5-muted">电费余额 ¥{accountOf(room, 'electric')?.balance ?? '0.00'} · 水费余额 ¥{accountOf(room, 'water')?.balance ?? '0.00'}</div>
      </section>
      {order ? (
        <section className="h5-card" data-testid="pay-order">
          <h2>待支付 ¥{order.amount}</h2>
          <div className="h5-muted">订单号 {order.outTradeNo}（{order.channelText}）</div>
          <p>{order.simulated ? '当前为离线模拟支付平台，点击下方按钮模拟付款成功。' : '请在打开的支付页面完成付款，付款后本页自动更新。'}</p>
          {order.simulated
            ? <Button type="primary" block loading={busy} onClick={simulate}>模拟支付成功</Button>
            : <a href={order.codeUrl} target="_blank" rel="noopener noreferrer"><Button type="primary" block>前往支付</Button></a>}
          <div style={{ textAlign: 'center', marginTop: 12 }}><span className="h5-muted">等待支付结果…</span></div>
        </section>
      ) : (
        <section className="h5-card">
          <Form form={form} layout="vertical" initialValues={{ wallet: 'electric', channel: 'wechat', amount: '100' }} onFinish={submit}>
            <Form.Item name="wallet" label="充值账户">
              <Choice options={[{ value: 'electric', label: '电费' }, { value: 'water', label: '水费' }]} />
            </Form.Item>
            <Form.Item label="金额（元）" required>
              <div className="h5-presets">
                {PRESETS.map((p) => <Button key={p} onClick={() => form.setFieldsValue({ amount: p })}>¥{p}</Button>)}
              </div>
              <Form.Item name="amount" noStyle rules={[{ required: true, message: '请输入金额' }, { pattern: /^(?!0+(\.0+)?$)\d{1,6}(\.\d{1,2})?$/, message: '金额须大于 0，最多两位小数' }]}>
                <Input inputMode="decimal" prefix="¥" />
              </Form.Item>
            </Form.Item>
            <Form.Item name="channel" label="支付方式">
              <Choice options={[{ value: 'wechat', label: '微信支付' }, { value: 'alipay', label: '支付宝' }]} />
            </Form.Item>
            <Button type="primary" htmlType="submit" block size="large" loading={busy}>确认充值</Button>
          </Form>
        </section>
      )}
    </>
  );
}
