// Uploading and showing stored files (issue 15 item 6): `FileUpload` is a form field whose value is the
// files' keys (antd Upload with an upload token, SPEC §4: api/upload.ts); `FileThumbs` shows them in a
// table cell. Pictures open in the image viewer (ImageViewer.tsx), videos play in a dialog.
import { useEffect, useMemo, useState } from 'react';
import { Button, Modal, Space, Upload, type UploadFile } from 'antd';
import { PlayCircleOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { UPLOAD_CATEGORIES, formatBytes, type UploadCategory, type UploadKind, type UploadedFile } from '@meter/contracts';
import { acceptAttr, checkBeforeUpload, fileUrl, uploadFile } from '../api/upload.ts';
import { toast } from '../app/feedback.tsx';
import { ImageViewer } from './ImageViewer.tsx';

/** src URLs of these files (a private one fetched with the session as a blob URL, revoked when no longer shown) */
export function useFileUrls(keys: string[], kind: UploadKind): Record<string, string> {
  const [urls, setUrls] = useState<Record<string, string>>({});
  const joined = keys.join(',');
  useEffect(() => {
    let live = true;
    const made: string[] = [];
    const wanted = joined ? joined.split(',') : [];
    Promise.all(wanted.map(async (k) => [k, await fileUrl(k, kind).catch(() => '')] as const)).then((pairs) => {
      for (const [, u] of pairs) if (u.startsWith('blob:')) made.push(u);
      if (live) setUrls(Object.fromEntries(pairs.filter(([, u]) => u)));
      else made.forEach((u) => URL.revokeObjectURL(u));
    });
    return () => {
      live = false;
      made.forEach((u) => URL.revokeObjectURL(u));
    };
  }, [joined, kind]);
  return urls;
}

/** A video in a dialog. */
export function VideoDialog({ src, title, onClose }: { src: string | null; title?: string; onClose(): void }) {
  return (
    <Modal open={!!src} title={title ?? '播放视频'} footer={null} width={800} onCancel={onClose} destroyOnHidden>
      {src && <video src={src} controls autoPlay style={{ width: '100%', maxHeight: '70vh', background: '#000' }} />}
    </Modal>
  );
}

export interface FileUploadProps {
  value?: string[] | null;
  onChange?(keys: string[]): void;
  accept: UploadCategory;
  kind: UploadKind;
  /** how many files (default 1) */
  max?: number;
  disabled?: boolean;
}

const keyOf = (f: UploadFile<UploadedFile>) => f.response?.key ?? f.uid;

export function FileUpload({ value, onChange, accept, kind, max = 1, disabled }: FileUploadProps) {
  const keys = useMemo(() => value ?? [], [value]);
  const urls = useFileUrls(keys, kind);
  const [pending, setPending] = useState<UploadFile<UploadedFile>[]>([]);
  const [viewing, setViewing] = useState<number | null>(null);
  const [playing, setPlaying] = useState<string | null>(null);
  const image = accept === 'image';
  const c = UPLOAD_CATEGORIES[accept];

  const done: UploadFile<UploadedFile>[] = keys.map((k) => ({ uid: k, name: k, status: 'done', url: urls[k], thumbUrl: image ? urls[k] : undefined }));
  const fileList = [...done, ...pending.filter((p) => !keys.includes(keyOf(p)))];
  const full = keys.length + pending.filter((p) => p.status === 'uploading').length >= max;

  return (
    <>
      <Upload<UploadedFile>
        accept={acceptAttr(accept)}
        listType={image ? 'picture-card' : 'text'}
        multiple={max > 1}
        maxCount={max}
        disabled={disabled}
        fileList={fileList}
        beforeUpload={(file) => {
          const err = checkBeforeUpload(file, accept);
          if (err) {
            toast.error(err);
            return Upload.LIST_IGNORE;
          }
          return true;
        }}
        customRequest={({ file, onSuccess, onError }) => {
          uploadFile(file as File, kind, accept)
            .then((f) => onSuccess?.(f))
            .catch((e: Error) => {
              toast.error(`上传失败：${e.message}`);
              onError?.(e);
            });
        }}
        onChange={({ file, fileList: list }) => {
          setPending(list.filter((f) => f.status === 'uploading'));
          if (file.status === 'done' && file.response) onChange?.([...keys, file.response.key].slice(0, max));
          if (file.status === 'removed') onChange?.(keys.filter((k) => k !== keyOf(file)));
        }}
        onPreview={(file) => {
          const k = keyOf(file);
          if (image) setViewing(Math.max(0, keys.indexOf(k)));
          else if (urls[k]) setPlaying(urls[k]);
        }}
        showUploadList={{ showPreviewIcon: true, showRemoveIcon: !disabled }}
      >
        {full ? null : image ? (
          <button type="button" style={{ border: 0, background: 'none', cursor: 'pointer' }}>
            <PlusOutlined />
            <div style={{ marginTop: 8 }}>上传{c.label}</div>
          </button>
        ) : (
          <Button icon={<UploadOutlined />} disabled={disabled}>上传{c.label}</Button>
        )}
      </Upload>
      <div style={{ color: 'rgba(0,0,0,.45)', fontSize: 12, marginTop: 4 }}>
        支持 {c.names}，单个不超过 {formatBytes(c.maxBytes)}{max > 1 ? `，最多 ${max} 个` : ''}
      </div>
      {image && (
        <ImageViewer open={viewing !== null} start={viewing ?? 0} images={keys.filter((k) => urls[k]).map((k) => ({ src: urls[k] }))} onClose={() => setViewing(null)} />
      )}
      <VideoDialog src={playing} onClose={() => setPlaying(null)} />
    </>
  );
}

/** Files in a table cell: thumbnails that open the viewer, or a play button. */
export function FileThumbs({ keys, accept, kind }: { keys: string[] | null | undefined; accept: UploadCategory; kind: UploadKind }) {
  const list = keys ?? [];
  const urls = useFileUrls(list, kind);
  const [viewing, setViewing] = useState<number | null>(null);
  const [playing, setPlaying] = useState<string | null>(null);
  if (!list.length) return <>-</>;
  if (accept !== 'image') {
    return (
      <>
        <Button type="link" size="small" icon={<PlayCircleOutlined />} style={{ padding: 0 }} disabled={!urls[list[0]]} onClick={() => setPlaying(urls[list[0]])}>
          播放{list.length > 1 ? `（${list.length}）` : ''}
        </Button>
        <VideoDialog src={playing} onClose={() => setPlaying(null)} />
      </>
    );
  }
  const shown = list.filter((k) => urls[k]);
  return (
    <>
      <Space size={4} wrap>
        {shown.slice(0, 3).map((k, i) => (
          <img key={k} src={urls[k]} alt={`图片 ${i + 1}`} onClick={() => setViewing(i)} style={{ width: 32, height: 32, objectFit: 'cover', borderRadius: 4, cursor: 'zoom-in' }} />
        ))}
        {shown.length > 3 && <span style={{ color: 'rgba(0,0,0,.45)' }}>+{shown.length - 3}</span>}
      </Space>
      <ImageViewer open={viewing !== null} start={viewing ?? 0} images={shown.map((k) => ({ src: urls[k] }))} onClose={() => setViewing(null)} />
    </>
  );
}
