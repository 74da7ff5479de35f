import type { MarkdownIt, Token } from 'markdown-it';
import type { RichNode } from '../../../../shared/contract';
import { SafeTree, type Attribute, type SanitizeOptions } from './safe-tree';

/**
 * markdown-it's tokens read straight into the whitelist, as the elements and text parse5 finds in markdown-it's HTML
 * for them (text split and joined where the HTML's would be), without writing 100 KB of HTML and reading it back.
 */

/**
 * Tokens as the safe tree; undefined when only an HTML parser can say what their HTML means: raw HTML in the
 * Markdown, or a link inside a link (which a browser takes apart).
 */
export function tokensToRich(
  md: MarkdownIt,
  tokens: Token[],
  inline: boolean,
  options: SanitizeOptions,
): RichNode[] | undefined {
  if (inline ? needsHtmlParser(tokens) : tokens.some((t) => t.type === 'html_block' || needsHtmlParser(t.children)))
    return undefined;
  const reader = new TokenReader(md, new SafeTree(options));
  if (inline) reader.inline(tokens);
  else reader.blocks(tokens);
  return reader.nodes();
}

function needsHtmlParser(inline: Token[] | null): boolean {
  let links = 0;
  for (const token of inline ?? []) {
    if (token.type === 'html_inline') return true;
    if (token.type === 'link_open' && links++ > 0) return true;
    if (token.type === 'link_close') links--;
  }
  return false;
}

/** Shared by every element without attributes (nothing changes them). */
const NO_ATTRIBUTES: Attribute[] = [];

class TokenReader {
  /** Text since the last tag: one text node, as adjacent characters are in an HTML parser. */
  private pending = '';

  constructor(
    private readonly md: MarkdownIt,
    private readonly tree: SafeTree,
  ) {}

  blocks(tokens: Token[]): void {
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      if (token.type === 'inline') this.inline(token.children ?? []);
      else if (token.type === 'code_block' || token.type === 'fence') {
        // Both render as <pre><code>content</code></pre> and a line break (no highlighter is set).
        this.start('pre', NO_ATTRIBUTES);
        this.start('code', NO_ATTRIBUTES);
        this.text(token.content);
        this.end();
        this.end();
        this.text('\n');
      } else if (!token.hidden) {
        // The renderer decides where line breaks go between block tags (they become text in the tree).
        const rendered = this.md.renderer.renderToken(tokens, i, this.md.options);
        if (rendered.startsWith('\n')) this.text('\n');
        this.tag(token);
        if (rendered.endsWith('>\n')) this.text('\n');
      }
    }
  }

  inline(tokens: Token[]): void {
    for (const token of tokens) {
      switch (token.type) {
        case 'text':
          this.text(token.content);
          break;
        case 'code_inline':
          this.start('code', NO_ATTRIBUTES);
          this.text(token.content);
          this.end();
          break;
        case 'softbreak':
        case 'hardbreak':
          this.start('br', NO_ATTRIBUTES);
          this.end();
          this.text('\n');
          break;
        case 'image': {
          // Its description goes into `alt` as the renderer writes it: the words without their markup.
          const alt = this.md.renderer.renderInlineAsText(token.children ?? [], this.md.options, {});
          this.start('img', attributes(token, alt));
          this.end();
          break;
        }
        default:
          this.tag(token);
      }
    }
  }

  nodes(): RichNode[] {
    this.flush();
    return this.tree.nodes();
  }

  private tag(token: Token): void {
    if (token.nesting !== -1) this.start(token.tag, attributes(token));
    if (token.nesting !== 1) this.end();
  }

  private text(value: string): void {
    this.pending += value;
  }

  /** Ends the current text; line breaks as an HTML parser reads them (a decoded `&#13;` is a CR). */
  private flush(): void {
    if (!this.pending) return;
    this.tree.text(newlines(this.pending));
    this.pending = '';
  }

  private start(tagName: string, attrs: Attribute[]): void {
    this.flush();
    this.tree.start(tagName, attrs);
  }

  private end(): void {
    this.flush();
    this.tree.end();
  }
}

function attributes(token: Token, alt?: string): Attribute[] {
  if (!token.attrs) return NO_ATTRIBUTES;
  return token.attrs.map(([name, value]) => ({
    name,
    value: newlines(alt !== undefined && name === 'alt' ? alt : String(value)),
  }));
}

const newlines = (text: string) => (text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text);
