import { describe, expect, it } from 'vitest';
import { hasContent, imageSourceAllowed, sanitizeNotice } from './notice-html.ts';

describe('notice HTML', () => {
  it('drops scripts, handlers and javascript: links, keeps the editor\'s formatting', () => {
    const out = sanitizeNotice('<p style="text-align:center;position:fixed" onclick="x()">停水<b>通知</b><script>alert(1)</script></p><a href="javascript:alert(1)">x</a><a href="https://a.cn/n">详情</a>');
    expect(out).toBe('<p style="text-align:center">停水<b>通知</b></p><a target="_blank" rel="noopener noreferrer">x</a><a href="https://a.cn/n" target="_blank" rel="noopener noreferrer">详情</a>');
  });
  it('keeps http(s) and inline raster images, drops other sources', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    expect(sanitizeNotice(`<img src="https://cdn.example.com/a.png" alt="图"><img src="${png}">`)).toBe(`<img src="https://cdn.example.com/a.png" alt="图" /><img src="${png}" />`);
    expect(sanitizeNotice('<img src="data:image/svg+xml;base64,PHN2Zz4=" onerror="x()"><img src="javascript:alert(1)">')).toBe('');
    expect(imageSourceAllowed('//evil.example/x.png')).toBe(false);
  });
  it('knows an empty body from one with text or an image', () => {
    expect(hasContent('<p><br></p><p>&nbsp;</p>')).toBe(false);
    expect(hasContent('<p>停电</p>')).toBe(true);
    expect(hasContent('<img src="https://a.cn/x.png" />')).toBe(true);
  });
});
