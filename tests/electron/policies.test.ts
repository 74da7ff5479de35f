import { describe, expect, it } from 'vitest';
import {
  contentSecurityPolicy,
  isAllowedNavigation,
  isSafeExternalUrl,
  isTrustedSender,
  permissionDecision,
  secureWebPreferences,
  windowOpenDecision,
} from '../../src/main/electron/policies';

const APP_ENTRY = 'app://renderer/index.html';
const OLD_FILE_ENTRY = 'file:///opt/mentor-admin/out/renderer/index.html';
const DEV_ENTRY = 'http://localhost:5173/';

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(';').map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name!, sources];
    }),
  );
}

describe('secureWebPreferences', () => {
  it('isolates, sandboxes and keeps Node out of the page', () => {
    expect(secureWebPreferences('/app/out/preload/index.cjs')).toEqual({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      disableBlinkFeatures: 'Auxclick',
      devTools: false,
    });
  });

  it('enables developer tools only when asked (development)', () => {
    expect(secureWebPreferences('/p.cjs', { devTools: true }).devTools).toBe(true);
    expect(secureWebPreferences('/p.cjs', { devTools: true }).sandbox).toBe(true);
  });
});

describe('contentSecurityPolicy', () => {
  for (const dev of [false, true]) {
    describe(dev ? 'development' : 'production', () => {
      const csp = contentSecurityPolicy({ dev });
      const parsed = directives(csp);

      it('never allows eval', () => {
        expect(csp).not.toContain('unsafe-eval');
        expect(csp).not.toContain('wasm-unsafe-eval');
      });

      it('loads scripts from the app only: no remote, data: or blob: sources', () => {
        for (const source of parsed.get('script-src')!) {
          expect(["'self'", "'unsafe-inline'"]).toContain(source);
        }
        expect(csp).not.toMatch(/https?:/);
        // Every source anywhere is a keyword, data: for images, blob: for media, or (development) the loopback dev
        // socket.
        const known = ["'self'", "'none'", "'unsafe-inline'", 'data:', 'blob:', 'ws://localhost:*', 'ws://127.0.0.1:*'];
        for (const sources of parsed.values()) for (const source of sources) expect(known).toContain(source);
        expect(parsed.get('script-src')).not.toContain('data:');
        expect(parsed.get('script-src')).not.toContain('blob:');
      });

      it('denies by default and closes the usual escape hatches', () => {
        expect(parsed.get('default-src')).toEqual(["'none'"]);
        expect(parsed.get('object-src')).toEqual(["'none'"]);
        expect(parsed.get('base-uri')).toEqual(["'none'"]);
        expect(parsed.get('form-action')).toEqual(["'none'"]);
        expect(parsed.get('frame-ancestors')).toEqual(["'none'"]);
        expect(parsed.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
        expect(parsed.get('img-src')).toEqual(["'self'", 'data:']);
        expect(parsed.get('font-src')).toEqual(["'self'"]);
        expect(parsed.get('media-src')).toEqual(['blob:']);
      });
    });
  }

  it('is exactly the strict policy in production', () => {
    expect(contentSecurityPolicy({ dev: false })).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
        "media-src blob:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; " +
        "object-src 'none'",
    );
  });

  it('adds only the loopback dev-server socket (and the inline refresh preamble) in development', () => {
    const dev = directives(contentSecurityPolicy({ dev: true }));
    expect(dev.get('connect-src')).toEqual(["'self'", 'ws://localhost:*', 'ws://127.0.0.1:*']);
    expect(dev.get('script-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(directives(contentSecurityPolicy({ dev: false })).get('script-src')).toEqual(["'self'"]);
  });
});

describe('isAllowedNavigation', () => {
  describe('built app (app:// entry)', () => {
    it.each([
      APP_ENTRY,
      `${APP_ENTRY}#/profiles`,
      `${APP_ENTRY}?tab=2#/tickets`,
      'APP://renderer/index.html', // same URL, scheme case does not matter
      'app://renderer/assets/../index.html', // normalises to the same file
    ])('allows %s', (url) => {
      expect(isAllowedNavigation(url, APP_ENTRY)).toBe(true);
    });

    it.each([
      OLD_FILE_ENTRY, // the app is never shown from file:// any more
      `${OLD_FILE_ENTRY}#/profiles`,
      'file:///etc/passwd',
      'app://renderer/other.html',
      'app://renderer/',
      'app://renderer/index.html.evil',
      'app://renderer/assets/index.js',
      'app://evil/index.html',
      'app://renderer.evil/index.html',
      'app://renderer:8080/index.html',
      'app://user:pass@renderer/index.html',
      'FILE:///etc/passwd',
      'http://localhost:5173/',
      'https://example.org/',
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'DATA:text/html,hi',
      'blob:app://renderer/1234',
      'about:blank',
      'chrome://settings',
      'devtools://devtools/bundled/inspector.html',
      '',
      'not a url',
    ])('denies %s', (url) => {
      expect(isAllowedNavigation(url, APP_ENTRY)).toBe(false);
    });

    it('denies non-strings', () => {
      expect(isAllowedNavigation(undefined, APP_ENTRY)).toBe(false);
      expect(isAllowedNavigation(null, APP_ENTRY)).toBe(false);
      expect(isAllowedNavigation(42, APP_ENTRY)).toBe(false);
    });
  });

  describe('development (dev-server entry)', () => {
    it.each([
      'http://localhost:5173/',
      'http://localhost:5173/#/profiles',
      'http://localhost:5173/src/x.html',
      'HTTP://LOCALHOST:5173/',
    ])('allows %s', (url) => {
      expect(isAllowedNavigation(url, DEV_ENTRY)).toBe(true);
    });

    it.each([
      'http://localhost:5174/',
      'https://localhost:5173/',
      'http://127.0.0.1:5173/',
      'http://localhost.evil.com:5173/',
      'http://localhost:5173@evil.com/',
      'http://user:pass@localhost:5173/',
      'http://user@localhost:5173/',
      'ws://localhost:5173/',
      APP_ENTRY,
      OLD_FILE_ENTRY,
      'javascript:alert(1)',
    ])('denies %s', (url) => {
      expect(isAllowedNavigation(url, DEV_ENTRY)).toBe(false);
    });

    it('denies a look-alike host built on the loopback address', () => {
      expect(isAllowedNavigation('http://127.0.0.1.evil.com:5173/', 'http://127.0.0.1:5173/')).toBe(false);
      expect(isAllowedNavigation('http://127.0.0.1.evil.com/', 'http://127.0.0.1/')).toBe(false);
      expect(isAllowedNavigation('http://127.0.0.1:5173/', 'http://127.0.0.1:5173/')).toBe(true);
    });
  });

  it('denies everything when the entry itself is not a usable URL', () => {
    expect(isAllowedNavigation(APP_ENTRY, 'not a url')).toBe(false);
    // A file:// entry is no entry: nothing is the app under it.
    expect(isAllowedNavigation(OLD_FILE_ENTRY, OLD_FILE_ENTRY)).toBe(false);
    expect(isAllowedNavigation('data:text/html,x', 'data:text/html,x')).toBe(false);
  });
});

describe('isTrustedSender', () => {
  it('trusts the app top frame, with any hash route', () => {
    expect(isTrustedSender(APP_ENTRY, APP_ENTRY)).toBe(true);
    expect(isTrustedSender(`${APP_ENTRY}#/mentors/42`, APP_ENTRY)).toBe(true);
    expect(isTrustedSender('http://localhost:5173/#/x', DEV_ENTRY)).toBe(true);
  });

  it.each([
    ['a local file', 'file:///tmp/evil.html', APP_ENTRY],
    ['the old file:// page of the app', OLD_FILE_ENTRY, APP_ENTRY],
    ['another file of the app protocol', 'app://renderer/assets/x.html', APP_ENTRY],
    ['a remote page', 'https://evil.example/', APP_ENTRY],
    ['the dev server in a build', 'http://localhost:5173/', APP_ENTRY],
    ['the built app in development', APP_ENTRY, DEV_ENTRY],
    ['another loopback port', 'http://localhost:9999/', DEV_ENTRY],
    ['about:blank', 'about:blank', APP_ENTRY],
    ['a data: page', 'data:text/html,x', APP_ENTRY],
    ['an empty url', '', APP_ENTRY],
    ['no url at all', undefined, APP_ENTRY],
  ])('refuses %s', (_label, frameUrl, entry) => {
    expect(isTrustedSender(frameUrl, entry)).toBe(false);
  });
});

describe('isSafeExternalUrl', () => {
  it.each([
    'https://docs.example.org/mentors?x=1#y',
    'http://example.org',
    'HTTPS://EXAMPLE.ORG/',
    'http://127.0.0.1:8080/',
  ])('allows %s', (url) => {
    expect(isSafeExternalUrl(url)).toBe(true);
  });

  it.each([
    'https://user:secret@example.org/',
    'https://user@example.org/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'data:text/html,x',
    'smb://server/share',
    'ms-msdt:/id PCWDiagnostic',
    'vbscript:msgbox',
    'mailto:a@example.org',
    'ftp://example.org/',
    '//example.org/protocol-relative',
    '',
    'not a url',
  ])('refuses %s', (url) => {
    expect(isSafeExternalUrl(url)).toBe(false);
  });

  it('refuses non-strings', () => {
    expect(isSafeExternalUrl({ toString: () => 'https://example.org/' })).toBe(false);
  });
});

describe('windowOpenDecision', () => {
  it('never opens a window; hands http(s) links to the browser', () => {
    expect(windowOpenDecision('https://example.org/')).toEqual({ action: 'deny', openExternally: true });
  });

  it.each(['file:///etc/passwd', 'javascript:alert(1)', 'about:blank', APP_ENTRY, 'https://u:p@example.org/', ''])(
    'denies %s without opening it anywhere',
    (url) => {
      expect(windowOpenDecision(url)).toEqual({ action: 'deny', openExternally: false });
    },
  );
});

describe('permissionDecision', () => {
  it('denies everything', () => {
    expect(permissionDecision()).toBe(false);
  });
});
