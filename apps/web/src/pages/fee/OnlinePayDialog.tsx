// 扫码充值 (/energy, finance.prepay): an online order (POST /wxpay/api/wxpay/pay or
// /alipay/api/alipay/pay) shown as a QR code for the owner to scan; its state is polled
// (wxpay/query) until the provider's notification credits the account (paid) or the order closes.
// With the simulated provider the order answers `simulated`, and 模拟支付成功 plays the provider's part
// (…/simulatePaid); with the local payment emulator (demo) it answers `emulated`, and the QR's link opens
// the emulator's payer page, whose 确认支付 sends the provider-signed notification.
// While unpaid, 取消订单 closes the order (at the provider first: the owner can no longer pay it);
// once paid, 打印票据 opens the order's receipt (/billprint) for printing.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Form, Modal, Popconfirm, Radio, Result, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { PaymentOrder } from '@meter/contracts';
import { call } from '../../api/endpoint.ts';
import { E } from '../../api/endpoints.gen.ts';
import { toast } from '../../app/feedback.tsx';
import { WALLET_TEXT, type Wallet } from './billingApi.ts';
import type { CounterRoom } from './CounterDialog.tsx';
import { amountRule, fmtTime, money, normalizeAmount } from './money.ts';
import { ReceiptModal } from './Receipt.tsx';
import { RefusalAlert, useRefusal } from '../../components/submit.tsx';
import { YuanInput } from '../../components/formItems.tsx';

export type Channel = 'wechat' | 'alipay';
const CHANNEL_TEXT: Record<Channel, string> = { wechat: '微信支付', alipay: '支付宝' };
const PAY = { wechat: E.payment.payWechat, alipay: E.payment.payAlipay };
const SIMULATE = { wechat: E.payment.simulateWechat, alipay: E.payment.simulateAlipay };
const CLOSE = { wechat: E.finance.closeWechat, alipay: E.finance.closeAlipay };

/** a new online order (declared with its endpoint) */
export type OnlineOrder = PaymentOrder;

interface Values {
  wallet: Wallet;
  channel: Channel;
  amount: string;
}

const inCompany = (company?: string) => ({ searchCompanyID: company });

export function OnlinePayDialog({ room, company, onPaid, onClose }: { room: CounterRoom; company?: string; onPaid(): void; onClose(): void }) {
  const [form] = Form.useForm<Values>();
  const [order, setOrder] = useState<OnlineOrder | null>(null);
  const { busy, refusal, clear, runForm } = useRefusal();
  const [paidSeen, setPaidSeen] = useState(false);
  const [cancelled, setCancelled] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [receiptId, setReceiptId] = useState<number | null>(null);

  const state = useQuery({
    queryKey: ['onlineOrder', order?.outTradeNo, company],
    queryFn: () => call(E.payment.query, { query: { outTradeNo: order!.outTradeNo, ...inCompany(company) } }),
    enabled: !!order && !paidSeen && !cancelled,
    refetchInterval: 2000,
  });
  const status = state.data?.status ?? order?.status;
  useEffect(() => {
    if (status === 'paid' && !paidSeen) {
      setPaidSeen(true);
      toast.success('支付成功，已入账');
      onPaid();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [status, paidSeen]);

  const create = () =>
    runForm(form, async (v) => {
      const o = await call(PAY[v.channel], { body: { roomId: room.roomId, wallet: v.wallet, amount: normalizeAmount(v.amount) }, query: inCompany(company) });
      setOrder(o);
    });

  const simulate = async () => {
    if (!order) return;
    try {
      await call(SIMULATE[order.channel], { body: { outTradeNo: order.outTradeNo }, query: inCompany(company) });
      void state.refetch();
    } catch {
      // the request wrapper showed why
    }
  };

  const cancel = async () => {
    if (!order) return;
    setCancelling(true);
    try {
      await call(CLOSE[order.channel], { body: { outTradeNo: order.outTradeNo }, query: inCompany(company) });
      setCancelled(true);
      toast.success('订单已取消');
    } catch {
      // the request wrapper showed why (paid meanwhile: the next poll shows it)
      void state.refetch();
    } finally {
      setCancelling(false);
    }
  };

  const title = `扫码充值：${room.roomName}${room.ownerName ? `（${room.ownerName}）` : ''}`;
  const initial = useMemo(() => ({ wallet: 'electric' as Wallet, channel: 'wechat' as Channel, amount: '' }), []);

  if (order && status === 'paid') {
    return (
      <Modal
        open
        title={title}
        onCancel={onClose}
        footer={[
          state.data?.receiptId ? <Button key="print" onClick={() => setReceiptId(state.data!.receiptId!)} data-testid="online-receipt">打印票据</Button> : null,
          <Button key="ok" type="primary" onClick={onClose}>完成</Button>,
        ].filter(Boolean)}
      >
        <Result status="success" title="支付成功" subTitle={<span data-testid="online-paid">{order.channelText} {money(order.amount)} 已入账（订单号 {order.outTradeNo}）</span>} />
        <ReceiptModal id={receiptId} company={company} onClose={() => setReceiptId(null)} />
      </Modal>
    );
  }
  if (order) {
    const closed = status === 'closed' || cancelled;
    return (
      <Modal
        open
        title={title}
        onCancel={onClose}
        maskClosable={false}
        footer={[
          order.simulated && !closed && <Button key="sim" onClick={() => void simulate()}>模拟支付成功（离线演示）</Button>,
          !closed && (
            <Popconfirm key="cancel" title="确认取消该订单？" description="取消后业主无法再扫码支付" okText="确认取消" cancelText="不取消" onConfirm={() => void cancel()}>
              <Button danger loading={cancelling}>取消订单</Button>
            </Popconfirm>
          ),
          <Button key="close" onClick={onClose}>关闭</Button>,
        ].filter(Boolean)}
      >
        <Space direction="vertical" align="center" style={{ width: '100%' }}>
          <Typography.Title level={4} style={{ margin: 0 }}>{order.channelText} {money(order.amount)}</Typography.Title>
          {closed ? (
            <Alert type="warning" showIcon message={cancelled ? '订单已取消，业主无法再支付' : '订单已关闭（超时未支付或已取消），请重新下单'} data-testid="online-closed" />
          ) : (
            <>
              <img src={order.qrCode} alt="支付二维码" data-testid="online-qr" style={{ width: 220, height: 220 }} />
              <Typography.Text>请业主使用{order.channel === 'wechat' ? '微信' : '支付宝'}扫码支付</Typography.Text>
              {order.emulated && order.codeUrl && (
                <Typography.Link href={order.codeUrl} target="_blank" rel="noreferrer" data-testid="online-emulator">打开模拟付款页（本地支付模拟器，演示用）</Typography.Link>
              )}
            </>
          )}
          <Typography.Text type="secondary">订单号：{order.outTradeNo}，{fmtTime(order.expiresAt)} 前有效</Typography.Text>
          <Typography.Text type="secondary" data-testid="online-status">状态：{cancelled ? '已取消' : state.data?.statusText ?? '待支付'}</Typography.Text>
        </Space>
      </Modal>
    );
  }
  return (
    <Modal open title={title} okText="生成收款码" cancelText="取消" confirmLoading={busy} onOk={() => void create()} onCancel={onClose} maskClosable={false} destroyOnHidden>
      <Form<Values> form={form} layout="vertical" name="online-pay" initialValues={initial} onValuesChange={clear}>
        <Form.Item name="wallet" label="账户" rules={[{ required: true, message: '请选择账户' }]}>
          <Radio.Group
            optionType="button"
            options={(['electric', 'water'] as Wallet[]).map((w) => ({ value: w, label: `${WALLET_TEXT[w]}（${money(w === 'electric' ? room.electricBalance : room.waterBalance) || '¥0.00'}）` }))}
          />
        </Form.Item>
        <Form.Item name="channel" label="支付渠道" rules={[{ required: true, message: '请选择支付渠道' }]}>
          <Radio.Group optionType="button" options={(['wechat', 'alipay'] as Channel[]).map((c) => ({ value: c, label: CHANNEL_TEXT[c] }))} />
        </Form.Item>
        <Form.Item
          name="amount"
          label="充值金额（元）"
          rules={[amountRule('充值金额')]}
        >
          <YuanInput />
        </Form.Item>
      </Form>
      <RefusalAlert title="下单未成功" refusal={refusal} />
    </Modal>
  );
}
