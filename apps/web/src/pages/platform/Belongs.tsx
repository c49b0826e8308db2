// 单位管理 (/belongs, platform admins): companies with search by name and classify; create / edit /
// delete (refused by the server while a company still has accounts, areas, rooms or meters, naming
// them); the device-permission and payment-settings (支付商户, 充值档位) dialogs per company. The list and
// the writes are the declared resource's (CrudPage, E.company), platform-wide: the header's pick is not sent.
import { useCallback, useRef, useState } from 'react';
import { Tag, Typography } from 'antd';
import type { ActionType } from '@ant-design/pro-components';
import { companyResource } from '@meter/contracts';
import type { ResourceColumn } from '../../components/ResourceTable.tsx';
import { CrudPage, type CrudPageProps } from '../../components/CrudPage.tsx';
import { Stacked } from '../../components/cells.tsx';
import type { CompanyRow } from '../../api/company.ts';
import { E } from '../../api/endpoints.gen.ts';
import DevicePermissModal from './DevicePermissModal.tsx';
import MerchantModal from './MerchantModal.tsx';

type Row = CompanyRow & Record<string, unknown>;

const ORDER = [
  'name', 'classifyId', 'contact', 'phone', 'contactPhone', 'address', 'bankType', 'edition', 'smsPriceFen', 'phonePriceFen', 'prices',
  'deviceCheck', 'valveControlPwd', 'checks', 'createdAt',
];

/** Form values → request body (numbers for the codes; blank password = keep / none). */
export function companyBody(v: Record<string, unknown>): Record<string, unknown> {
  const text = (k: string) => String(v[k] ?? '').trim();
  const int = (k: string, dflt: number) => (v[k] === undefined || v[k] === null || v[k] === '' ? dflt : Number(v[k]));
  return {
    name: text('name'),
    classifyId: v.classifyId == null || v.classifyId === '' ? null : Number(v.classifyId),
    contact: text('contact'),
    phone: text('phone'),
    address: text('address'),
    bankType: int('bankType', 0),
    edition: int('edition', 0),
    smsPriceFen: int('smsPriceFen', 10),
    phonePriceFen: int('phonePriceFen', 20),
    deviceCheck: !!v.deviceCheck,
    valveControlPwd: String(v.valveControlPwd ?? ''),
  };
}

/** A company row → edit form values (select values are strings; the password is never shown). */
export function companyForm(r: CompanyRow): Record<string, unknown> {
  return { ...r, bankType: String(r.bankType), edition: String(r.edition), classifyId: r.classifyId ?? undefined, valveControlPwd: '' };
}

const OVERRIDES: CrudPageProps<Row>['overrides'] = {
  // the company's classify under its name, contact over phone, the two prices and the two switches each in
  // one cell: the list fits 1440×900, no column under the fixed 操作 (the form keeps every field)
  name: {
    render: (_d, r) => <Stacked top={<Typography.Text copyable>{r.name}</Typography.Text>} below={r.classifyName ?? '—'} />,
  },
  classifyId: { hideInTable: true },
  contact: { hideInTable: true },
  phone: { hideInTable: true },
  address: { hideInTable: true, colProps: { span: 24 } },
  bankType: { render: (_d, r) => r.bankName, initialValue: '0' },
  edition: { render: (_d, r) => r.editionName, initialValue: '0' },
  smsPriceFen: { hideInTable: true },
  phonePriceFen: { hideInTable: true },
  deviceCheck: { hideInTable: true },
  valveControlPwd: {
    hideInEdit: false,
    formFieldProps: { autoComplete: 'new-password', placeholder: '留空表示不设置或不修改' },
  },
};

const EXTRA: ResourceColumn<Row>[] = [
  {
    title: '联系人 / 电话', key: 'contactPhone', dataIndex: 'contact', hideInForm: true,
    render: (_d, r) => <Stacked nowrap top={r.contact || '-'} below={r.phone || '-'} />,
  },
  {
    title: '短信 / 电话单价（分）', key: 'prices', dataIndex: 'smsPriceFen', hideInForm: true, width: 100,
    render: (_d, r) => <span style={{ whiteSpace: 'nowrap' }}><span>{r.smsPriceFen}</span> / <span>{r.phonePriceFen}</span></span>,
  },
  {
    title: '设备校验 / 阀控密码', key: 'checks', dataIndex: 'deviceCheck', hideInForm: true, width: 100,
    render: (_d, r) => (
      <div>
        {r.deviceCheck ? <Tag color="blue">校验开启</Tag> : <Tag>校验关闭</Tag>}
        <div style={{ marginTop: 4 }}>{r.hasValveControlPwd ? <Tag color="green">密码已设置</Tag> : <Tag color="orange">密码未设置</Tag>}</div>
      </div>
    ),
  },
];

export default function Belongs() {
  const actionRef = useRef<ActionType | undefined>(undefined);
  const [permiss, setPermiss] = useState<{ id: number; name: string } | null>(null);
  const [pay, setPay] = useState<{ id: number; name: string } | null>(null);
  const closePay = useCallback(() => setPay(null), []);

  const closePermiss = useCallback((saved: boolean) => {
    setPermiss(null);
    if (saved) void actionRef.current?.reload();
  }, []);

  return (
    <>
      <CrudPage<Row>
        resource={companyResource}
        api={E.company}
        headerTitle="单位列表"
        platformWide
        actionRef={actionRef}
        overrides={OVERRIDES}
        extraColumns={EXTRA}
        order={ORDER}
        loadDetail
        fromForm={companyBody}
        toForm={(r) => companyForm(r)}
        createDefaults={{ bankType: '0', edition: '0', smsPriceFen: 10, phonePriceFen: 20, deviceCheck: false }}
        formColumns={2}
        modalWidth={760}
        rowActions={(r) => [
          <a key="permiss" onClick={() => setPermiss({ id: r.id, name: r.name })}>
            设备权限
          </a>,
          <a key="pay" onClick={() => setPay({ id: r.id, name: r.name })}>
            支付设置
          </a>,
        ]}
      />
      <DevicePermissModal company={permiss} onClose={closePermiss} />
      <MerchantModal company={pay} onClose={closePay} />
    </>
  );
}
