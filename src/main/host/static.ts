import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/** Resolves a URL path inside `root`, or null when it would escape it. */
export function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const base = resolve(root);
  const target = resolve(join(base, normalize(decoded)));
  return target === base || target.startsWith(base + sep) ? target : null;
}

/** Serves a file from the built renderer; unknown paths fall back to index.html (client-side routes). */
export async function serveStatic(
  root: string,
  urlPath: string,
  res: ServerResponse,
  headers: Record<string, string>,
): Promise<void> {
  let file = resolveInside(root, urlPath === '/' ? '/index.html' : urlPath);
  if (!file) {
    res.writeHead(400, headers).end('Bad path');
    return;
  }
  let info = await stat(file).catch(() => null);
  if (!info?.isFile()) {
    file = join(root, 'index.html');
    info = await stat(file).catch(() => null);
    if (!info?.isFile()) {
      res
        .writeHead(500, { ...headers, 'content-type': 'text/plain; charset=utf-8' })
        .end('The renderer is not built. Run `npm run web`, which builds it first.');
      return;
    }
  }
  const type = MIME[extname(file)] ?? 'application/octet-stream';
  const cache = file.endsWith('index.html') ? 'no-store' : 'public, max-age=31536000, immutable';
  res.writeHead(200, { ...headers, 'content-type': type, 'content-length': String(info.size), 'cache-control': cache });
  createReadStream(file).pipe(res);
}
