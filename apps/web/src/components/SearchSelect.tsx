// A select whose options the server searches as the user types (useRemoteSearch): no filtering here,
// clearable, as wide as its form item; the empty list says whether it is still searching.
import { Select, type SelectProps } from 'antd';

export interface SearchSelectProps<V> extends Omit<SelectProps<V>, 'showSearch' | 'filterOption' | 'notFoundContent'> {
  loading: boolean;
  /** what the empty list says while the server searches */
  searching: string;
  /** what it says when nothing was found */
  none: string;
}

export function SearchSelect<V>({ loading, searching, none, ...rest }: SearchSelectProps<V>) {
  return <Select<V> showSearch allowClear filterOption={false} loading={loading} notFoundContent={loading ? searching : none} style={{ width: '100%' }} {...rest} />;
}
