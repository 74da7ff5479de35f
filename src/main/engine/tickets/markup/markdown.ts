import markdownIt, { type MarkdownIt, type StateBlock } from 'markdown-it';
import type { RichNode } from '../../../../shared/contract';
import { htmlToRich } from './html';
import { MAX_DEPTH } from './safe-tree';
import { tokensToRich } from './tokens';

/**
 * The Markdown that mentors' human-support tool writes (CommonMark with GitHub's tables, strikethrough and bare
 * links; a line break is a break), read by markdown-it, which stays linear on hostile input. Its tokens go straight
 * into the whitelist an HTML description goes through (tokens.ts): writing 100 KB of HTML and parsing it again cost
 * more than reading the Markdown. When the Markdown holds raw HTML, the HTML is written and parse5 reads it, as a
 * browser would. Either way markdown-it decides structure and the whitelist decides what may be shown.
 */

/**
 * How deep markdown-it nests quotes, lists, and links in inline markup: as deep as the safe tree keeps elements (past
 * that they are text anyway). Its own default, 100, made brackets that never close three times slower to read.
 */
const MAX_NESTING = MAX_DEPTH;

function reader(html: boolean): MarkdownIt {
  const md = new markdownIt({ html, linkify: true, breaks: true, maxNesting: MAX_NESTING });
  // Links to http(s) only (no bare "example.com"), as before; emails are not turned into links.
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
  // Every target is let through to the whitelist, which keeps the words of a javascript: link and says it removed the
  // target (markdown-it's own check would leave the raw `[words](javascript:…)` on screen instead).
  md.validateLink = () => true;
  keepTextPastNesting(md);
  skipParsingPlainText(md);
  return md;
}

/** The characters at which an inline rule of markdown-it can start (its text rule stops at them). */
const INLINE_RULE_START = /[\n!#$%&*+\-:<=>@[\\\]^_`{}~]/;

/**
 * Text in which no inline rule can start is one text token: made here without markdown-it's inline parser, whose
 * set-up for each piece of text (each table cell, each heading) cost more than reading it; 16,000 table rows took
 * a third of their time there.
 */
export function skipParsingPlainText(md: MarkdownIt): MarkdownIt {
  const parse = md.inline.parse.bind(md.inline);
  md.inline.parse = (text, ...rest) => {
    if (INLINE_RULE_START.test(text)) return parse(text, ...rest);
    if (!text) return;
    const token = new markdownIt.Token('text', '', 0);
    token.content = text;
    rest[2].push(token);
  };
  return md;
}

/**
 * Past the nesting limit markdown-it skips the rest of the container; here it is kept as a plain paragraph instead,
 * so a quote nested 2,000 deep still shows its words (nothing a learner wrote is silently dropped).
 */
function keepTextPastNesting(md: MarkdownIt): void {
  const tokenize = md.block.tokenize.bind(md.block);
  md.block.tokenize = (state: StateBlock, startLine: number, endLine: number) => {
    if (state.level < MAX_NESTING) {
      tokenize(state, startLine, endLine);
      return;
    }
    const text = state.getLines(startLine, endLine, state.blkIndent, false).trim();
    if (text) {
      state.push('paragraph_open', 'p', 1);
      const inline = state.push('inline', '', 0);
      inline.content = text;
      inline.map = [startLine, endLine];
      inline.children = [];
      state.push('paragraph_close', 'p', -1);
    }
    state.line = endLine;
  };
}

const block = reader(true);
/**
 * Inline Markdown inside the text of an HTML description. That text is already decoded by the HTML parser, so
 * markdown-it must neither decode entities again (`&amp;lt;` would turn into `<`) nor read raw HTML in it.
 */
const inlineOnly = reader(false).disable('entity');

/** Characters without which a run of text has no inline Markdown (nor a bare link). */
const INLINE_SYNTAX = /[\\`*_~[\]!<:]/;

/**
 * `viaHtml` renders the HTML and reads it back, which is what happens anyway when the Markdown holds raw HTML; the
 * tests check that both ways give the same tree.
 */
export function markdownToRich(source: string, removed: Set<string>, viaHtml = false): RichNode[] {
  const env = {};
  const tokens = block.parse(source, env);
  const options = { removed, blockNewlines: true };
  const doc = viaHtml ? undefined : tokensToRich(block, tokens, false, options);
  return doc ?? htmlToRich(block.renderer.render(tokens, block.options, env), options);
}

/** Inline Markdown (emphasis, code, links, images, bare links) in a run of HTML text. */
export function inlineMarkdown(text: string, removed: Set<string>, viaHtml = false): RichNode[] {
  if (!INLINE_SYNTAX.test(text)) return [{ t: 'text', v: text }];
  const env = {};
  const tokens = inlineOnly.parseInline(text, env)[0]?.children ?? [];
  const doc = viaHtml ? undefined : tokensToRich(inlineOnly, tokens, true, { removed });
  return doc ?? htmlToRich(inlineOnly.renderer.renderInline(tokens, inlineOnly.options, env), { removed });
}
