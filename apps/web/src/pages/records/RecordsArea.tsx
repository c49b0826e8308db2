// 区域档案 (/recordsArea): the areas below the area picked in the tree beside (all of them when none is
// picked), search by name; create (top level, or a child of a row), edit, delete with confirmation
// (the server refuses while an area still has child areas, rooms, meters, collectors or bound
// accounts, and says which). The address is the four cascader levels (省/市/区县/乡镇街道).
import { useCallback, useMemo, useRef, useState } from 'react';
import { Alert, Button, Tag } from 'antd';
import { BetaSchemaForm, type ActionType } from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import { ACCESS, AREA_TYPES, areaResource } from '@meter/contracts';
import { formColumns } from '../../components/ResourceTable.tsx';
import { pageColumns, type CrudPageProps } from '../../components/CrudPage.tsx';
import { E } from '../../api/endpoints.gen.ts';
import { FORM_INVALID, supersededValidation } from '../../components/validate.ts';
import { areaArchiveApi, type AreaRow } from '../../api/area.ts';
import { useAreaFilter } from '../../app/page.tsx';
import { useSession } from '../../app/session.ts';
import { toast } from '../../app/feedback.tsx';
import { AddressInput, ParentPicker } from './areaFields.tsx';
import { addressFields, addressGap, addressOf, type Address } from './areaAddress.ts';
import AreaPermissionDrawer from './AreaPermissionDrawer.tsx';
import { ArchivePage } from './ArchivePage.tsx';

type Row = AreaRow & Record<string, unknown>;

const ORDER = ['name', 'parentName', 'parentId', 'deep', 'areaType', 'address', 'addressForm', 'childCount', 'roomCount', 'companyName', 'sort', 'createdAt'];
const LEVELS = ['省', '市', '区/县', '乡镇/街道'];

/** Form values → request body. */
export function areaBody(v: Record<string, unknown>): Record<string, unknown> {
  return {
    name: String(v.name ?? '').trim(),
    parentId: v.parentId == null || v.parentId === '' ? null : Number(v.parentId),
    areaType: v.areaType == null ? 0 : Number(v.areaType),
    sort: v.sort == null || v.sort === '' ? 0 : Number(v.sort),
    ...addressFields(v.addressForm as string[] | undefined),
  };
}

/** A row → edit form values. */
export function areaForm(r: AreaRow): Record<string, unknown> {
  return { __self: r.id, name: r.name, parentId: r.parentId ?? undefined, areaType: String(r.areaType), sort: r.sort, addressForm: addressOf(r) };
}

export default function RecordsArea() {
  const session = useSession();
  const filter = useAreaFilter();
  const company = filter.searchCompanyID || undefined;
  const queryClient = useQueryClient();
  const actionRef = useRef<ActionType | undefined>(undefined);
  const [child, setChild] = useState<AreaRow | null>(null);
  const [sets, setSets] = useState(false);
  const platformWithoutCompany = session?.access === ACCESS.platform && !company;

  /** the tree beside and every area picker show the change */
  const refreshTrees = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ['areaTree'] });
    void queryClient.invalidateQueries({ queryKey: ['areaParentTree'] });
    void queryClient.invalidateQueries({ queryKey: ['deviceAreaPicker'] });
    void queryClient.invalidateQueries({ queryKey: ['areaAddressOptions'] });
  }, [queryClient]);

  const { overrides, extraColumns } = useMemo<Pick<CrudPageProps<Row>, 'overrides' | 'extraColumns'>>(() => ({
    overrides: {
      name: { copyable: true },
      parentId: {
        hideInTable: true,
        valueType: undefined,
        request: undefined,
        fieldProps: undefined,
        colProps: { span: 24 },
        renderFormItem: () => <ParentPicker company={company} />,
      },
      deep: { render: (_d, r) => `第 ${r.deep + 1} 级`, width: 80 },
      areaType: {
        required: true,
        initialValue: '0',
        render: (_d, r) => (r.areaType === 1 ? <Tag>{AREA_TYPES[1]}</Tag> : AREA_TYPES[0]),
      },
      sort: { width: 70 },
      createdAt: { hideInTable: true },
    },
    // the four address fields travel as one cascader value
    extraColumns: [
      { title: '上级区域', dataIndex: 'parentName', key: 'parentName', hideInForm: true, render: (_d, r) => r.parentName ?? '—' },
      { title: '地址', dataIndex: 'address', key: 'address', hideInForm: true, ellipsis: true, render: (_d, r) => r.address || '—' },
      {
        title: '地址',
        dataIndex: 'addressForm',
        key: 'addressForm',
        formOnly: true,
        colProps: { span: 24 },
        tooltip: '依次选择或输入省、市、区/县、乡镇/街道',
        rules: [
          {
            validator: (_r, v?: Address) => {
              const gap = addressGap(v ?? []);
              return gap < 0 ? Promise.resolve() : Promise.reject(new Error(`请先选择${LEVELS[gap]}`));
            },
          },
        ],
        renderFormItem: () => <AddressInput company={company} />,
      },
      { title: '下级区域', dataIndex: 'childCount', key: 'childCount', hideInForm: true, width: 80 },
      { title: '房间数', dataIndex: 'roomCount', key: 'roomCount', hideInForm: true, width: 80 },
      { title: '所属单位', dataIndex: 'companyName', key: 'companyName', hideInForm: true, hideInTable: session?.access !== ACCESS.platform },
    ],
  }), [company, session?.access]);

  const childColumns = useMemo(
    () => formColumns(pageColumns<Row>({ resource: areaResource, overrides, extraColumns, order: ORDER }), 'create'),
    [overrides, extraColumns],
  );
  const selectedArea = filter.searchArea ? Number(filter.searchArea) : undefined;

  return (
    <>
      {platformWithoutCompany && <Alert type="info" showIcon style={{ marginBottom: 12 }} message="请先在页面顶部选择单位，再新建顶级区域；在已有区域下新建下级区域时将归属该区域的单位。" />}
      <ArchivePage<Row>
        importKind="area"
        resource={areaResource}
        api={E.area}
        actionRef={actionRef}
        overrides={overrides}
        extraColumns={extraColumns}
        order={ORDER}
        onChanged={refreshTrees}
        fromForm={areaBody}
        toForm={areaForm}
        createDefaults={{ parentId: selectedArea, addressForm: ['', '', '', ''] }}
        modalWidth={720}
        rowActions={(r) => [
          <a key="child" onClick={() => setChild(r)}>
            新增下级
          </a>,
        ]}
        toolBar={() => [
          <Button key="sets" onClick={() => setSets(true)}>
            区域权限
          </Button>,
        ]}
      />
      {child && (
        <BetaSchemaForm<Record<string, unknown>>
          layoutType="ModalForm"
          title={`新增下级区域 — ${child.name}`}
          open
          width={720}
          grid
          colProps={{ span: 12 }}
          rowProps={{ gutter: 16 }}
          columns={childColumns}
          initialValues={{ parentId: child.id, addressForm: addressOf(child) }}
          modalProps={{ destroyOnHidden: true, maskClosable: false, okText: '保存', cancelText: '取消' }}
          submitter={{ searchConfig: { submitText: '保存', resetText: '取消' } }}
          onOpenChange={(open) => {
            if (!open) setChild(null);
          }}
          onFinishFailed={(e) => !supersededValidation(e) && toast.warning(FORM_INVALID)}
          scrollToFirstError={{ block: 'center', focus: true }}
          onFinish={async (values) => {
            try {
              await areaArchiveApi.create(areaBody(values), company);
            } catch {
              return false;
            }
            toast.success('新增成功');
            setChild(null);
            refreshTrees();
            void actionRef.current?.reload();
            return true;
          }}
        />
      )}
      <AreaPermissionDrawer open={sets} company={company} onClose={() => setSets(false)} />
    </>
  );
}
