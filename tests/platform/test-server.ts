/** A real HTTP(S) server on 127.0.0.1 for the platform client tests: records every request, answers via a handler. */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as received. */
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, context: { body: Buffer; index: number }) => unknown;

export interface TestServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const running: TestServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** Starts a server that is closed automatically after the current test. */
export async function startServer(handler: Handler, tls?: { key: string; cert: string }): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const listener = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const index = requests.length;
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    try {
      await handler(req, res, { body, index });
    } catch (error) {
      if (!res.headersSent) res.writeHead(599).end(String(error));
    }
  };
  const server: Server = tls ? createHttpsServer(tls, listener) : createHttpServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const testServer: TestServer = {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  running.push(testServer);
  return testServer;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** A port on which nothing listens (a server was there a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createHttpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Parses a multipart request body the way a server framework would, with the platform's own FormData. */
export async function parseMultipart(recorded: RecordedRequest): Promise<FormData> {
  return new Request('http://server.invalid/', {
    method: 'POST',
    headers: { 'content-type': String(recorded.headers['content-type']) },
    body: new Uint8Array(recorded.body),
  }).formData();
}
