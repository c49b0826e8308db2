// What 账号管理 and 管理员 share: the account columns both lists have, and the row actions reset
// password (the new one is shown once) and enable / disable.
import { Popconfirm, Typography } from 'antd';
import type { Paged } from '../../api/request.ts';
import { userApi, type AdminUser } from '../../api/yonghu.ts';
import { getModal, toast } from '../../app/feedback.tsx';
import type { ResourceColumn } from '../../components/ResourceTable.tsx';
import { phoneRule } from '../../components/rules.ts';

export type AccountRow = AdminUser & Record<string, unknown>;

export const STATUS_ENUM = {
  1: { text: '启用', status: 'Success' },
  0: { text: '禁用', status: 'Default' },
} as const;

export function showNewPassword(username: string, password: string): void {
  const content = (
    <div>
      <p>账号 <b>{username}</b> 的新密码如下，仅显示这一次，请立即告知用户并提醒其登录后修改：</p>
      <Typography.Paragraph copyable={{ text: password, tooltips: ['复制', '已复制'] }} style={{ fontSize: 18 }}>
        <Typography.Text code data-testid="new-password">{password}</Typography.Text>
      </Typography.Paragraph>
    </div>
  );
  const modal = getModal();
  if (modal) modal.success({ title: '密码已重置', content, okText: '我已记下' });
  else toast.success(`新密码：${password}`);
}

export function resetPasswordAction(record: AdminUser) {
  return (
    <Popconfirm
      key="reset"
      title="确定重置该账号的密码吗？"
      okText="确定"
      cancelText="取消"
      onConfirm={async () => {
        const r = await userApi.resetPassword(record.id);
        showNewPassword(record.username, r.password);
      }}
    >
      <a>重置密码</a>
    </Popconfirm>
  );
}

export function toggleStatusAction(record: AdminUser, reload: () => void) {
  const enable = Number(record.status) !== 1;
  return (
    <Popconfirm
      key="status"
      title={enable ? '确定启用该账号吗？' : '确定禁用该账号吗？禁用后该账号将无法登录'}
      okText="确定"
      cancelText="取消"
      onConfirm={async () => {
        await userApi.update(record.id, {
          realName: record.realName,
          phone: record.phone,
          roleId: record.roleId,
          status: enable ? 1 : 0,
        });
        toast.success(enable ? '已启用' : '已禁用');
        reload();
      }}
    >
      <a style={enable ? undefined : { color: '#fa8c16' }}>{enable ? '启用' : '禁用'}</a>
    </Popconfirm>
  );
}

export const PHONE_RULE = phoneRule('手机号');
export const USERNAME_RULES = [
  { pattern: /^[A-Za-z0-9_]{3,32}$/, message: '用户名为3-32位字母、数字或下划线' },
];
export const NEW_PASSWORD_RULES = [{ min: 6, message: '密码长度不能少于6位' }, { max: 32, message: '密码长度不能超过32位' }];

/** an account's 启用 / 禁用 as shown in the list */
export const statusText = (r: AccountRow) => STATUS_ENUM[Number(r.status) === 1 ? 1 : 0].text;

/** the accounts' list (both pages: the server answers with the caller's scope) */
export const listAccounts = (q: Parameters<typeof userApi.list>[0]) => userApi.list(q) as Promise<Paged<AccountRow>>;

/** 用户名, 手机号 and the first 密码 (create only): the same in both account forms. */
export const USERNAME_COLUMN: ResourceColumn<AccountRow> = { title: '用户名', dataIndex: 'username', search: true, required: true, rules: USERNAME_RULES };
export const PHONE_COLUMN: ResourceColumn<AccountRow> = { title: '手机号', dataIndex: 'phone', rules: [PHONE_RULE] };
export const PASSWORD_COLUMN: ResourceColumn<AccountRow> = {
  title: '密码', dataIndex: 'password', valueType: 'password', formOnly: true, hideInEdit: true, required: true,
  rules: NEW_PASSWORD_RULES, formFieldProps: { autoComplete: 'new-password' },
};

/** 角色 (its name, list only) and the two times at the end of both lists. */
export const ROLE_NAME_COLUMN: ResourceColumn<AccountRow> = { title: '角色', dataIndex: 'roleName', hideInForm: true };
export const TIME_COLUMNS: ResourceColumn<AccountRow>[] = [
  { title: '最后登录', dataIndex: 'lastLoginAt', valueType: 'dateTime', hideInForm: true },
  { title: '创建时间', dataIndex: 'createdAt', valueType: 'dateTime', hideInForm: true },
];
