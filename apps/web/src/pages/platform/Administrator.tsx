import { useMemo } from 'react';
import type { Paged } from '../../api/request.ts';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { companyApi } from '../../api/yewu.ts';
import { userApi, type AdminUser } from '../../api/yonghu.ts';
import { useSession } from '../../app/session.ts';
import { NEW_PASSWORD_RULES, PHONE_RULE, STATUS_ENUM, USERNAME_RULES, resetPasswordAction } from '../system/accountActions.tsx';

type Row = AdminUser & Record<string, unknown>;

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
      { title: '用户名', dataIndex: 'username', search: true, required: true, rules: USERNAME_RULES },
      { title: '姓名', dataIndex: 'realName', search: true, required: true },
      { title: '手机号', dataIndex: 'phone', rules: [PHONE_RULE] },
      {
        title: '密码', dataIndex: 'password', valueType: 'password', formOnly: true, hideInEdit: true, required: true,
        rules: NEW_PASSWORD_RULES, formFieldProps: { autoComplete: 'new-password' },
      },
      { title: '角色', dataIndex: 'roleName', hideInForm: true },
      { title: '状态', dataIndex: 'status', hideInForm: true, render: (_d, r) => STATUS_ENUM[Number(r.status) === 1 ? 1 : 0].text },
      { title: '最后登录', dataIndex: 'lastLoginAt', valueType: 'dateTime', hideInForm: true },
      { title: '创建时间', dataIndex: 'createdAt', valueType: 'dateTime', hideInForm: true },
    ],
    [],
  );

  return (
    <ResourceTable<Row>
      entityName="管理员"
      headerTitle="单位管理员"
      columns={columns}
      list={(q) => userApi.list(q) as Promise<Paged<Row>>}
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
