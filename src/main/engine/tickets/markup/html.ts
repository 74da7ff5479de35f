import { parseFragment, type DefaultTreeAdapterTypes as Html } from 'parse5';
import type { RichNode, RichTag } from '../../../../shared/contract';
import { safeImage, safeLink } from './urls';

/**
 * HTML read by parse5 (the WHATWG parsing algorithm, as a browser reads it: entities, implied end tags, misnested
 * tags, raw-text elements), then kept only as far as a whitelist goes. Tags it knows map to the safe tags of
 * `RichNode`; unknown tags are unwrapped (their text stays); dangerous containers (script, style, frames, objects,
 * svg, forms' controls) are dropped with everything inside; every attribute except a checked `href` on links and a
 * checked `src`/`alt` on images is discarded (so no `on*` handler survives). Nothing is ever serialised back to HTML.
 */

/** Dropped with their content. */
export const DROP_WITH_CONTENT = new Set([
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

/** Elements nested deeper than this keep only their text (a tree the screen can draw, whatever the input). */
export const MAX_DEPTH = 24;
/** Text inside these is shown as written (no Markdown inside HTML text). */
const LITERAL = new Set(['pre', 'code', 'a']);

type El = Extract<RichNode, { t: 'el' }>;

export interface SanitizeOptions {
  /** Collects what was taken out (script, iframe, event handlers, unsafe links, …) so the screen can say so. */
  removed: Set<string>;
  /** Turns a run of HTML text into nodes (Markdown emphasis and links inside HTML text); plain text when absent. */
  inline?: ((text: string) => RichNode[]) | undefined;
  /** Drop text that is only line breaks (markdown-it writes one after every block; it means nothing on screen). */
  blockNewlines?: boolean;
}

/** HTML (hostile or not) as the safe tree. */
export function htmlToRich(html: string, options: SanitizeOptions): RichNode[] {
  return treeToRich(parseFragment(html), options);
}

/** A tree in parse5's shape (read from HTML, or built from Markdown tokens) as the safe tree. */
export function treeToRich(tree: Html.ParentNode, options: SanitizeOptions): RichNode[] {
  return childrenOf(tree, 0, false, options);
}

const isElement = (node: Html.ChildNode): node is Html.Element => 'tagName' in node;

function childrenOf(parent: Html.ParentNode, depth: number, literal: boolean, options: SanitizeOptions): RichNode[] {
  const out: RichNode[] = [];
  for (const node of parent.childNodes) {
    if (node.nodeName === '#text') {
      const value = (node as Html.TextNode).value;
      if (options.blockNewlines && !literal && /^\n+$/.test(value)) continue;
      if (literal || !options.inline) out.push({ t: 'text', v: value });
      else out.push(...options.inline(value));
      continue;
    }
    if (!isElement(node)) continue; // comments, doctypes
    const name = node.tagName.toLowerCase();
    if (DROP_WITH_CONTENT.has(name)) {
      options.removed.add(name);
      continue;
    }
    if (node.attrs.some((attr) => attr.name.toLowerCase().startsWith('on'))) options.removed.add('event handlers');
    if (name === 'input' || name === 'form') options.removed.add('form fields');
    const tag = MAP[name];
    if (tag === 'br' || tag === 'hr') {
      out.push({ t: 'el', tag, children: [] });
      continue;
    }
    if (tag === 'img') {
      out.push(...image(node, options.removed));
      continue;
    }
    const children =
      depth < MAX_DEPTH ? childrenOf(node, depth + 1, literal || LITERAL.has(name), options) : textOf(node);
    const element = tag ? shell(tag, node, options.removed) : null;
    if (element) {
      element.children = children;
      out.push(element);
    } else out.push(...children); // no safe meaning (or a link without a safe target): its children stay
  }
  return out;
}

/** The text under an element too deep to keep as a tree, read without recursion (the input may nest 50,000 deep). */
function textOf(root: Html.ParentNode): RichNode[] {
  let text = '';
  const stack: Html.ChildNode[] = [...root.childNodes].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (node.nodeName === '#text') text += (node as Html.TextNode).value;
    else if (isElement(node) && !DROP_WITH_CONTENT.has(node.tagName.toLowerCase())) {
      for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!);
    }
  }
  return text ? [{ t: 'text', v: text }] : [];
}

const attr = (node: Html.Element, name: string) => node.attrs.find((a) => a.name === name)?.value;

function shell(tag: RichTag, node: Html.Element, removed: Set<string>): El | null {
  if (tag !== 'a') return { t: 'el', tag, children: [] };
  const raw = attr(node, 'href');
  const href = safeLink(raw);
  if (!href && raw) removed.add('unsafe links');
  return href ? { t: 'el', tag, href, children: [] } : null;
}

/** An image with a safe (http/https) source, or its description as text. */
function image(node: Html.Element, removed: Set<string>): RichNode[] {
  const alt = (attr(node, 'alt') ?? '').slice(0, 300);
  const src = safeImage(attr(node, 'src'));
  if (src) return [{ t: 'el', tag: 'img', src, ...(alt ? { alt } : {}), children: [] }];
  removed.add('unsafe images');
  return alt ? [{ t: 'text', v: alt }] : [];
}

/** The words of an HTML text for the search index: tags gone, entities decoded, script and style bodies dropped. */
export function htmlText(html: string): string {
  const words: string[] = [];
  const stack: Html.ChildNode[] = [...parseFragment(html).childNodes].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (node.nodeName === '#text') words.push((node as Html.TextNode).value);
    else if (isElement(node) && !DROP_WITH_CONTENT.has(node.tagName.toLowerCase())) {
      words.push(' ');
      for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!);
    }
  }
  return words.join('');
}

/**
 * True when a description is an HTML document or fragment (it starts with a tag, a comment or a doctype). Anything
 * else is Markdown, whose raw HTML (a `<b>` in a sentence) markdown-it hands to the same whitelist, and whose code
 * fences keep the HTML written in them as text.
 */
export function looksLikeHtml(text: string): boolean {
  return /^<(!--|!doctype|[a-zA-Z][a-zA-Z0-9-]*[\s/>])/i.test(text.trimStart());
}
