import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../test/helpers.ts';
import { localFiles } from '../files/index.ts';
import { seedHelpDemo } from '../../demo/help.ts';

// 教学视频 (Sys_TeachingVideo): the demo's tutorials stored as Public uploads and served to anyone; the
// platform writes the list, companies read it; a tutorial names only files that were really uploaded.

let t: TestApp;
let admin: string;
let demo: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meter-help-'));
const files = localFiles(dir);

beforeAll(async () => {
  t = await testApp(undefined, { files });
  admin = await t.login('admin', 'admin123');
  demo = await t.login('demo', 'demo123');
  await t.owner.query('DELETE FROM teaching_videos');
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('teaching videos', () => {
  it('the demo seeds two videos and a text tutorial with pictures, once; everyone reads them and plays the videos', async () => {
    await seedHelpDemo(t.db, files);
    await seedHelpDemo(t.db, files);
    const list = await t.call(demo, { method: 'GET', url: '/yewu/api/Sys_TeachingVideo/List?index=1&size=20&status=1' });
    expect(list.body.code, JSON.stringify(list.body)).toBe('SUCCESS');
    expect(list.body.count).toBe(3);
    const rows = list.body.data as { title: string; mode: number; video: string[]; images: string[] }[];
    const videos = rows.filter((r) => r.mode === 1);
    expect(videos).toHaveLength(2);
    const text = rows.find((r) => r.mode === 2)!;
    expect(text.images).toHaveLength(3);
    const video = await t.app.inject({ method: 'GET', url: `/yewu/api/Upload/Public/${videos[0].video[0]}` });
    expect(video.statusCode).toBe(200);
    expect(video.headers['content-type']).toBe('video/webm');
    const pic = await t.app.inject({ method: 'GET', url: `/yewu/api/Upload/Public/${text.images[0]}` });
    expect(pic.headers['content-type']).toBe('image/jpeg');
  });

  it('the platform adds one with an uploaded video; a company may not; an unknown or wrong file is refused', async () => {
    const { rows } = await t.owner.query(`SELECT key FROM files WHERE category = 'video' AND kind = 'Public' LIMIT 1`);
    const key = rows[0].key as string;
    const body = { title: '新增的教学视频', mode: 1, video: [key], images: [], content: '简介', sort: 9, status: 1 };
    const made = await t.call(admin, { method: 'POST', url: '/yewu/api/Sys_TeachingVideo/Detail', payload: body });
    expect(made.body.code, JSON.stringify(made.body)).toBe('SUCCESS');
    const got = await t.call(demo, { method: 'GET', url: `/yewu/api/Sys_TeachingVideo/Detail?id=${made.body.data.id}` });
    expect(got.body.data).toMatchObject({ title: '新增的教学视频', video: [key], images: [] });

    expect((await t.call(demo, { method: 'POST', url: '/yewu/api/Sys_TeachingVideo/Detail', payload: { ...body, title: '单位不能加' } })).status).toBe(403);
    const unknown = await t.call(admin, { method: 'POST', url: '/yewu/api/Sys_TeachingVideo/Detail', payload: { ...body, title: '未上传', video: ['0'.repeat(32) + '.mp4'] } });
    expect(unknown.body).toMatchObject({ code: 'FILE_UNKNOWN', message: '有 1 个文件未上传成功或已失效，请重新上传' });
    // a video given as a picture
    const wrong = await t.call(admin, { method: 'POST', url: '/yewu/api/Sys_TeachingVideo/Detail', payload: { ...body, title: '放错位置', video: [], images: [key] } });
    expect(wrong.body.code).toBe('FILE_UNKNOWN');
    const bad = await t.call(admin, { method: 'POST', url: '/yewu/api/Sys_TeachingVideo/Detail', payload: { ...body, title: '坏标识', video: ['../../etc/passwd'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/文件标识无效/);
  });
});
