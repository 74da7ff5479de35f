import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';

/**
 * A loopback proxy in front of the sandbox whose bulk requests a test can intercept: answer for the sandbox
 * (e.g. 413), or forward and then act before the client gets the answer (e.g. kill the client process).
 */
export interface BulkHook {
  (request: {
    body: string;
    rows: number;
    index: number;
  }): Promise<
    'forward' | { status: number; body?: unknown; headers?: Record<string, string> } | { afterForward: () => void }
  >;
}

const running: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(running.splice(0).map((proxy) => proxy.close()));
});

export async function bulkProxy(target: string, hook: BulkHook) {
  let index = 0;
  const read = (req: IncomingMessage) =>
    new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', reject);
    });
  const forward = async (req: IncomingMessage, body: Buffer) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
        headers.set(name, value);
    }
    return fetch(`${target}${req.url}`, { method: req.method, headers, ...(body.length ? { body } : {}) });
  };
  const send = async (res: ServerResponse, answer: Response) => {
    const text = await answer.text();
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(text);
  };
  const server = createServer((req, res) => {
    void (async () => {
      const body = await read(req);
      if (req.method === 'POST' && req.url?.includes('/bulk/')) {
        const text = body.toString();
        const rows = (JSON.parse(text) as { invitation_data: unknown[] }).invitation_data.length;
        const decision = await hook({ body: text, rows, index: index++ });
        if (decision !== 'forward' && 'status' in decision) {
          res.writeHead(decision.status, { 'content-type': 'application/json', ...decision.headers });
          res.end(JSON.stringify(decision.body ?? { detail: 'refused by the test proxy' }));
          return;
        }
        const answer = await forward(req, body);
        if (decision !== 'forward') {
          await answer.text();
          decision.afterForward();
          res.destroy();
          return;
        }
        return send(res, answer);
      }
      await send(res, await forward(req, body));
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const proxy = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  running.push(proxy);
  return proxy;
}
