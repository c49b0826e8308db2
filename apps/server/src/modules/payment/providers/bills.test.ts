import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { alipayBillZip, gbk, wechatTradeBill } from '../emulator/bills.ts';
import { billFen, parseAlipayBillZip, parseAlipayDetail, parseWechatTradeBill, StatementError } from './bills.ts';

// The statement parsers on files in the providers' published formats (the examples of the WeChat Pay
// and Alipay documentation, one row each kind), and on what the emulator writes.

const WX = [
  '交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率,订单金额,申请退款金额,费率备注',
  '`2026-11-25 10:06:53,`wx2421b1c4370ec43b,`10000100,`0,`,`4200000553202611255587263836,`WX2026112510065312345678,`oUpF8uMuAJO_M2pxb1Q9zNjWeS6o,`NATIVE,`SUCCESS,`OTHERS,`CNY,`25.00,`0.00,`0,`0,`0.00,`0.00,`,`,`电费,充值,`,`0.15000,`0.60%,`25.00,`0.00,`',
  '`2026-11-25 11:00:00,`wx2421b1c4370ec43b,`10000100,`0,`,`4200000553202611255587263837,`WX2026112511000012345678,`oUpF8uMuAJO_M2pxb1Q9zNjWeS6o,`NATIVE,`REFUND,`OTHERS,`CNY,`0.00,`0.00,`50000000382019052709732678859,`R1,`5.00,`0.00,`ORIGINAL,`SUCCESS,`水费,`,`-0.03000,`0.60%,`0.00,`5.00,`',
  '`2026-11-25 12:30:01,`wx2421b1c4370ec43b,`10000100,`0,`,`4200000553202611255587263838,`WX2026112512300112345678,`oUpF8uMuAJO_M2pxb1Q9zNjWeS6o,`NATIVE,`SUCCESS,`OTHERS,`CNY,`8.80,`0.00,`0,`0,`0.00,`0.00,`,`,`水费,`,`0.05000,`0.60%,`8.80,`0.00,`',
  '总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额',
  '`3,`33.80,`5.00,`0.00,`0.17000,`33.80,`5.00',
].join('\r\n');

const ALI = [
  '#支付宝业务明细查询',
  '#账号：[20880000000000010156]',
  '#起始日期：[2026年11月25日 00:00:00]   终止日期：[2026年11月26日 00:00:00]',
  '#-----------------------------------------业务明细列表----------------------------------------',
  '支付宝交易号,商户订单号,业务类型,商品名称,创建时间,完成时间,门店编号,门店名称,操作员,终端号,对方账户,订单金额（元）,商家实收（元）,支付宝红包（元）,集分宝（元）,支付宝优惠（元）,商家优惠（元）,券核销金额（元）,券名称,商家红包消费金额（元）,卡消费金额（元）,退款批次号/请求号,服务费（元）,分润（元）,备注',
  '2026112522001400001234567890\t,ALI2026112509000012345678\t,交易\t,电费充值\t,2026-11-25 09:00:00,2026-11-25 09:00:12,,,,,dem***@example.com\t,100.00,100.00,0.00,0.00,0.00,0.00,0.00,,0.00,0.00,,-0.60,0.00,',
  '2026112522001400001234567891\t,ALI2026112509000012345678\t,退款\t,电费充值\t,2026-11-25 09:00:00,2026-11-25 15:00:00,,,,,dem***@example.com\t,-10.00,-10.00,0.00,0.00,0.00,0.00,0.00,,0.00,0.00,R1\t,0.06,0.00,',
  '#-----------------------------------------业务明细列表结束------------------------------------',
  '#交易合计：1笔，商家实收共100.00元，商家优惠共0.00元',
  '#退款合计：1笔，商家实收退款共-10.00元，商家优惠退款共0.00元',
  '#导出时间：[2026年11月26日 09:12:36]',
].join('\r\n');

describe('statement parsers', () => {
  it('WeChat Pay tradebill: the paid rows (a comma inside a product name kept), the REFUND rows with 退款金额, the summary checked', () => {
    expect(parseWechatTradeBill(`\uFEFF${WX}`)).toEqual([
      { tradeNo: '4200000553202611255587263836', outTradeNo: 'WX2026112510065312345678', tradeTime: '2026-11-25 10:06:53', amountFen: 2500 },
      { tradeNo: '4200000553202611255587263837', outTradeNo: 'WX2026112511000012345678', tradeTime: '2026-11-25 11:00:00', amountFen: 500, kind: 'refund', outRefundNo: 'R1' },
      { tradeNo: '4200000553202611255587263838', outTradeNo: 'WX2026112512300112345678', tradeTime: '2026-11-25 12:30:01', amountFen: 880 },
    ]);
    expect(() => parseWechatTradeBill(WX.replace('`3,`33.80', '`3,`33.81'))).toThrow(StatementError);
    expect(() => parseWechatTradeBill(WX.replace('`3,`33.80', '`2,`33.80'))).toThrow(/汇总与明细不符/);
    expect(() => parseWechatTradeBill(WX.replace('商户订单号', '订单'))).toThrow(/缺少列：商户订单号/);
    expect(parseWechatTradeBill('')).toEqual([]);
  });

  it('Alipay 业务明细: trades and 退款 rows (the request number, the refunded 商家实收), padding trimmed, 交易合计 checked', () => {
    expect(parseAlipayDetail(ALI)).toEqual([
      { tradeNo: '2026112522001400001234567890', outTradeNo: 'ALI2026112509000012345678', tradeTime: '2026-11-25 09:00:12', amountFen: 10000 },
      { tradeNo: '2026112522001400001234567891', outTradeNo: 'ALI2026112509000012345678', tradeTime: '2026-11-25 15:00:00', amountFen: 1000, kind: 'refund', outRefundNo: 'R1' },
    ]);
    expect(() => parseAlipayDetail(ALI.replace('#交易合计：1笔', '#交易合计：2笔'))).toThrow(/交易合计与明细不符/);
    expect(() => parseAlipayDetail('#支付宝业务明细查询')).toThrow(/缺少业务明细表头/);
  });

  it('Alipay zip of GBK files (names in GBK too), the summary file skipped', async () => {
    const zip = new JSZip();
    zip.file('20880000000000010156_20261125_业务明细(汇总).csv', gbk('#支付宝业务汇总查询\r\n门店编号,门店名称\r\n'));
    zip.file('20880000000000010156_20261125_业务明细.csv', gbk(ALI));
    const buf = await zip.generateAsync({ type: 'nodebuffer', encodeFileName: (n) => gbk(n).toString('latin1') });
    expect(await parseAlipayBillZip(buf)).toHaveLength(2);
    expect(gbk('业务明细').equals(Buffer.from([0xd2, 0xb5, 0xce, 0xf1, 0xc3, 0xf7, 0xcf, 0xb8]))).toBe(true);
    await expect(parseAlipayBillZip(Buffer.from('not a zip'))).rejects.toThrow(/不是有效的 zip/);
  });

  it('what the emulator writes parses back', async () => {
    const trades = [
      { tradeNo: '4200001', outTradeNo: 'WX2026112510000000000001', subject: '电费充值', amountFen: 1234, createdAt: '2026-11-25 10:00:00', paidAt: '2026-11-25 10:00:05' },
      { tradeNo: '4200002', outTradeNo: 'WX2026112510000000000002', subject: '水费, 充值', amountFen: 1, createdAt: '2026-11-25 11:00:00', paidAt: '2026-11-25 11:00:05' },
    ];
    const refunds = [{ tradeNo: '4200001', outTradeNo: 'WX2026112510000000000001', outRefundNo: 'WX2026112510000000000001Rreq00001', refundId: '5000001', subject: '电费充值', orderFen: 1234, amountFen: 234, refundedAt: '2026-11-25 12:00:00' }];
    const want = [
      ...trades.map((t) => ({ tradeNo: t.tradeNo, outTradeNo: t.outTradeNo, tradeTime: t.paidAt, amountFen: t.amountFen })),
      { tradeNo: '4200001', outTradeNo: 'WX2026112510000000000001', tradeTime: '2026-11-25 12:00:00', amountFen: 234, kind: 'refund', outRefundNo: 'WX2026112510000000000001Rreq00001' },
    ];
    expect(parseWechatTradeBill(wechatTradeBill({ appid: 'wx1', mchid: '1900009191' }, trades, refunds))).toEqual(want);
    expect(await parseAlipayBillZip(await alipayBillZip({ pid: '2088000000000001', day: '2026-11-25', exportedAt: '2026-11-26 09:00:00' }, trades, refunds))).toEqual(want);
    expect(await parseAlipayBillZip(await alipayBillZip({ pid: '2088000000000001', day: '2026-11-25', exportedAt: '2026-11-26 09:00:00' }, []))).toEqual([]);
  });

  it('amounts', () => {
    expect([billFen('25.00'), billFen(' 8.8 '), billFen('-10.00'), billFen('1'), billFen('1.234'), billFen('')]).toEqual([2500, 880, -1000, 100, NaN, NaN]);
  });
});
