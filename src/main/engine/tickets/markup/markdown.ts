import type { RichNode, RichTag } from '../../../../shared/contract';
import { DROP_WITH_CONTENT } from './html';
import { safeImage, safeLink } from './urls';

/**
 * The Markdown that mentors' human-support tool writes (headings, lists, quotes, fences, emphasis, links, images),
 * read into the same safe tree as HTML. Raw HTML inside Markdown is not rendered: its tags are dropped (their text
 * stays) and dangerous containers such as `<script>` go with their content.
 */

type El = Extract<RichNode, { t: 'el' }>;
const el = (tag: RichTag, children: RichNode[], extra: Partial<El> = {}): El => ({ t: 'el', tag, children, ...extra });
const text = (v: string): RichNode => ({ t: 'text', v });

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+-]*)\s*$/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const BULLET = /^( {0,3})([-*+])\s+(.*)$/;
const ORDERED = /^( {0,3})(\d{1,9})[.)]\s+(.*)$/;
const MAX_DEPTH = 12;

export function markdownToRich(source: string, removed: Set<string> = new Set(), depth = 0): RichNode[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: RichNode[] = [];
  let i = 0;
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length) blocks.push(el('p', inlineWithBreaks(paragraph, removed)));
    paragraph = [];
  };

  while (i < lines.length) {
    const line = lines[i]!;
    if (!line.trim()) {
      endParagraph();
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      endParagraph();
      const marker = fence[1]!;
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trim().startsWith(marker)) body.push(lines[i++]!);
      i++;
      blocks.push(el('pre', [el('code', [text(body.join('\n'))])]));
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      endParagraph();
      blocks.push(el(`h${heading[1]!.length}` as RichTag, inline(heading[2]!, { rawHtml: true, removed })));
      i++;
      continue;
    }
    if (RULE.test(line)) {
      endParagraph();
      blocks.push(el('hr', []));
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      endParagraph();
      const inner: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) inner.push(QUOTE.exec(lines[i++]!)![1]!);
      blocks.push(
        el(
          'blockquote',
          depth < MAX_DEPTH ? markdownToRich(inner.join('\n'), removed, depth + 1) : [text(inner.join('\n'))],
        ),
      );
      continue;
    }
    const listMatch = BULLET.exec(line) ?? ORDERED.exec(line);
    if (listMatch) {
      endParagraph();
      const ordered = !BULLET.test(line);
      const pattern = ordered ? ORDERED : BULLET;
      const items: string[][] = [];
      while (i < lines.length) {
        const current = lines[i]!;
        const item = pattern.exec(current);
        if (item) {
          items.push([item[3]!]);
          i++;
        } else if (items.length && /^\s{2,}\S/.test(current)) {
          items[items.length - 1]!.push(current.trim());
          i++;
        } else break;
      }
      blocks.push(
        el(
          ordered ? 'ol' : 'ul',
          items.map((item) => el('li', depth < MAX_DEPTH ? listItem(item, removed, depth) : [text(item.join(' '))])),
        ),
      );
      continue;
    }
    paragraph.push(line);
    i++;
  }
  endParagraph();
  return blocks;
}

function listItem(lines: string[], removed: Set<string>, depth: number): RichNode[] {
  // A nested list inside an item is parsed as Markdown; a plain item stays inline.
  if (lines.length > 1 && lines.slice(1).some((l) => BULLET.test(l) || ORDERED.test(l))) {
    return [
      ...inline(lines[0]!, { rawHtml: true, removed }),
      ...markdownToRich(lines.slice(1).join('\n'), removed, depth + 1),
    ];
  }
  return inlineWithBreaks(lines, removed);
}

function inlineWithBreaks(lines: string[], removed: Set<string>): RichNode[] {
  const nodes: RichNode[] = [];
  lines.forEach((line, index) => {
    if (index) nodes.push(el('br', []));
    nodes.push(...inline(line.trim(), { rawHtml: true, removed }));
  });
  return nodes;
}

export interface InlineOptions {
  /** Drop raw HTML tags found in the text (Markdown mode); off for text that already came out of the HTML reader. */
  rawHtml?: boolean;
  /** Collects what was taken out (script, iframe, unsafe links, …) so the screen can say so. */
  removed?: Set<string>;
}

const PAIRS: [string, RichTag][] = [
  ['**', 'strong'],
  ['__', 'strong'],
  ['~~', 'del'],
  ['*', 'em'],
  ['_', 'em'],
];
const BARE_URL = /^https?:\/\/[^\s<>"'`]+[^\s<>"'`.,;:!?)\]]/i;

/** Inline Markdown: code spans, links, images, autolinks, bare URLs, emphasis, escapes. */
export function inline(source: string, options: InlineOptions = { rawHtml: true }, depth = 0): RichNode[] {
  const out: RichNode[] = [];
  let buffer = '';
  const flush = () => {
    if (buffer) out.push(text(buffer));
    buffer = '';
  };
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    const rest = source.slice(i);
    if (ch === '\\' && i + 1 < source.length && /[\\`*_{}[\]()#+\-.!~<>|]/.test(source[i + 1]!)) {
      buffer += source[i + 1];
      i += 2;
      continue;
    }
    if (ch === '`') {
      const run = /^`+/.exec(rest)![0];
      const end = source.indexOf(run, i + run.length);
      if (end !== -1) {
        flush();
        out.push(el('code', [text(source.slice(i + run.length, end).trim())]));
        i = end + run.length;
        continue;
      }
    }
    if (ch === '!' && source[i + 1] === '[') {
      const link = linkAt(source, i + 1);
      if (link) {
        flush();
        const src = safeImage(link.url);
        // An image without a safe source shows its description only.
        if (src) out.push(el('img', [], { src, ...(link.label ? { alt: link.label.slice(0, 300) } : {}) }));
        else {
          options.removed?.add('unsafe images');
          if (link.label) out.push(text(link.label));
        }
        i = link.end;
        continue;
      }
    }
    if (ch === '[') {
      const link = linkAt(source, i);
      if (link) {
        flush();
        const href = safeLink(link.url);
        const label = depth < MAX_DEPTH ? inline(link.label, options, depth + 1) : [text(link.label)];
        // A link to javascript: (or anything unsafe) keeps its words and loses its target.
        if (href) out.push(el('a', label, { href }));
        else {
          if (link.url) options.removed?.add('unsafe links');
          out.push(...label);
        }
        i = link.end;
        continue;
      }
    }
    if (ch === '<') {
      const auto = /^<((?:https?:\/\/|mailto:)[^\s<>]+)>/i.exec(rest);
      if (auto) {
        flush();
        const href = safeLink(auto[1]);
        out.push(href ? el('a', [text(auto[1]!)], { href }) : text(auto[1]!));
        i += auto[0].length;
        continue;
      }
      const tag = options.rawHtml ? /^<\/?([a-zA-Z][a-zA-Z0-9-]*)(?:[^>"']|"[^"]*"|'[^']*')*>/.exec(rest) : null;
      if (tag) {
        const name = tag[1]!.toLowerCase();
        i += tag[0].length;
        if (DROP_WITH_CONTENT.has(name)) options.removed?.add(name);
        if (/\son[a-z]+\s*=/i.test(tag[0])) options.removed?.add('event handlers');
        if (DROP_WITH_CONTENT.has(name) && !tag[0].startsWith('</') && !tag[0].endsWith('/>')) {
          const end = new RegExp(`</${name}\\s*>`, 'i').exec(source.slice(i));
          i = end ? i + end.index + end[0].length : source.length;
        }
        continue;
      }
      if (options.rawHtml && /^<!--/.test(rest)) {
        const end = source.indexOf('-->', i + 4);
        i = end === -1 ? source.length : end + 3;
        continue;
      }
    }
    if ((ch === 'h' || ch === 'H') && (i === 0 || /[\s(]/.test(source[i - 1]!))) {
      const url = BARE_URL.exec(rest);
      const href = url ? safeLink(url[0]) : undefined;
      if (url && href) {
        flush();
        out.push(el('a', [text(url[0])], { href }));
        i += url[0].length;
        continue;
      }
    }
    const pair = PAIRS.find(([marker]) => rest.startsWith(marker));
    if (pair && depth < MAX_DEPTH) {
      const [marker, tag] = pair;
      const end = closingDelimiter(source, i, marker);
      if (end !== -1) {
        flush();
        out.push(el(tag, inline(source.slice(i + marker.length, end), options, depth + 1)));
        i = end + marker.length;
        continue;
      }
    }
    buffer += ch;
    i++;
  }
  flush();
  return out;
}

/** Where an emphasis run opened at `start` closes, or -1 (content may not start or end with a space). */
function closingDelimiter(source: string, start: number, marker: string): number {
  const from = start + marker.length;
  if (from >= source.length || /\s/.test(source[from]!)) return -1;
  // Intraword underscores (snake_case) are not emphasis.
  if (marker[0] === '_' && start > 0 && /\w/.test(source[start - 1]!)) return -1;
  let at = source.indexOf(marker, from + 1);
  while (at !== -1) {
    const single = marker.length === 1;
    const doubled = single && source[at + 1] === marker;
    const afterWord = marker[0] === '_' && at + marker.length < source.length && /\w/.test(source[at + marker.length]!);
    if (!/\s/.test(source[at - 1]!) && !doubled && !afterWord) return at;
    at = source.indexOf(marker, at + (doubled ? 2 : 1));
  }
  return -1;
}

/** `[label](url "title")` starting at `start` ('['): its label, url and end, or null. */
function linkAt(source: string, start: number): { label: string; url: string; end: number } | null {
  let depth = 0;
  let close = -1;
  for (let j = start; j < source.length && j < start + 2000; j++) {
    const c = source[j];
    if (c === '\\') {
      j++;
      continue;
    }
    if (c === '[') depth++;
    else if (c === ']' && --depth === 0) {
      close = j;
      break;
    }
  }
  if (close === -1 || source[close + 1] !== '(') return null;
  let parens = 0;
  for (let j = close + 1; j < source.length && j < close + 4000; j++) {
    const c = source[j];
    if (c === '(') parens++;
    else if (c === ')' && --parens === 0) {
      const inside = source.slice(close + 2, j).trim();
      const url = /^<([^>]*)>|^(\S*)/.exec(inside)!;
      return { label: source.slice(start + 1, close), url: url[1] ?? url[2] ?? '', end: j + 1 };
    }
  }
  return null;
}
