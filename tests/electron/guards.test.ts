/**
 * The guards every webContents gets (guards.ts), driven through a fake webContents: navigation of the page and of
 * its frames, redirects, webviews and new windows. Electron cannot run here; its module is only imported.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { guardWebContents, type GuardedContents } from '../../src/main/electron/guards';

const APP_ENTRY = 'app://renderer/index.html';

function fakeContents() {
  const emitter = new EventEmitter();
  let windowOpen: ((details: { url: string }) => { action: string }) | undefined;
  const contents = {
    on: (event: string, listener: (...args: unknown[]) => void) => emitter.on(event, listener),
    setWindowOpenHandler: (handler: typeof windowOpen) => {
      windowOpen = handler;
    },
  } as unknown as GuardedContents;
  const opened: string[] = [];
  guardWebContents(contents, APP_ENTRY, (url) => opened.push(url));
  /** Emits `event` as Electron would; answers whether the listener prevented it. */
  const fire = (event: string, url: string) => {
    let prevented = false;
    emitter.emit(event, { url, preventDefault: () => (prevented = true) });
    return prevented;
  };
  return { fire, opened, openWindow: (url: string) => windowOpen!({ url }) };
}

describe('guardWebContents', () => {
  it('lets the page move inside the app and stops everything else, a plain link going to the browser', () => {
    const { fire, opened } = fakeContents();
    expect(fire('will-navigate', `${APP_ENTRY}#/tickets`)).toBe(false);
    expect(fire('will-navigate', 'https://docs.example.org/')).toBe(true);
    expect(fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(fire('will-navigate', 'javascript:alert(1)')).toBe(true);
    expect(opened).toEqual(['https://docs.example.org/']);
  });

  it.each(['will-frame-navigate', 'will-redirect'])('stops %s away from the app, opening nothing', (event) => {
    const { fire, opened } = fakeContents();
    expect(fire(event, APP_ENTRY)).toBe(false);
    for (const url of ['https://evil.example/', 'file:///etc/passwd', 'data:text/html,x', 'app://renderer/x.html']) {
      expect(fire(event, url), url).toBe(true);
    }
    expect(opened).toEqual([]);
  });

  it('never attaches a webview', () => {
    const { fire } = fakeContents();
    expect(fire('will-attach-webview', 'https://example.org/')).toBe(true);
  });

  it('never opens a window; hands plain http(s) links to the browser', () => {
    const { openWindow, opened } = fakeContents();
    expect(openWindow('https://example.org/help')).toEqual({ action: 'deny' });
    expect(openWindow('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(openWindow(APP_ENTRY)).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://example.org/help']);
  });
});
