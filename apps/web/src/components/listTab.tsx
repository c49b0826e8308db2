// A tab holding one list (notes pages: 缴费记录, 提现记录…): `<Tabs items={[listTab('pay', '缴费记录',
// { headerTitle, columns, list })]} />`. The lists in such tabs are company-wide: no area filter
// unless the props ask for it.
import type { ReactNode } from 'react';
import { ResourceTable, type ResourceTableProps } from './ResourceTable.tsx';

export function listTab<T extends Record<string, unknown>>(key: string, label: ReactNode, props: ResourceTableProps<T>) {
  return { key, label, children: <ResourceTable<T> areaFilter={false} {...props} /> };
}
