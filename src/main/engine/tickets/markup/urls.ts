import { SAFE_LINK_URL } from '../../../../shared/contract';

/**
 * A link target the app may show: http(s) or mailto only. Browsers ignore whitespace and control characters
 * inside a scheme (`java\tscript:`), so they are removed before the scheme is judged; the URL is re-serialised
 * by the URL parser so what is checked is what is used. (Entities are already decoded by the HTML parser.)
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
