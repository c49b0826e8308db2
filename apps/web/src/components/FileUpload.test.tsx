import { beforeEach, describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { UPLOAD_TOKEN_REFRESH_MS } from '@meter/contracts';
import { answer, mockServer, renderPage, serve, signIn, type Call } from '../test/harness.tsx';
import { E } from '../api/endpoints.gen.ts';
import { forgetUploadTokens, uploadToken } from '../api/upload.ts';
import { configureRequest, resetInflight } from '../api/request.ts';
import { getToken } from '../app/session.ts';
import { FileUpload } from './FileUpload.tsx';

configure({ asyncUtilTimeout: 8000 });

// SPEC §4/§9: the upload token is cached with its time and fetched again when older than
// 3,000,000 ms; the component uploads with it, checks sizes first, and replaces an expired token once.

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const KEY = 'a'.repeat(32) + '.png';

let tokens = 0;
const tokenRoute = answer(E.files.token, (c) => {
  tokens++;
  return { token: `tok-${c.query.get('kind')}-${tokens}`, kind: c.query.get('kind'), issuedAt: 0, expiresAt: 0 };
});

beforeEach(() => {
  configureRequest({ getToken });
  tokens = 0;
  localStorage.clear();
  resetInflight();
  signIn(['teachingVideo'], [], { access: 0 });
});

describe('upload tokens', () => {
  it('are cached, and fetched again once older than 3,000,000 ms', async () => {
    const calls = mockServer(serve([tokenRoute]));
    const t0 = 1_800_000_000_000;
    expect(await uploadToken('Public', t0)).toBe('tok-Public-1');
    expect(await uploadToken('Public', t0 + 1000)).toBe('tok-Public-1');
    expect(await uploadToken('Public', t0 + UPLOAD_TOKEN_REFRESH_MS - 1)).toBe('tok-Public-1');
    // each kind has its own
    expect(await uploadToken('Private', t0)).toBe('tok-Private-2');
    expect(await uploadToken('Public', t0 + UPLOAD_TOKEN_REFRESH_MS)).toBe('tok-Public-3');
    expect(calls.map((c) => `${c.path}?${c.query}`)).toEqual([
      '/yewu/api/Upload/Token?kind=Public', '/yewu/api/Upload/Token?kind=Private', '/yewu/api/Upload/Token?kind=Public',
    ]);
    // kept locally with the time it was made (SPEC §3)
    expect(JSON.parse(localStorage.getItem('uploadToken:Public')!)).toMatchObject({ token: 'tok-Public-3', time: t0 + UPLOAD_TOKEN_REFRESH_MS });
  });

  it('a token of another session is not reused', async () => {
    mockServer(serve([tokenRoute]));
    expect(await uploadToken('Public', 5)).toBe('tok-Public-1');
    configureRequest({ getToken: () => 'x'.repeat(43) }); // another login
    expect(await uploadToken('Public', 6)).toBe('tok-Public-2');
    forgetUploadTokens();
    expect(localStorage.getItem('uploadToken:Public')).toBeNull();
  });
});

function pick(container: HTMLElement, file: File) {
  const input = container.querySelector('input[type=file]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [file] } });
}

describe('the upload field', () => {
  it('uploads the picked image with a Public token and gives its key to the form', async () => {
    let keys: string[] = [];
    const posts: Call[] = [];
    mockServer(serve([tokenRoute, answer(E.files.upload, (c) => {
      posts.push(c);
      return { key: KEY, kind: 'Public', category: 'image', name: '示意图.png', mime: 'image/png', size: PNG.length };
    })]));
    const { container } = renderPage('teachingVideo', <FileUpload accept="image" kind="Public" max={3} onChange={(k) => (keys = k)} />);
    expect(screen.getByText('支持 JPG、PNG、GIF、WebP、BMP，单个不超过 10 MB，最多 3 个')).toBeTruthy();
    pick(container, new File([PNG], '示意图.png', { type: 'image/png' }));
    await waitFor(() => expect(keys).toEqual([KEY]));
    expect(posts).toHaveLength(1);
    const form = posts[0].body as FormData;
    expect(form.get('token')).toBe('tok-Public-1');
    expect(form.get('accept')).toBe('image');
    expect((form.get('file') as File).name).toBe('示意图.png');
  });

  it('a file over its limit is refused before anything is sent', async () => {
    const calls = mockServer(serve([tokenRoute]));
    const { container } = renderPage('teachingVideo', <FileUpload accept="image" kind="Private" />);
    const big = new File([PNG], '大图.png', { type: 'image/png' });
    Object.defineProperty(big, 'size', { value: 12.5 * 1024 * 1024 });
    pick(container, big);
    expect(await screen.findByText('文件过大：图片不能超过 10 MB（当前 12.5 MB）')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('an expired token is replaced once and the file sent again; a refusal is shown', async () => {
    let keys: string[] = [];
    let posts = 0;
    mockServer(serve([tokenRoute, answer(E.files.upload, () => {
      posts++;
      return posts === 1
        ? new Response(JSON.stringify({ code: 'UPLOAD_TOKEN_EXPIRED', message: '上传凭证已过期，请重新上传' }), { status: 200 })
        : { key: KEY, kind: 'Private', category: 'image', name: 'a.png', mime: 'image/png', size: 8 };
    })]));
    const { container } = renderPage('teachingVideo', <FileUpload accept="image" kind="Private" onChange={(k) => (keys = k)} />);
    pick(container, new File([PNG], 'a.png', { type: 'image/png' }));
    await waitFor(() => expect(keys).toEqual([KEY]));
    expect(posts).toBe(2);
    expect(tokens).toBe(2);

    mockServer(serve([tokenRoute, answer(E.files.upload, () => new Response(JSON.stringify({ code: 'UPLOAD_TYPE', message: '不支持的文件类型：仅支持图片' }), { status: 200 }))]));
    const other = renderPage('teachingVideo', <FileUpload accept="image" kind="Private" />);
    pick(other.container, new File([PNG], 'b.png', { type: 'image/png' }));
    expect(await screen.findByText('上传失败：不支持的文件类型：仅支持图片')).toBeTruthy();
  });
});
