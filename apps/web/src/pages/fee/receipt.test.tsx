import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import QRCode from 'qrcode';
import { Receipt, receiptCapitals, type ReceiptView } from './Receipt.tsx';
import BillPrint from './BillPrint.tsx';
import { qrOptions } from './qr.ts';
import { mockServer, ok, renderPage, signIn } from './testing.tsx';
import { freshPageState } from '../../test/harness.tsx';

// The receipt: amount in figures and in Chinese capitals, the QR code (the server's or drawn here at
// version 4 / M / 500, the version rising when needed), and 打印 = POST Print/{id} then window.print().

configure({ asyncUtilTimeout: 8000 });

freshPageState();
afterEach(() => {
  vi.restoreAllMocks();
});

const DETAIL: ReceiptView = {
  id: 5, no: 'SJ2025030100000009', kind: 'prepay', kindText: '充值', payMethod: 'cash', payMethodText: '现金', amount: '1001.01',
  items: [{ item: '电费充值', amount: '1001.01' }], printCount: 0, online: false, lastPrintedAt: null, createdAt: '2025-03-01 09:30:00', operatorName: '演示管理员',
  memo: '', journalId: 9, roomId: 11, roomName: '1-101', ownerId: 21, ownerName: '王伟', ownerPhone: '13800001111', companyId: 1, areaName: '阳光园区/1号楼/1层',
  company: { id: 1, name: '阳光物业服务有限公司', address: '杭州市西湖区', phone: '0571-88888888', bankName: '中国农业银行', receiptTitle: '阳光物业收款处', receiptFooter: '客服电话 400-800-8888' },
  room: { id: 11, name: '1-101', areaName: '阳光园区/1号楼/1层' },
  owner: { id: 21, name: '王伟', phone: '13800001111' },
  amountChinese: '壹仟零壹元零壹分',
};

describe('Chinese capitals and QR options', () => {
  it('writes the amount in capitals by the PBOC rules', () => {
    expect(receiptCapitals({ amount: '1001.01', amountChinese: '' })).toBe('壹仟零壹元零壹分');
    expect(receiptCapitals({ amount: '100.00', amountChinese: '' })).toBe('壹佰元整');
    expect(receiptCapitals({ amount: '20.30', amountChinese: '' })).toBe('贰拾元叁角');
    expect(receiptCapitals({ amount: '1680.32', amountChinese: '' })).toBe('壹仟陆佰捌拾元叁角贰分');
    expect(receiptCapitals({ amount: '0.50', amountChinese: '' })).toBe('伍角');
    expect(receiptCapitals({ amount: '10.00', amountChinese: '' })).toBe('壹拾元整');
  });

  it('QR version 4, level M, size 500; longer texts raise the version', () => {
    expect(qrOptions('SJ1')).toMatchObject({ version: 4, errorCorrectionLevel: 'M', width: 500 });
    const long = '票'.repeat(200);
    const o = qrOptions(long);
    expect(o.version).toBeGreaterThan(4);
    expect(o.version).toBe(QRCode.create(long, { errorCorrectionLevel: 'M' }).version);
    expect(() => qrOptions('x'.repeat(5000))).toThrow();
  });
});

describe('the receipt', { timeout: 60_000 }, () => {
  it('shows company, room, owner, items, figures and capitals, and draws a QR code when the server sent none', async () => {
    render(<Receipt detail={DETAIL} />);
    // the company's 收据抬头 and 收据备注 (sys_config) head and close it
    expect(screen.getByRole('heading', { name: '阳光物业收款处' })).toBeTruthy();
    expect(screen.getByTestId('receipt-footer').textContent).toBe('客服电话 400-800-8888');
    expect(screen.getByText('收款收据')).toBeTruthy();
    expect(screen.getByTestId('receipt-no').textContent).toBe('SJ2025030100000009');
    expect(screen.getByText('房间：阳光园区/1号楼/1层/1-101')).toBeTruthy();
    expect(screen.getByText(/缴款人：王伟/)).toBeTruthy();
    expect(screen.getByText('电费充值')).toBeTruthy();
    expect(screen.getByTestId('receipt-amount').textContent).toBe('¥1,001.01');
    expect(screen.getByTestId('receipt-capitals').textContent).toBe('壹仟零壹元零壹分');
    expect(screen.getByTestId('receipt-print-count').textContent).toBe('0');
    const img = (await screen.findByTestId('receipt-qr')) as HTMLImageElement;
    expect(img.src).toMatch(/^data:image\/svg\+xml/);
    expect(decodeURIComponent(img.src)).toContain('<svg');
  });

  it('uses the server QR code and reads 退款凭证 for a refund', () => {
    const company = { ...DETAIL.company, receiptTitle: '', receiptFooter: '' };
    render(<Receipt detail={{ ...DETAIL, company, kind: 'refund', kindText: '退费', qrCode: 'data:image/png;base64,AAAA', amount: '100.00', amountChinese: '壹佰元整' }} />);
    expect(screen.getByRole('heading', { name: '阳光物业服务有限公司' })).toBeTruthy();
    expect(screen.queryByTestId('receipt-footer')).toBeNull();
    expect(screen.getByText('退款凭证')).toBeTruthy();
    expect(screen.getByText(/收款人：王伟/)).toBeTruthy();
    expect(screen.getByTestId('receipt-capitals').textContent).toBe('壹佰元整');
    expect((screen.getByTestId('receipt-qr') as HTMLImageElement).src).toBe('data:image/png;base64,AAAA');
  });
});

describe('票据打印 page', { timeout: 60_000 }, () => {
  it('/billprint?id=5 opens the receipt; 打印 records the print, then prints', async () => {
    signIn(['billprint'], ['finance.receiptPrint']);
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    const calls = mockServer((c) => {
      if (c.path.endsWith('/BillPrinting/List')) return ok([{ ...DETAIL }], 1);
      if (c.path.endsWith('/BillPrinting/Detail')) return ok({ ...DETAIL, qrCode: 'data:image/png;base64,AAAA' });
      if (c.path.endsWith('/BillPrinting/Print/5')) return ok({ id: 5, printCount: 1 });
      return undefined;
    });
    renderPage('billprint', <BillPrint />, '/billprint?id=5');
    expect((await screen.findByTestId('receipt-capitals')).textContent).toBe('壹仟零壹元零壹分');
    expect(calls.find((c) => c.path.endsWith('/BillPrinting/Detail'))!.query.get('id')).toBe('5');
    fireEvent.click(screen.getByRole('button', { name: /打\s*印/ }));
    await waitFor(() => expect(print).toHaveBeenCalledTimes(1));
    expect(calls.find((c) => c.path.endsWith('/BillPrinting/Print/5'))!.method).toBe('POST');
    expect(screen.getByTestId('receipt-print-count').textContent).toBe('1');
  });

  it('without finance.receiptPrint the receipt shows but cannot be printed', async () => {
    signIn(['billprint'], []);
    mockServer((c) => {
      if (c.path.endsWith('/BillPrinting/List')) return ok([{ ...DETAIL }], 1);
      if (c.path.endsWith('/BillPrinting/Detail')) return ok({ ...DETAIL, qrCode: 'data:image/png;base64,AAAA' });
      return undefined;
    });
    renderPage('billprint', <BillPrint />);
    fireEvent.click(await screen.findByTestId('receipt-5'));
    await screen.findByTestId('receipt-capitals');
    expect(screen.queryByRole('button', { name: /打\s*印/ })).toBeNull();
  });
});
