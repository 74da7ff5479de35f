/**
 * Browser mode's file staging. A page cannot hand real paths to the engine, so it uploads the files it was given
 * (dropped, or chosen with "Choose folder…") to the host, which writes them under `<dataDir>/staging/<id>/` and
 * answers a handle for each staged top-level entry (src/main/handles); the page previews and trains those handles
 * like Electron's page does with the ones its dialogs and drops give it.
 *
 *   POST   /stage/<id>/files/<relative path>   one file, streamed to disk         → {ok, path, bytes}
 *   POST   /stage/<id>/done                     the staged top-level entries       → StagedDrop {entries, files, bytes}
 *   DELETE /stage/<id>                          forget a staging the admin dropped → {ok}
 *
 * Same checks as the bridge's WebSocket upgrade (Host, Origin, session cookie), plus safe paths and size caps: per
 * file, per drop, and for the whole staging folder (what earlier drops left there counts too).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { formatBytes } from '../../shared/bytes';
import type { GrantedPath, StagedDrop } from '../../shared/transport';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../engine/private-files';
import type { HandleRegistry } from '../handles';
import { isAllowedHost, isAllowedOrigin } from './guard';
import { resolveInside } from './static';

export const STAGE_PREFIX = '/stage/';
export const DEFAULT_MAX_FILE_BYTES = 200 * 1024 * 1024;
export const DEFAULT_MAX_STAGING_BYTES = 5 * 1024 * 1024 * 1024;
/** The whole staging folder: drops stay a day (a trained job may retry its files), so a few drops' worth. */
export const DEFAULT_MAX_TOTAL_BYTES = 10 * 1024 * 1024 * 1024;
/** The one page of browser mode holds every handle the host gives (there is one session per run). */
export const PAGE_OWNER = 'page';
/** Staging folders older than this are removed when the host starts. */
export const STAGING_MAX_AGE_MS = 24 * 60 * 60 * 1000;

const STAGING_ID = /^[A-Za-z0-9_-]{8,64}$/;
const MAX_SEGMENT_BYTES = 255;
const MAX_PATH_CHARS = 4096;
const MAX_DEPTH = 64;
const PART_SUFFIX = '.part';

export interface StagingOptions {
  /** The folder holding every staging: `<dataDir>/staging`. */
  root: string;
  /** Whether a request's Cookie header holds this run's session (guard.ts). */
  isSession(cookieHeader: string | undefined): boolean;
  /** The host's port, once it listens (Host and Origin are checked against it). */
  port(): number;
  /** Where the staged entries' handles are recorded (the bridge resolves them for `train.preview`). */
  handles: Pick<HandleRegistry, 'issue'>;
  maxFileBytes?: number;
  /** One drop (one staging id). */
  maxStagingBytes?: number;
  /** Every staging together, on disk. */
  maxTotalBytes?: number;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    // A refused upload is not read to its end: close the connection rather than drain it.
    ...(status >= 400 ? { connection: 'close' } : {}),
  });
  res.end(text);
}

/**
 * The decoded segments of a relative path taken from the URL, or a refusal: no empty, `.` or `..` segment, no NUL,
 * no (back)slash inside a segment, nothing absolute, and it must resolve inside `dir` (checked again with the
 * static server's resolveInside).
 */
export function safeRelativePath(dir: string, encoded: string): string[] {
  if (!encoded || encoded.length > MAX_PATH_CHARS) throw new Refusal(400, 'A file path is required');
  const raw = encoded.split('/');
  if (raw.length > MAX_DEPTH) throw new Refusal(400, `Folders nest deeper than ${MAX_DEPTH} levels`);
  const segments = raw.map((part) => {
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      throw new Refusal(400, 'The file path is not valid URL encoding');
    }
    if (segment === '' || segment === '.' || segment === '..') throw new Refusal(400, 'Unsafe file path');
    if (/[\0/\\]/.test(segment) || /^[A-Za-z]:/.test(segment)) throw new Refusal(400, 'Unsafe file path');
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) throw new Refusal(400, 'A file or folder name is too long');
    return segment;
  });
  const resolved = resolveInside(dir, `/${encoded}`);
  if (!resolved || resolved !== join(dir, ...segments)) throw new Refusal(400, 'Unsafe file path');
  return segments;
}

/** A cap on what one upload may write: its room in bytes, and the refusal once passed. */
interface Cap {
  room: number;
  status: number;
  message: string;
}

/** Counts bytes as they stream and stops the upload once the cap is passed. */
class ByteLimit extends Transform {
  bytes = 0;
  constructor(private readonly cap: Cap) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.cap.room) done(new Refusal(this.cap.status, this.cap.message));
    else done(null, chunk);
  }
}

export class Staging {
  private readonly maxFileBytes: number;
  private readonly maxStagingBytes: number;
  private readonly maxTotalBytes: number;
  /** Bytes on disk or being written, per staging id: this run's, and what earlier runs left (measured at start). */
  private readonly used = new Map<string, number>();
  private readonly ready: Promise<void>;

  constructor(private readonly options: StagingOptions) {
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.maxStagingBytes = options.maxStagingBytes ?? DEFAULT_MAX_STAGING_BYTES;
    this.maxTotalBytes = options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
    this.ready = this.removeOld().then(() => this.measure());
  }

  /** Removes staging folders older than a day (jobs normally finish well before): at start, and when space runs out. */
  async removeOld(now = Date.now(), maxAgeMs = STAGING_MAX_AGE_MS): Promise<void> {
    const entries = await readdir(this.options.root, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(this.options.root, entry.name);
      const info = await stat(path).catch(() => null);
      if (info && now - info.mtimeMs > maxAgeMs) {
        await rm(path, { recursive: true, force: true }).catch(() => {});
        this.used.delete(entry.name);
      }
    }
  }

  /** What the staging folder holds once the host starts: earlier runs' drops count against the total. */
  private async measure(): Promise<void> {
    const entries = await readdir(this.options.root, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      let bytes = 0;
      try {
        for await (const size of fileSizes(join(this.options.root, entry.name))) bytes += size;
      } catch {
        // Removed meanwhile, or unreadable: what was counted stands.
      }
      this.used.set(entry.name, (this.used.get(entry.name) ?? 0) + bytes);
    }
  }

  private total(): number {
    let sum = 0;
    for (const bytes of this.used.values()) sum += bytes;
    return sum;
  }

  async handle(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): Promise<void> {
    try {
      await this.ready;
      this.check(req);
      // The raw path, not URL's: WHATWG parsing would quietly resolve `..` and `%2e%2e` instead of refusing them.
      const rawPath = (req.url ?? '/').split('?')[0]!;
      if (!rawPath.startsWith(STAGE_PREFIX)) throw new Refusal(400, 'Unsafe file path');
      const rest = rawPath.slice(STAGE_PREFIX.length);
      const slash = rest.indexOf('/');
      const id = slash === -1 ? rest : rest.slice(0, slash);
      const action = slash === -1 ? '' : rest.slice(slash + 1);
      if (!STAGING_ID.test(id)) throw new Refusal(400, 'Unknown staging id');
      const dir = join(this.options.root, id);

      if (req.method === 'DELETE' && action === '') {
        this.used.delete(id);
        await rm(dir, { recursive: true, force: true });
        return answer(res, 200, { ok: true }, headers);
      }
      if (req.method !== 'POST') throw new Refusal(405, 'Method not allowed');
      if (action === 'done') return answer(res, 200, await this.done(dir), headers);
      if (action.startsWith('files/')) {
        const written = await this.receive(req, id, dir, action.slice('files/'.length));
        return answer(res, 200, { ok: true, ...written }, headers);
      }
      throw new Refusal(404, 'Not found');
    } catch (error) {
      if (error instanceof Refusal) return answer(res, error.status, { error: error.message }, headers);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR') {
        return answer(res, 409, { error: 'A file and a folder have the same name' }, headers);
      }
      answer(res, 500, { error: 'The file could not be staged' }, headers);
    }
  }

  /** The same gate as the bridge's WebSocket: loopback Host, the page's own Origin, the session cookie. */
  private check(req: IncomingMessage): void {
    const port = this.options.port();
    if (!isAllowedHost(req.headers.host, port)) throw new Refusal(403, 'Forbidden host');
    if (!isAllowedOrigin(req.headers.origin, port)) throw new Refusal(403, 'Forbidden origin');
    if (!this.options.isSession(req.headers.cookie)) throw new Refusal(401, 'Unauthorized');
  }

  /** The tightest of the three caps for one more upload to this staging (the whole folder's is checked last). */
  private async capFor(id: string, declared: number): Promise<Cap> {
    const caps: Cap[] = [
      {
        room: this.maxFileBytes,
        status: 413,
        message: `Files over ${formatBytes(this.maxFileBytes)} cannot be staged`,
      },
      {
        room: this.maxStagingBytes - (this.used.get(id) ?? 0),
        status: 413,
        message: `One drop may stage at most ${formatBytes(this.maxStagingBytes)}`,
      },
    ];
    for (const cap of caps) if (declared > cap.room) throw new Refusal(cap.status, cap.message);
    // Short of room (or not told how much is coming, and none left): clear what is over a day old first.
    const needed = Number.isFinite(declared) ? declared : 1;
    if (needed > this.maxTotalBytes - this.total()) await this.removeOld();
    const full: Cap = {
      room: this.maxTotalBytes - this.total(),
      // 507 Insufficient Storage: not this file's fault, so the page stops the whole drop and says why.
      status: 507,
      message:
        `The staging folder is full: files copied for training in the last day take ${formatBytes(this.total())} ` +
        `of the ${formatBytes(this.maxTotalBytes)} it may hold. Copy fewer files, or try again once older copies ` +
        'are cleared (a day after they were made).',
    };
    if (declared > full.room) throw new Refusal(full.status, full.message);
    return [...caps, full].reduce((tightest, cap) => (cap.room < tightest.room ? cap : tightest));
  }

  private async receive(req: IncomingMessage, id: string, dir: string, encoded: string) {
    const segments = safeRelativePath(dir, encoded);
    const declared = Number(req.headers['content-length'] ?? NaN);
    const cap = await this.capFor(id, declared);
    // Reserve what the request says it sends; an undeclared length is held to what is left.
    const reserved = Number.isFinite(declared) ? declared : 0;
    this.used.set(id, (this.used.get(id) ?? 0) + reserved);

    const target = join(dir, ...segments);
    const part = `${target}.${randomBytes(6).toString('hex')}${PART_SUFFIX}`;
    const limit = new ByteLimit(cap);
    try {
      // Inside the data folder: owner-only, like the rest of it.
      await mkdir(join(target, '..'), { recursive: true, mode: PRIVATE_DIR_MODE });
      await pipeline(req, limit, createWriteStream(part, { flags: 'wx', mode: PRIVATE_FILE_MODE }));
      await rename(part, target);
    } catch (error) {
      this.used.set(id, (this.used.get(id) ?? reserved) - reserved);
      await unlink(part).catch(() => {});
      throw error;
    }
    this.used.set(id, (this.used.get(id) ?? 0) - reserved + limit.bytes);
    return { path: segments.join('/'), bytes: limit.bytes };
  }

  /** What `train.preview` gets: a handle for each staged top-level file and folder, as the admin dropped them. */
  private async done(dir: string): Promise<StagedDrop> {
    const entries = await readdir(dir).catch(() => null);
    const names = (entries ?? []).filter((name) => !name.endsWith(PART_SUFFIX)).sort();
    if (!names.length) throw new Refusal(404, 'Nothing was staged under this id');
    let files = 0;
    let bytes = 0;
    for await (const size of fileSizes(dir)) {
      files += 1;
      bytes += size;
    }
    const entry = (name: string): GrantedPath => {
      const path = join(dir, name);
      return { handle: this.options.handles.issue(path, 'read', PAGE_OWNER), name, path };
    };
    return { entries: names.map(entry), files, bytes };
  }
}

async function* fileSizes(dir: string): AsyncGenerator<number> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* fileSizes(path);
    else if (entry.isFile() && !entry.name.endsWith(PART_SUFFIX)) yield (await stat(path)).size;
  }
}
