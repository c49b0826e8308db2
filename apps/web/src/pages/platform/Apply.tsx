// 二级商户申请 (/apply, platform management): a company's sub-merchant applications at its settlement
// bank (Property_Info, declared once in @meter/contracts: propertyInfoResource — table, search and form
// derive from it), moved through the bank by the actions the state machine allows in each state
// (canSubMer): 提交银行 → 发送验证码 → 验证 (code + random amount) → 开通 ⇄ 停用; 子账户 shows the bank's
// balance, withdraws to the settlement account and lists the withdrawals. The bank's name follows the
// company's 结算银行 (bankType); 单位银行信息 edits companyBocInfo. Every exchange is in /noteBocLog.
import { useMemo, useRef, useState } from 'react';
import { Button, Popconfirm } from 'antd';
import type { ActionType } from '@ant-design/pro-components';
import { canSubMer, propertyInfoResource, SUB_MER_STATUS, SUB_MER_STATUS_COLOR } from '@meter/contracts';
import { bankApi } from '../../api/bank.ts';
import { E } from '../../api/endpoints.gen.ts';
import { toast } from '../../app/feedback.tsx';
import { CrudPage, type CrudPageProps } from '../../components/CrudPage.tsx';
import type { ResourceColumn } from '../../components/ResourceTable.tsx';
import { companyColumn, useCompanyPick } from '../fee/common.tsx';
import { maskAccount } from '../notes/NotesWithdraw.tsx';
import { ApplicationState } from './ApplicationState.tsx';
import { BocInfoDialog, SubAccountDialog, VerifyDialog, type SubMerTarget } from './SubMerDialogs.tsx';

export interface PropertyRow extends Record<string, unknown> {
  id: number;
  companyName: string | null;
  name: string;
  phone: string;
  accountNo: string;
  status: string;
  subMerId: string;
  reason: string;
  bankName: string;
  settleBankName: string;
}

const OVERRIDES: CrudPageProps<PropertyRow>['overrides'] = {
  accountNo: { render: (_d, r) => maskAccount(r.accountNo) },
  bankId: { render: (_d, r) => r.bankName || '-' },
  subMerId: { copyable: true, render: (_d, r) => r.subMerId || '-' },
  status: {
    hideInForm: true,
    render: (_d, r) => (
      <ApplicationState row={r} color={SUB_MER_STATUS_COLOR[r.status]} text={SUB_MER_STATUS[r.status] ?? r.status} testId={`status-${r.id}`} />
    ),
  },
  createdAt: { hideInForm: true },
};

const ORDER = ['companyName', 'name', 'shortName', 'licenseNo', 'legalPerson', 'legalIdNo', 'contactName', 'phone', 'address', 'bankId', 'accountName', 'accountNo', 'settleBankName', 'subMerId', 'status', 'memo', 'createdAt'];
const TEXT_KEYS = ['name', 'shortName', 'licenseNo', 'legalPerson', 'legalIdNo', 'contactName', 'phone', 'address', 'accountName', 'memo'];

/** Form values → the Property_Info body (trimmed text, the account number without spaces, the bank's id). */
export function propertyBody(v: Record<string, unknown>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const k of TEXT_KEYS) out[k] = String(v[k] ?? '').trim();
  out.licenseNo = String(out.licenseNo).toUpperCase();
  out.legalIdNo = String(out.legalIdNo).toUpperCase();
  out.accountNo = String(v.accountNo ?? '').replace(/\s+/g, '');
  out.bankId = Number(v.bankId);
  return out;
}

type Step = 'register' | 'sendCode' | 'activate' | 'disable' | 'enable';
const DONE: Record<Step, string> = { register: '已提交银行', sendCode: '验证码已发送', activate: '子商户已开通', disable: '子商户已停用', enable: '子商户已启用' };

export default function Apply() {
  const actionRef = useRef<ActionType | undefined>(undefined);
  const company = useCompanyPick();
  const [verify, setVerify] = useState<SubMerTarget | null>(null);
  const [account, setAccount] = useState<SubMerTarget | null>(null);
  const [boc, setBoc] = useState(false);
  /** the local bank emulator's page (demo): where the SMS code and the paid amount can be read */
  const [inbox, setInbox] = useState<string | null>(null);
  const reload = () => void actionRef.current?.reload();

  const step = async (r: PropertyRow, s: Step) => {
    try {
      const a = s === 'register' ? await bankApi.register(r.id, company)
        : s === 'sendCode' ? await bankApi.sendCode(r.subMerId, company)
        : await bankApi.setStatus(r.subMerId, s === 'disable' ? 'disabled' : 'active', company);
      setInbox(a.demoInboxUrl);
      toast.success(DONE[s]);
    } catch {
      /* the request wrapper showed the bank's reason */
    }
    reload();
  };

  // 所属单位 only when no company is picked at the top (the platform's view of all)
  const extraColumns = useMemo<ResourceColumn<PropertyRow>[]>(() => [
    companyColumn<PropertyRow>(!company),
    { title: '结算银行', dataIndex: 'settleBankName', key: 'settleBankName', hideInForm: true, width: 110 },
  ], [company]);

  const target = (r: PropertyRow): SubMerTarget => ({ id: r.id, name: r.name, subMerId: r.subMerId, phone: r.phone, accountNo: r.accountNo });
  const confirm = (r: PropertyRow, s: Step, title: string, label: string) => (
    <Popconfirm key={s} title={title} okText="确定" cancelText="取消" onConfirm={() => step(r, s)}>
      <a data-testid={`${s}-${r.id}`}>{label}</a>
    </Popconfirm>
  );

  return (
    <>
      <CrudPage<PropertyRow>
        resource={propertyInfoResource}
        api={E.propertyInfo}
        headerTitle="二级商户申请"
        actionRef={actionRef}
        overrides={OVERRIDES}
        extraColumns={extraColumns}
        order={ORDER}
        fromForm={propertyBody}
        rowCan={(r, action) => (action === 'update' ? canSubMer(r.status, 'edit') : r.status === 'draft' || (r.status === 'rejected' && !r.subMerId))}
        formColumns={2}
        modalWidth={820}
        toolBar={() => [<Button key="boc" onClick={() => setBoc(true)}>单位银行信息</Button>]}
        rowActions={(r) => [
          canSubMer(r.status, 'register') ? confirm(r, 'register', `将资料提交${r.settleBankName}进件，提交后不能修改，确定吗？`, '提交银行') : null,
          canSubMer(r.status, 'sendCode') ? confirm(r, 'sendCode', '银行将向验证手机号发送验证码，并向结算账户打入随机金额，确定发送吗？', r.status === 'code_sent' ? '重发验证码' : '发送验证码') : null,
          canSubMer(r.status, 'verify') ? <a key="verify" data-testid={`verify-${r.id}`} onClick={() => setVerify(target(r))}>验证</a> : null,
          canSubMer(r.status, 'activate') ? confirm(r, 'activate', '确定开通该子商户吗？', '开通') : null,
          canSubMer(r.status, 'disable') ? confirm(r, 'disable', '停用后该子商户不能收款和提现，确定停用吗？', '停用') : null,
          canSubMer(r.status, 'enable') ? confirm(r, 'enable', '确定重新启用该子商户吗？', '启用') : null,
          r.status === 'active' || r.status === 'disabled' ? <a key="acc" data-testid={`account-${r.id}`} onClick={() => setAccount(target(r))}>子账户</a> : null,
        ].filter(Boolean) as React.ReactNode[]}
      />
      {verify && <VerifyDialog target={verify} company={company} demoInboxUrl={inbox} onClose={(changed) => { setVerify(null); if (changed) reload(); }} />}
      {account && <SubAccountDialog target={account} company={company} onClose={() => setAccount(null)} />}
      {boc && <BocInfoDialog company={company} onClose={() => setBoc(false)} />}
    </>
  );
}
