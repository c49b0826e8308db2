// 提现 (finance.withdraw): money of a pay-application account to its settlement bank card. The dialog
// shows the available balance, the most that can be withdrawn and the fee rule; the amount is typed in
// 元 and checked as text (never a float), the fee computed by the same rule the server applies
// (withdrawalFeeFen), and amount + fee must fit the balance. A second step asks for confirmation with
// the amount, fee, total taken and the card; each opening has its own requestId, so a repeated click
// is one withdrawal. A refusal keeps the dialog open with the server's message.
import { useMemo, useState } from 'react';
import { Alert, Button, Descriptions, Empty, Form, Modal, Result, Select, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { fenToYuan, withdrawalFeeFen, yuanToFen } from '@meter/contracts';
import { payAppApi, type PayAppRow, type WithdrawResult } from '../../api/payapp.ts';
import { useCan } from '../../app/session.ts';
import { toast } from '../../app/feedback.tsx';
import { formValues } from '../../components/validate.ts';
import { amountInputError, money, newRequestId, normalizeAmount } from '../fee/money.ts';
import { maskAccount } from '../notes/NotesWithdraw.tsx';
import { RefusalAlert, useRefusal } from '../../components/submit.tsx';
import { MemoItem, YuanInput } from '../../components/formItems.tsx';

export interface WithdrawTarget {
  id: number;
  name: string;
  bankName: string;
  bankAccountNo: string;
}

interface Values {
  amount: string;
  memo?: string;
}

/** Why the typed amount cannot be withdrawn from `balanceFen`, or null (the fee included). */
export function withdrawAmountError(input: unknown, balanceFen: number): string | null {
  const e = amountInputError(input, '提现金额');
  if (e) return e;
  const fen = yuanToFen(String(input).trim());
  const fee = withdrawalFeeFen(fen);
  if (fen + fee > balanceFen) return `提现金额加手续费 ¥${fenToYuan(fee)} 超过可用余额 ¥${fenToYuan(balanceFen)}`;
  return null;
}

export function WithdrawDialog({ app, company, onDone, onClose }: { app: WithdrawTarget; company?: string; onDone(r: WithdrawResult): void; onClose(): void }) {
  const [form] = Form.useForm<Values>();
  const requestId = useMemo(() => newRequestId(), []);
  const [step, setStep] = useState<'input' | 'confirm'>('input');
  const [values, setValues] = useState<Values | null>(null);
  const { busy, refusal, clear, run } = useRefusal();
  const [done, setDone] = useState<WithdrawResult | null>(null);
  const bal = useQuery({ queryKey: ['payAppBalance', app.id, company], queryFn: () => payAppApi.balance(app.id, company) });
  const balanceFen = bal.data?.balanceFen ?? 0;
  const typed = Form.useWatch('amount', form);
  const preview = useMemo(() => {
    if (amountInputError(typed, '提现金额')) return null;
    const fen = yuanToFen(String(typed).trim());
    const fee = withdrawalFeeFen(fen);
    return { fee: fenToYuan(fee), total: fenToYuan(fen + fee) };
  }, [typed]);
  const title = `提现：${app.name}`;

  const next = async () => {
    const v = await formValues(form);
    if (!v) return;
    setValues(v);
    setStep('confirm');
  };

  const submit = async () => {
    if (!values) return;
    await run(async () => {
      try {
        const r = await payAppApi.withdraw({ id: app.id, amount: normalizeAmount(values.amount), requestId, memo: (values.memo ?? '').trim() }, company);
        setDone(r);
        toast.success('提现申请已提交');
        onDone(r);
      } catch (e) {
        setStep('input'); // back to the form, the refusal under it
        throw e;
      }
    });
  };

  if (done) {
    return (
      <Modal open title={title} onCancel={onClose} maskClosable={false} footer={[<Button key="ok" type="primary" onClick={onClose}>完成</Button>]}>
        <Result
          status="success"
          title="提现申请已提交"
          subTitle={
            <span data-testid="withdraw-result">
              提现 {money(done.amount)}，手续费 {money(done.fee)}，状态：{done.statusText}；账户余额 {money(done.balance)}
            </span>
          }
          extra={<Typography.Text type="secondary">到账结果可在“提现记录”中查看</Typography.Text>}
        />
      </Modal>
    );
  }

  if (step === 'confirm' && values) {
    const fen = yuanToFen(normalizeAmount(values.amount));
    const fee = withdrawalFeeFen(fen);
    return (
      <Modal
        open
        title="确认提现"
        okText="确认提现"
        cancelText="返回修改"
        confirmLoading={busy}
        onOk={() => void submit()}
        onCancel={() => setStep('input')}
        maskClosable={false}
      >
        <Descriptions size="small" column={1} bordered>
          <Descriptions.Item label="提现账户">{app.name}</Descriptions.Item>
          <Descriptions.Item label="提现金额"><span data-testid="confirm-amount">{money(fenToYuan(fen))}</span></Descriptions.Item>
          <Descriptions.Item label="手续费"><span data-testid="confirm-fee">{money(fenToYuan(fee))}</span></Descriptions.Item>
          <Descriptions.Item label="合计扣除">{money(fenToYuan(fen + fee))}</Descriptions.Item>
          <Descriptions.Item label="到账银行卡">{app.bankName} {maskAccount(app.bankAccountNo)}</Descriptions.Item>
        </Descriptions>
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          提交后资金将从账户余额中扣除；提现失败时金额与手续费原路退回账户余额。
        </Typography.Paragraph>
      </Modal>
    );
  }

  return (
    <Modal open title={title} okText="下一步" cancelText="取消" onOk={() => void next()} onCancel={onClose} maskClosable={false} destroyOnHidden>
      <Spin spinning={bal.isLoading}>
        <Descriptions size="small" column={1} style={{ marginBottom: 12 }}>
          <Descriptions.Item label="可用余额"><span data-testid="withdraw-balance">{money(bal.data?.balance) || '¥0.00'}</span></Descriptions.Item>
          <Descriptions.Item label="最多可提现">{money(bal.data?.maxWithdrawal) || '¥0.00'}</Descriptions.Item>
          {bal.data && Number(bal.data.processingCount) > 0 ? (
            <Descriptions.Item label="处理中">{money(bal.data.processing)}（{bal.data.processingCount} 笔）</Descriptions.Item>
          ) : null}
          <Descriptions.Item label="到账银行卡">{app.bankName} {maskAccount(app.bankAccountNo)}</Descriptions.Item>
        </Descriptions>
        {bal.data ? <Alert type="info" showIcon message={bal.data.fee.text} style={{ marginBottom: 12 }} /> : null}
        <Form<Values> form={form} layout="vertical" name="withdraw" initialValues={{ amount: values?.amount ?? '', memo: values?.memo ?? '' }} onValuesChange={clear}>
          <Form.Item
            name="amount"
            label="提现金额（元）"
            validateFirst
            extra={preview ? <span data-testid="withdraw-fee">手续费 {money(preview.fee)}，合计扣除 {money(preview.total)}</span> : null}
            rules={[{ validator: (_r, v) => { const e = withdrawAmountError(v, balanceFen); return e ? Promise.reject(new Error(e)) : Promise.resolve(); } }]}
          >
            <YuanInput />
          </Form.Item>
          <MemoItem />
        </Form>
        <RefusalAlert title="提现未成功" refusal={refusal} testId="withdraw-refusal" />
      </Spin>
    </Modal>
  );
}

/**
 * 申请提现 from /noteswithdraw (finance staff with finance.withdraw): pick one of the company's opened
 * accounts, then the withdrawal dialog.
 */
export function WithdrawLauncher({ company, onDone }: { company?: string; onDone(): void }) {
  const can = useCan('finance.withdraw');
  const [picking, setPicking] = useState(false);
  const [picked, setPicked] = useState<number | undefined>();
  const [app, setApp] = useState<PayAppRow | null>(null);
  const apps = useQuery({
    queryKey: ['payAppsOpened', company],
    queryFn: () => payAppApi.list({ index: 1, size: 1000, status: 'opened', searchCompanyID: company }),
    enabled: picking,
  });
  if (!can) return null;
  const rows = apps.data?.data ?? [];
  return (
    <>
      <Button type="primary" onClick={() => { setPicked(undefined); setPicking(true); }}>申请提现</Button>
      {picking && (
        <Modal
          open
          title="申请提现：选择收款账户"
          okText="下一步"
          cancelText="取消"
          okButtonProps={{ disabled: picked == null }}
          onOk={() => {
            const r = rows.find((x) => x.id === picked);
            if (!r) return;
            setPicking(false);
            setApp(r);
          }}
          onCancel={() => setPicking(false)}
          maskClosable={false}
        >
          <Spin spinning={apps.isLoading}>
            {rows.length === 0 && !apps.isLoading ? (
              <Empty description="暂无已开通的汇付账户" />
            ) : (
              <Select<number>
                style={{ width: '100%' }}
                placeholder="请选择收款账户"
                aria-label="收款账户"
                value={picked}
                onChange={setPicked}
                options={rows.map((r) => ({ value: r.id, label: `${r.name}（可用余额 ${money(r.balance) || '¥0.00'}）` }))}
              />
            )}
          </Spin>
        </Modal>
      )}
      {app && <WithdrawDialog app={app} company={company} onDone={() => onDone()} onClose={() => setApp(null)} />}
    </>
  );
}
