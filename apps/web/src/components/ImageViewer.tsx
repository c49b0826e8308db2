// The image viewer (SPEC §4, §9): full screen over the page; Esc or q closes, → or l shows the next
// image, ← or h the previous one (both wrap around); the bar and the arrows hide after 3.5 s without a
// mouse movement and come back with the next one.
import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { CloseOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';

export const VIEWER_UI_HIDE_MS = 3500;

export interface ViewerImage {
  src: string;
  name?: string;
}

export interface ImageViewerProps {
  images: ViewerImage[];
  open: boolean;
  /** the image shown first */
  start?: number;
  onClose(): void;
}

export function ImageViewer({ images, open, start = 0, onClose }: ImageViewerProps) {
  const [index, setIndex] = useState(start);
  const [ui, setUi] = useState(true);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const n = images.length;

  useEffect(() => {
    if (open) setIndex(Math.min(Math.max(start, 0), Math.max(n - 1, 0)));
  }, [open, start, n]);

  /** shows the bar and the arrows, and hides them again after 3.5 s */
  const wake = useCallback(() => {
    setUi(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setUi(false), VIEWER_UI_HIDE_MS);
  }, []);
  useEffect(() => {
    if (!open) return;
    wake();
    return () => clearTimeout(timer.current);
  }, [open, wake]);

  const step = useCallback((d: number) => setIndex((i) => (n ? (i + d + n) % n : 0)), [n]);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const k = e.key;
      if (k === 'Escape' || k === 'q' || k === 'Q') onClose();
      else if (k === 'ArrowRight' || k === 'l' || k === 'L') step(1);
      else if (k === 'ArrowLeft' || k === 'h' || k === 'H') step(-1);
      else return;
      e.preventDefault();
      e.stopPropagation();
    };
    // capture: the viewer's keys come before the page's (a modal under it would close on Esc too)
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [open, onClose, step]);

  if (!open || n === 0) return null;
  const img = images[index] ?? images[0];
  const hidden = !ui;
  const uiStyle = { opacity: hidden ? 0 : 1, pointerEvents: hidden ? ('none' as const) : ('auto' as const), transition: 'opacity .3s' };
  const arrow = { position: 'absolute' as const, top: '50%', transform: 'translateY(-50%)', width: 48, height: 48, border: 0, borderRadius: 24, background: 'rgba(255,255,255,.15)', color: '#fff', fontSize: 20, cursor: 'pointer' };

  return createPortal(
    <div
      role="dialog"
      aria-modal="true"
      aria-label="图片查看器"
      className="image-viewer"
      onMouseMove={wake}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
      style={{ position: 'fixed', inset: 0, zIndex: 2000, background: 'rgba(0,0,0,.88)', display: 'flex', alignItems: 'center', justifyContent: 'center', cursor: hidden ? 'none' : 'default' }}
    >
      <img src={img.src} alt={img.name ?? `图片 ${index + 1}`} style={{ maxWidth: '92vw', maxHeight: '88vh', objectFit: 'contain', boxShadow: '0 0 24px rgba(0,0,0,.5)' }} />
      <div
        data-testid="image-viewer-ui"
        aria-hidden={hidden}
        style={{ ...uiStyle, position: 'absolute', top: 0, left: 0, right: 0, display: 'flex', alignItems: 'center', gap: 16, padding: '10px 16px', color: '#fff', background: 'linear-gradient(rgba(0,0,0,.6), transparent)' }}
      >
        <span>{index + 1} / {n}</span>
        <span style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{img.name}</span>
        <span style={{ opacity: 0.75, fontSize: 12 }}>Esc/q 关闭 · ←/h 上一张 · →/l 下一张</span>
        <button type="button" aria-label="关闭" onClick={onClose} style={{ ...arrow, position: 'static', transform: 'none', width: 36, height: 36, fontSize: 16 }}>
          <CloseOutlined />
        </button>
      </div>
      {n > 1 && (
        <>
          <button type="button" aria-label="上一张" onClick={() => step(-1)} style={{ ...arrow, ...uiStyle, left: 24 }}>
            <LeftOutlined />
          </button>
          <button type="button" aria-label="下一张" onClick={() => step(1)} style={{ ...arrow, ...uiStyle, right: 24 }}>
            <RightOutlined />
          </button>
        </>
      )}
    </div>,
    document.body,
  );
}
