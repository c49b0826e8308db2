// A light rich-text editor for notices (no editor library: the browser's contentEditable and its
// editing commands), loaded only with the notice pages' chunk. Headings, bold/italic/underline,
// lists, alignment, links and images; what it makes the server sanitizes again (content/notice-html.ts).
//
// Images: `pickImage` answers the src of an image to insert. Today: an image URL typed in, or a local
// picture read inline (data:, at most IMAGE_MAX_BYTES). The uploads module plugs in here — pass its
// picker as `pickImage` (it answers the uploaded file's URL) and drop the inline fallback.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import './RichTextEditor.css';
import { Button, Input, Modal, Space, Tooltip, Typography } from 'antd';
import {
  AlignCenterOutlined, AlignLeftOutlined, BoldOutlined, ClearOutlined, FontSizeOutlined, ItalicOutlined, LinkOutlined,
  OrderedListOutlined, PictureOutlined, UnderlineOutlined, UnorderedListOutlined,
} from '@ant-design/icons';
import { fmt } from './AppealDrawer.tsx';

/** The largest local picture put inline until uploads exist. */
export const IMAGE_MAX_BYTES = 300 * 1024;

export type PickImage = () => Promise<string | undefined>;

interface Props {
  value?: string;
  onChange?: (html: string) => void;
  /** where inserted images come from (the uploads module's picker); default: URL or a small local picture */
  pickImage?: PickImage;
  placeholder?: string;
  height?: number;
}

const exec = (command: string, arg?: string) => document.execCommand(command, false, arg);

/** The built-in image source: a URL, or a local picture read inline. */
function ImageDialog({ open, onDone }: { open: boolean; onDone: (src?: string) => void }) {
  const [url, setUrl] = useState('');
  const [error, setError] = useState('');
  const file = useRef<HTMLInputElement>(null);
  const finish = (src?: string) => {
    setUrl('');
    setError('');
    onDone(src);
  };
  const fromFile = (f: File | undefined) => {
    if (!f) return;
    if (!/^image\/(png|jpeg|gif|webp)$/.test(f.type)) return setError('只支持 PNG、JPG、GIF、WebP 图片');
    if (f.size > IMAGE_MAX_BYTES) return setError(`图片不能超过 ${IMAGE_MAX_BYTES / 1024} KB，较大的图片请填写图片地址`);
    const reader = new FileReader();
    reader.onload = () => finish(String(reader.result));
    reader.readAsDataURL(f);
  };
  return (
    <Modal title="插入图片" open={open} onCancel={() => finish()} okText="插入" cancelText="取消" destroyOnHidden
      onOk={() => (/^https?:\/\/\S+$/i.test(url.trim()) ? finish(url.trim()) : setError('请填写以 http:// 或 https:// 开头的图片地址'))}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Input aria-label="图片地址" placeholder="https://…" value={url} onChange={(e) => setUrl(e.target.value)} />
        <Space>
          <Button onClick={() => file.current?.click()}>选择本地图片</Button>
          <Typography.Text type="secondary">不超过 {IMAGE_MAX_BYTES / 1024} KB</Typography.Text>
        </Space>
        <input ref={file} type="file" accept="image/png,image/jpeg,image/gif,image/webp" hidden aria-label="本地图片" onChange={(e) => fromFile(e.target.files?.[0])} />
        {error && <Typography.Text type="danger" role="alert">{error}</Typography.Text>}
      </Space>
    </Modal>
  );
}

export function RichTextEditor({ value, onChange, pickImage, placeholder = '请输入公告内容', height = 280 }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const saved = useRef<Range | null>(null);
  const [picking, setPicking] = useState(false);
  const [linking, setLinking] = useState(false);
  const [link, setLink] = useState('');

  // the form's value into the box, unless it is what the box already holds (typing keeps the caret)
  useEffect(() => {
    const el = box.current;
    if (el && (value ?? '') !== el.innerHTML) el.innerHTML = value ?? '';
  }, [value]);

  const emit = () => onChange?.(box.current?.innerHTML ?? '');
  const keep = () => {
    const s = window.getSelection();
    saved.current = s && s.rangeCount && box.current?.contains(s.anchorNode) ? s.getRangeAt(0) : null;
  };
  const restore = () => {
    box.current?.focus();
    const s = window.getSelection();
    if (saved.current && s) {
      s.removeAllRanges();
      s.addRange(saved.current);
    }
  };
  const run = (command: string, arg?: string) => {
    restore();
    exec(command, arg);
    emit();
  };
  const insertImage = (src?: string) => {
    setPicking(false);
    if (src) run('insertHTML', `<img src="${src.replace(/"/g, '&quot;')}" alt="" style="max-width:100%" />`);
  };
  const image = async () => {
    keep();
    if (pickImage) insertImage(await pickImage());
    else setPicking(true);
  };

  const tools: [string, React.ReactNode, () => void][] = [
    ['标题', <FontSizeOutlined key="h" />, () => run('formatBlock', 'h3')],
    ['加粗', <BoldOutlined key="b" />, () => run('bold')],
    ['斜体', <ItalicOutlined key="i" />, () => run('italic')],
    ['下划线', <UnderlineOutlined key="u" />, () => run('underline')],
    ['项目符号', <UnorderedListOutlined key="ul" />, () => run('insertUnorderedList')],
    ['编号', <OrderedListOutlined key="ol" />, () => run('insertOrderedList')],
    ['左对齐', <AlignLeftOutlined key="l" />, () => run('justifyLeft')],
    ['居中', <AlignCenterOutlined key="c" />, () => run('justifyCenter')],
    ['链接', <LinkOutlined key="a" />, () => { keep(); setLinking(true); }],
    ['图片', <PictureOutlined key="img" />, () => void image()],
    ['清除格式', <ClearOutlined key="x" />, () => run('removeFormat')],
  ];

  return (
    <div className="rich-text-editor" style={{ border: '1px solid #d9d9d9', borderRadius: 6 }}>
      <Space size={2} wrap style={{ padding: 4, borderBottom: '1px solid #f0f0f0' }} role="toolbar" aria-label="格式">
        {tools.map(([title, icon, onClick]) => (
          <Tooltip key={title} title={title}>
            <Button type="text" size="small" aria-label={title} icon={icon} onMouseDown={(e) => { e.preventDefault(); keep(); }} onClick={onClick} />
          </Tooltip>
        ))}
      </Space>
      <div
        ref={box}
        role="textbox"
        aria-multiline="true"
        aria-label="公告内容"
        contentEditable
        suppressContentEditableWarning
        data-placeholder={placeholder}
        onInput={emit}
        onBlur={() => { keep(); emit(); }}
        style={{ minHeight: height, maxHeight: height * 2, overflowY: 'auto', padding: '8px 12px', outline: 'none' }}
      />
      <ImageDialog open={picking} onDone={insertImage} />
      <Modal title="插入链接" open={linking} okText="插入" cancelText="取消" destroyOnHidden onCancel={() => setLinking(false)}
        onOk={() => {
          setLinking(false);
          if (/^https?:\/\/\S+$/i.test(link.trim())) run('createLink', link.trim());
          setLink('');
        }}>
        <Input aria-label="链接地址" placeholder="https://…" value={link} onChange={(e) => setLink(e.target.value)} />
      </Modal>
    </div>
  );
}

/** A notice's body as it was stored (the server sanitized it). */
export function NoticeBody({ html }: { html: string }) {
  return <div className="notice-body" style={{ lineHeight: 1.8, wordBreak: 'break-word' }} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** A notice as read: its labels (state, category), 发布时间 and its body. */
export function NoticeReading({ labels, publishedAt, html, size = 12, wrap }: { labels: ReactNode; publishedAt: string | null | undefined; html: string; size?: number; wrap?: boolean }) {
  return (
    <>
      <Space size={size} wrap={wrap} style={{ marginBottom: 12 }}>
        {labels}
        <Typography.Text type="secondary">发布时间：{fmt(publishedAt)}</Typography.Text>
      </Space>
      <NoticeBody html={html} />
    </>
  );
}
