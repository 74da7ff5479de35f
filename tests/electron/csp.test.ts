/**
 * One Content-Security-Policy for the renderer: the `<meta>` the build writes, the Electron protocol handler's header
 * and browser mode's header all come from src/shared/csp.ts, so the meta can never be the weaker policy in force.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserModeCsp } from '../../src/main/host/guard';
import { contentSecurityPolicy } from '../../src/main/electron/policies';
import { contentSecurityPolicy as shared, cspMetaTag } from '../../src/shared/csp';

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(';').map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name!, sources];
    }),
  );
}

describe('the renderer CSP', () => {
  it('puts the header policy in the built <meta>, less only what a meta cannot carry', () => {
    for (const dev of [false, true]) {
      const header = directives(contentSecurityPolicy({ dev }));
      const meta = cspMetaTag({ dev });
      expect(meta.tag).toBe('meta');
      expect(meta.attrs['http-equiv']).toBe('Content-Security-Policy');
      expect(meta.injectTo).toBe('head-prepend');
      const fromMeta = directives(meta.attrs.content);
      header.delete('frame-ancestors');
      expect(fromMeta).toEqual(header);
    }
    expect(cspMetaTag({ dev: false }).attrs.content).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
        "media-src blob:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'",
    );
  });

  it("is the Electron window's policy in browser mode too, plus only the bridge's loopback WebSocket", () => {
    const browser = directives(browserModeCsp(5179));
    const electron = directives(contentSecurityPolicy({ dev: false }));
    expect(browser.get('connect-src')).toEqual(["'self'", 'ws://127.0.0.1:5179', 'ws://localhost:5179']);
    browser.delete('connect-src');
    electron.delete('connect-src');
    expect(browser).toEqual(electron);
    expect(browserModeCsp(5179)).toBe(shared({ connect: ['ws://127.0.0.1:5179', 'ws://localhost:5179'] }));
  });

  it('leaves no hand-written policy in index.html to drift from it', () => {
    const html = readFileSync('src/renderer/index.html', 'utf8');
    expect(html).not.toMatch(/<meta[^>]+http-equiv=["']?Content-Security-Policy/i);
    expect(readFileSync('electron.vite.config.ts', 'utf8')).toMatch(/plugins: \[react\(\), cspMeta\(\)[,\]]/);
  });
});
