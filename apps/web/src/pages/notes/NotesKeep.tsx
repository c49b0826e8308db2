// 保电记录 (/notesKeepElectric) and 保水记录 (/notesKeepWater): every protection, in force or ended, with
// who started and who ended it (GET protect/list).
import { useMemo } from 'react';
import { LogTable } from '../../components/LogTable.tsx';
import { protectApi, type Protection } from '../control/api.ts';
import { protectionColumns } from '../control/Keep.tsx';

const COLUMNS = protectionColumns(true);

export default function NotesKeep({ kind }: { kind: 1 | 2 }) {
  const params = useMemo(() => ({ kind }), [kind]);
  return <LogTable<Protection> title={kind === 2 ? '保水记录' : '保电记录'} columns={COLUMNS} params={params} list={protectApi.list} />;
}

export function NotesKeepElectric() {
  return <NotesKeep kind={1} />;
}

export function NotesKeepWater() {
  return <NotesKeep kind={2} />;
}
