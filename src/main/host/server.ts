import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { BRIDGE_PATH, SESSION_PATH, TOKEN_PARAM, WireRequest, type WireMessage } from '../../shared/transport';
import { createEngine, shellPreset, type Engine } from '../engine';
import { DOWNLOAD_PREFIX, handleDownload } from './download';
import { browserModeCsp, hasSession, isAllowedHost, isAllowedOrigin, sessionCookie, tokensMatch } from './guard';
import { gatePagePaths, HandleRegistry } from '../handles';
import { PAGE_OWNER, Staging, STAGE_PREFIX, type StagingOptions } from './stage';
import { serveStatic } from './static';

export interface HostOptions {
  dataDir: string;
  port?: number;
  rendererDir?: string;
  env?: NodeJS.ProcessEnv;
  keychainService?: string;
  /** Use an engine made elsewhere (tests); otherwise one is created and closed with the host. */
  engine?: Engine;
  /** Size caps of browser-mode file staging (tests make them small). */
  staging?: Pick<StagingOptions, 'maxFileBytes' | 'maxStagingBytes' | 'maxTotalBytes'>;
}

export interface Host {
  /** The address to open: the origin with the per-run token, which the first page load exchanges for a cookie. */
  url: string;
  origin: string;
  token: string;
  port: number;
  engine: Engine;
  /** The session cookie's `name=value`, as a page that opened `url` holds it (tests). */
  sessionCookie: string;
  close(): Promise<void>;
}

/** Larger frames are refused: no contract call needs more (dropped files travel separately). */
const MAX_FRAME_BYTES = 4 * 1024 * 1024;

function refuse(socket: Socket, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * Browser mode: serves the built renderer and the contract over a WebSocket on 127.0.0.1. The printed address's
 * token is exchanged for a session cookie; every bridge connection must carry that cookie, come from the page's own
 * Origin and name a loopback Host.
 */
export async function startHost(options: HostOptions): Promise<Host> {
  const env = options.env ?? process.env;
  const engine =
    options.engine ??
    (await createEngine({
      ...shellPreset('browser'),
      dataDir: options.dataDir,
      env,
      ...(options.keychainService ? { keychainService: options.keychainService } : {}),
    }));
  const rendererDir = resolve(options.rendererDir ?? 'out/renderer');
  const token = randomBytes(24).toString('base64url');
  // What the page holds once it has exchanged the token: a secret of its own, in an HttpOnly cookie.
  const session = randomBytes(24).toString('base64url');
  let port = 0;
  // The staged drops the page may name, by handle: the only paths the page can hand the engine.
  const handles = new HandleRegistry();
  const staging = new Staging({
    root: join(options.dataDir, 'staging'),
    isSession: (cookie) => hasSession(cookie, port, session),
    port: () => port,
    handles,
    ...options.staging,
  });

  const server = createServer((req, res) => {
    const headers = {
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'content-security-policy': browserModeCsp(port),
    };
    if (!isAllowedHost(req.headers.host, port)) {
      res.writeHead(403, headers).end('Forbidden host');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    if (path === SESSION_PATH) {
      res.writeHead(hasSession(req.headers.cookie, port, session) ? 204 : 401, {
        ...headers,
        'cache-control': 'no-store',
      });
      res.end();
      return;
    }
    // Files the page stages for training (browser mode cannot hand real paths to the engine).
    if (path.startsWith(STAGE_PREFIX)) {
      staging.handle(req, res, headers).catch(() => res.destroy());
      return;
    }
    // Finished exports, handed to the page that holds the session (the engine wrote them on this computer).
    if (path.startsWith(DOWNLOAD_PREFIX)) {
      handleDownload(req, res, {
        engine,
        port,
        headers,
        isSession: (cookie) => hasSession(cookie, port, session),
      }).catch(() => res.destroy());
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, headers).end('Method not allowed');
      return;
    }
    // The printed address: its token is exchanged for the session cookie (the page then drops it from the address).
    const exchange: Record<string, string> = tokensMatch(token, url.searchParams.get(TOKEN_PARAM))
      ? { 'set-cookie': sessionCookie(port, session) }
      : {};
    serveStatic(rendererDir, path, res, { ...headers, ...exchange }).catch(() => res.destroy());
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== BRIDGE_PATH) return refuse(socket, 404, 'Not Found');
    if (!isAllowedHost(req.headers.host, port)) return refuse(socket, 403, 'Forbidden');
    if (!isAllowedOrigin(req.headers.origin, port)) return refuse(socket, 403, 'Forbidden');
    if (!hasSession(req.headers.cookie, port, session)) return refuse(socket, 401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => serveBridge(ws, engine, handles));
  });

  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', () => done());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/?${TOKEN_PARAM}=${token}`,
    origin,
    token,
    port,
    engine,
    sessionCookie: sessionCookie(port, session).split(';')[0]!,
    async close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      await new Promise<void>((done) => server.close(() => done()));
      server.closeAllConnections();
      if (!options.engine) await engine.close();
    },
  };
}

/**
 * One bridge connection: requests in, results and engine events out. Path fields must hold handles of staged drops
 * (handles/gate.ts): the page cannot name a file on this computer, nor a folder to write into (exports go to the
 * engine's export folder and the page downloads them).
 */
function serveBridge(ws: WebSocket, engine: Engine, handles: Pick<HandleRegistry, 'resolve'>): void {
  const send = (message: WireMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const unsubscribe = engine.onEvent((name, payload) => send({ kind: 'event', name, payload }));
  ws.on('close', unsubscribe);
  ws.on('message', async (data, isBinary) => {
    let request: WireRequest;
    try {
      if (isBinary) throw new Error('binary frame');
      request = WireRequest.parse(JSON.parse(data.toString()));
    } catch {
      send({
        kind: 'result',
        id: -1,
        ok: false,
        error: { code: 'validation', message: 'Malformed bridge message: expected {"id","name","input"} as JSON' },
      });
      return;
    }
    const gated = gatePagePaths(request.name, request.input, (handle, access) =>
      handles.resolve(handle, access, PAGE_OWNER),
    );
    const result = gated.ok ? await engine.call(request.name, gated.input) : gated.result;
    send(
      result.ok
        ? { kind: 'result', id: request.id, ok: true, value: result.value }
        : { kind: 'result', id: request.id, ok: false, error: result.error },
    );
  });
}
