import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Area, AreaDeps, SandboxConfig, SeedSize } from './area';
import { authenticate } from './auth';
import { openSandboxDb, type Db } from './db';
import { decideFault, latencyMs, overCapacity, parseFaults, uploadRefusal, type Faults } from './faults';
import { readForm, readJsonLike } from './http/body';
import { badRequest, forbidden, HttpError, notFound, unauthorized } from './http/errors';
import { isAllowedSandboxHost } from './http/host';
import { BinaryBody, JsonText, Router, type Method, type RequestContext } from './http/router';
import { Rng } from './rng';
import { coreArea, sandboxCredentials, seedCore, type SandboxCredentials } from './areas/core';
import { allAreas } from './areas';
import { mayUseAdminRoute } from './access';

export interface SandboxOptions {
  dataDir: string;
  port?: number;
  host?: string;
  seed?: SeedSize;
  /** Same value → same demo data. */
  seedValue?: number;
  /** The instant demo data ends at (default 2026-11-01T12:00Z; `npm run server` uses today so dashboards are current). */
  seedAnchor?: Date;
  faults?: string | Faults;
  simulateRate?: number;
  uploadLimitBytes?: number;
  /** Areas to serve; defaults to every area. Core is always first. */
  areas?: Area[];
  log?: (line: string) => void;
  /** Told of every request as it arrives (tests count the requests a screen sends). */
  onRequest?: (method: string, path: string) => void;
}

export interface Sandbox extends SandboxCredentials {
  url: string;
  port: number;
  db: Db;
  /** Change fault injection while running (tests: "the server fails mid-job"). */
  setFaults(faults: string | Faults): void;
  /** The most requests (faults apply to) it served at once since the last call, and how many it refused for load. */
  takeLoad(): { peakInFlight: number; refusedForLoad: number };
  close(): Promise<void>;
}

const JSON_BODY_LIMIT = 10 * 1024 * 1024;
/** Paths that faults never touch, so a client can always authenticate. */
const FAULT_EXEMPT = ['/api/core/consolidated-token/proxy/'];
export const DEFAULT_UPLOAD_LIMIT = 25 * 1024 * 1024;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  if (status === 204 || body === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  if (body instanceof BinaryBody) {
    res.writeHead(status, {
      'content-type': body.contentType,
      'content-length': String(body.bytes.length),
      ...headers,
    });
    res.end(body.bytes);
    return;
  }
  const text = body instanceof JsonText ? body.text : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** Starts the local sandbox platform: a real HTTP server over SQLite implementing the API subset the app uses. */
export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const areas = [coreArea, ...(options.areas ?? allAreas).filter((a) => a !== coreArea)];
  const config: SandboxConfig = {
    dataDir: options.dataDir,
    uploadLimitBytes: options.uploadLimitBytes ?? DEFAULT_UPLOAD_LIMIT,
    simulateRate: options.simulateRate ?? 0,
  };
  const db = openSandboxDb(
    options.dataDir,
    areas.map((a) => a.schema),
  );
  let faults =
    typeof options.faults === 'string' || options.faults === undefined ? parseFaults(options.faults) : options.faults;
  const deps: AreaDeps = {
    db,
    config,
    now: () => new Date(),
    refusedUpload: (uploadName) => uploadRefusal(faults, uploadName),
  };
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));

  const seeded = db.prepare('SELECT count(*) AS n FROM orgs').get() as { n: number };
  if (seeded.n === 0) {
    const size = options.seed ?? 'demo';
    const rng = new Rng(options.seedValue ?? 20261122);
    // Seeding is anchored at one fixed instant so the same seed always gives the same rows.
    const anchor = options.seedAnchor ?? new Date('2026-11-01T12:00:00Z');
    const seedDeps: AreaDeps = { ...deps, now: () => new Date(anchor) };
    db.transaction(() => {
      seedCore(seedDeps, size, rng);
      if (size !== 'none') for (const area of areas) if (area !== coreArea) area.seed?.(seedDeps, size, rng);
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
  }

  const router = new Router();
  for (const area of areas) area.routes(router, deps);

  const server = createServer((req, res) => {
    options.onRequest?.(req.method ?? 'GET', (req.url ?? '/').split('?')[0]!);
    handle(req, res).catch((error: unknown) => {
      log(`sandbox: unhandled ${error instanceof Error ? error.stack : String(error)}`);
      send(res, 500, { detail: 'Internal server error' });
    });
  });
  server.keepAliveTimeout = 30_000;

  const listenHost = options.host ?? '127.0.0.1';
  const load = { inFlight: 0, peakInFlight: 0, refusedForLoad: 0 };

  /** The request's URL, once its Host passed the rebinding check; a malformed target is a 400, never a 500. */
  function requestUrl(req: IncomingMessage): URL {
    if (!isAllowedSandboxHost(req.headers.host, listenHost)) throw badRequest();
    try {
      return new URL(req.url ?? '/', `http://${req.headers.host}`);
    } catch {
      throw badRequest();
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = requestUrl(req);
    } catch (error) {
      req.resume();
      send(res, 400, { detail: (error as HttpError).detail }, { connection: 'close' });
      return;
    }
    const exempt = FAULT_EXEMPT.includes(url.pathname) || url.pathname.startsWith('/_sandbox/');
    if (!exempt) {
      if (faults.capacity && load.inFlight >= faults.capacity) {
        load.refusedForLoad++;
        req.resume();
        const refusal = overCapacity(faults);
        send(res, refusal.status, { detail: refusal.detail }, refusal.headers);
        return;
      }
      load.inFlight++;
      load.peakInFlight = Math.max(load.peakInFlight, load.inFlight);
      res.once('close', () => load.inFlight--);
      const delay = latencyMs(faults);
      if (delay) await new Promise((r) => setTimeout(r, delay));
      const fault = decideFault(faults, Math.random, url.pathname);
      if (fault.kind === 'reset') {
        req.socket.destroy();
        return;
      }
      if (fault.kind === 'status') {
        // Drain the request so the connection can be reused for the client's retry.
        req.resume();
        send(res, fault.status, { detail: fault.detail }, fault.headers);
        return;
      }
    }
    try {
      const { route, params } = router.match(req.method ?? 'GET', url.pathname);
      const caller = route.auth === 'none' ? safeAuthenticate(req) : authenticate(db, req);
      if (route.auth !== 'none') {
        if (!caller) throw unauthorized();
        if (params.org !== undefined && params.org !== caller.org) throw notFound('Organization not found');
        if (params.user_id !== undefined && caller.role !== 'admin' && params.user_id !== caller.username) {
          throw forbidden();
        }
        if (route.auth === 'admin' && !mayUseAdminRoute(db, caller, route.method, url.pathname)) {
          throw route.forbiddenDetail ? new HttpError(401, route.forbiddenDetail) : forbidden();
        }
      } else if (params.org !== undefined && !db.prepare('SELECT 1 FROM orgs WHERE key = ?').get(params.org)) {
        throw notFound('Organization not found');
      }
      const ctx: RequestContext = {
        req,
        res,
        method: route.method as Method,
        path: url.pathname,
        params,
        query: url.searchParams,
        caller,
        url,
        json: <T>() => readJsonLike(req, JSON_BODY_LIMIT) as Promise<T>,
        form: () => readForm(req, config.uploadLimitBytes + 1024 * 1024, 'File too large'),
      };
      const reply = await route.handler(ctx);
      send(res, reply.status, reply.body, reply.headers);
    } catch (error) {
      if (error instanceof HttpError) {
        if (!req.complete) req.resume();
        send(res, error.status, error.body ?? (error.detail ? { detail: error.detail } : {}), error.headers);
        return;
      }
      throw error;
    }
  }

  function safeAuthenticate(req: IncomingMessage) {
    try {
      return authenticate(db, req);
    } catch {
      return null;
    }
  }

  const stops = areas.map((area) => area.start?.(deps)).filter((s): s is NonNullable<typeof s> => !!s);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | null = null;

  return {
    ...sandboxCredentials(db),
    url: `http://${listenHost.includes(':') ? `[${listenHost}]` : listenHost}:${port}`,
    port,
    db,
    takeLoad() {
      const taken = { peakInFlight: load.peakInFlight, refusedForLoad: load.refusedForLoad };
      load.peakInFlight = load.inFlight;
      load.refusedForLoad = 0;
      return taken;
    },
    setFaults(next) {
      faults = typeof next === 'string' ? parseFaults(next) : next;
    },
    close() {
      closing ??= (async () => {
        // Stop accepting, let in-flight requests finish, then stop workers and close the database.
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const force = setTimeout(() => server.closeAllConnections(), 5000);
        await closed;
        clearTimeout(force);
        for (const stop of stops) await stop();
        db.close();
      })();
      return closing;
    },
  };
}
