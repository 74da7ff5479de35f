import { SAFE_LINK_URL } from '../../../../shared/contract';

/**
 * A link target the app may show: http(s) or mailto only. Browsers ignore whitespace and control characters
 * inside a scheme (`java\tscript:`), so they are removed before the scheme is judged; the URL is re-serialised
 * by the URL parser so what is checked is what is used.
 */
export function safeLink(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const cleaned = raw.replace(/[\u0000-\u0020\u007f-\u009f\u200b-\u200d\u2028\u2029\ufeff]/g, '');
  if (!/^(https?:\/\/|mailto:)/i.test(cleaned)) return undefined;
  try {
    const url = new URL(cleaned);
    if (!['http:', 'https:', 'mailto:'].includes(url.protocol)) return undefined;
    const href = url.href;
    return SAFE_LINK_URL.test(href) ? href : undefined;
  } catch {
    return undefined;
  }
}

/** An image source: http(s) only (no data:, no blob:, no relative paths). */
export function safeImage(raw: string | undefined): string | undefined {
  const href = safeLink(raw);
  return href && /^https?:/i.test(href) ? href : undefined;
}

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  colon: ':',
  tab: '\t',
  newline: '\n',
  sol: '/',
  lpar: '(',
  rpar: ')',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  copy: '©',
  reg: '®',
  laquo: '«',
  raquo: '»',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  bull: '•',
  middot: '·',
  euro: '€',
};

/** Decodes character references (named, decimal, hex); unknown names stay as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z][a-z0-9]{1,31});?/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
      return String.fromCodePoint(code);
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}
