// Excel import (导入), shared by the archive pages: download the kind's template → choose the filled
// file → the server's preview (every row's problem by row and column, duplicates within the file and
// against the database) → 确认导入 (all rows or none; the same file twice imports once) → the result.
// ImportButton is the page's toolbar button, shown to whoever may use the page's add button.
import { useEffect, useState } from 'react';
import { Alert, Button, Modal, Result, Space, Steps, Table, Tag, Typography, Upload } from 'antd';
import { DownloadOutlined, ImportOutlined, InboxOutlined } from '@ant-design/icons';
import { IMPORT_KIND_LABELS, IMPORT_MAX_BYTES, IMPORT_PERMS, formatBeijing, type ImportKind, type ImportPreview, type ImportResult } from '@meter/contracts';
import { fileToBase64, importApi, type ImportFile } from '../api/imports.ts';
import { useCan } from '../app/session.ts';
import { companyPick } from '../app/page.tsx';
import { useStore } from '../app/store.ts';
import { toast } from '../app/feedback.tsx';

const ORDER_NOTE: Partial<Record<ImportKind, string>> = {
  room: '房间的「所属区域」须已存在：请先导入区域。',
  owner: '「入住房间」须已存在且无人入住：请先导入房间。',
  collector: '「安装区域」须已存在：请先导入区域。',
  meter: '「房间」与「采集器 IMEI」须已存在：请先导入房间和采集器。',
  opening: '期初余额按业主手机号码对应业主，以「期初余额」入账（不计入实收）；已有充值、扣费等记录的业主不能再导入。',
};

interface Props {
  kind: ImportKind;
  open: boolean;
  onClose(): void;
  /** rows were imported: reload the page's list */
  onDone?(): void;
}

export default function ImportDialog({ kind, open, onClose, onDone }: Props) {
  const company = useStore(companyPick) || undefined;
  const label = IMPORT_KIND_LABELS[kind];
  const [file, setFile] = useState<ImportFile | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [busy, setBusy] = useState<'' | 'template' | 'preview' | 'commit'>('');

  const reset = () => {
    setFile(null);
    setPreview(null);
    setResult(null);
  };
  const close = () => {
    reset();
    onClose();
  };

  const download = async () => {
    setBusy('template');
    try {
      await importApi.template(kind, company);
    } catch {
      // 失败 was shown
    } finally {
      setBusy('');
    }
  };

  const choose = async (f: File) => {
    if (!/\.xlsx$/i.test(f.name)) {
      toast.warning('请选择 .xlsx 格式的 Excel 文件');
      return;
    }
    if (f.size > IMPORT_MAX_BYTES) {
      toast.warning('文件过大：最大 3 MB，请拆分后分批导入');
      return;
    }
    setBusy('preview');
    try {
      const body = { fileName: f.name, content: await fileToBase64(f) };
      const p = await importApi.preview(kind, body, company);
      setFile(body);
      setPreview(p);
    } catch {
      // the request wrapper showed why
    } finally {
      setBusy('');
    }
  };

  const commit = async () => {
    if (!file) return;
    setBusy('commit');
    try {
      const r = await importApi.commit(kind, file, company);
      setResult(r);
      if (r.imported > 0) onDone?.();
    } catch {
      // IMPORT_INVALID and the like were shown by the request wrapper
    } finally {
      setBusy('');
    }
  };

  const step = result ? 2 : preview ? 1 : 0;
  const canCommit = !!preview && preview.errorCount === 0 && preview.total > 0;

  const footer = result
    ? [<Button key="done" type="primary" onClick={close}>完成</Button>]
    : [
        <Button key="cancel" onClick={close}>取消</Button>,
        preview && <Button key="again" onClick={reset}>重新选择文件</Button>,
        preview && (
          <Button key="commit" type="primary" disabled={!canCommit} loading={busy === 'commit'} onClick={() => void commit()}>
            确认导入
          </Button>
        ),
      ].filter(Boolean);

  return (
    <Modal open={open} title={`导入${label}`} width={960} onCancel={close} footer={footer} destroyOnHidden maskClosable={false}>
      <Steps size="small" current={step} style={{ marginBottom: 16 }} items={[{ title: '下载模板并填写' }, { title: '上传并预览' }, { title: '导入完成' }]} />
      {step === 0 && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Alert
            type="info"
            showIcon
            message={`请先下载${label}导入模板，在「导入数据」表中从第 3 行起填写（第 2 行是示例，原样保留不会导入；带 * 的列必填，下拉列可直接选择）。`}
            description={`整个文件全部校验通过才会导入，任何一行有错都不会导入任何数据；同一文件重复导入不会重复写入。${ORDER_NOTE[kind] ?? ''}`}
          />
          <Button icon={<DownloadOutlined />} loading={busy === 'template'} onClick={() => void download()}>
            下载{label}导入模板
          </Button>
          <Upload.Dragger
            accept=".xlsx"
            multiple={false}
            showUploadList={false}
            disabled={busy === 'preview'}
            beforeUpload={(f) => {
              void choose(f);
              return false;
            }}
          >
            <p className="ant-upload-drag-icon"><InboxOutlined /></p>
            <p className="ant-upload-text">{busy === 'preview' ? '正在校验文件…' : '点击或拖动填写好的 .xlsx 文件到这里'}</p>
            <p className="ant-upload-hint">最大 3 MB；上传后先预览校验结果，确认后才会导入</p>
          </Upload.Dragger>
          <ImportLog kind={kind} company={company} />
        </Space>
      )}
      {step === 1 && preview && <PreviewView preview={preview} />}
      {step === 2 && result && (
        <Result
          status={result.duplicate ? 'info' : 'success'}
          title={result.duplicate ? '该文件已导入过' : `导入成功：${result.imported} 行`}
          subTitle={result.message}
        />
      )}
    </Modal>
  );
}

function PreviewView({ preview }: { preview: ImportPreview }) {
  const bad = preview.errorCount > 0;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text>
        文件「{preview.fileName}」：共 {preview.total} 行，可导入 <Typography.Text type="success">{preview.okCount}</Typography.Text> 行，
        有错误 <Typography.Text type={bad ? 'danger' : undefined}>{preview.errorCount}</Typography.Text> 行
      </Typography.Text>
      {preview.alreadyImported && (
        <Alert
          type="warning"
          showIcon
          message={`该文件已于 ${formatBeijing(new Date(preview.alreadyImported.at))} 由 ${preview.alreadyImported.operatorName} 导入（${preview.alreadyImported.rows} 行），再次导入不会重复写入`}
        />
      )}
      {bad ? (
        <>
          <Alert type="error" showIcon message={`有 ${preview.errors.length} 处错误，请修改文件后重新上传（有错误时不会导入任何数据）`} />
          <Table
            size="small"
            rowKey={(e) => `${e.row}-${e.column}-${e.message}`}
            dataSource={preview.errors}
            pagination={{ pageSize: 8, showSizeChanger: false }}
            columns={[
              { title: '行号', dataIndex: 'row', width: 80, render: (r: number) => `第 ${r} 行` },
              { title: '列', dataIndex: 'column', width: 160, render: (c: string) => c || '整行' },
              { title: '原因', dataIndex: 'message' },
            ]}
          />
        </>
      ) : (
        preview.total > 0 && <Alert type="success" showIcon message="全部校验通过，点击「确认导入」写入" />
      )}
      <Table
        size="small"
        rowKey="row"
        dataSource={preview.rows}
        scroll={{ x: 'max-content' }}
        pagination={{ pageSize: 5, showSizeChanger: false }}
        columns={[
          { title: '行号', dataIndex: 'row', width: 70, fixed: 'left' },
          { title: '校验', dataIndex: 'ok', width: 80, render: (ok: boolean) => (ok ? <Tag color="success">通过</Tag> : <Tag color="error">有错误</Tag>) },
          ...preview.columns.map((h) => ({ title: h, key: h, render: (_: unknown, r: ImportPreview['rows'][number]) => r.values[h] ?? '' })),
        ]}
      />
    </Space>
  );
}

type LogRow = { id: number; fileName: string; rows: number; operatorName: string; createdAt: string };

/** The kind's last imports (import_batches): which file, how many rows, who, when. */
function ImportLog({ kind, company }: { kind: ImportKind; company?: string }) {
  const [rows, setRows] = useState<LogRow[] | null>(null);
  useEffect(() => {
    let live = true;
    importApi
      .log({ index: 1, size: 5, kind }, company)
      .then((r) => live && setRows((r?.data ?? []) as LogRow[]))
      .catch(() => live && setRows([]));
    return () => {
      live = false;
    };
  }, [kind, company]);
  if (!rows?.length) return null;
  return (
    <Table
      size="small"
      rowKey="id"
      title={() => '最近导入记录'}
      dataSource={rows}
      pagination={false}
      columns={[
        { title: '文件', dataIndex: 'fileName' },
        { title: '行数', dataIndex: 'rows', width: 80 },
        { title: '操作人', dataIndex: 'operatorName', width: 120 },
        { title: '导入时间', dataIndex: 'createdAt', width: 180, render: (t: string) => formatBeijing(new Date(t)) },
      ]}
    />
  );
}

/** The toolbar button of an archive page: shown when the user may add rows of the kind. */
export function ImportButton({ kind, onDone, children }: { kind: ImportKind; onDone?(): void; children?: string }) {
  const allowed = useCan(IMPORT_PERMS[kind].op);
  const [open, setOpen] = useState(false);
  if (!allowed) return null;
  return (
    <>
      <Button icon={<ImportOutlined />} onClick={() => setOpen(true)}>
        {children ?? '导入'}
      </Button>
      <ImportDialog kind={kind} open={open} onClose={() => setOpen(false)} onDone={onDone} />
    </>
  );
}
