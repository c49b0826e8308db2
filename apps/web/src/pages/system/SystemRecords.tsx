import { lazy, Suspense, useMemo, useState } from 'react';
import type { BindTarget } from '../../components/UserAreaBindModal.tsx';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { roleApi, userApi } from '../../api/yonghu.ts';
import { useSession } from '../../app/session.ts';
import {
  PASSWORD_COLUMN, PHONE_COLUMN, ROLE_NAME_COLUMN, STATUS_ENUM, TIME_COLUMNS, USERNAME_COLUMN, listAccounts, resetPasswordAction,
  statusText, toggleStatusAction, type AccountRow,
} from './accountActions.tsx';

type Row = AccountRow;

// the area tree (antd Tree) loads with the first 区域绑定, not with the list
const UserAreaBindModal = lazy(() => import('../../components/UserAreaBindModal.tsx'));

async function roleOptions() {
  const res = await roleApi.list({ index: 1, size: 999 });
  return res.data.map((r) => ({ label: r.name, value: r.id }));
}

/** 账号管理: the company's staff accounts. */
export default function SystemRecords() {
  const session = useSession();
  const myId = session?.user.id;
  // 区域绑定: the areas this account may see (nobody changes their own binding)
  const [binding, setBinding] = useState<BindTarget | null>(null);
  const columns = useMemo<ResourceColumn<Row>[]>(
    () => [
      USERNAME_COLUMN,
      { title: '姓名', dataIndex: 'realName', search: true, required: true, rules: [{ max: 32, message: '姓名不能超过32个字' }] },
      PHONE_COLUMN,
      PASSWORD_COLUMN,
      ROLE_NAME_COLUMN,
      { title: '角色', dataIndex: 'roleId', valueType: 'select', formOnly: true, required: true, request: roleOptions },
      {
        title: '状态', dataIndex: 'status', valueType: 'radio', valueEnum: STATUS_ENUM, required: true,
        initialValue: '1', render: (_d, r) => statusText(r),
      },
      ...TIME_COLUMNS,
    ],
    [],
  );

  return (
    <>
    {binding && (
      <Suspense fallback={null}>
        <UserAreaBindModal user={binding} onClose={() => setBinding(null)} />
      </Suspense>
    )}
    <ResourceTable<Row>
      entityName="账号"
      headerTitle="账号列表"
      columns={columns}
      list={listAccounts}
      create={(v) =>
        userApi.create({
          username: String(v.username).trim(), realName: String(v.realName).trim(), phone: (v.phone as string) ?? '',
          password: String(v.password), roleId: v.roleId == null ? null : Number(v.roleId), status: Number(v.status) === 1 ? 1 : 0,
        })
      }
      update={(r, v) =>
        userApi.update(r.id, {
          realName: String(v.realName).trim(), phone: (v.phone as string) ?? '',
          roleId: v.roleId == null ? null : Number(v.roleId), status: Number(v.status) === 1 ? 1 : 0,
        })
      }
      remove={(r) => userApi.remove(r.id)}
      toForm={(r) => ({ ...r, status: String(Number(r.status) === 1 ? 1 : 0), roleId: r.roleId ?? undefined })}
      rowCan={(r, action) => !(action === 'remove' && r.id === myId)}
      rowActions={(r, { reload }) => [
        resetPasswordAction(r),
        ...(r.id === myId
          ? []
          : [toggleStatusAction(r, reload), <a key="areas" onClick={() => setBinding({ id: r.id, username: r.username, realName: r.realName })}>区域绑定</a>]),
      ]}
    />
    </>
  );
}
