import type { RichNode, RichTag } from '../../../../shared/contract';
import { safeImage, safeLink } from './urls';

/**
 * The whitelist every description goes through, whoever read it (parse5 for HTML, markdown-it for Markdown): they
 * tell it the elements and text they found, in document order, and it keeps only what may be shown. Tags it knows map
 * to the safe tags of `RichNode`; unknown tags are unwrapped (their text stays); dangerous containers (script, style,
 * frames, objects, svg, forms' controls) are dropped with everything inside; every attribute except a checked `href`
 * on links and a checked `src`/`alt` on images is discarded (so no `on*` handler survives).
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

/** The safe tag each known tag becomes. A Map, not an object: `<constructor>` must not find Object's constructor. */
const MAP = new Map<string, RichTag>(
  Object.entries({
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
  } satisfies Record<string, RichTag>),
);

/** Elements nested deeper than this keep only their text (a tree the screen can draw, whatever the input). */
export const MAX_DEPTH = 24;
/** Text inside these is shown as written (no Markdown inside HTML text). */
const LITERAL = new Set(['pre', 'code', 'a']);

type El = Extract<RichNode, { t: 'el' }>;

export interface Attribute {
  name: string;
  value: string;
}

export interface SanitizeOptions {
  /** Collects what was taken out (script, iframe, event handlers, unsafe links, …) so the screen can say so. */
  removed: Set<string>;
  /** Turns a run of HTML text into nodes (Markdown emphasis and links inside HTML text); plain text when absent. */
  inline?: ((text: string) => RichNode[]) | undefined;
  /** Drop text that is only line breaks (markdown-it writes one after every block; it means nothing on screen). */
  blockNewlines?: boolean;
}

/**
 * The safe tree, built from what a reader found: `start` and `end` for every element (in pairs, properly nested),
 * `text` for every text node (adjacent text already joined, as an HTML parser joins it).
 */
export class SafeTree {
  /**
   * The elements being filled, outermost first (the root is null, as is an element whose children go to its parent:
   * unknown tags, links without a safe target), and the lists their children go to. An element's index is its depth.
   */
  private readonly elements: (El | null)[] = [null];
  private readonly lists: RichNode[][] = [[]];
  /** The index of the outermost open element whose text is shown as written, or -1. */
  private literalFrom = -1;
  /** Elements open inside something dropped with its content (or inside a br, hr or img). */
  private skipping = 0;
  /** Elements open inside (and including) the one too deep to keep as a tree, whose text is being collected. */
  private collecting = 0;
  private collected = '';

  constructor(private readonly options: SanitizeOptions) {}

  /** An element starts. False when nothing inside it is wanted: the reader may leave it out (`end` still follows). */
  start(tagName: string, attrs: readonly Attribute[]): boolean {
    if (this.skipping) {
      this.skipping++;
      return false;
    }
    const name = tagName.toLowerCase();
    if (this.collecting) {
      if (DROP_WITH_CONTENT.has(name)) this.skipping = 1;
      else this.collecting++;
      return !this.skipping;
    }
    const { removed } = this.options;
    if (DROP_WITH_CONTENT.has(name)) {
      removed.add(name);
      this.skipping = 1;
      return false;
    }
    if (attrs.length && attrs.some((attr) => attr.name.toLowerCase().startsWith('on'))) removed.add('event handlers');
    if (name === 'input' || name === 'form') removed.add('form fields');
    const depth = this.elements.length - 1;
    const tag = MAP.get(name);
    if (tag === 'br' || tag === 'hr' || tag === 'img') {
      if (tag === 'img') append(this.lists[depth]!, image(attrs, removed));
      else this.lists[depth]!.push({ t: 'el', tag, children: [] });
      this.skipping = 1;
      return false;
    }
    const element = tag ? shell(tag, attrs, removed) : null;
    this.elements.push(element);
    this.lists.push(element ? element.children : []);
    if (this.literalFrom < 0 && LITERAL.has(name)) this.literalFrom = depth + 1;
    if (depth >= MAX_DEPTH) {
      this.collecting = 1;
      this.collected = '';
    }
    return true;
  }

  end(): void {
    if (this.skipping) {
      this.skipping--;
      return;
    }
    if (this.collecting > 1) {
      this.collecting--;
      return;
    }
    const element = this.elements.pop();
    const children = this.lists.pop()!;
    if (this.literalFrom === this.lists.length) this.literalFrom = -1;
    if (this.collecting) {
      // Read without recursion into one text: the input may nest 50,000 deep.
      if (this.collected) children.push({ t: 'text', v: this.collected });
      this.collecting = 0;
    }
    const parent = this.lists[this.lists.length - 1]!;
    if (element) parent.push(element);
    else append(parent, children); // no safe meaning (or a link without a safe target): its children stay
  }

  text(value: string): void {
    if (this.skipping) return;
    if (this.collecting) {
      this.collected += value;
      return;
    }
    const literal = this.literalFrom >= 0;
    if (this.options.blockNewlines && !literal && /^\n+$/.test(value)) return;
    const children = this.lists[this.lists.length - 1]!;
    if (literal || !this.options.inline) children.push({ t: 'text', v: value });
    else append(children, this.options.inline(value));
  }

  /** The safe tree of everything started and ended so far. */
  nodes(): RichNode[] {
    return this.lists[0]!;
  }
}

/** `out.push(...nodes)` without passing 50,000 arguments. */
function append(out: RichNode[], nodes: RichNode[]): void {
  for (const node of nodes) out.push(node);
}

const attr = (attrs: readonly Attribute[], name: string) => attrs.find((a) => a.name === name)?.value;

function shell(tag: RichTag, attrs: readonly Attribute[], removed: Set<string>): El | null {
  if (tag !== 'a') return { t: 'el', tag, children: [] };
  const raw = attr(attrs, 'href');
  const href = safeLink(raw);
  if (!href && raw) removed.add('unsafe links');
  return href ? { t: 'el', tag, href, children: [] } : null;
}

/** An image with a safe (http/https) source, or its description as text. */
function image(attrs: readonly Attribute[], removed: Set<string>): RichNode[] {
  const alt = (attr(attrs, 'alt') ?? '').slice(0, 300);
  const src = safeImage(attr(attrs, 'src'));
  if (src) return [{ t: 'el', tag: 'img', src, ...(alt ? { alt } : {}), children: [] }];
  removed.add('unsafe images');
  return alt ? [{ t: 'text', v: alt }] : [];
}
