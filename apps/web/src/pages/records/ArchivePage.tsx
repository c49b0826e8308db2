// An archive page beside the area tree (区域 / 房间 / 表具 / 采集器 / 业主档案): a CrudPage whose list
// follows the area picked in the tree, whose form has two columns, whose header says 「<entity>列表」
// and whose toolbar starts with 导入 for the archive's kind (an import changed the rows: the list
// reloads and `onChanged` refreshes what else shows them, as after a create).
import type { ImportKind } from '@meter/contracts';
import { CrudPage, type CrudPageProps } from '../../components/CrudPage.tsx';
import { ImportButton } from '../../components/ImportDialog.tsx';

export type ArchivePageProps<T extends Record<string, unknown>> = CrudPageProps<T> & { importKind: ImportKind };

export function ArchivePage<T extends Record<string, unknown>>({ importKind, toolBar, ...props }: ArchivePageProps<T>) {
  const { resource, entityName, onChanged } = props;
  return (
    <CrudPage<T>
      headerTitle={`${entityName ?? resource.title}列表`}
      areaFilter
      formColumns={2}
      {...props}
      toolBar={(h) => [
        <ImportButton
          key="import"
          kind={importKind}
          onDone={() => {
            h.reload();
            onChanged?.();
          }}
        />,
        ...(toolBar?.(h) ?? []),
      ]}
    />
  );
}
