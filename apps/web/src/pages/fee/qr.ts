// QR codes of receipts (SPEC §9): version 4, error correction M, size 500; the version rises (up to
// 40) when the text does not fit. Rendered as SVG, so it needs no canvas and prints sharp.
import QRCode from 'qrcode';

export const QR_DEFAULTS = { version: 4, errorCorrectionLevel: 'M' as const, width: 500 };
export const QR_MAX_VERSION = 40;

/** The options for a text: the default version 4, or the smallest version above it that fits. */
export function qrOptions(text: string) {
  const needed = QRCode.create(text, { errorCorrectionLevel: QR_DEFAULTS.errorCorrectionLevel }).version;
  if (needed > QR_MAX_VERSION) throw new RangeError('二维码内容过长');
  return { ...QR_DEFAULTS, version: Math.max(QR_DEFAULTS.version, needed), margin: 1 };
}

/** The QR code of a text as an SVG data URL. */
export async function qrSvgDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { ...qrOptions(text), type: 'svg' });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** What a receipt's QR code says (the same fields the server encodes). */
export function receiptQrText(r: { no: string; companyName: string; roomName: string; amount: string; createdAt: string }): string {
  return `票据号:${r.no};单位:${r.companyName};房间:${r.roomName};金额:${r.amount};时间:${r.createdAt}`;
}
