/**
 * The renderer's Content-Security-Policy, in one place: the Electron protocol handler's header, browser mode's
 * header and the `<meta>` tag the build writes into index.html all come from `contentSecurityPolicy`, so none of
 * them can drift into a weaker policy that then happens to be the one in force.
 */

export interface CspOptions {
  /**
   * The electron-vite dev server: @vitejs/plugin-react injects its Fast Refresh preamble as an inline module script,
   * and Vite's hot reload talks over a loopback WebSocket. Built renderers load only bundled files from the app.
   */
  dev?: boolean;
  /** More sources for `connect-src`: browser mode's bridge WebSocket. */
  connect?: readonly string[];
  /** A `<meta>` policy leaves out what only a header can carry (`frame-ancestors`: browsers ignore it in a meta). */
  delivery?: 'header' | 'meta';
}

/** Loopback dev-server WebSocket origins Vite uses for hot reload (development only). */
export const DEV_SERVER_SOCKETS = ['ws://localhost:*', 'ws://127.0.0.1:*'] as const;

export function contentSecurityPolicy(options: CspOptions = {}): string {
  const { dev = false, connect = [], delivery = 'header' } = options;
  const directives: [string, string[]][] = [
    ['default-src', ["'none'"]],
    ['script-src', dev ? ["'self'", "'unsafe-inline'"] : ["'self'"]],
    // Mantine (and Emotion-style CSS-in-JS generally) injects <style> tags and style attributes at run time;
    // inline styles cannot run code, so this is the accepted trade-off. Scripts stay strict.
    ['style-src', ["'self'", "'unsafe-inline'"]],
    // Remote images (ticket descriptions) are never loaded by the page: the engine fetches them as data: URLs.
    ['img-src', ["'self'", 'data:']],
    // Audio the engine hands the page (a mentor's voice, `custom-voice-tts/`) plays from a blob: URL the page makes;
    // media is never loaded from anywhere else.
    ['media-src', ['blob:']],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'", ...(dev ? DEV_SERVER_SOCKETS : []), ...connect]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
    ['frame-ancestors', ["'none'"]],
    ['object-src', ["'none'"]],
  ];
  return directives
    .filter(([name]) => delivery === 'header' || name !== 'frame-ancestors')
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** The `<meta http-equiv>` tag the renderer build puts first in index.html's head (see electron.vite.config.ts). */
export function cspMetaTag(options: { dev: boolean }): {
  tag: 'meta';
  attrs: { 'http-equiv': 'Content-Security-Policy'; content: string };
  injectTo: 'head-prepend';
} {
  return {
    tag: 'meta',
    attrs: {
      'http-equiv': 'Content-Security-Policy',
      content: contentSecurityPolicy({ dev: options.dev, delivery: 'meta' }),
    },
    injectTo: 'head-prepend',
  };
}
