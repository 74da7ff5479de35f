import type { RichNode } from '../../../../shared/contract';
import { htmlText, htmlToRich, looksLikeHtml } from './html';
import { inlineMarkdown, markdownToRich } from './markdown';

/** Longer descriptions are cut (the raw text is still in the ticket); keeps parsing bounded. */
const MAX_INPUT = 100_000;

export interface RichText {
  doc: RichNode[];
  /** Images with a remote source: shown only when the admin asks. */
  remoteImages: number;
  /** What was taken out for safety (script, iframe, event handlers, unsafe links, …). */
  removed: string[];
}

/**
 * A description (HTML, Markdown or plain text, possibly hostile) as a tree of whitelisted nodes. Nothing from the
 * input reaches the screen as markup: the renderer draws these nodes with fixed elements and checks links again.
 * Both readers are maintained parsers that stay linear on hostile input (parse5, markdown-it).
 */
export function richText(input: string): RichText {
  const source = input.length > MAX_INPUT ? `${input.slice(0, MAX_INPUT)}…` : input;
  const removed = new Set<string>();
  const doc = looksLikeHtml(source)
    ? htmlToRich(source, { removed, inline: (text) => inlineMarkdown(text, removed) })
    : markdownToRich(source, removed);
  return { doc, remoteImages: countImages(doc), removed: [...removed].sort() };
}

function countImages(nodes: RichNode[]): number {
  let n = 0;
  for (const node of nodes) {
    if (node.t !== 'el') continue;
    if (node.tag === 'img') n++;
    n += countImages(node.children);
  }
  return n;
}

/** Words for the search index: tags and their attributes removed, entities decoded, script and style bodies dropped. */
export function searchableText(input: string): string {
  return input.includes('<') ? htmlText(input) : input;
}
