/**
 * The built renderer is served from `app://renderer/…` (a custom protocol, `protocol.handle`), not from `file://`:
 * a `file://` page may read any file on the machine, while this protocol serves only the files of the renderer
 * folder, with the app's CSP as a real header. No `electron` import: the request handler takes and returns the web
 * platform's Request/Response, so it is tested under Node with real files.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve } from 'node:path';

export const APP_SCHEME = 'app';
export const APP_HOST = 'renderer';
/** The URL the main window loads. */
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * What the scheme may do, registered before the app is ready: `standard` (URLs with an origin, relative links,
 * localStorage) and `secure` (a secure context, as https is). Nothing more: it does not bypass the CSP, run service
 * workers or take fetch() from other origins.
 */
export const APP_SCHEME_PRIVILEGES = { standard: true, secure: true } as const;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

export type AppRequestTarget = { ok: true; path: string; type: string } | { ok: false; status: 400 | 404 };

/**
 * The file under `rendererDir` that `url` names, or why there is none. Only `app://renderer/` URLs; the path is
 * decoded once and must stay inside the folder: no `..` or `.` segment (encoded or not), no backslash, no NUL, no
 * encoded slash, nothing but the listed file types. `/` is index.html.
 */
export function resolveAppRequest(url: string, rendererDir: string): AppRequestTarget {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { ok: false, status: 400 };
  }
  if (target.protocol !== `${APP_SCHEME}:` || target.hostname !== APP_HOST || target.port) {
    return { ok: false, status: 404 };
  }
  if (target.username || target.password) return { ok: false, status: 400 };
  const encoded = target.pathname === '/' ? ['index.html'] : target.pathname.slice(1).split('/');
  const segments: string[] = [];
  for (const part of encoded) {
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return { ok: false, status: 400 };
    }
    if (!segment || segment === '.' || segment === '..' || /[\0/\\]/.test(segment) || /^[A-Za-z]:/.test(segment)) {
      return { ok: false, status: 400 };
    }
    segments.push(segment);
  }
  const root = resolve(rendererDir);
  const path = join(root, ...segments);
  const inside = relative(root, path);
  if (!inside || inside.startsWith('..') || isAbsolute(inside)) return { ok: false, status: 400 };
  const type = TYPES[extname(path).toLowerCase()];
  if (!type) return { ok: false, status: 404 };
  return { ok: true, path, type };
}

/** Headers of every answer: the CSP (from src/shared/csp.ts, as the build's <meta>), no sniffing, no referrer. */
export function appResponseHeaders(csp: string, type?: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-cache',
    ...(type ? { 'content-type': type } : {}),
  };
}

/** `protocol.handle('app', …)`'s handler: GET and HEAD of the renderer's own files, nothing else. */
export async function handleAppRequest(request: Request, rendererDir: string, csp: string): Promise<Response> {
  const refuse = (status: number) => new Response(null, { status, headers: appResponseHeaders(csp) });
  if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405);
  const target = resolveAppRequest(request.url, rendererDir);
  if (!target.ok) return refuse(target.status);
  try {
    // A link inside the folder that points out of it is refused like a `..`.
    const [real, root] = await Promise.all([realpath(target.path), realpath(rendererDir)]);
    const inside = relative(root, real);
    if (!inside || inside.startsWith('..') || isAbsolute(inside)) return refuse(404);
    if (!(await stat(real)).isFile()) return refuse(404);
    const body = request.method === 'HEAD' ? null : await readFile(real);
    return new Response(body, { status: 200, headers: appResponseHeaders(csp, target.type) });
  } catch {
    return refuse(404);
  }
}
