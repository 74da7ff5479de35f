import type { RichNode, RichTag } from '../../../../shared/contract';
import { decodeEntities, safeImage, safeLink } from './urls';

/**
 * A small, forgiving HTML reader that keeps only a whitelist: it never builds a DOM and never emits markup. Tags it
 * knows map to the safe tags of `RichNode`; unknown tags are unwrapped (their text stays); dangerous containers
 * (script, style, frames, objects, svg, forms' controls) are dropped with everything inside; every attribute except
 * a checked `href` on links and a checked `src`/`alt` on images is discarded (so no `on*` handler survives).
 */

/** Dropped with their content. */
const DROP_WITH_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'svg',
  'math',
  'template',
  'noscript',
  'noembed',
  'noframes',
  'xmp',
  'plaintext',
  'textarea',
  'select',
  'button',
  'title',
  'head',
  'audio',
  'video',
  'canvas',
  'map',
]);

/** Never have children. */
const VOID = new Set([
  'br',
  'hr',
  'img',
  'input',
  'meta',
  'link',
  'area',
  'base',
  'col',
  'embed',
  'param',
  'source',
  'track',
  'wbr',
  'keygen',
]);

const MAP: Record<string, RichTag> = {
  p: 'p',
  div: 'div',
  section: 'div',
  article: 'div',
  header: 'div',
  footer: 'div',
  main: 'div',
  aside: 'div',
  nav: 'div',
  figure: 'div',
  figcaption: 'div',
  center: 'div',
  address: 'div',
  details: 'div',
  summary: 'div',
  dl: 'div',
  dt: 'div',
  dd: 'div',
  caption: 'div',
  form: 'div',
  fieldset: 'div',
  legend: 'div',
  span: 'span',
  font: 'span',
  small: 'span',
  big: 'span',
  sup: 'span',
  sub: 'span',
  mark: 'span',
  abbr: 'span',
  cite: 'span',
  q: 'span',
  label: 'span',
  u: 'span',
  ins: 'span',
  time: 'span',
  br: 'br',
  hr: 'hr',
  strong: 'strong',
  b: 'strong',
  em: 'em',
  i: 'em',
  dfn: 'em',
  var: 'em',
  del: 'del',
  s: 'del',
  strike: 'del',
  code: 'code',
  tt: 'code',
  kbd: 'code',
  samp: 'code',
  pre: 'pre',
  blockquote: 'blockquote',
  ul: 'ul',
  ol: 'ol',
  li: 'li',
  h1: 'h1',
  h2: 'h2',
  h3: 'h3',
  h4: 'h4',
  h5: 'h5',
  h6: 'h6',
  a: 'a',
  img: 'img',
  table: 'table',
  thead: 'thead',
  tbody: 'tbody',
  tfoot: 'tbody',
  tr: 'tr',
  th: 'th',
  td: 'td',
};

const MAX_DEPTH = 24;

type Token =
  | { kind: 'text'; text: string }
  | { kind: 'open'; name: string; attrs: Map<string, string>; selfClosing: boolean }
  | { kind: 'close'; name: string };

/** Splits HTML into text, start tags and end tags; comments, doctypes and processing instructions vanish. */
export function tokenize(html: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let text = '';
  const flush = () => {
    if (text) tokens.push({ kind: 'text', text: decodeEntities(text) });
    text = '';
  };
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt === -1) {
      text += html.slice(i);
      break;
    }
    text += html.slice(i, lt);
    i = lt;
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      flush();
      i = end === -1 ? html.length : end + 3;
      continue;
    }
    if (html[i + 1] === '!' || html[i + 1] === '?') {
      const end = html.indexOf('>', i);
      flush();
      i = end === -1 ? html.length : end + 1;
      continue;
    }
    const close = html[i + 1] === '/';
    const nameMatch = /^[a-zA-Z][a-zA-Z0-9:-]*/.exec(html.slice(i + (close ? 2 : 1), i + (close ? 2 : 1) + 64));
    if (!nameMatch) {
      // A lone '<' is text.
      text += '<';
      i += 1;
      continue;
    }
    const name = nameMatch[0].toLowerCase();
    let j = i + (close ? 2 : 1) + nameMatch[0].length;
    const attrs = new Map<string, string>();
    // Attributes: name, name=value, name="value", name='value'; quotes may contain '>'.
    for (;;) {
      while (j < html.length && /[\s/]/.test(html[j]!)) j++;
      if (j >= html.length || html[j] === '>') break;
      const attr = /^[^\s/>=]+/.exec(html.slice(j, j + 256));
      if (!attr) {
        j++;
        continue;
      }
      j += attr[0].length;
      while (j < html.length && /\s/.test(html[j]!)) j++;
      let value = '';
      if (html[j] === '=') {
        j++;
        while (j < html.length && /\s/.test(html[j]!)) j++;
        const quote = html[j];
        if (quote === '"' || quote === "'") {
          const end = html.indexOf(quote, j + 1);
          value = html.slice(j + 1, end === -1 ? html.length : end);
          j = end === -1 ? html.length : end + 1;
        } else {
          const bare = /^[^\s>]*/.exec(html.slice(j))![0];
          value = bare;
          j += bare.length;
        }
      }
      const key = attr[0].toLowerCase();
      if (!attrs.has(key)) attrs.set(key, decodeEntities(value));
    }
    const selfClosing = html[j - 1] === '/';
    flush();
    i = j >= html.length ? html.length : j + 1;
    if (close) {
      tokens.push({ kind: 'close', name });
      continue;
    }
    tokens.push({ kind: 'open', name, attrs, selfClosing });
    if (DROP_WITH_CONTENT.has(name) && !selfClosing) {
      // Raw-text and dangerous containers: skip to their end tag (or the end of the input) without parsing.
      const end = new RegExp(`</${name}\\s*>`, 'i').exec(html.slice(i));
      i = end ? i + end.index + end[0].length : html.length;
      tokens.push({ kind: 'close', name });
    }
  }
  flush();
  return tokens;
}

interface Open {
  name: string;
  node: Extract<RichNode, { t: 'el' }> | null;
  children: RichNode[];
}

/**
 * Builds the safe tree. `inline` turns a text run into nodes (Markdown emphasis and links inside HTML text);
 * text inside `pre`, `code` and links is kept as is.
 */
export function htmlToRich(
  html: string,
  inline: (text: string) => RichNode[],
  removed: Set<string> = new Set(),
): RichNode[] {
  const root: Open = { name: '#root', node: null, children: [] };
  const stack: Open[] = [root];
  let dropping = 0;
  const top = () => stack[stack.length - 1]!;
  const literal = () => stack.some((o) => o.name === 'pre' || o.name === 'code' || o.name === 'a');

  for (const token of tokenize(html)) {
    if (token.kind === 'text') {
      if (dropping) continue;
      top().children.push(...(literal() ? [{ t: 'text' as const, v: token.text }] : inline(token.text)));
      continue;
    }
    if (token.kind === 'open') {
      if (DROP_WITH_CONTENT.has(token.name)) {
        if (!dropping) removed.add(token.name);
        if (!token.selfClosing) dropping++;
        continue;
      }
      if (dropping) continue;
      if ([...token.attrs.keys()].some((name) => name.startsWith('on'))) removed.add('event handlers');
      if (token.name === 'input' || token.name === 'form') removed.add('form fields');
      const tag = MAP[token.name];
      const node = tag ? element(tag, token.attrs, removed) : null;
      if (VOID.has(token.name) || token.selfClosing) {
        if (node && (node.tag === 'br' || node.tag === 'hr' || node.tag === 'img')) top().children.push(node);
        continue;
      }
      // Too deep, or a tag with no safe meaning (or a link without a safe target): keep only its children.
      const keep = node && stack.length <= MAX_DEPTH && !(node.tag === 'img' || node.tag === 'br' || node.tag === 'hr');
      stack.push({ name: token.name, node: keep ? node : null, children: [] });
      continue;
    }
    if (DROP_WITH_CONTENT.has(token.name)) {
      if (dropping) dropping--;
      continue;
    }
    if (dropping) continue;
    const at = stack.map((o) => o.name).lastIndexOf(token.name);
    if (at <= 0) continue; // an end tag with nothing to close
    while (stack.length > at) closeTop(stack);
  }
  while (stack.length > 1) closeTop(stack);
  return root.children;
}

function closeTop(stack: Open[]): void {
  const open = stack.pop()!;
  const parent = stack[stack.length - 1]!;
  if (open.node) {
    open.node.children = open.children;
    parent.children.push(open.node);
  } else parent.children.push(...open.children);
}

function element(
  tag: RichTag,
  attrs: Map<string, string>,
  removed: Set<string>,
): Extract<RichNode, { t: 'el' }> | null {
  if (tag === 'a') {
    const href = safeLink(attrs.get('href'));
    if (!href && attrs.get('href')) removed.add('unsafe links');
    return href ? { t: 'el', tag, href, children: [] } : null;
  }
  if (tag === 'img') {
    const src = safeImage(attrs.get('src'));
    if (!src) {
      removed.add('unsafe images');
      return null;
    }
    const alt = (attrs.get('alt') ?? '').slice(0, 300);
    return { t: 'el', tag, src, ...(alt ? { alt } : {}), children: [] };
  }
  return { t: 'el', tag, children: [] };
}

/** True when a description reads as HTML rather than Markdown or plain text. */
export function looksLikeHtml(text: string): boolean {
  const trimmed = text.trimStart();
  if (/^<(!--|!doctype|[a-zA-Z][a-zA-Z0-9-]*[\s/>])/i.test(trimmed)) return true;
  return /<\/[a-zA-Z][a-zA-Z0-9-]*\s*>/.test(text) && /<[a-zA-Z][a-zA-Z0-9-]*[\s/>]/.test(text);
}

export { DROP_WITH_CONTENT };
