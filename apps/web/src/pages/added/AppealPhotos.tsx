// The photos an owner attached to an appeal (业主端): private uploads of the room, fetched with the
// session as blob URLs; a click opens them in the image viewer (SPEC §4).
import { useEffect, useState } from 'react';
import { privateFileUrl } from '../../api/upload.ts';
import { ImageViewer } from '../../components/ImageViewer.tsx';

export function AppealPhotos({ keys }: { keys: string[] }) {
  const [urls, setUrls] = useState<string[]>([]);
  const [open, setOpen] = useState<number | null>(null);
  useEffect(() => {
    let gone = false;
    const made: string[] = [];
    void Promise.all(keys.map((k) => privateFileUrl(k).catch(() => ''))).then((u) => {
      made.push(...u.filter(Boolean));
      if (!gone) setUrls(u);
      else for (const x of made) URL.revokeObjectURL(x);
    });
    return () => {
      gone = true;
      for (const x of made) URL.revokeObjectURL(x);
    };
  }, [keys]);
  if (!keys.length) return null;
  const images = urls.map((src, i) => ({ src, name: `照片 ${i + 1}` })).filter((x) => x.src);
  return (
    <>
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }} data-testid="appeal-photos">
        {urls.map((src, i) => (src
          ? <img key={keys[i]} src={src} alt={`照片 ${i + 1}`} onClick={() => setOpen(i)} style={{ width: 72, height: 72, objectFit: 'cover', borderRadius: 4, cursor: 'zoom-in' }} />
          : <span key={keys[i]}>照片 {i + 1} 无法加载</span>))}
      </div>
      {open !== null && <ImageViewer open images={images} start={open} onClose={() => setOpen(null)} />}
    </>
  );
}
