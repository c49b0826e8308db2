import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError, DEDUPE_CLEAR_MS, MSG_DUPLICATE, MSG_EXPIRED, MSG_FAILED, buildQuery, configureRequest, download, downloadName,
  PREFETCH_TTL_MS, prefetch, request, resetInflight, resetPrefetch, setSaveBlob, http,
} from './request.ts';

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

const toast = { success: vi.fn(), warning: vi.fn(), error: vi.fn() };
const onUnauthorized = vi.fn();
type FetchFn = (input: string, init: RequestInit) => Promise<Response>;
let fetchMock: ReturnType<typeof vi.fn<FetchFn>>;
const fail = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a rejection'); }, (e: ApiError) => e);

beforeEach(() => {
  resetInflight();
  resetPrefetch();
  toast.success.mockReset();
  toast.warning.mockReset();
  toast.error.mockReset();
  onUnauthorized.mockReset();
  fetchMock = vi.fn<FetchFn>();
  configureRequest({ fetch: fetchMock, toast, onUnauthorized, getToken: () => 'tok-123' });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('request envelope', () => {
  it('resolves data on SUCCESS and sends the token as Authorization', async () => {
    fetchMock.mockResolvedValue(json({ code: 'SUCCESS', message: '', data: { id: 7 } }));
    await expect(request('GET', '/yonghu/api/admin/user', { params: { id: 7 } })).resolves.toEqual({ id: 7 });
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/yonghu/api/admin/user?id=7');
    expect((init.headers as Record<string, string>).Authorization).toBe('tok-123');
    expect(toast.warning).not.toHaveBeenCalled();
  });

  it('resolves the whole body when it has count (a paged list)', async () => {
    const body = { code: 'SUCCESS', message: '', data: [{ id: 1 }], count: 41 };
    fetchMock.mockResolvedValue(json(body));
    const res = await http.page('/yonghu/api/admin/role/list', { index: 2, size: 20 });
    expect(res).toEqual(body);
    expect(fetchMock.mock.calls[0][0]).toBe('/yonghu/api/admin/role/list?index=2&size=20');
  });

  it('a code other than SUCCESS warns with the server message and rejects', async () => {
    fetchMock.mockResolvedValue(json({ code: 'BALANCE_LOW', message: '余额不足' }));
    const err = await fail(request('POST', '/pay/x', { data: { a: 1 } }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe('BALANCE_LOW');
    expect(err.message).toBe('余额不足');
    expect(toast.warning).toHaveBeenCalledWith('余额不足');
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('falls back to msg when message is absent', async () => {
    fetchMock.mockResolvedValue(json({ code: 'FAIL', msg: '设备离线' }));
    await expect(request('GET', '/device/api/v1/device')).rejects.toThrow('设备离线');
    expect(toast.warning).toHaveBeenCalledWith('设备离线');
  });

  it('HTTP 401 shows 登录状态过期，请重新登录, clears the session and goes to login', async () => {
    fetchMock.mockResolvedValue(json({ code: 'UNAUTHORIZED', message: '未登录' }, 401));
    const err = await fail(request('GET', '/yonghu/api/admin/user/token'));
    expect(err.status).toBe(401);
    expect(err.message).toBe(MSG_EXPIRED);
    expect(toast.error).toHaveBeenCalledWith(MSG_EXPIRED);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('several calls failing with 401 together show the expiry toast once', async () => {
    fetchMock.mockImplementation(async () => json({ code: 'UNAUTHORIZED', message: '未登录' }, 401));
    const errs = await Promise.all(['/a', '/b', '/c'].map((u) => fail(request('GET', `/yewu/api${u}`))));
    expect(errs.map((e) => e.status)).toEqual([401, 401, 401]);
    expect(toast.error).toHaveBeenCalledTimes(1);
    expect(onUnauthorized).toHaveBeenCalledTimes(3);
  });

  it('other HTTP errors show the server message and reject with 请求失败', async () => {
    fetchMock.mockResolvedValue(json({ code: 'FORBIDDEN', message: '无权访问该功能' }, 403));
    const err = await fail(request('GET', '/yonghu/api/admin/role/list'));
    expect(err.message).toBe(MSG_FAILED);
    expect(err.status).toBe(403);
    expect(err.serverMessage).toBe('无权访问该功能');
    expect(toast.error).toHaveBeenCalledWith('无权访问该功能');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('an HTTP error without a JSON body still rejects with 请求失败', async () => {
    fetchMock.mockResolvedValue(new Response('gateway down', { status: 502 }));
    await expect(request('GET', '/x')).rejects.toThrow(MSG_FAILED);
    expect(toast.error).toHaveBeenCalledTimes(1);
  });

  it('a network failure rejects with 请求失败', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(request('GET', '/x')).rejects.toThrow(MSG_FAILED);
    expect(toast.error).toHaveBeenCalled();
  });

  it('silent calls do not toast business refusals', async () => {
    fetchMock.mockResolvedValue(json({ code: 'PASSWORD_WRONG', message: '密码错误' }));
    await expect(request('POST', '/u', { data: {}, silent: true })).rejects.toThrow('密码错误');
    expect(toast.warning).not.toHaveBeenCalled();
  });
});

describe('duplicate non-GET requests', () => {
  it('rejects an identical request in flight with 请勿重复操作 and does not send it', async () => {
    let resolve!: (r: Response) => void;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((r) => (resolve = r)));
    const first = request('POST', '/yonghu/api/admin/role', { data: { name: '收费员' } });
    const second = request('POST', '/yonghu/api/admin/role', { data: { name: '收费员' } });
    await expect(second).rejects.toMatchObject({ message: MSG_DUPLICATE, code: 'DUPLICATE' });
    expect(toast.warning).toHaveBeenCalledWith(MSG_DUPLICATE);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    resolve(json({ code: 'SUCCESS', message: '', data: { id: 1 } }));
    await expect(first).resolves.toEqual({ id: 1 });
  });

  it('the mark clears 500 ms after the response, not before', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(async () => json({ code: 'SUCCESS', message: '', data: null }));
    await request('PUT', '/a', { data: { x: 1 } });
    await vi.advanceTimersByTimeAsync(DEDUPE_CLEAR_MS - 1);
    await expect(request('PUT', '/a', { data: { x: 1 } })).rejects.toThrow(MSG_DUPLICATE);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(request('PUT', '/a', { data: { x: 1 } })).resolves.toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('the mark also clears after a failed response', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(async () => json({ code: 'FAIL', message: '失败了' }));
    await expect(request('DELETE', '/a', { params: { id: 1 } })).rejects.toThrow('失败了');
    await vi.advanceTimersByTimeAsync(DEDUPE_CLEAR_MS);
    await expect(request('DELETE', '/a', { params: { id: 1 } })).rejects.toThrow('失败了');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('a request that got no response (network error) clears its mark at once: the retry is sent', async () => {
    vi.useFakeTimers();
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    fetchMock.mockImplementation(async () => json({ code: 'SUCCESS', message: '', data: { id: 5 } }));
    await expect(request('POST', '/save', { data: { x: 1 } })).rejects.toMatchObject({ code: 'NETWORK' });
    await expect(request('POST', '/save', { data: { x: 1 } })).resolves.toEqual({ id: 5 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(toast.warning).not.toHaveBeenCalledWith(MSG_DUPLICATE);
  });

  it('a body with its own requestId is deduplicated only while in flight: right after the answer the same request is sent (the server answers it idempotently)', async () => {
    vi.useFakeTimers();
    const body = { outTradeNo: 'WX1', amount: '5', reason: '退回', requestId: 'web12345678' };
    let resolve!: (r: Response) => void;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((r) => (resolve = r)));
    const first = request('POST', '/wxpay/api/wxpay/refund', { data: body });
    // a double click while the first is in flight: not sent
    await expect(request('POST', '/wxpay/api/wxpay/refund', { data: body })).rejects.toMatchObject({ code: 'DUPLICATE' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    resolve(json({ code: 'PAY_PROVIDER_ERROR', message: '支付平台繁忙' }));
    await expect(first).rejects.toThrow('支付平台繁忙');
    // retried at once (no 500 ms window): sent, and the server's answer comes back
    fetchMock.mockImplementationOnce(async () => json({ code: 'SUCCESS', message: '', data: { id: 9, duplicate: true } }));
    await expect(request('POST', '/wxpay/api/wxpay/refund', { data: body })).resolves.toEqual({ id: 9, duplicate: true });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('different bodies, different URLs and GETs are not duplicates', async () => {
    const pending = () => new Promise<Response>(() => {});
    fetchMock.mockImplementation(pending);
    void request('POST', '/a', { data: { x: 1 } });
    void request('POST', '/a', { data: { x: 2 } });
    void request('POST', '/b', { data: { x: 1 } });
    void request('GET', '/a');
    void request('GET', '/a');
    await Promise.resolve();
    expect(fetchMock).toHaveBeenCalledTimes(5);
    expect(toast.warning).not.toHaveBeenCalled();
  });
});

describe('query and download helpers', () => {
  it('drops empty params and repeats arrays', () => {
    expect(buildQuery({ a: 1, b: '', c: undefined, d: null, e: [1, 2], f: '中' })).toBe('?a=1&e=1&e=2&f=%E4%B8%AD');
    expect(buildQuery({})).toBe('');
  });

  it('names downloads with the .xlsx extension', () => {
    expect(downloadName(null, '抄表结算')).toBe('抄表结算.xlsx');
    expect(downloadName("attachment; filename*=UTF-8''%E6%8A%A5%E8%A1%A8.xlsx", 'x')).toBe('报表.xlsx');
    expect(downloadName('attachment; filename="report.csv"', 'x')).toBe('report.xlsx');
  });

  it('download saves the blob and shows 成功！', async () => {
    const saved = vi.fn();
    setSaveBlob(saved);
    fetchMock.mockResolvedValue(
      new Response(new Uint8Array([80, 75, 3, 4]), {
        status: 200,
        headers: { 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
      }),
    );
    await expect(download('/yewu/api/CopySettlement/Export', { month: '2025-01' }, '抄表结算')).resolves.toBe('抄表结算.xlsx');
    expect(saved).toHaveBeenCalledTimes(1);
    expect(toast.success).toHaveBeenCalledWith('成功！');
    expect((fetchMock.mock.calls[0][1].headers as Record<string, string>).Authorization).toBe('tok-123');
  });

  it('download of an error envelope shows 失败 and rejects', async () => {
    const saved = vi.fn();
    setSaveBlob(saved);
    fetchMock.mockResolvedValue(json({ code: 'NO_DATA', message: '没有数据' }));
    await expect(download('/export')).rejects.toThrow('失败');
    expect(saved).not.toHaveBeenCalled();
    expect(toast.error).toHaveBeenCalledWith('失败');
  });
});

describe('prefetch', () => {
  const page = { code: 'SUCCESS', message: '', data: [{ id: 1 }], count: 1 };

  it('sends the GET at once; the same request later (params in any order) takes it without sending again', async () => {
    fetchMock.mockImplementation(async () => json(page));
    const urls = prefetch(() => http.page('/yonghu/api/admin/user/list', { searchArea: '3', index: 1, size: 10 }));
    expect(urls).toEqual(['/yonghu/api/admin/user/list?searchArea=3&index=1&size=10']);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await expect(http.page('/yonghu/api/admin/user/list', { index: 1, size: 10, searchArea: '3' })).resolves.toEqual(page);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // taken once: the next identical request asks the server again
    await http.page('/yonghu/api/admin/user/list', { index: 1, size: 10, searchArea: '3' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('a second prefetch of the same URL while one is held sends nothing', () => {
    fetchMock.mockResolvedValue(json(page));
    prefetch(() => http.page('/x/list', { index: 1, size: 10 }));
    prefetch(() => http.page('/x/list', { index: 1, size: 10 }));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('another query, another token or an expired prefetch is not taken', async () => {
    let token = 'tok-a';
    configureRequest({ getToken: () => token });
    fetchMock.mockImplementation(async () => json(page));
    prefetch(() => http.page('/x/list', { index: 1, size: 10 }));
    await http.page('/x/list', { index: 2, size: 10 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    token = 'tok-b';
    await http.page('/x/list', { index: 1, size: 10 });
    expect(fetchMock).toHaveBeenCalledTimes(3);

    vi.useFakeTimers();
    prefetch(() => http.page('/y/list', { index: 1, size: 10 }));
    vi.advanceTimersByTime(PREFETCH_TTL_MS + 1);
    await http.page('/y/list', { index: 1, size: 10 });
    expect(fetchMock).toHaveBeenCalledTimes(5);
  });

  it('a prefetch nobody takes shows nothing when it fails; the page that takes it reports the failure once', async () => {
    fetchMock.mockResolvedValue(json({ code: 'FAIL', message: '无权查看' }));
    prefetch(() => http.page('/x/list', { index: 1, size: 10 }));
    await new Promise((r) => setTimeout(r, 0));
    expect(toast.warning).not.toHaveBeenCalled();
    await expect(http.page('/x/list', { index: 1, size: 10 })).rejects.toThrow('无权查看');
    expect(toast.warning).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    fetchMock.mockRejectedValue(new TypeError('offline'));
    prefetch(() => http.page('/z/list', { index: 1, size: 10 }));
    await new Promise((r) => setTimeout(r, 0));
    expect(toast.error).not.toHaveBeenCalled();
    await expect(http.page('/z/list', { index: 1, size: 10 })).rejects.toThrow(MSG_FAILED);
    expect(toast.error).toHaveBeenCalledWith('网络连接失败，请检查网络');
  });

  it('a 401 answer to a prefetch still sends the page to login when the page takes it', async () => {
    fetchMock.mockResolvedValue(json({ code: 'UNAUTHORIZED', message: '' }, 401));
    prefetch(() => http.page('/x/list', { index: 1, size: 10 }));
    expect(onUnauthorized).not.toHaveBeenCalled();
    await expect(http.page('/x/list', { index: 1, size: 10 })).rejects.toThrow(MSG_EXPIRED);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('only GETs are prefetched: a write inside prefetch() is never sent', () => {
    const urls = prefetch(() => http.post('/x/save', { a: 1 }));
    expect(urls).toEqual([]);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
