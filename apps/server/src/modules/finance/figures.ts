import { fenToYuan } from '@meter/contracts';
import type { FigureRow } from './repo.ts';

// The figures of a business day (pure): money really received or paid back — kinds prepay (收款),
// refund (退款) and reversal (冲正) paid by cash, WeChat, Alipay or bank — per pay method and per
// operator; everything else that moved a balance (补贴, 系统入账, 期初余额, their reversals) apart,
// never counted as money. Deductions and fees are not in a closing.

export const METHODS = ['cash', 'wechat', 'alipay', 'bank'] as const;
export type Method = (typeof METHODS)[number];
export const METHOD_TEXT: Record<Method, string> = { cash: '现金', wechat: '微信', alipay: '支付宝', bank: '银行卡/转账' };
const MONEY_KINDS = new Set(['prepay', 'refund', 'reversal']);

export interface MethodTotals {
  receiptFen: number;
  refundFen: number;
  /** signed: a voided receipt takes its money back (−), a voided refund gives it back (+) */
  reversalFen: number;
  netFen: number;
  count: number;
}

export interface OperatorTotals {
  operatorId: number | null;
  operatorName: string;
  methods: Record<Method, MethodTotals>;
  netFen: number;
  count: number;
}

/** Credited but not received (补贴, 系统入账, 期初余额 …), per kind and pay method 'system'. */
export interface NonCashTotals {
  kind: string;
  amountFen: number;
  count: number;
}

export interface DayTotals {
  methods: Record<Method, MethodTotals>;
  operators: OperatorTotals[];
  nonCash: NonCashTotals[];
  netFen: number;
  count: number;
}

const zero = (): MethodTotals => ({ receiptFen: 0, refundFen: 0, reversalFen: 0, netFen: 0, count: 0 });
const zeros = () => Object.fromEntries(METHODS.map((m) => [m, zero()])) as Record<Method, MethodTotals>;
export const isMoney = (r: Pick<FigureRow, 'payMethod' | 'kind'>) => (METHODS as readonly string[]).includes(r.payMethod) && MONEY_KINDS.has(r.kind);

function add(t: MethodTotals, r: FigureRow) {
  if (r.kind === 'prepay') t.receiptFen += r.amountFen;
  else if (r.kind === 'refund') t.refundFen += -r.amountFen;
  else t.reversalFen += r.amountFen;
  t.netFen += r.amountFen;
  t.count += r.count;
}

/** The totals of one day's rows (all operators, or the rows of one). */
export function totalsOf(rows: FigureRow[]): DayTotals {
  const methods = zeros();
  const ops = new Map<string, OperatorTotals>();
  const nonCash = new Map<string, NonCashTotals>();
  let netFen = 0;
  let count = 0;
  for (const r of rows) {
    if (!isMoney(r)) {
      const key = r.kind === 'prepay' ? 'system' : r.kind;
      const n = nonCash.get(key) ?? { kind: key, amountFen: 0, count: 0 };
      n.amountFen += r.amountFen;
      n.count += r.count;
      nonCash.set(key, n);
      continue;
    }
    const m = r.payMethod as Method;
    add(methods[m], r);
    const k = String(r.operatorId ?? '');
    const o = ops.get(k) ?? { operatorId: r.operatorId, operatorName: r.operatorId == null ? '线上支付' : r.operatorName, methods: zeros(), netFen: 0, count: 0 };
    if (r.operatorId != null && r.operatorName) o.operatorName = r.operatorName;
    add(o.methods[m], r);
    o.netFen += r.amountFen;
    o.count += r.count;
    ops.set(k, o);
    netFen += r.amountFen;
    count += r.count;
  }
  const operators = [...ops.values()].sort((a, b) => (a.operatorId ?? Infinity) - (b.operatorId ?? Infinity));
  return { methods, operators, nonCash: [...nonCash.values()].sort((a, b) => a.kind.localeCompare(b.kind)), netFen, count };
}

export const NON_CASH_TEXT: Record<string, string> = {
  system: '系统入账', subsidy: '补贴', opening: '期初余额', reversal: '冲正（非实收）', refund: '退费（非实收）', withdrawal: '提现',
};

const y = (fen: number) => fenToYuan(fen);
const presentMethod = (t: MethodTotals) => ({ receipt: y(t.receiptFen), refund: y(t.refundFen), reversal: y(t.reversalFen), net: y(t.netFen), count: t.count });
const presentMethods = (m: Record<Method, MethodTotals>) =>
  METHODS.map((k) => ({ method: k, methodText: METHOD_TEXT[k], ...presentMethod(m[k]) }));

/** The totals as the pages show them (元). */
export function presentTotals(t: DayTotals) {
  return {
    methods: presentMethods(t.methods),
    operators: t.operators.map((o) => ({ operatorId: o.operatorId, operatorName: o.operatorName, methods: presentMethods(o.methods), net: y(o.netFen), count: o.count })),
    nonCash: t.nonCash.map((n) => ({ kind: n.kind, kindText: NON_CASH_TEXT[n.kind] ?? n.kind, amount: y(n.amountFen), count: n.count })),
    net: y(t.netFen),
    count: t.count,
  };
}
