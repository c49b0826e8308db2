// A private photo of one of my rooms, fetched with the owner session and shown as a blob URL.
import { useEffect, useState } from 'react';
import { pathOf } from '@meter/contracts';
import { E } from '../api/endpoints.gen.ts';
import { fetchBlob } from '../api/request.ts';

export default function Photo({ fileKey, alt }: { fileKey: string; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let url: string | null = null;
    let gone = false;
    fetchBlob(pathOf(E.ownerApp.file.path, { key: fileKey }))
      .then((b) => {
        if (gone) return;
        url = URL.createObjectURL(b);
        setSrc(url);
      })
      .catch(() => {});
    return () => {
      gone = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [fileKey]);
  return src ? <a href={src} target="_blank" rel="noopener noreferrer"><img src={src} alt={alt} /></a> : <img alt={alt} />;
}
