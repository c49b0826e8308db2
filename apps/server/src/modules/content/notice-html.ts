import sanitizeHtml from 'sanitize-html';

// A notice's rich text as stored and shown: HTML reduced to what the web editor makes (paragraphs,
// headings, emphasis, lists, links, tables, images), with no script, no event handler, no style
// beyond alignment and colour, links only http(s)/mailto/tel and opening in a new tab.
//
// Images: `imageSourceAllowed` decides which sources an <img> may keep. Today an http(s) URL or an
// inline data:image/* (png, jpeg, gif, webp). The uploads module (branch `uploads`) plugs in here:
// replace the check with its own (a URL it issued for this company, or a public upload), and the web
// editor's image button (apps/web/src/pages/added/RichTextEditor.tsx, `pickImage`) with its picker.

const DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp);base64,[a-z0-9+/=\s]+$/i;

/** The uploads hook: whether an <img src> may stay in a notice. */
export function imageSourceAllowed(src: string): boolean {
  return /^https?:\/\//i.test(src) || DATA_IMAGE.test(src);
}

const COLOR = [/^#(0x)?[0-9a-f]+$/i, /^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$/];

/** The notice's HTML as it may be stored and shown to anyone. */
export function sanitizeNotice(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [
      'p', 'br', 'div', 'span', 'h1', 'h2', 'h3', 'h4', 'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'blockquote',
      'ul', 'ol', 'li', 'a', 'img', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'font',
    ],
    allowedAttributes: {
      a: ['href', 'target', 'rel'],
      img: ['src', 'alt', 'width', 'height'],
      font: ['color'],
      td: ['colspan', 'rowspan'],
      th: ['colspan', 'rowspan'],
      '*': ['style'],
    },
    allowedStyles: { '*': { 'text-align': [/^(left|right|center|justify)$/], color: COLOR, 'background-color': COLOR } },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https', 'data'] },
    allowProtocolRelative: false,
    exclusiveFilter: (frame) => frame.tag === 'img' && !imageSourceAllowed(String(frame.attribs.src ?? '')),
    transformTags: { a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }) },
  });
}

/** Whether the sanitized HTML still says something (text or an image). */
export function hasContent(html: string): boolean {
  return /<img\s/i.test(html) || sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(/&nbsp;|\s/g, '').length > 0;
}
