import http from 'node:http';
import { randomInt } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SUB_MER_MAX_VERIFY_FAILURES, subMerTransition, type SubMerEvent, type SubMerStatus } from '@meter/contracts';
import { BANK_PATHS, signBank, verifyBank, type BankAnswer, type BankPaths } from './protocol.ts';

// LOCAL BANK EMULATOR (demo and tests; not a bank). It answers the sub-merchant protocol of
// protocol.ts exactly as the client expects the bank to: signed requests checked, signed answers. It
// keeps its sub-merchants in memory (a restart forgets all but the sandbox one) and plays the bank's
// part of the state machine of packages/contracts (resources/bank.ts):
// - register: a sub-merchant number (the same for the same outMerNo); a licence number ending in 0000 is
//   refused (how a demo or test shows a rejected application);
// - sendMessage: a 6-digit code "sent" by SMS to the sub-merchant's phone and, the first time, a random
//   0.01–0.99 "paid" into its settlement account; both shown on the emulator's own page /inbox (what
//   the merchant would read on the phone and on the bank statement), never in our answers;
// - verify: code and amount; a wrong answer counts, the third one rejects the application;
// - status: opens a verified sub-merchant, stops and reopens an opened one;
// - subacc query / withdraw: the sub-account's balance; a withdrawal (idempotent by orderNo) never takes
//   more than the available balance; to an account number ending in 4444 it bounces (money back).
// The sandbox sub-merchant SANDBOX_SUB_MER is always there, opened, with money (the demo company's).

export const SANDBOX_SUB_MER = 'ABC880000000001';
export const FAILING_ACCOUNT_SUFFIX = '4444';
export const REJECTED_LICENSE_SUFFIX = '0000';

interface SubMer {
  subMerId: string;
  outMerNo: string;
  name: string;
  phone: string;
  accountNo: string;
  status: SubMerStatus;
  code: string;
  amountFen: number;
  failures: number;
  balanceFen: number;
}

interface Withdrawal { serialNo: string; orderNo: string; subMerId: string; amountFen: number; status: 'succeeded' | 'failed'; reason: string }

export interface BankMessage { at: string; phone: string; text: string }
export interface BankTransfer { at: string; accountNo: string; amount: string; memo: string }

export interface BankEmulator {
  url: string;
  /** what the emulator "sent" (newest first) */
  inbox(): { messages: BankMessage[]; transfers: BankTransfer[] };
  /** the last code and random amount sent to a sub-merchant (tests read it as a person reads the phone) */
  secretOf(subMerId: string): { code: string; amountFen: number } | undefined;
  /** money into a sub-account (online payments settled by the bank) */
  credit(subMerId: string, amountFen: number): void;
  balanceOf(subMerId: string): number | undefined;
  /** answer the next n calls of a path with nothing (a lost answer: the call happened, the reply did not arrive) */
  dropAnswers(path: keyof BankPaths, n: number): void;
  close(): Promise<void>;
}

const yuan = (fen: number) => `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
const mask = (phone: string) => phone.replace(/^(\d{3})\d{4}(\d{4})$/, '$1****$2');
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export async function startBankEmulator(o: { key: Buffer; merId: string; port?: number; host?: string }): Promise<BankEmulator> {
  const subs = new Map<string, SubMer>();
  const byOut = new Map<string, string>();
  const withdrawals = new Map<string, Withdrawal>();
  const messages: BankMessage[] = [];
  const transfers: BankTransfer[] = [];
  const drops = new Map<string, number>();
  let seq = 1;
  subs.set(SANDBOX_SUB_MER, {
    subMerId: SANDBOX_SUB_MER, outMerNo: 'sandbox', name: '沙箱子商户', phone: '13800000000', accountNo: '6228480000000000000', status: 'active',
    code: '', amountFen: 0, failures: 0, balanceFen: 12_860_50,
  });
  const now = () => new Date().toISOString().replace('T', ' ').slice(0, 19);

  const move = (s: SubMer, e: SubMerEvent): string | null => {
    const t = subMerTransition(s.status, e);
    if (!t.ok) return t.message;
    s.status = t.to;
    return null;
  };

  type Handler = (req: Record<string, unknown>) => BankAnswer<unknown>;
  const fail = (errCode: string, errMsg: string): BankAnswer<never> => ({ ok: false, errCode, errMsg });
  const sub = (req: Record<string, unknown>) => subs.get(String(req.subMerId ?? ''));
  const handlers: Record<keyof BankPaths, Handler> = {
    register(r) {
      const known = byOut.get(String(r.outMerNo));
      if (known) {
        const s = subs.get(known)!;
        if (s.status === 'rejected') move(s, 'register');
        return { ok: true, data: { subMerId: known, status: s.status } };
      }
      for (const k of ['outMerNo', 'name', 'licenseNo', 'legalPerson', 'phone', 'accountName', 'accountNo']) {
        if (!String(r[k] ?? '').trim()) return fail('PARAM_ERROR', `缺少必填字段 ${k}`);
      }
      if (String(r.licenseNo).endsWith(REJECTED_LICENSE_SUFFIX)) return fail('LICENSE_INVALID', '营业执照信息核验未通过，请核对统一社会信用代码');
      const subMerId = `ABC${String(Date.now()).slice(-7)}${String(seq++).padStart(5, '0')}`;
      subs.set(subMerId, {
        subMerId, outMerNo: String(r.outMerNo), name: String(r.name), phone: String(r.phone), accountNo: String(r.accountNo), status: 'applied',
        code: '', amountFen: 0, failures: 0, balanceFen: 0,
      });
      byOut.set(String(r.outMerNo), subMerId);
      return { ok: true, data: { subMerId, status: 'applied' } };
    },
    sendCode(r) {
      const s = sub(r);
      if (!s) return fail('SUBMER_NOT_FOUND', '子商户不存在');
      const e = move(s, 'sendCode');
      if (e) return fail('STATUS_INVALID', e);
      s.code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      messages.unshift({ at: now(), phone: s.phone, text: `【农业银行】您的二级商户（${s.name}）开户验证码为 ${s.code}，请同时核对结算账户收到的随机金额。` });
      if (!s.amountFen) {
        s.amountFen = randomInt(1, 100);
        transfers.unshift({ at: now(), accountNo: s.accountNo, amount: yuan(s.amountFen), memo: `二级商户打款验证（${s.name}）` });
      }
      return { ok: true, data: { phone: mask(s.phone), status: s.status } };
    },
    verify(r) {
      const s = sub(r);
      if (!s) return fail('SUBMER_NOT_FOUND', '子商户不存在');
      const t = subMerTransition(s.status, 'verify');
      if (!t.ok) return fail('STATUS_INVALID', t.message);
      const codeOk = String(r.code) === s.code;
      const amountOk = Number(r.amountFen) === s.amountFen;
      if (codeOk && amountOk) {
        move(s, 'verify');
        return { ok: true, data: { status: s.status, attemptsLeft: SUB_MER_MAX_VERIFY_FAILURES - s.failures } };
      }
      s.failures++;
      const left = SUB_MER_MAX_VERIFY_FAILURES - s.failures;
      if (left <= 0) {
        move(s, 'reject');
        return fail('VERIFY_REJECTED', `验证失败次数已达 ${SUB_MER_MAX_VERIFY_FAILURES} 次，申请已被银行驳回，请核对资料后重新提交`);
      }
      return fail(codeOk ? 'AMOUNT_WRONG' : 'CODE_WRONG', `${codeOk ? '随机金额不正确' : '短信验证码不正确'}，还可尝试 ${left} 次`);
    },
    status(r) {
      const s = sub(r);
      if (!s) return fail('SUBMER_NOT_FOUND', '子商户不存在');
      const e = move(s, r.status === 'active' ? (s.status === 'disabled' ? 'enable' : 'activate') : 'disable');
      if (e) return fail('STATUS_INVALID', e);
      return { ok: true, data: { status: s.status } };
    },
    query(r) {
      const s = sub(r);
      if (!s) return fail('SUBMER_NOT_FOUND', '子商户不存在');
      return { ok: true, data: { balanceFen: s.balanceFen, availableFen: s.status === 'active' ? s.balanceFen : 0 } };
    },
    withdraw(r) {
      const s = sub(r);
      if (!s) return fail('SUBMER_NOT_FOUND', '子商户不存在');
      const orderNo = String(r.orderNo ?? '');
      const before = withdrawals.get(orderNo);
      if (before) return { ok: true, data: { serialNo: before.serialNo, status: before.status, reason: before.reason } };
      if (s.status !== 'active') return fail('SUBMER_NOT_ACTIVE', '子商户未开通或已停用，不能提现');
      const amountFen = Number(r.amountFen);
      if (!Number.isSafeInteger(amountFen) || amountFen <= 0) return fail('PARAM_ERROR', '提现金额无效');
      if (amountFen > s.balanceFen) return fail('INSUFFICIENT_BALANCE', `子账户可用余额不足（可用 ¥${yuan(s.balanceFen)}）`);
      const bounced = s.accountNo.endsWith(FAILING_ACCOUNT_SUFFIX);
      const w: Withdrawal = {
        serialNo: `W${Date.now()}${String(seq++).padStart(4, '0')}`, orderNo, subMerId: s.subMerId, amountFen,
        status: bounced ? 'failed' : 'succeeded', reason: bounced ? '收款账户状态异常，银行退票' : '',
      };
      if (!bounced) {
        s.balanceFen -= amountFen;
        transfers.unshift({ at: now(), accountNo: s.accountNo, amount: yuan(amountFen), memo: `子账户提现 ${orderNo}` });
      }
      withdrawals.set(orderNo, w);
      return { ok: true, data: { serialNo: w.serialNo, status: w.status, reason: w.reason } };
    },
    withdrawQuery(r) {
      const w = withdrawals.get(String(r.orderNo ?? ''));
      if (!w || w.subMerId !== r.subMerId) return fail('ORDER_NOT_FOUND', '提现订单不存在');
      return { ok: true, data: { serialNo: w.serialNo, status: w.status, reason: w.reason } };
    },
  };
  const routes = new Map(Object.entries(BANK_PATHS).map(([k, p]) => [p, k as keyof BankPaths]));

  const page = () => {
    const rows = (xs: string[][]) => xs.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('') || '<tr><td colspan="3">暂无</td></tr>';
    return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>银行模拟器（演示用）</title>
<style>body{font:14px sans-serif;margin:24px;color:#222}table{border-collapse:collapse;margin-bottom:24px}td,th{border:1px solid #ddd;padding:6px 10px;text-align:left}</style></head>
<body><h2>本地银行模拟器（演示用，非真实银行）</h2><p>这里显示模拟银行“发送”的短信验证码，以及向结算账户“打款”的随机金额与提现到账记录。</p>
<h3>短信</h3><table><tr><th>时间</th><th>手机号</th><th>内容</th></tr>${rows(messages.map((m) => [m.at, m.phone, m.text]))}</table>
<h3>结算账户入账</h3><table><tr><th>时间</th><th>账号</th><th>金额（元）</th><th>摘要</th></tr>${rows(transfers.map((t) => [t.at, t.accountNo, t.amount, t.memo]))}</table></body></html>`;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'GET' && (url.pathname === '/' || url.pathname === '/inbox')) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page());
        return;
      }
      const name = routes.get(url.pathname);
      if (req.method !== 'POST' || !name) {
        res.writeHead(404).end();
        return;
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      const answer = (a: BankAnswer<unknown>) => {
        const body = JSON.stringify(a);
        res.writeHead(200, { 'content-type': 'application/json', ...signBank(o.key, o.merId, body) }).end(body);
      };
      const bad = verifyBank(o.key, req.headers, raw);
      if (bad || req.headers['x-bank-merid'] !== o.merId) return answer(fail('SIGN_ERROR', bad ?? '商户号不符'));
      let input: Record<string, unknown>;
      try {
        input = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return answer(fail('PARAM_ERROR', '报文格式错误'));
      }
      const out = handlers[name](input);
      const drop = drops.get(name) ?? 0;
      if (drop > 0) {
        drops.set(name, drop - 1);
        res.destroy();
        return;
      }
      answer(out);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, o.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    inbox: () => ({ messages: [...messages], transfers: [...transfers] }),
    secretOf: (id) => {
      const s = subs.get(id);
      return s && s.code ? { code: s.code, amountFen: s.amountFen } : undefined;
    },
    credit: (id, fen) => {
      const s = subs.get(id);
      if (s) s.balanceFen += fen;
    },
    balanceOf: (id) => subs.get(id)?.balanceFen,
    dropAnswers: (p, n) => void drops.set(p, n),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
