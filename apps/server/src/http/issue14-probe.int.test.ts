import { describe, expect, it } from 'vitest';
import { API } from '@meter/contracts';
import { fileApp } from '../../test/helpers.ts';
import { makeCompany } from '../../test/factories.ts';

// Contract probe of issue 14 ("Must show": every call named answers with the envelope, no 接口不存在):
// every declared call of the payment, reconciliation, merchant, bank sub-merchant, SMS/voice, bulk
// send, finance-day and opening-balance groups, and the two hand-registered notify callbacks, is called
// as the platform administrator with an empty input. Each must answer — a result, a refusal or a 400
// naming the field, always in the envelope (or the declared .xlsx file) — and never 404 接口不存在.

const t = await fileApp();
const [admin] = await t.signIn('admin');
const companyId = await makeCompany(t.owner);

const GROUPS = ['payment', 'reconcile', 'merchant', 'bank', 'propertyInfo', 'agricultureBank', 'companyBocInfo', 'notify', 'sms', 'bulk', 'finance', 'imports', 'report'] as const;

interface Declared { method: string; path: string }
const calls: [string, Declared][] = GROUPS.flatMap((g) =>
  Object.entries(API[g] as Record<string, Declared>).map(([k, e]) => [`${g}.${k} ${e.method} ${e.path}`, e] as [string, Declared]));

describe('issue 14 contract probe', () => {
  it('names every group it probes (a renamed group fails here, not silently)', () => {
    expect(calls.length).toBeGreaterThan(60);
    for (const g of GROUPS) expect(Object.keys(API[g]).length).toBeGreaterThan(0);
  });

  it.each(calls)('%s answers with the envelope', async (_name, e) => {
    const path = e.path.replace(':kind', 'opening').replace(/:[a-zA-Z]+/g, '1');
    const url = `${path}${path.includes('?') ? '&' : '?'}searchCompanyID=${companyId}`;
    const hasBody = !['GET', 'DELETE'].includes(e.method);
    const r = await t.app.inject({ method: e.method as 'GET', url, headers: { authorization: admin }, ...(hasBody ? { payload: {} } : {}) });
    const type = String(r.headers['content-type'] ?? '');
    if (type.includes('spreadsheetml') || type.includes('octet-stream')) {
      expect(r.statusCode).toBe(200);
      return;
    }
    expect(type, r.body).toContain('application/json');
    const body = r.json() as { code?: unknown; message?: unknown };
    expect(typeof body.code, r.body).toBe('string');
    expect(body.message, r.body).not.toBe('接口不存在');
    expect(r.statusCode, r.body).toBeLessThan(500);
  });

  it.each([['/wxpay/api/wxpay/notify'], ['/alipay/api/alipay/notify']])('the notify callback %s answers (refusing a forged body)', async (url) => {
    const r = await t.app.inject({ method: 'POST', url, payload: 'forged', headers: { 'content-type': 'text/plain' } });
    expect(r.statusCode).not.toBe(404);
    expect(r.body).not.toContain('接口不存在');
  });
});
