/**
 * Browser mode's export downloads. The engine writes an export's file on the computer it runs on (the host's data or
 * Downloads folder); a browser page cannot open that folder, so the host hands the finished file to the page:
 *
 *   POST /export-file/<export id>   the CSV, as an attachment named like the file
 *
 * Only to the page that holds the session cookie, from its own Origin and a loopback Host (the bridge's checks), and only a
 * file the engine wrote: the id names an export job (never a path), which must have completed, and the file at the
 * path it recorded must be a regular file of the length it recorded. POST, so the browser sends its Origin.
 */
import { createReadStream } from 'node:fs';
import { lstat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { BridgeResult, CallName } from '../../shared/contract';
import { isAllowedHost, isAllowedOrigin } from './guard';

export const DOWNLOAD_PREFIX = '/export-file/';
const EXPORT_ID = /^[A-Za-z0-9_-]{1,100}$/;

interface Engine {
  call(name: CallName, input: unknown): Promise<BridgeResult>;
}

/** An `attachment` header that keeps any file name (RFC 6266: an ASCII fallback and the UTF-8 name). */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** What the engine says about an export, and whether the host may hand its file out (pure: tests drive it). */
export function downloadDecision(
  id: string,
  recorded: unknown,
  onDisk: { isFile: boolean; isLink: boolean; size: number } | null,
): { ok: true; path: string; size: number } | { ok: false; status: number; reason: string } {
  const info = recorded as { id?: unknown; state?: unknown; path?: unknown; bytes?: unknown } | undefined;
  if (!info || info.id !== id || typeof info.path !== 'string' || !info.path)
    return { ok: false, status: 404, reason: 'No such export' };
  if (info.state !== 'completed') return { ok: false, status: 409, reason: 'The export has not finished' };
  if (!onDisk) return { ok: false, status: 410, reason: `The file is not there any more: ${info.path}` };
  if (!onDisk.isFile || onDisk.isLink || onDisk.size !== info.bytes)
    return { ok: false, status: 409, reason: `The file was changed after the export wrote it: ${info.path}` };
  return { ok: true, path: info.path, size: onDisk.size };
}

export async function handleDownload(
  req: IncomingMessage,
  res: ServerResponse,
  context: {
    engine: Engine;
    port: number;
    headers: Record<string, string>;
    /** Whether a Cookie header carries the page's session (the exchanged token). */
    isSession(cookie: string | undefined): boolean;
  },
): Promise<void> {
  const { headers } = context;
  const fail = (status: number, message: string) =>
    res.writeHead(status, { ...headers, 'content-type': 'text/plain; charset=utf-8' }).end(message);
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (!isAllowedHost(req.headers.host, context.port)) return void fail(403, 'Forbidden host');
  if (!isAllowedOrigin(req.headers.origin, context.port)) return void fail(403, 'Forbidden origin');
  if (!context.isSession(req.headers.cookie)) return void fail(401, 'Unauthorized');
  if (req.method !== 'POST') return void fail(405, 'Method not allowed');
  const id = decodeURIComponent(url.pathname.slice(DOWNLOAD_PREFIX.length));
  if (!EXPORT_ID.test(id)) return void fail(404, 'No such export');

  const answer = await context.engine.call('analytics.export', { id });
  const recorded = answer.ok ? answer.value : undefined;
  const path = (recorded as { path?: unknown } | undefined)?.path;
  const stats = typeof path === 'string' && path ? await lstat(path).catch(() => null) : null;
  const decision = downloadDecision(
    id,
    recorded,
    stats && { isFile: stats.isFile(), isLink: stats.isSymbolicLink(), size: stats.size },
  );
  if (!decision.ok) return void fail(decision.status, decision.reason);
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/csv; charset=utf-8',
    'content-length': String(decision.size),
    'content-disposition': attachment(basename(decision.path)),
    'cache-control': 'no-store',
  });
  if (decision.size === 0) return void res.end();
  // Only the length the export wrote, even should the file grow meanwhile.
  await pipeline(createReadStream(decision.path, { start: 0, end: decision.size - 1 }), res);
}
