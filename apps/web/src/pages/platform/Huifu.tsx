// 汇付用户申请 (/huifu, platform management): a company's pay-application (汇付 AdaPay) merchant
// accounts, declared once in @meter/contracts (payAppResource) — the table, the search form and the
// application form derive from it. Each row shows its available balance and what is being withdrawn;
// actions: 提现 (finance.withdraw, opened accounts), 流水 (the account's statement), 修改结算卡
// (ChangeBankCode), 停用/启用 and 删除
// (refused by the server while the account holds money or a withdrawal is processing). A platform
// admin registers accounts inside the company picked in the header. The list, 新增 and 删除 are the
// declared resource's (CrudPage, E.payapp); the rest are the page's own row actions.
import { useMemo, useRef, useState } from 'react';
import { Form, Input, Modal, Popconfirm, Typography } from 'antd';
import type { ActionType } from '@ant-design/pro-components';
import { idNoError, payAppResource } from '@meter/contracts';
import type { PayAppAddInput } from '@meter/contracts';
import { payAppApi, type PayAppRow } from '../../api/payapp.ts';
import { E } from '../../api/endpoints.gen.ts';
import { toast } from '../../app/feedback.tsx';
import { useCan } from '../../app/session.ts';
import { CrudPage, type CrudPageProps } from '../../components/CrudPage.tsx';
import type { ResourceColumn } from '../../components/ResourceTable.tsx';
import { formValues } from '../../components/validate.ts';
import { companyColumn, moneyColumn, useCompanyPick } from '../fee/common.tsx';
import { maskAccount } from '../notes/NotesWithdraw.tsx';
import { ApplicationState } from './ApplicationState.tsx';
import { PayAppJournalDrawer } from './PayAppJournalDrawer.tsx';
import { WithdrawDialog } from './WithdrawDialog.tsx';

type Row = PayAppRow & Record<string, unknown>;

export const PAY_APP_STATUS_COLOR: Record<string, string> = { pending: 'processing', opened: 'success', disabled: 'default', rejected: 'error' };

const ORDER = [
  'companyName', 'name', 'kind', 'legalPerson', 'contactName', 'idNo', 'phone', 'bankName', 'bankAccountName', 'bankAccountNo',
  'balance', 'processing', 'status', 'memo', 'createdAt',
];

/** Application form values → request body (the account number without spaces). */
export function payAppBody(v: Record<string, unknown>): PayAppAddInput {
  const text = (k: string) => String(v[k] ?? '').trim();
  return {
    name: text('name'),
    kind: Number(v.kind ?? 1),
    legalPerson: text('legalPerson'),
    contactName: text('contactName'),
    idNo: text('idNo').toUpperCase(),
    phone: text('phone'),
    bankName: text('bankName'),
    bankAccountName: text('bankAccountName'),
    bankAccountNo: text('bankAccountNo').replace(/\s+/g, ''),
    memo: text('memo'),
  };
}

interface BankValues {
  bankName: string;
  bankAccountName: string;
  bankAccountNo: string;
}

function BankCardDialog({ app, company, onClose }: { app: PayAppRow; company?: string; onClose(saved: boolean): void }) {
  const [form] = Form.useForm<BankValues>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const v = await formValues(form);
    if (!v) return;
    setBusy(true);
    try {
      await payAppApi.changeBank({ id: app.id, bankName: v.bankName.trim(), bankAccountName: v.bankAccountName.trim(), bankAccountNo: v.bankAccountNo.replace(/\s+/g, '') }, company);
      toast.success('结算银行卡已修改');
      onClose(true);
    } catch {
      /* the request wrapper showed the server's message */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={`修改结算银行卡：${app.name}`} okText="保存" cancelText="取消" confirmLoading={busy} onOk={() => void submit()} onCancel={() => onClose(false)} maskClosable={false} destroyOnHidden>
      <Typography.Paragraph type="secondary">当前结算卡：{app.bankName} {maskAccount(app.bankAccountNo)}。处理中的提现仍按申请时的银行卡到账。</Typography.Paragraph>
      <Form<BankValues> form={form} layout="vertical" name="bank-card" initialValues={{ bankName: app.bankName, bankAccountName: app.bankAccountName, bankAccountNo: '' }}>
        <Form.Item name="bankName" label="开户银行" rules={[{ required: true, whitespace: true, message: '请输入开户银行' }, { max: 64, message: '开户银行最多 64 个字' }]}>
          <Input placeholder="如 中国银行上海分行" />
        </Form.Item>
        <Form.Item name="bankAccountName" label="开户名" rules={[{ required: true, whitespace: true, message: '请输入开户名' }, { max: 64, message: '开户名最多 64 个字' }]}>
          <Input />
        </Form.Item>
        <Form.Item
          name="bankAccountNo"
          label="银行账号"
          rules={[
            { required: true, message: '请输入银行账号' },
            { validator: (_r, v) => (!v || /^\d{8,32}$/.test(String(v).replace(/\s+/g, '')) ? Promise.resolve() : Promise.reject(new Error('银行账号须为 8–32 位数字'))) },
          ]}
        >
          <Input inputMode="numeric" autoComplete="off" placeholder="新的结算银行卡号" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default function Huifu() {
  const actionRef = useRef<ActionType | undefined>(undefined);
  const company = useCompanyPick();
  const canWithdraw = useCan('finance.withdraw');
  const [bank, setBank] = useState<PayAppRow | null>(null);
  const [withdraw, setWithdraw] = useState<PayAppRow | null>(null);
  const [statement, setStatement] = useState<PayAppRow | null>(null);
  const reload = () => void actionRef.current?.reload();

  const overrides = useMemo<CrudPageProps<Row>['overrides']>(
    () => ({
      name: { copyable: true },
      kind: { render: (_d, r) => r.kindText, initialValue: '1' },
      idNo: {
        rules: [
          { required: true, message: '请输入证件号码' },
          ({ getFieldValue }) => ({
            validator: (_r, v) => {
              const e = v ? idNoError(Number(getFieldValue('kind') ?? 1), String(v)) : null;
              return e ? Promise.reject(new Error(e)) : Promise.resolve();
            },
          }),
        ],
      },
      bankAccountNo: { render: (_d, r) => maskAccount(r.bankAccountNo) },
      status: {
        hideInForm: true,
        render: (_d, r) => <ApplicationState row={r} color={PAY_APP_STATUS_COLOR[r.status]} text={r.statusText} />,
      },
    }),
    [],
  );
  const extraColumns = useMemo<ResourceColumn<Row>[]>(
    () => [
      companyColumn<Row>(!company),
      moneyColumn<Row>('可用余额', 'balance', { hideInForm: true, width: 120 }),
      moneyColumn<Row>('提现中', 'processing', { hideInForm: true, width: 110 }),
    ],
    [company],
  );

  return (
    <>
      <CrudPage<Row>
        resource={payAppResource}
        api={E.payapp}
        headerTitle="汇付用户申请"
        actionRef={actionRef}
        overrides={overrides}
        extraColumns={extraColumns}
        order={ORDER}
        fromForm={(v) => ({ ...payAppBody(v) })}
        createDefaults={{ kind: '1' }}
        formColumns={2}
        modalWidth={760}
        rowActions={(r) => [
          canWithdraw && r.status === 'opened' ? (
            <a key="withdraw" data-testid={`withdraw-${r.id}`} onClick={() => setWithdraw(r)}>
              提现
            </a>
          ) : null,
          <a key="journal" onClick={() => setStatement(r)}>
            流水
          </a>,
          <a key="bank" onClick={() => setBank(r)}>
            修改结算卡
          </a>,
          r.status === 'opened' || r.status === 'disabled' ? (
            <Popconfirm
              key="status"
              title={r.status === 'opened' ? '停用后该账户不能提现、不再收款，确定停用吗？' : '确定启用该账户吗？'}
              okText="确定"
              cancelText="取消"
              onConfirm={async () => {
                await payAppApi.setEnabled(r.id, r.status !== 'opened', company);
                toast.success(r.status === 'opened' ? '已停用' : '已启用');
                reload();
              }}
            >
              <a>{r.status === 'opened' ? '停用' : '启用'}</a>
            </Popconfirm>
          ) : null,
        ].filter(Boolean) as React.ReactNode[]}
      />
      {bank && (
        <BankCardDialog
          app={bank}
          company={company}
          onClose={(saved) => {
            setBank(null);
            if (saved) reload();
          }}
        />
      )}
      {statement && <PayAppJournalDrawer app={statement} company={company} onClose={() => setStatement(null)} />}
      {withdraw && (
        <WithdrawDialog
          app={withdraw}
          company={company}
          onDone={() => reload()}
          onClose={() => setWithdraw(null)}
        />
      )}
    </>
  );
}
