/**
 * Small HTTP proxies in front of the real sandbox, for what the sandbox cannot say about itself: how many uploads
 * were in flight at once, and which upload was sent how often. Every request still reaches the sandbox.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Forwarded {
  status: number;
  contentType: string;
  body: Buffer;
}

export const isUpload = (req: IncomingMessage) => req.method === 'POST' && req.url!.includes('/documents/train/');

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Sends the request (its body already read) on to `target` and reads the whole answer. */
async function forward(target: string, req: IncomingMessage, payload: Buffer): Promise<Forwarded> {
  const headers = Object.fromEntries(
    Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)),
  ) as Record<string, string>;
  const answer = await fetch(target + req.url, {
    method: req.method!,
    headers,
    ...(payload.length ? { body: payload } : {}),
  });
  return {
    status: answer.status,
    contentType: answer.headers.get('content-type') ?? 'application/json',
    body: Buffer.from(await answer.arrayBuffer()),
  };
}

export function answer(res: ServerResponse, forwarded: Forwarded): void {
  res.writeHead(forwarded.status, { 'content-type': forwarded.contentType }).end(forwarded.body);
}

/**
 * A proxy whose `handle` sees each request with its body and decides what to do: `forward` sends it on to `target`
 * and answers nothing yet, so the handler may answer, hold or drop it.
 */
export async function proxy(
  target: string,
  handle: (
    req: IncomingMessage,
    res: ServerResponse,
    payload: Buffer,
    forward: () => Promise<Forwarded>,
  ) => Promise<void>,
) {
  const server = createServer((req, res) => {
    void (async () => {
      const payload = await readBody(req);
      await handle(req, res, payload, () => forward(target, req, payload));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The name a multipart upload gives its file (the relative path the job sends). */
function uploadedName(payload: Buffer): string | undefined {
  const match = /; filename="([^"]*)"/.exec(payload.toString('latin1'));
  return match ? Buffer.from(match[1]!, 'latin1').toString('utf8') : undefined;
}

/**
 * Records every upload on its way to the sandbox: the file names in the order they were sent (one entry per
 * attempt), and the most uploads in flight at once. An upload counts from the moment its body is in until its answer
 * is handed back, a span inside the client's own: the count is never higher than what the client had in flight.
 */
export async function uploadRecorder(target: string) {
  const sent: string[] = [];
  let inFlight = 0;
  let peak = 0;
  const recorder = await proxy(target, async (req, res, payload, send) => {
    if (!isUpload(req)) return answer(res, await send());
    sent.push(uploadedName(payload) ?? '?');
    peak = Math.max(peak, ++inFlight);
    const forwarded = await send();
    inFlight--;
    answer(res, forwarded);
  });
  return {
    ...recorder,
    /** Every upload attempt's file name, in the order they reached the proxy. */
    sent,
    peak: () => peak,
    /** Starts counting the peak again (between jobs). */
    resetPeak: () => {
      peak = inFlight;
    },
  };
}
