/**
 * The `app://renderer/` protocol the built renderer is served from: only the renderer folder's own files, never
 * anything outside it however the path is written, each answer with the app's CSP header.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  APP_ENTRY_URL,
  APP_SCHEME_PRIVILEGES,
  handleAppRequest,
  resolveAppRequest,
} from '../../src/main/electron/app-protocol';
import { contentSecurityPolicy } from '../../src/main/electron/policies';
import { tempDir } from '../helpers/temp';

const DIR = '/opt/mentor-admin/out/renderer';
const CSP = contentSecurityPolicy({ dev: false });

describe('resolveAppRequest', () => {
  it.each([
    [APP_ENTRY_URL, join(DIR, 'index.html'), 'text/html; charset=utf-8'],
    ['app://renderer/', join(DIR, 'index.html'), 'text/html; charset=utf-8'],
    ['app://renderer/index.html#/tickets/4?x=1', join(DIR, 'index.html'), 'text/html; charset=utf-8'],
    ['app://renderer/assets/index-B3L7.js', join(DIR, 'assets', 'index-B3L7.js'), 'text/javascript; charset=utf-8'],
    ['app://renderer/assets/vendor.css', join(DIR, 'assets', 'vendor.css'), 'text/css; charset=utf-8'],
    ['app://renderer/assets/a%20b.woff2', join(DIR, 'assets', 'a b.woff2'), 'font/woff2'],
    // The URL parser resolves plain and %2e dot segments before anything sees them: still inside.
    ['app://renderer/assets/../index.html', join(DIR, 'index.html'), 'text/html; charset=utf-8'],
    ['app://renderer/%2e%2e/%2e%2e/index.html', join(DIR, 'index.html'), 'text/html; charset=utf-8'],
  ])('serves %s from the renderer folder', (url, path, type) => {
    expect(resolveAppRequest(url, DIR)).toEqual({ ok: true, path, type });
  });

  it.each([
    'app://renderer/..%2f..%2f..%2fetc%2fpasswd',
    'app://renderer/assets/..%2F..%2Findex.html',
    'app://renderer/..%5c..%5cetc%5cpasswd',
    'app://renderer/assets\\..\\..\\secret.js',
    'app://renderer/%2e%2e%5csecret.js',
    'app://renderer/index.html%00.js',
    'app://renderer/assets//index.js',
    'app://renderer/C:%5cWindows%5cwin.ini',
    'app://renderer/%E0%A4%A.js',
    'app://user:pw@renderer/index.html',
  ])('refuses %s with 400', (url) => {
    expect(resolveAppRequest(url, DIR)).toEqual({ ok: false, status: 400 });
  });

  it.each([
    'app://other/index.html',
    'app://renderer:8080/index.html',
    'file:///opt/mentor-admin/out/renderer/index.html',
    'https://renderer/index.html',
    'app://renderer/assets/index.js.map',
    'app://renderer/package.json.bak',
    'app://renderer/assets',
  ])('answers 404 for %s (not the app, or not a file it serves)', (url) => {
    expect(resolveAppRequest(url, DIR)).toEqual({ ok: false, status: 404 });
  });

  it('registers the scheme as standard and secure, and with no privilege beyond', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({ standard: true, secure: true });
  });
});

describe('handleAppRequest', () => {
  let dir: string;
  let outside: string;

  beforeAll(() => {
    const root = tempDir();
    dir = join(root, 'renderer');
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Mentor Admin</title>');
    writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
    outside = join(root, 'secret.js');
    writeFileSync(outside, 'the secret');
    symlinkSync(outside, join(dir, 'assets', 'link.js'));
    mkdirSync(join(dir, 'folder.js'));
  });

  const get = (url: string, method = 'GET') => handleAppRequest(new Request(url, { method }), dir, CSP);

  it('serves the renderer with its type, the CSP header, no sniffing and no referrer', async () => {
    const page = await get(APP_ENTRY_URL);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Mentor Admin</title>');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(CSP);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const script = await get('app://renderer/assets/app.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe('console.log(1)');
  });

  it('never answers with a file outside the folder', async () => {
    for (const url of [
      'app://renderer/..%2fsecret.js',
      'app://renderer/assets/..%2f..%2fsecret.js',
      'app://renderer/assets/link.js', // a link inside that points out
      'app://renderer/folder.js', // a folder is not a file
      'app://renderer/missing.js',
    ]) {
      const answer = await get(url);
      expect(answer.status, url).toBeGreaterThanOrEqual(400);
      expect(await answer.text(), url).not.toContain('the secret');
      expect(answer.headers.get('content-security-policy'), url).toBe(CSP);
    }
  });

  it('answers only GET and HEAD', async () => {
    expect((await get(APP_ENTRY_URL, 'HEAD')).status).toBe(200);
    expect((await get(APP_ENTRY_URL, 'POST')).status).toBe(405);
    expect((await get(APP_ENTRY_URL, 'DELETE')).status).toBe(405);
  });
});
