// The dialogs of /apply (二级商户申请): 验证 (the SMS code and the random amount the bank paid into the
// settlement account), 子账户 (the bank's balance, 提现 to the settlement account, the withdrawals) and
// 单位银行信息 (companyBocInfo). Each refusal keeps its dialog open with the server's Chinese reason.
import { useMemo, useState } from 'react';
import { Alert, Button, Descriptions, Form, Input, Modal, Spin, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { BANK_WITHDRAW_STATUS, fenToYuan, yuanToFen } from '@meter/contracts';
import { bankApi, type BankWithdrawal, type BocInfo } from '../../api/bank.ts';
import { toast } from '../../app/feedback.tsx';
import { useCan } from '../../app/session.ts';
import { failureText, useFormSave, useRefusal } from '../../components/submit.tsx';
import { amountInputError, money, newRequestId, normalizeAmount } from '../fee/money.ts';
import { maskAccount } from '../notes/NotesWithdraw.tsx';

export interface SubMerTarget {
  id: number;
  name: string;
  subMerId: string;
  phone: string;
  accountNo: string;
}

/** Why the typed amount cannot be withdrawn from `availableFen`, or null. */
export function bankWithdrawError(input: unknown, availableFen: number): string | null {
  const e = amountInputError(input, '提现金额');
  if (e) return e;
  const fen = yuanToFen(String(input).trim());
  return fen > availableFen ? `提现金额超过子账户可用余额 ¥${fenToYuan(availableFen)}` : null;
}

/** The random amount is 0.01–0.99 元. */
export function randomAmountError(input: unknown): string | null {
  const e = amountInputError(input, '随机金额');
  if (e) return e;
  return yuanToFen(String(input).trim()) >= 100 ? '随机金额在 0.01 至 0.99 元之间' : null;
}

function Refusal({ text, testId }: { text: string; testId: string }) {
  return text ? <Alert type="error" showIcon style={{ marginTop: 12 }} message={<span data-testid={testId}>{text}</span>} /> : null;
}

export function VerifyDialog({ target, company, demoInboxUrl, onClose }: { target: SubMerTarget; company?: string; demoInboxUrl?: string | null; onClose(changed: boolean): void }) {
  const [form] = Form.useForm<{ code: string; amount: string }>();
  const { busy, refusal, clear, runForm } = useRefusal();
  const [changed, setChanged] = useState(false);
  const submit = () => runForm(form, async (v) => {
    setChanged(true); // an answer sent counts at the bank, a wrong one too (and may have rejected the application)
    await bankApi.verify({ subMerId: target.subMerId, code: v.code.trim(), amount: normalizeAmount(v.amount) }, company);
    toast.success('验证通过，可申请开通');
    onClose(true);
  });
  return (
    <Modal open title={`验证：${target.name}`} okText="提交验证" cancelText="取消" confirmLoading={busy} onOk={() => void submit()} onCancel={() => onClose(changed)} maskClosable={false} destroyOnHidden>
      <Typography.Paragraph type="secondary">
        银行已向 {target.phone.replace(/^(\d{3})\d{4}(\d{4})$/, '$1****$2')} 发送 6 位验证码，并向结算账户 {maskAccount(target.accountNo)} 打入一笔 1 元以下的随机金额。请填写二者；连续 3 次错误银行将驳回申请。
      </Typography.Paragraph>
      {demoInboxUrl ? (
        <Alert type="info" showIcon style={{ marginBottom: 12 }} message={<span>演示环境：验证码与随机金额可在 <a href={demoInboxUrl} target="_blank" rel="noreferrer" data-testid="bank-inbox">本地银行模拟器</a> 中查看</span>} />
      ) : null}
      <Form form={form} layout="vertical" name="verify" onValuesChange={clear}>
        <Form.Item name="code" label="短信验证码" rules={[{ required: true, message: '请输入短信验证码' }, { pattern: /^\d{6}$/, message: '短信验证码为 6 位数字' }]}>
          <Input inputMode="numeric" maxLength={6} autoComplete="one-time-code" placeholder="6 位数字" />
        </Form.Item>
        <Form.Item name="amount" label="随机金额（元）" validateFirst rules={[{ validator: (_r, v) => { const e = randomAmountError(v); return e ? Promise.reject(new Error(e)) : Promise.resolve(); } }]}>
          <Input prefix="¥" inputMode="decimal" maxLength={6} autoComplete="off" placeholder="如 0.37" />
        </Form.Item>
      </Form>
      <Refusal text={refusal} testId="verify-refusal" />
    </Modal>
  );
}

function WithdrawForm({ target, availableFen, company, onDone }: { target: SubMerTarget; availableFen: number; company?: string; onDone(): void }) {
  const [form] = Form.useForm<{ amount: string; memo?: string }>();
  const [requestId, setRequestId] = useState(() => newRequestId());
  const { busy, refusal, clear, runForm } = useRefusal();
  const submit = () => runForm(form, async (v) => {
    const r = await bankApi.withdraw({ subMerId: target.subMerId, amount: normalizeAmount(v.amount), requestId, memo: (v.memo ?? '').trim() }, company);
    if (r.status !== 2) toast.success(r.status === 1 ? `提现 ${money(r.amount)} 已到账` : `提现 ${money(r.amount)} 已提交，银行处理中`);
    form.resetFields();
    setRequestId(newRequestId());
    onDone();
    // the bank refused it: the request is done (a new id for the next), its reason stays under the form
    if (r.status === 2) throw new Error(`提现失败：${r.reason || '银行未说明原因'}`);
  });
  return (
    <>
      <Form form={form} layout="inline" name="bank-withdraw" onValuesChange={clear}>
        <Form.Item name="amount" label="提现金额" validateFirst rules={[{ validator: (_r, v) => { const e = bankWithdrawError(v, availableFen); return e ? Promise.reject(new Error(e)) : Promise.resolve(); } }]}>
          <Input prefix="¥" suffix="元" inputMode="decimal" maxLength={16} autoComplete="off" style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="memo" label="备注" rules={[{ max: 200, message: '备注最多 200 个字' }]}>
          <Input style={{ width: 200 }} placeholder="选填" />
        </Form.Item>
        <Button type="primary" loading={busy} disabled={availableFen <= 0} onClick={() => void submit()}>提现到结算账户</Button>
      </Form>
      <Refusal text={refusal} testId="withdraw-refusal" />
    </>
  );
}

const STATUS_COLOR: Record<number, string> = { 0: 'processing', 1: 'success', 2: 'error' };

export function SubAccountDialog({ target, company, onClose }: { target: SubMerTarget; company?: string; onClose(): void }) {
  const canWithdraw = useCan('finance.withdraw');
  const acc = useQuery({ queryKey: ['subAcc', target.subMerId, company], queryFn: () => bankApi.balance(target.subMerId, company) });
  const list = useQuery({
    queryKey: ['subAccWithdrawals', target.subMerId, company],
    queryFn: () => bankApi.withdrawals({ index: 1, size: 20, subMerId: target.subMerId, searchCompanyID: company }),
  });
  const reload = () => void Promise.all([acc.refetch(), list.refetch()]);
  const columns = useMemo(() => [
    { title: '申请时间', dataIndex: 'createdAt', key: 'createdAt', width: 160 },
    { title: '金额', dataIndex: 'amount', key: 'amount', width: 110, render: (v: string) => money(v) },
    { title: '状态', dataIndex: 'status', key: 'status', width: 90, render: (_v: number, r: BankWithdrawal) => <Tag color={STATUS_COLOR[r.status]}>{BANK_WITHDRAW_STATUS[r.status] ?? r.statusText}</Tag> },
    { title: '银行流水号', dataIndex: 'bankSerial', key: 'bankSerial', render: (v: string) => v || '-' },
    { title: '失败原因', dataIndex: 'reason', key: 'reason', render: (v: string) => v || '-' },
    { title: '操作人', dataIndex: 'operatorName', key: 'operatorName', width: 110 },
  ], []);
  return (
    <Modal open width={860} title={`子账户：${target.name}`} onCancel={onClose} footer={[<Button key="close" onClick={onClose}>关闭</Button>]} destroyOnHidden>
      <Spin spinning={acc.isLoading}>
        {acc.isError ? <Alert type="error" showIcon message={failureText(acc.error)} style={{ marginBottom: 12 }} /> : null}
        <Descriptions size="small" column={2} bordered style={{ marginBottom: 16 }} styles={{ label: { whiteSpace: "nowrap" } }}>
          <Descriptions.Item label="子商户号">{target.subMerId}</Descriptions.Item>
          <Descriptions.Item label="结算银行">{acc.data?.bankName ?? '-'}</Descriptions.Item>
          <Descriptions.Item label="结算账户">{acc.data ? `${acc.data.accountName} ${maskAccount(acc.data.accountNo)}` : '-'}</Descriptions.Item>
          <Descriptions.Item label="账户余额"><span data-testid="subacc-balance">{money(acc.data?.balance) || '-'}</span></Descriptions.Item>
          <Descriptions.Item label="可提现"><span data-testid="subacc-available">{money(acc.data?.available) || '-'}</span></Descriptions.Item>
          <Descriptions.Item label="银行处理中">{money(acc.data?.processing) || '-'}</Descriptions.Item>
        </Descriptions>
      </Spin>
      {canWithdraw && acc.data ? <WithdrawForm target={target} availableFen={acc.data.availableFen} company={company} onDone={reload} /> : null}
      <Typography.Title level={5} style={{ marginTop: 16 }}>提现记录</Typography.Title>
      <Table<BankWithdrawal> size="small" rowKey="id" loading={list.isLoading} columns={columns} dataSource={list.data?.data ?? []} pagination={false} scroll={{ x: 760 }} />
    </Modal>
  );
}

type BocValues = Pick<BocInfo, 'merId' | 'branchName' | 'accountName' | 'accountNo' | 'contactName' | 'phone' | 'memo'>;

export function BocInfoDialog({ company, onClose }: { company?: string; onClose(): void }) {
  const [form] = Form.useForm<BocValues>();
  const info = useQuery({ queryKey: ['bocInfo', company], queryFn: () => bankApi.bocInfo(company) });
  const { saving, save: saveForm } = useFormSave();
  const save = () => saveForm(form, async (v) => {
    await bankApi.saveBocInfo({ ...v, accountNo: String(v.accountNo ?? '').replace(/\s+/g, '') }, company);
    toast.success('单位银行信息已保存');
    onClose();
  });
  return (
    <Modal open title="单位银行信息" okText="保存" cancelText="取消" confirmLoading={saving} onOk={() => void save()} onCancel={onClose} maskClosable={false} destroyOnHidden>
      <Spin spinning={info.isLoading}>
        {info.data ? (
          <>
            <Typography.Paragraph>
              {info.data.companyName} 的结算银行：<Tag color="blue" data-testid="boc-bank">{info.data.bankName}</Tag>
              <Typography.Text type="secondary">（在“单位管理”中修改）</Typography.Text>
            </Typography.Paragraph>
            <Form<BocValues> form={form} layout="vertical" name="boc-info" initialValues={info.data}>
              <Form.Item name="merId" label="平台商户号" rules={[{ pattern: /^[A-Za-z0-9]{0,32}$/, message: '平台商户号只能是字母或数字' }]}><Input /></Form.Item>
              <Form.Item name="branchName" label="开户网点" rules={[{ max: 64, message: '开户网点最多 64 个字' }]}><Input /></Form.Item>
              <Form.Item name="accountName" label="账户名称" rules={[{ max: 64, message: '账户名称最多 64 个字' }]}><Input /></Form.Item>
              <Form.Item name="accountNo" label="账号" rules={[{ validator: (_r, v) => (!v || /^\d{8,32}$/.test(String(v).replace(/\s+/g, '')) ? Promise.resolve() : Promise.reject(new Error('账号须为 8–32 位数字'))) }]}>
                <Input inputMode="numeric" />
              </Form.Item>
              <Form.Item name="contactName" label="联系人" rules={[{ max: 32, message: '联系人最多 32 个字' }]}><Input /></Form.Item>
              <Form.Item name="phone" label="联系电话" rules={[{ pattern: /^[0-9+\-() ]{0,32}$/, message: '联系电话只能包含数字、空格和 +-()' }]}><Input /></Form.Item>
              <Form.Item name="memo" label="备注" rules={[{ max: 200, message: '备注最多 200 个字' }]}><Input.TextArea rows={2} /></Form.Item>
            </Form>
          </>
        ) : info.isError ? <Alert type="error" showIcon message={failureText(info.error)} /> : null}
      </Spin>
    </Modal>
  );
}
