import JSZip from 'jszip';

// The providers' daily trade statements (对账单), parsed from their published file formats:
// - WeChat Pay v3 tradebill (GET /v3/bill/tradebill → download_url, hash SHA1): a UTF-8 CSV whose every
//   field starts with a backtick (`), a header row, one row per trade (交易时间,公众账号ID,商户号,…,
//   商户订单号,…,交易状态,…,应结订单金额,…,订单金额,…), then a summary header (总交易单数,应结订单总金额,…)
//   and its one row;
// - Alipay (alipay.data.dataservice.bill.downloadurl.query, bill_type trade → bill_download_url): a zip
//   of GBK CSVs, `<pid>_<yyyymmdd>_业务明细.csv` (comment lines starting with #, the header 支付宝交易号,
//   商户订单号,业务类型,商品名称,创建时间,完成时间,…,订单金额（元）,商家实收（元）,…, fields padded with
//   tabs/spaces, #交易合计 at the end) and `…_业务明细(汇总).csv`.
// The payments (交易状态 SUCCESS / 业务类型 交易) and the refunds (交易状态 REFUND with 商户退款单号 and
// 退款金额 / 业务类型 退款 with 退款批次号/请求号 and the negative 商家实收) are read; refund rows carry kind 'refund'.

/** One paid trade of a statement. */
export interface StatementRow {
  /** the provider's transaction number (微信订单号 / 支付宝交易号) */
  tradeNo: string;
  /** 商户订单号 */
  outTradeNo: string;
  /** when it was paid, YYYY-MM-DD HH:mm:ss Beijing time */
  tradeTime: string;
  /** the order amount, 分 (a refund row: the amount refunded) */
  amountFen: number;
  /** a refund row (else a payment) */
  kind?: 'refund';
  /** a refund row's 商户退款单号 / 退款请求号 (our out_refund_no) */
  outRefundNo?: string;
}

export class StatementError extends Error {}

/** '12.50' / '12.5' / '12' → 分; anything else NaN */
export function billFen(s: string | undefined): number {
  const v = (s ?? '').trim();
  return /^-?\d{1,12}(\.\d{1,2})?$/.test(v) ? Math.round(Number(v) * 100) : NaN;
}

const norm = (h: string) => h.trim().replace(/（/g, '(').replace(/）/g, ')');

function column(header: string[], ...names: string[]): number {
  for (const n of names) {
    const i = header.findIndex((h) => norm(h) === norm(n));
    if (i >= 0) return i;
  }
  throw new StatementError(`对账单缺少列：${names[0]}`);
}

/** The WeChat Pay tradebill (bill_type ALL) text → its paid trades; the summary row must agree with them. */
export function parseWechatTradeBill(text: string): StatementRow[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l.trim() !== '');
  if (!lines.length) return [];
  const header = lines[0].split(',');
  const at = {
    time: column(header, '交易时间'), tradeNo: column(header, '微信订单号'), outTradeNo: column(header, '商户订单号'), state: column(header, '交易状态'),
    settled: column(header, '应结订单金额'), total: header.some((h) => norm(h) === '订单金额') ? column(header, '订单金额') : -1,
    refundNo: column(header, '商户退款单号'), refunded: column(header, '退款金额'),
  };
  // every field starts with a backtick, so `,\`` separates fields even when a product name holds a comma
  const fields = (l: string) => (l.startsWith('`') ? l.slice(1).split(',`') : l.split(','));
  const rows: StatementRow[] = [];
  let settledSum = 0;
  let count = 0;
  let i = 1;
  for (; i < lines.length && !lines[i].startsWith('总交易单数'); i++) {
    const f = fields(lines[i]);
    count++;
    const settled = billFen(f[at.settled]);
    if (!Number.isFinite(settled)) throw new StatementError(`微信支付对账单第 ${i + 1} 行金额无效`);
    settledSum += settled;
    if (f[at.state]?.trim() === 'REFUND') {
      const refundFen = billFen(f[at.refunded]);
      if (!Number.isFinite(refundFen)) throw new StatementError(`微信支付对账单第 ${i + 1} 行退款金额无效`);
      rows.push({ tradeNo: f[at.tradeNo].trim(), outTradeNo: f[at.outTradeNo].trim(), tradeTime: f[at.time].trim(), amountFen: refundFen, kind: 'refund', outRefundNo: f[at.refundNo].trim() });
      continue;
    }
    if (f[at.state]?.trim() !== 'SUCCESS') continue;
    const amountFen = at.total >= 0 && f[at.total]?.trim() ? billFen(f[at.total]) : settled;
    rows.push({ tradeNo: f[at.tradeNo].trim(), outTradeNo: f[at.outTradeNo].trim(), tradeTime: f[at.time].trim(), amountFen });
  }
  if (i < lines.length - 1) {
    const sh = lines[i].split(',');
    const sv = fields(lines[i + 1]);
    const n = Number(sv[column(sh, '总交易单数')]);
    const total = billFen(sv[column(sh, '应结订单总金额')]);
    if (n !== count || total !== settledSum) throw new StatementError('微信支付对账单汇总与明细不符');
  }
  return rows;
}

/** The CSV text of Alipay's 业务明细 (already decoded from GBK) → its paid trades. */
export function parseAlipayDetail(text: string): StatementRow[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const h = lines.findIndex((l) => l.trim().startsWith('支付宝交易号'));
  if (h < 0) throw new StatementError('支付宝对账单缺少业务明细表头');
  const header = lines[h].split(',');
  const at = {
    tradeNo: column(header, '支付宝交易号'), outTradeNo: column(header, '商户订单号'), type: column(header, '业务类型'),
    done: column(header, '完成时间'), amount: column(header, '订单金额(元)', '订单金额'),
    received: column(header, '商家实收(元)', '商家实收'), refundNo: column(header, '退款批次号/请求号'),
  };
  const rows: StatementRow[] = [];
  let count = 0;
  for (let i = h + 1; i < lines.length && !lines[i].startsWith('#'); i++) {
    if (!lines[i].trim()) continue;
    const f = lines[i].split(',').map((x) => x.trim());
    if (f[at.type] === '退款') {
      const refundFen = Math.abs(billFen(f[at.received]));
      if (!Number.isFinite(refundFen)) throw new StatementError(`支付宝对账单第 ${i + 1} 行退款金额无效`);
      rows.push({ tradeNo: f[at.tradeNo], outTradeNo: f[at.outTradeNo], tradeTime: f[at.done], amountFen: refundFen, kind: 'refund', outRefundNo: f[at.refundNo] });
      continue;
    }
    if (f[at.type] !== '交易') continue;
    const amountFen = billFen(f[at.amount]);
    if (!Number.isFinite(amountFen)) throw new StatementError(`支付宝对账单第 ${i + 1} 行金额无效`);
    count++;
    rows.push({ tradeNo: f[at.tradeNo], outTradeNo: f[at.outTradeNo], tradeTime: f[at.done], amountFen });
  }
  const total = lines.find((l) => l.startsWith('#交易合计'));
  const m = total ? /#交易合计：(\d+)笔/.exec(total) : null;
  if (m && Number(m[1]) !== count) throw new StatementError('支付宝对账单交易合计与明细不符');
  return rows;
}

/** The zip Alipay's bill_download_url answers → the paid trades of its 业务明细 file (GBK). */
export async function parseAlipayBillZip(zip: Buffer): Promise<StatementRow[]> {
  const gbk = new TextDecoder('gbk');
  let z: JSZip;
  try {
    z = await JSZip.loadAsync(zip, { decodeFileName: (b) => gbk.decode(b as Uint8Array) });
  } catch {
    throw new StatementError('支付宝对账单文件不是有效的 zip');
  }
  for (const f of Object.values(z.files)) {
    if (f.dir || f.name.includes('汇总')) continue;
    const text = gbk.decode(await f.async('uint8array'));
    if (text.split(/\r?\n/).some((l) => l.trim().startsWith('支付宝交易号'))) return parseAlipayDetail(text);
  }
  throw new StatementError('支付宝对账单中没有业务明细文件');
}
