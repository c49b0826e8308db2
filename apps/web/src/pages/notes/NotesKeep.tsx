// 保电记录 (/notesKeepElectric) and 保水记录 (/notesKeepWater): every protection, in force or ended, with
// who started and who ended it (GET protect/list).
import { useMemo } from 'react';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { protectApi, type Protection } from '../control/api.ts';
import { protectionColumns } from '../control/Keep.tsx';

type Row = Protection & Record<string, unknown>;

export default function NotesKeep({ kind }: { kind: 1 | 2 }) {
  const columns = useMemo(() => protectionColumns(true), []);
  const params = useMemo(() => ({ kind }), [kind]);
  return (
    <ResourceTable<Row>
      headerTitle={kind === 2 ? '保水记录' : '保电记录'}
      columns={columns}
      pageSize={20}
      params={params}
      list={(q) => protectApi.list(q) as Promise<{ code: string; data: Row[]; count: number }>}
    />
  );
}

export function NotesKeepElectric() {
  return <NotesKeep kind={1} />;
}

export function NotesKeepWater() {
  return <NotesKeep kind={2} />;
}
