import JSZip from 'jszip';
import { yuan } from '../providers/alipay.ts';

// LOCAL EMULATOR: the providers' daily statement files, written in their published formats from the
// emulator's own order records (parsed back by providers/bills.ts): WeChat Pay's tradebill CSV (every
// field prefixed with a backtick, a summary section) and Alipay's zip of GBK CSVs (业务明细 and its 汇总).

export interface BillTrade {
  tradeNo: string;
  outTradeNo: string;
  subject: string;
  amountFen: number;
  /** YYYY-MM-DD HH:mm:ss Beijing time */
  createdAt: string;
  paidAt: string;
}

/** A refund of the day (the refund's time; its order's trade number and amount). */
export interface BillRefund {
  tradeNo: string;
  outTradeNo: string;
  outRefundNo: string;
  refundId: string;
  subject: string;
  orderFen: number;
  amountFen: number;
  refundedAt: string;
}

const WX_HEADER = '交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,应结订单金额,代金券金额,'
  + '微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率,订单金额,申请退款金额,费率备注';

/** WeChat Pay tradebill (bill_type ALL), UTF-8. */
export function wechatTradeBill(m: { appid: string; mchid: string }, trades: BillTrade[], refunds: BillRefund[] = []): string {
  const bt = (v: string | number) => `\`${v}`;
  const fee = (fen: number) => (Math.round(fen * 0.006) / 100).toFixed(5);
  const rows = trades.map((t) =>
    [t.paidAt, m.appid, m.mchid, '0', '', t.tradeNo, t.outTradeNo, 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o', 'NATIVE', 'SUCCESS', 'OTHERS', 'CNY', yuan(t.amountFen), '0.00',
      '0', '0', '0.00', '0.00', '', '', t.subject, '', fee(t.amountFen), '0.60%', yuan(t.amountFen), '0.00', ''].map(bt).join(','));
  // a refund row: 交易状态 REFUND, 应结订单金额 0, the refund's numbers and 退款金额, the fee given back
  const refundRows = refunds.map((r) =>
    [r.refundedAt, m.appid, m.mchid, '0', '', r.tradeNo, r.outTradeNo, 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o', 'NATIVE', 'REFUND', 'OTHERS', 'CNY', '0.00', '0.00',
      r.refundId, r.outRefundNo, yuan(r.amountFen), '0.00', 'ORIGINAL', 'SUCCESS', r.subject, '', `-${fee(r.amountFen)}`, '0.60%', '0.00', yuan(r.amountFen), ''].map(bt).join(','));
  const sum = trades.reduce((s, t) => s + t.amountFen, 0);
  const refunded = refunds.reduce((s, r) => s + r.amountFen, 0);
  const fees = trades.reduce((s, t) => s + Number(fee(t.amountFen)), 0) - refunds.reduce((s, r) => s + Number(fee(r.amountFen)), 0);
  return [
    WX_HEADER, ...rows, ...refundRows,
    '总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额',
    [trades.length + refunds.length, yuan(sum), yuan(refunded), '0.00', fees.toFixed(5), yuan(sum), yuan(refunded)].map(bt).join(','),
  ].join('\r\n') + '\r\n';
}

const ALI_HEADER = '支付宝交易号,商户订单号,业务类型,商品名称,创建时间,完成时间,门店编号,门店名称,操作员,终端号,对方账户,订单金额（元）,商家实收（元）,'
  + '支付宝红包（元）,集分宝（元）,支付宝优惠（元）,商家优惠（元）,券核销金额（元）,券名称,商家红包消费金额（元）,卡消费金额（元）,退款批次号/请求号,服务费（元）,分润（元）,备注';

const cn = (day: string) => day.replace(/^(\d{4})-(\d{2})-(\d{2})$/, '$1年$2月$3日');

/** Alipay's trade bill for `day`: a zip of 业务明细 and 业务明细(汇总), GBK. */
export async function alipayBillZip(m: { pid: string; day: string; exportedAt: string }, trades: BillTrade[], refunds: BillRefund[] = []): Promise<Buffer> {
  const pad = (v: string) => `${v}\t`;
  const sum = trades.reduce((s, t) => s + t.amountFen, 0);
  const fee = (fen: number) => (Math.round(fen * 0.006) / 100).toFixed(2);
  const next = new Date(Date.parse(`${m.day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const detail = [
    '#支付宝业务明细查询',
    `#账号：[${m.pid}0156]`,
    `#起始日期：[${cn(m.day)} 00:00:00]   终止日期：[${cn(next)} 00:00:00]`,
    '#-----------------------------------------业务明细列表----------------------------------------',
    ALI_HEADER,
    ...trades.map((t) =>
      [pad(t.tradeNo), pad(t.outTradeNo), pad('交易'), pad(t.subject.replace(/,/g, '，')), t.createdAt, t.paidAt, '', '', '', '', pad('dem***@example.com'), yuan(t.amountFen), yuan(t.amountFen),
        '0.00', '0.00', '0.00', '0.00', '0.00', '', '0.00', '0.00', '', `-${fee(t.amountFen)}`, '0.00', ''].join(',')),
    // 退款 rows: the refunded amount negative, the request number in 退款批次号/请求号
    ...refunds.map((r) =>
      [pad(r.tradeNo), pad(r.outTradeNo), pad('退款'), pad(r.subject.replace(/,/g, '，')), r.refundedAt, r.refundedAt, '', '', '', '', pad('dem***@example.com'), `-${yuan(r.amountFen)}`, `-${yuan(r.amountFen)}`,
        '0.00', '0.00', '0.00', '0.00', '0.00', '', '0.00', '0.00', pad(r.outRefundNo), fee(r.amountFen), '0.00', ''].join(',')),
    '#-----------------------------------------业务明细列表结束------------------------------------',
    `#交易合计：${trades.length}笔，商家实收共${yuan(sum)}元，商家优惠共0.00元`,
    `#退款合计：${refunds.length}笔，商家实收退款共-${yuan(refunds.reduce((s, r) => s + r.amountFen, 0))}元，商家优惠退款共0.00元`,
    `#导出时间：[${m.exportedAt}]`,
  ].join('\r\n');
  const summary = [
    '#支付宝业务汇总查询',
    `#账号：[${m.pid}0156]`,
    `#起始日期：[${cn(m.day)} 00:00:00]   终止日期：[${cn(next)} 00:00:00]`,
    '#-----------------------------------------业务汇总列表----------------------------------------',
    '门店编号,门店名称,交易订单总笔数,退款订单总笔数,订单金额（元）,商家实收（元）,支付宝优惠（元）,商家优惠（元）,卡消费金额（元）,服务费（元）,分润（元）,实收净额（元）',
    ['', '合计', trades.length, 0, yuan(sum), yuan(sum), '0.00', '0.00', '0.00', '0.00', '0.00', yuan(sum)].join(','),
    '#-----------------------------------------业务汇总列表结束------------------------------------',
    `#导出时间：[${m.exportedAt}]`,
  ].join('\r\n');
  const base = `${m.pid}0156_${m.day.replace(/-/g, '')}`;
  const zip = new JSZip();
  zip.file(`${base}_业务明细.csv`, gbk(detail), { date: new Date(0) });
  zip.file(`${base}_业务明细(汇总).csv`, gbk(summary), { date: new Date(0) });
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

let table: Map<number, number> | undefined;

/** GBK bytes of a text (the table built once from the platform's GBK decoder; unmapped characters become '?'). */
export function gbk(text: string): Buffer {
  if (!table) {
    const t = new Map<number, number>();
    const d = new TextDecoder('gbk');
    for (let a = 0x81; a <= 0xfe; a++) {
      for (let b = 0x40; b <= 0xfe; b++) {
        if (b === 0x7f) continue;
        const ch = d.decode(Uint8Array.of(a, b));
        if (ch.length === 1 && ch !== '\uFFFD' && !t.has(ch.charCodeAt(0))) t.set(ch.charCodeAt(0), (a << 8) | b);
      }
    }
    table = t;
  }
  const out: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) out.push(c);
    else {
      const g = table.get(c);
      if (g === undefined) out.push(0x3f);
      else out.push(g >> 8, g & 0xff);
    }
  }
  return Buffer.from(out);
}
