import { describe, expect, it } from 'vitest';
import { fileApp } from '../../test/helpers.ts';

const t = await fileApp();

describe('OpenAPI at /docs', () => {
  it('documents every API route, generated from the route schemas', async () => {
    const r = await t.call(null, { method: 'GET', url: '/docs/json' });
    expect(r.status).toBe(200);
    const paths = r.body.paths as Record<string, Record<string, { summary?: string }>>;
    for (const route of t.app.apiRoutes) {
      const p = route.url.replace(/:(\w+)/g, '{$1}');
      const op = paths[p]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.url}`).toBeDefined();
      expect(op!.summary, `${route.method} ${route.url} has a Chinese summary`).toMatch(/[\u4e00-\u9fa5]/);
    }
  });
  it('serves the UI and a health check', async () => {
    expect((await t.call(null, { method: 'GET', url: '/docs/' })).status).toBe(200);
    expect((await t.call(null, { method: 'GET', url: '/healthz' })).body.data.status).toBe('ok');
  });
  it('unknown API paths answer 404 in the envelope', async () => {
    const r = await t.call(null, { method: 'GET', url: '/yewu/api/NoSuchThing' });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 'NOT_FOUND', message: '接口不存在' });
  });
  it('a malformed JSON body is 400 with a Chinese message', async () => {
    const r = await t.call(null, { method: 'POST', url: '/yonghu/api/admin/login', payload: '{bad', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('请求格式错误');
  });
});
