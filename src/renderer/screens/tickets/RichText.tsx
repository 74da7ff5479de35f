import { Anchor, Button, Code, Text } from '@mantine/core';
import { createElement, useState, type ReactNode } from 'react';
import { SAFE_LINK_URL, type RichNode } from '../../../shared/contract';

/**
 * Draws the engine's safe tree with a fixed set of elements: no HTML string is ever handed to the DOM, every link is
 * checked again here (http, https and mailto only), and remote images stay placeholders until the admin asks.
 */
export function RichText({ nodes, loadImages }: { nodes: RichNode[]; loadImages: boolean }) {
  return <div className="ticket-rich-text">{render(nodes, loadImages, 'r')}</div>;
}

const BLOCK_TAGS = new Set([
  'p',
  'div',
  'span',
  'strong',
  'em',
  'del',
  'blockquote',
  'ul',
  'ol',
  'li',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'pre',
]);

function render(nodes: RichNode[], loadImages: boolean, key: string): ReactNode[] {
  return nodes.map((node, index) => {
    const k = `${key}.${index}`;
    if (node.t === 'text') return node.v;
    const children = render(node.children, loadImages, k);
    switch (node.tag) {
      case 'br':
        return <br key={k} />;
      case 'hr':
        return <hr key={k} />;
      case 'code':
        return (
          <Code key={k} dir="auto">
            {children}
          </Code>
        );
      case 'a':
        // Checked twice: the engine only emits safe targets, and this draws nothing else as a link.
        return node.href && SAFE_LINK_URL.test(node.href) && /^(https?:|mailto:)/i.test(node.href) ? (
          <Anchor key={k} href={node.href} target="_blank" rel="noopener noreferrer nofollow" title={node.href}>
            {children}
          </Anchor>
        ) : (
          <span key={k}>{children}</span>
        );
      case 'img':
        return <RemoteImage key={k} src={node.src} alt={node.alt} load={loadImages} />;
      case 'h1':
      case 'h2':
      case 'h3':
        return (
          <Text key={k} fw={700} size="md" mt="xs" dir="auto">
            {children}
          </Text>
        );
      case 'h4':
      case 'h5':
      case 'h6':
        return (
          <Text key={k} fw={700} size="sm" mt="xs" dir="auto">
            {children}
          </Text>
        );
      default:
        if (!BLOCK_TAGS.has(node.tag)) return <span key={k}>{children}</span>;
        return createElement(
          node.tag,
          { key: k, dir: node.tag === 'p' || node.tag === 'li' || node.tag === 'blockquote' ? 'auto' : undefined },
          ...children,
        );
    }
  });
}

/** A remote image is a placeholder until asked for: loading it would tell its host who read the ticket. */
function RemoteImage({ src, alt, load }: { src: string | undefined; alt: string | undefined; load: boolean }) {
  const [shown, setShown] = useState(false);
  if (!src || !/^https?:\/\//i.test(src)) return null;
  if (load || shown) return <img src={src} alt={alt ?? ''} referrerPolicy="no-referrer" style={{ maxWidth: '100%' }} />;
  let host = src;
  try {
    host = new URL(src).host;
  } catch {
    // keep the whole address
  }
  return (
    <Button size="compact-xs" variant="default" onClick={() => setShown(true)} title={src}>
      Image from {host}
      {alt ? ` (${alt})` : ''}: show
    </Button>
  );
}
