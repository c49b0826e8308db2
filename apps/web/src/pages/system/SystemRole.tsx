import { useMemo } from 'react';
import { Tag } from 'antd';
import { ROUTE_BY_KEY } from '@meter/contracts';
import type { Paged } from '../../api/request.ts';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { RouteChecklist, grantableRouteGroups } from '../../components/RouteChecklist.tsx';
import { OperationTree, onlyOperationKeys } from '../../components/OperationTree.tsx';
import { roleApi, type Role, type RoleBody } from '../../api/yonghu.ts';
import { useSession } from '../../app/session.ts';

type Row = Role & Record<string, unknown>;

function body(v: Record<string, unknown>): RoleBody {
  return {
    name: String(v.name ?? '').trim(),
    memo: String(v.memo ?? '').trim(),
    routes: ((v.routes as string[] | undefined) ?? []).filter((k) => k in ROUTE_BY_KEY),
    operations: onlyOperationKeys((v.operations as string[] | undefined) ?? []),
  };
}

/** 角色管理: role name, memo, menu routes by group, operation permission tree. */
export default function SystemRole() {
  const session = useSession();
  const groups = useMemo(() => (session ? grantableRouteGroups(session) : []), [session]);
  const allowedOps = session && session.access !== 0 ? session.operations : undefined;

  const columns = useMemo<ResourceColumn<Row>[]>(
    () => [
      {
        title: '角色名称', dataIndex: 'name', search: true, required: true,
        rules: [{ max: 32, message: '角色名称不能超过32个字' }, { whitespace: true, message: '请输入角色名称' }],
      },
      { title: '备注', dataIndex: 'memo', valueType: 'textarea', ellipsis: true, rules: [{ max: 200, message: '备注不能超过200个字' }] },
      {
        title: '菜单权限', dataIndex: 'routes', hideInForm: true,
        render: (_d, r) => <Tag color="blue">{(r.routes ?? []).length} 个页面</Tag>,
      },
      {
        title: '操作权限', dataIndex: 'operations', hideInForm: true,
        render: (_d, r) => <Tag color="green">{(r.operations ?? []).length} 项操作</Tag>,
      },
      { title: '创建时间', dataIndex: 'createdAt', valueType: 'dateTime', hideInForm: true },
      {
        title: '菜单权限', dataIndex: 'routes', formOnly: true, key: 'routesForm',
        colProps: { span: 24 },
        renderFormItem: () => <RouteChecklist groups={groups} />,
      },
      {
        title: '操作权限', dataIndex: 'operations', formOnly: true, key: 'operationsForm',
        colProps: { span: 24 },
        renderFormItem: () => <OperationTree allowed={allowedOps} />,
      },
    ],
    [groups, allowedOps],
  );

  return (
    <ResourceTable<Row>
      entityName="角色"
      headerTitle="角色列表"
      columns={columns}
      modalWidth={900}
      list={(q) => roleApi.list(q) as Promise<Paged<Row>>}
      load={(r) => roleApi.get(r.id) as Promise<Row>}
      create={(v) => roleApi.create(body(v))}
      update={(r, v) => roleApi.update(r.id, body(v))}
      remove={(r) => roleApi.remove(r.id)}
      createDefaults={{ routes: [], operations: [] }}
      toForm={(r) => ({ name: r.name, memo: r.memo, routes: r.routes ?? [], operations: r.operations ?? [] })}
    />
  );
}
