import { Anchor, Button, Code, Loader, Text } from '@mantine/core';
import { createElement, useEffect, useState, type ReactNode } from 'react';
import { SAFE_LINK_URL, type RichNode } from '../../../shared/contract';
import { useBridge } from '../../bridge/BridgeContext';
import { errorMessage } from '../../bridge/errors';

/**
 * Draws the engine's safe tree with a fixed set of elements: no HTML string is ever handed to the DOM, every link is
 * checked again here (http, https and mailto only), and remote images stay placeholders until the admin asks. Asked
 * for, an image is fetched by the engine and shown from a `data:` URL: the window's CSP allows no remote images.
 */
export function RichText({
  nodes,
  loadImages,
  ticketId,
}: {
  nodes: RichNode[];
  loadImages: boolean;
  ticketId: number;
}) {
  // The size of the thread beside it; long words and addresses wrap instead of widening the pane.
  return (
    <Text component="div" size="sm" className="ticket-rich-text" style={{ overflowWrap: 'break-word' }}>
      {render(nodes, { loadImages, ticketId }, 'r')}
    </Text>
  );
}

interface RenderOptions {
  loadImages: boolean;
  ticketId: number;
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

const QUOTE_STYLE = {
  margin: '4px 0',
  paddingInlineStart: 10,
  borderInlineStart: '3px solid var(--mantine-color-default-border)',
  color: 'var(--mantine-color-dimmed)',
};

function render(nodes: RichNode[], options: RenderOptions, key: string): ReactNode[] {
  return nodes.map((node, index) => {
    const k = `${key}.${index}`;
    if (node.t === 'text') return node.v;
    const children = render(node.children, options, k);
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
        return (
          <RemoteImage key={k} src={node.src} alt={node.alt} load={options.loadImages} ticketId={options.ticketId} />
        );
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
          {
            key: k,
            dir: node.tag === 'p' || node.tag === 'li' || node.tag === 'blockquote' ? 'auto' : undefined,
            // A quote reads as one: a rule at its start side (it flips with right-to-left text).
            style: node.tag === 'blockquote' ? QUOTE_STYLE : undefined,
          },
          ...children,
        );
    }
  });
}

/** A remote image is a placeholder until asked for: loading it would tell its host who read the ticket. */
function RemoteImage({
  src,
  alt,
  load,
  ticketId,
}: {
  src: string | undefined;
  alt: string | undefined;
  load: boolean;
  ticketId: number;
}) {
  const [shown, setShown] = useState(false);
  if (!src || !/^https?:\/\//i.test(src)) return null;
  if (load || shown) return <FetchedImage ticketId={ticketId} src={src} alt={alt} />;
  return (
    <Button size="compact-xs" variant="default" onClick={() => setShown(true)} title={src}>
      Image from {hostOf(src)}
      {alt ? ` (${alt})` : ''}: show
    </Button>
  );
}

function hostOf(src: string): string {
  try {
    return new URL(src).host;
  } catch {
    return src;
  }
}

type ImageState = { state: 'ready'; dataUrl: string } | { state: 'failed'; message: string };

/** Asks the engine for the image (it fetches only what this ticket's description shows) and draws the bytes. */
function FetchedImage({ ticketId, src, alt }: { ticketId: number; src: string; alt: string | undefined }) {
  const bridge = useBridge();
  const key = `${ticketId} ${src}`;
  // Answers are kept with what they answer: another ticket or source is "loading" until its own answer comes.
  const [answer, setAnswer] = useState<{ key: string; image: ImageState } | null>(null);
  useEffect(() => {
    let live = true;
    const settle = (image: ImageState) => live && setAnswer({ key: `${ticketId} ${src}`, image });
    bridge.call('tickets.image', { id: ticketId, src }).then(
      (fetched) => settle({ state: 'ready', dataUrl: fetched.dataUrl }),
      (error: unknown) => settle({ state: 'failed', message: errorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, [bridge, ticketId, src]);
  const image: ImageState | { state: 'loading' } = answer?.key === key ? answer.image : { state: 'loading' };
  if (image.state === 'ready') {
    return <img src={image.dataUrl} alt={alt ?? ''} title={src} style={{ maxWidth: '100%' }} />;
  }
  if (image.state === 'loading') {
    return (
      <Text component="span" size="xs" c="dimmed" title={src}>
        <Loader size={10} mr={4} />
        Loading image from {hostOf(src)}…
      </Text>
    );
  }
  return (
    <Text component="span" size="xs" c="orange" title={src} role="status">
      {image.message}
    </Text>
  );
}
