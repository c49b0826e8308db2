import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API, ENDPOINTS } from './endpoints/index.ts';
import { clientSource, pathOf } from './endpoint.ts';

describe('endpoint declarations', () => {
  it("the web's generated route table equals the declarations (run `npm run gen:client` after changing one)", () => {
    const dir = join(import.meta.dirname, '../../../apps/web/src/api');
    const { json, ts } = clientSource(API);
    expect(readFileSync(join(dir, 'endpoints.gen.json'), 'utf8')).toBe(json);
    expect(readFileSync(join(dir, 'endpoints.gen.ts'), 'utf8')).toBe(ts);
  });

  it('each declaration has a Chinese summary, a full API path and no method+path twice', () => {
    const seen = new Set<string>();
    for (const e of ENDPOINTS) {
      expect(e.summary, e.path).toMatch(/[\u4e00-\u9fa5]/);
      expect(e.path).toMatch(/^\/(yonghu|yewu|device|pay|wxpay|alipay|sms|export)\//);
      const k = `${e.method} ${e.path}`;
      expect(seen.has(k), k).toBe(false);
      seen.add(k);
      // a paged endpoint declares its row; its query carries index and size
      if (e.paged) {
        expect(e.response, k).toBeDefined();
        expect(e.query, k).toBeInstanceOf(z.ZodObject);
        if (e.query instanceof z.ZodObject) expect(Object.keys(e.query.shape), k).toEqual(expect.arrayContaining(['index', 'size']));
      }
    }
  });

  it('fills path parameters and refuses a missing one', () => {
    expect(pathOf('/yewu/api/x/:id/y/:name', { id: 3, name: '一 号' })).toBe('/yewu/api/x/3/y/%E4%B8%80%20%E5%8F%B7');
    expect(() => pathOf('/x/:id', { id: '' })).toThrow(/缺少路径参数/);
  });
});
