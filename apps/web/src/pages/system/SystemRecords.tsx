import { lazy, Suspense, useMemo, useState } from 'react';
import type { Paged } from '../../api/request.ts';
import type { BindTarget } from '../../components/UserAreaBindModal.tsx';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { roleApi, userApi, type AdminUser } from '../../api/yonghu.ts';
import { useSession } from '../../app/session.ts';
import {
  NEW_PASSWORD_RULES, PHONE_RULE, STATUS_ENUM, USERNAME_RULES, resetPasswordAction, toggleStatusAction,
} from './accountActions.tsx';

type Row = AdminUser & Record<string, unknown>;

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
      { title: '用户名', dataIndex: 'username', search: true, required: true, rules: USERNAME_RULES },
      { title: '姓名', dataIndex: 'realName', search: true, required: true, rules: [{ max: 32, message: '姓名不能超过32个字' }] },
      { title: '手机号', dataIndex: 'phone', rules: [PHONE_RULE] },
      {
        title: '密码', dataIndex: 'password', valueType: 'password', formOnly: true, hideInEdit: true,
        required: true, rules: NEW_PASSWORD_RULES, formFieldProps: { autoComplete: 'new-password' },
      },
      { title: '角色', dataIndex: 'roleName', hideInForm: true },
      { title: '角色', dataIndex: 'roleId', valueType: 'select', formOnly: true, required: true, request: roleOptions },
      {
        title: '状态', dataIndex: 'status', valueType: 'radio', valueEnum: STATUS_ENUM, required: true,
        initialValue: '1', render: (_d, r) => STATUS_ENUM[Number(r.status) === 1 ? 1 : 0].text,
      },
      { title: '最后登录', dataIndex: 'lastLoginAt', valueType: 'dateTime', hideInForm: true },
      { title: '创建时间', dataIndex: 'createdAt', valueType: 'dateTime', hideInForm: true },
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
      list={(q) => userApi.list(q) as Promise<Paged<Row>>}
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
