import { useMemo } from 'react';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { companyApi } from '../../api/yewu.ts';
import { userApi } from '../../api/yonghu.ts';
import { useSession } from '../../app/session.ts';
import {
  PASSWORD_COLUMN, PHONE_COLUMN, ROLE_NAME_COLUMN, TIME_COLUMNS, USERNAME_COLUMN, listAccounts, resetPasswordAction, statusText, type AccountRow,
} from '../system/accountActions.tsx';

type Row = AccountRow;

async function companyOptions() {
  const list = await companyApi.userCompanyList();
  return (list ?? []).map((c) => ({ label: c.name, value: c.id }));
}

/** 管理员 (platform): each company's manager account, created and updated via admin/manager/user. */
export default function Administrator() {
  const session = useSession();
  const myId = session?.user.id;
  const columns = useMemo<ResourceColumn<Row>[]>(
    () => [
      { title: '所属单位', dataIndex: 'companyName', hideInForm: true },
      {
        title: '所属单位', dataIndex: 'companyId', valueType: 'select', search: true, hideInTable: true, required: true,
        request: companyOptions, fieldProps: { showSearch: true, optionFilterProp: 'label' },
      },
      USERNAME_COLUMN,
      { title: '姓名', dataIndex: 'realName', search: true, required: true },
      PHONE_COLUMN,
      PASSWORD_COLUMN,
      ROLE_NAME_COLUMN,
      { title: '状态', dataIndex: 'status', hideInForm: true, render: (_d, r) => statusText(r) },
      ...TIME_COLUMNS,
    ],
    [],
  );

  return (
    <ResourceTable<Row>
      entityName="管理员"
      headerTitle="单位管理员"
      columns={columns}
      list={listAccounts}
      create={(v) =>
        userApi.createManager({
          companyId: Number(v.companyId), username: String(v.username).trim(), realName: String(v.realName).trim(),
          phone: (v.phone as string) ?? '', password: String(v.password),
        })
      }
      update={(r, v) =>
        userApi.updateManager({
          id: r.id, companyId: Number(v.companyId), username: String(v.username).trim(),
          realName: String(v.realName).trim(), phone: (v.phone as string) ?? '',
        })
      }
      remove={(r) => userApi.remove(r.id)}
      toForm={(r) => ({ ...r, companyId: r.companyId ?? undefined })}
      rowCan={(r) => r.companyId != null && r.id !== myId}
      rowActions={(r) => [resetPasswordAction(r)]}
    />
  );
}
