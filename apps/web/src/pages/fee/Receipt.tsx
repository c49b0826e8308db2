// 票据 (BillPrinting/Detail): the company, receipt number and date, the room and owner, the items,
// the amount in figures and in Chinese capitals (amountToChinese), the QR code (the server's, or
// drawn here at version 4 / M / 500), the pay method, the operator and the print count. 打印 records
// the print (POST Print/{id}, finance.receiptPrint) and then prints only the receipt (@media print).
import { useEffect, useState } from 'react';
import { Button, Modal, Space, Spin, Typography } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { amountToChinese } from '@meter/contracts';
import { useCan } from '../../app/session.ts';
import { billingApi, type ReceiptDetail } from './billingApi.ts';
import { financeApi, type ReceiptVoid } from './financeApi.ts';
import { fmtTime, money } from './money.ts';
import { qrSvgDataUrl, receiptQrText } from './qr.ts';
import './receipt.css';

const REFUND_KINDS = new Set(['refund', 'close']);

/** 壹佰元整 etc. for a receipt; the server's text when it sent one, computed here otherwise. */
export function receiptCapitals(detail: Pick<ReceiptDetail, 'amount' | 'amountChinese'>): string {
  return amountToChinese(detail.amount) || detail.amountChinese || '';
}

/** A receipt as drawn: the server's answer (BillPrinting/Detail); without its QR code the page draws one. */
export type ReceiptView = Omit<ReceiptDetail, 'qrCode'> & Partial<Pick<ReceiptDetail, 'qrCode'>>;

function useQr(detail: ReceiptView): string | null {
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    if (detail.qrCode) return;
    let alive = true;
    const text = receiptQrText({
      no: detail.no, companyName: detail.company?.name ?? '', roomName: detail.room?.name ?? detail.roomName ?? '', amount: detail.amount, createdAt: detail.createdAt,
    });
    qrSvgDataUrl(text).then((u) => alive && setLocal(u), () => alive && setLocal(null));
    return () => {
      alive = false;
    };
  }, [detail]);
  return detail.qrCode || local;
}

/** The printable receipt itself; a voided one (作废/冲正) carries the 作废 stamp and why. */
export function Receipt({ detail, voided }: { detail: ReceiptView; voided?: ReceiptVoid | null }) {
  const qr = useQr(detail);
  const refund = REFUND_KINDS.has(detail.kind);
  const capitals = receiptCapitals(detail);
  const place = [detail.room?.areaName ?? detail.areaName, detail.room?.name ?? detail.roomName].filter(Boolean).join('/');
  return (
    <div className={`receipt-paper${voided ? ' receipt-voided' : ''}`} data-testid="receipt">
      {voided ? <div className="receipt-void-stamp" data-testid="receipt-void-stamp">作废</div> : null}
      <h2>{detail.company?.receiptTitle || detail.company?.name || ''}</h2>
      <div className="receipt-sub">
        <b>{refund ? '退款凭证' : '收款收据'}</b>（{detail.kindText}）{voided ? <b className="receipt-void-text">【已作废】</b> : null}
      </div>
      <div className="receipt-meta">
        <span>票据号：<span data-testid="receipt-no">{detail.no}</span></span>
        <span>日期：{fmtTime(detail.createdAt)}</span>
      </div>
      <div className="receipt-meta">
        <span>房间：{place || '-'}</span>
        <span>{refund ? '收款人' : '缴款人'}：{detail.owner?.name ?? detail.ownerName ?? '-'}{detail.owner?.phone ? `（${detail.owner.phone}）` : ''}</span>
      </div>
      <table>
        <thead>
          <tr>
            <th style={{ width: 48 }}>序号</th>
            <th>项目</th>
            <th className="receipt-amount" style={{ width: 160 }}>金额</th>
          </tr>
        </thead>
        <tbody>
          {detail.items.map((it, i) => (
            <tr key={i}>
              <td>{i + 1}</td>
              <td>{it.item}</td>
              <td className="receipt-amount">{money(it.amount)}</td>
            </tr>
          ))}
          <tr>
            <td colSpan={2}>
              合计人民币（大写）：<b data-testid="receipt-capitals">{capitals}</b>
            </td>
            <td className="receipt-amount">
              <b data-testid="receipt-amount">{money(detail.amount)}</b>
            </td>
          </tr>
        </tbody>
      </table>
      <div className="receipt-foot">
        <div>
          <div>支付方式：{detail.payMethodText}</div>
          <div>经办人：{detail.operatorName || '-'}</div>
          {detail.memo ? <div>备注：{detail.memo}</div> : null}
          {voided ? (
            <div className="receipt-void-text" data-testid="receipt-void-info">
              作废：{voided.reason}（{voided.voidedByName}，{fmtTime(voided.voidedAt)}，冲正 {money(voided.amount)}，记入营业日 {voided.businessDay}）
            </div>
          ) : null}
          {detail.company?.bankName ? <div>结算银行：{detail.company.bankName}</div> : null}
          {detail.company?.address || detail.company?.phone ? (
            <div>
              {detail.company.address ? `地址：${detail.company.address}` : ''} {detail.company.phone ? `电话：${detail.company.phone}` : ''}
            </div>
          ) : null}
          {detail.company?.receiptFooter ? <div data-testid="receipt-footer">{detail.company.receiptFooter}</div> : null}
          <div>打印次数：<span data-testid="receipt-print-count">{detail.printCount}</span></div>
        </div>
        <div className="receipt-qr">{qr ? <img src={qr} alt="票据二维码" data-testid="receipt-qr" /> : null}</div>
      </div>
    </div>
  );
}

/** The receipt in a dialog, with 打印. */
export function ReceiptModal({ id, company, onClose, onPrinted }: { id: number | null; company?: string; onClose(): void; onPrinted?(): void }) {
  const canPrint = useCan('finance.receiptPrint');
  const client = useQueryClient();
  const [printing, setPrinting] = useState(false);
  const key = ['receiptDetail', id, company];
  const { data, isFetching } = useQuery({ queryKey: key, queryFn: () => billingApi.receipt(id!, company), enabled: id != null });
  const voids = useQuery({ queryKey: ['receiptVoid', id, company], queryFn: () => financeApi.voids([id!], company), enabled: id != null });

  const print = async () => {
    if (!data) return;
    setPrinting(true);
    try {
      const r = await billingApi.printReceipt(data.id, company);
      client.setQueryData<ReceiptDetail>(key, (d) => (d ? { ...d, printCount: r.printCount } : d));
      onPrinted?.();
      // let React paint the new count, then print only the receipt (@media print)
      setTimeout(() => window.print(), 50);
    } catch {
      // the request wrapper showed why
    } finally {
      setPrinting(false);
    }
  };

  return (
    <Modal
      open={id != null}
      title="票据预览"
      width={820}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space className="receipt-no-print">
          <Button onClick={onClose}>关闭</Button>
          {canPrint && (
            <Button type="primary" icon={<PrinterOutlined />} loading={printing} disabled={!data} onClick={() => void print()}>
              打印
            </Button>
          )}
        </Space>
      }
    >
      <Spin spinning={isFetching && !data}>
        {data ? (
          <div className="receipt-print">
            <Receipt detail={data} voided={voids.data?.[0] ?? null} />
          </div>
        ) : (
          <Typography.Text type="secondary">正在加载票据…</Typography.Text>
        )}
      </Spin>
    </Modal>
  );
}
