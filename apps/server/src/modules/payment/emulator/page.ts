// The LOCAL EMULATOR's payer pages (扫码支付): plain HTML with a form, no scripts.

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const shell = (title: string, body: string) => `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title>
<style>body{font-family:sans-serif;max-width:420px;margin:40px auto;padding:0 16px;color:#222}
.card{border:1px solid #ddd;border-radius:8px;padding:20px}.amount{font-size:32px;font-weight:bold;margin:12px 0}
.note{color:#888;font-size:12px;margin-top:24px}button{width:100%;padding:12px;font-size:18px;border:0;border-radius:6px;color:#fff;background:#07c160}
button.alipay{background:#1677ff}dt{color:#888}dd{margin:0 0 8px}</style></head>
<body><div class="card">${body}</div><p class="note">本页面由本地支付模拟器提供（演示用，非真实微信支付/支付宝），用于模拟付款人扫码付款。</p></body></html>`;

export function payerPage(o: { channel: 'wechat' | 'alipay'; subject: string; amount: string; outTradeNo: string; state: string; action: string }) {
  const name = o.channel === 'wechat' ? '微信支付' : '支付宝';
  const state = o.state === 'paid' ? '<p>该订单已支付。</p>' : o.state === 'closed' ? '<p>该订单已关闭或已过期。</p>' : '';
  const form = o.state === 'open'
    ? `<form method="post" action="${esc(o.action)}"><button type="submit" class="${o.channel}">确认支付</button></form>`
    : state;
  return shell(`${name} - 扫码支付`, `<h2>${name}</h2><dl><dt>商品</dt><dd>${esc(o.subject)}</dd><dt>商户订单号</dt><dd>${esc(o.outTradeNo)}</dd></dl>
<div class="amount">¥${esc(o.amount)}</div>${form}`);
}

export const resultPage = (title: string, text: string) => shell(title, `<h2>${esc(title)}</h2><p>${esc(text)}</p>`);
