import { parseFragment, type DefaultTreeAdapterTypes as Html } from 'parse5';
import type { RichNode } from '../../../../shared/contract';
import { DROP_WITH_CONTENT, SafeTree, type SanitizeOptions } from './safe-tree';

/**
 * HTML read by parse5 (the WHATWG parsing algorithm, as a browser reads it: entities, implied end tags, misnested
 * tags, raw-text elements), then kept only as far as the whitelist goes (safe-tree.ts). Nothing is ever serialised
 * back to HTML.
 */

/** HTML (hostile or not) as the safe tree. */
export function htmlToRich(html: string, options: SanitizeOptions): RichNode[] {
  const tree = new SafeTree(options);
  // Walked without recursion: the input may nest 50,000 deep.
  const parents: Html.ParentNode[] = [parseFragment(html)];
  const next = [0];
  while (parents.length) {
    const top = parents.length - 1;
    const node = parents[top]!.childNodes[next[top]!++];
    if (!node) {
      parents.pop();
      next.pop();
      if (parents.length) tree.end();
    } else if (node.nodeName === '#text') tree.text((node as Html.TextNode).value);
    else if (isElement(node)) {
      if (tree.start(node.tagName, node.attrs)) {
        parents.push(node);
        next.push(0);
      } else tree.end();
    } // comments, doctypes
  }
  return tree.nodes();
}

const isElement = (node: Html.ChildNode): node is Html.Element => 'tagName' in node;

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
