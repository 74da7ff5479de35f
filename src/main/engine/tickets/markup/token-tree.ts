import type { MarkdownIt, Token } from 'markdown-it';
import { defaultTreeAdapter as dom, html, type DefaultTreeAdapterTypes as Html } from 'parse5';

/**
 * markdown-it's tokens as the tree parse5 builds from markdown-it's HTML for them, built directly: the same elements,
 * attributes and text (split and joined where the HTML's text would be), without writing 100 KB of HTML and reading
 * it back. Where only an HTML parser can say what the tree is (raw HTML in the Markdown, a link inside a link, which
 * a browser takes apart), there is no tree here and the caller renders and parses the HTML instead.
 */
export function tokenTree(md: MarkdownIt, tokens: Token[], inline: boolean): Html.DocumentFragment | undefined {
  const tree = new TreeBuilder(md);
  const built = inline ? tree.inline(tokens) : tree.blocks(tokens);
  return built && tree.done() ? tree.root : undefined;
}

class TreeBuilder {
  readonly root = dom.createDocumentFragment();
  private readonly open: Html.ParentNode[] = [this.root];
  private current: Html.ParentNode = this.root;
  /** Text since the last tag: one text node, as adjacent characters are in an HTML parser. */
  private pending = '';
  private links = 0;

  constructor(private readonly md: MarkdownIt) {}

  blocks(tokens: Token[]): boolean {
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      switch (token.type) {
        case 'inline':
          if (!this.inline(token.children ?? [])) return false;
          break;
        case 'code_block':
        case 'fence':
          // Both render as <pre><code>content</code></pre> and a line break (no highlighter is set).
          this.enter('pre', []);
          this.enter('code', []);
          this.text(token.content);
          this.leave('code');
          this.leave('pre');
          this.text('\n');
          break;
        case 'html_block':
          return false;
        default: {
          if (token.hidden) break;
          // The renderer decides where line breaks go between block tags (they become text in the tree).
          const rendered = this.md.renderer.renderToken(tokens, i, this.md.options);
          if (rendered.startsWith('\n')) this.text('\n');
          if (!this.tag(token)) return false;
          if (rendered.endsWith('>\n')) this.text('\n');
        }
      }
    }
    return true;
  }

  inline(tokens: Token[]): boolean {
    for (const token of tokens) {
      switch (token.type) {
        case 'text':
          this.text(token.content);
          break;
        case 'code_inline':
          this.enter('code', []);
          this.text(token.content);
          this.leave('code');
          break;
        case 'softbreak':
        case 'hardbreak':
          this.empty('br', []);
          this.text('\n');
          break;
        case 'image':
          // Its description is written into `alt` as the renderer does: the words without their markup.
          this.empty(
            'img',
            attributes(token, 'alt', this.md.renderer.renderInlineAsText(token.children ?? [], this.md.options, {})),
          );
          break;
        case 'html_inline':
          return false;
        default:
          if (!this.tag(token)) return false;
      }
    }
    return true;
  }

  /** True when every element was closed in order. */
  done(): boolean {
    this.flush();
    return this.open.length === 1;
  }

  private tag(token: Token): boolean {
    if (token.nesting === 1) {
      if (token.tag === 'a' && this.links++ > 0) return false;
      this.enter(token.tag, attributes(token));
      return true;
    }
    if (token.nesting === -1) {
      if (token.tag === 'a') this.links--;
      return this.leave(token.tag);
    }
    this.empty(token.tag, attributes(token));
    return true;
  }

  private text(value: string): void {
    this.pending += value;
  }

  /** Ends the current text; line breaks normalised as an HTML parser does (a decoded `&#13;` is a CR). */
  private flush(): void {
    if (!this.pending) return;
    dom.insertText(this.current, this.pending.includes('\r') ? this.pending.replace(/\r\n?/g, '\n') : this.pending);
    this.pending = '';
  }

  private enter(tagName: string, attrs: Html.Element['attrs']): void {
    const element = this.empty(tagName, attrs);
    this.open.push(element);
    this.current = element;
  }

  private empty(tagName: string, attrs: Html.Element['attrs']): Html.Element {
    this.flush();
    const element = dom.createElement(tagName, html.NS.HTML, attrs);
    dom.appendChild(this.current, element);
    return element;
  }

  private leave(tagName: string): boolean {
    this.flush();
    if (this.open.length < 2 || (this.current as Html.Element).tagName !== tagName) return false;
    this.open.pop();
    this.current = this.open[this.open.length - 1]!;
    return true;
  }
}

function attributes(token: Token, replace?: string, value?: string): Html.Element['attrs'] {
  const out: Html.Element['attrs'] = [];
  for (const [name, raw] of token.attrs ?? []) {
    const text = name === replace ? value! : String(raw);
    out.push({ name, value: text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text });
  }
  return out;
}
