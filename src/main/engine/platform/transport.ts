/**
 * The wire under the HTTP layer: one exchange over node:http(s), its answer handed up as a fetch Response, redirects
 * followed and gzip/deflate answers decoded as fetch does. node:http costs a fraction of fetch's CPU per request
 * (no web streams, no per-request signal bookkeeping), which a 10,000-file upload pays 10,000 times. Bodies go as
 * they are: bytes in one write, a Blob (a file-backed one stays on disk) streamed with its length, a FormData as such
 * a Blob (multipart.ts).
 */
import type { ClientRequest, IncomingMessage, OutgoingHttpHeaders, RequestOptions } from 'node:http';
import { multipartBlob } from './multipart';

// The project type-checks without the DOM lib; these are the fetch types as Node declares them.
type BodyInit = NonNullable<RequestInit['body']>;
type RequestRedirect = NonNullable<RequestInit['redirect']>;

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** As fetch: more redirects than this is an error. */
const MAX_REDIRECTS = 20;

type Send = (url: URL, options: RequestOptions) => ClientRequest;
const senders: Partial<Record<string, Send>> = {};

/** node:http or node:https, loaded with the first request (a command that sends none never loads them or TLS). */
async function senderFor(url: URL): Promise<Send> {
  const protocol = url.protocol;
  return (senders[protocol] ??= (protocol === 'https:' ? await import('node:https') : await import('node:http'))
    .request as Send);
}

/** A gzip or deflate answer, decoded as fetch decodes it. */
async function decode(body: Buffer, encoding: string): Promise<Buffer> {
  const zlib = await import('node:zlib');
  const { promisify } = await import('node:util');
  return encoding === 'deflate' ? promisify(zlib.inflate)(body) : promisify(zlib.gunzip)(body);
}

/** A body ready for the wire: bytes, or a Blob streamed with its known length. */
interface WireBody {
  data: Buffer | Blob;
  /** The content type the body implies, used when the request names none (as fetch does). */
  type: string | null;
}

async function wireBody(body: BodyInit): Promise<WireBody> {
  if (typeof body === 'string') return { data: Buffer.from(body), type: 'text/plain;charset=UTF-8' };
  if (body instanceof ArrayBuffer) return { data: Buffer.from(body), type: null };
  if (ArrayBuffer.isView(body)) return { data: Buffer.from(body.buffer, body.byteOffset, body.byteLength), type: null };
  if (body instanceof URLSearchParams) {
    return { data: Buffer.from(body.toString()), type: 'application/x-www-form-urlencoded;charset=UTF-8' };
  }
  if (body instanceof Blob) return { data: body, type: body.type || null };
  if (body instanceof FormData) {
    const { blob, contentType } = multipartBlob(body);
    return { data: blob, type: contentType };
  }
  // A stream (or anything else fetch takes): read as fetch would read it.
  const response = new Response(body as ConstructorParameters<typeof Response>[0]);
  return { data: Buffer.from(await response.arrayBuffer()), type: response.headers.get('content-type') };
}

export async function bytesOf(body: BodyInit): Promise<Buffer> {
  const { data } = await wireBody(body);
  return Buffer.isBuffer(data) ? data : Buffer.from(await data.arrayBuffer());
}

/**
 * How an attempt is ended early (its timer, or the caller's signal): what an AbortController would do for it, without
 * an AbortSignal and its listeners per request. The exchange in flight hears `cancel` through its one listener.
 */
export class Cancellation {
  cancelled = false;
  reason: unknown = undefined;
  #listener: ((reason: unknown) => void) | null = null;

  cancel(reason: unknown): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.reason = reason;
    this.#listener?.(reason);
  }

  /** The exchange in flight listens; null when it has settled. */
  listen(listener: ((reason: unknown) => void) | null): void {
    this.#listener = listener;
  }
}

/** An answer as it came off the wire (body decoded). */
interface Answer {
  status: number;
  statusText: string;
  rawHeaders: string[];
  /** Null for a HEAD request and the statuses that have no body. */
  body: Buffer | null;
  /** Whether the body was decoded (its content-encoding and length no longer describe it). */
  decoded: boolean;
}

/** What one attempt sends. */
export interface Exchange {
  method: string;
  url: string;
  headers: Headers;
  body: BodyInit | null;
  redirect?: RequestRedirect | undefined;
}

/**
 * Sends a request and reads its whole answer, following redirects as fetch's `redirect` mode says; answers with a
 * fetch Response. Rejects with what node:http reports (its error codes: ECONNREFUSED, CERT_HAS_EXPIRED…) or with the
 * cancellation's reason.
 */
export async function exchangeFollowingRedirects(request: Exchange, cancellation: Cancellation): Promise<Response> {
  const headers: OutgoingHttpHeaders = {
    'user-agent': 'node',
    'accept-encoding': 'gzip, deflate',
    ...Object.fromEntries(request.headers),
  };
  let body = request.body === null ? null : await wireBody(request.body);
  if (body?.type && headers['content-type'] === undefined) headers['content-type'] = body.type;
  let method = request.method;
  let url = new URL(request.url);
  for (let redirects = 0; ; redirects++) {
    const send = senders[url.protocol] ?? (await senderFor(url));
    const answer = await exchange(send, url, method, headers, body?.data ?? null, cancellation);
    const location = REDIRECT_STATUSES.has(answer.status) ? headerOf(answer.rawHeaders, 'location') : null;
    if (location === null || request.redirect === 'manual') return toResponse(answer, url, redirects > 0);
    if (request.redirect === 'error') throw new TypeError(`${url.href} redirected (${answer.status}) to ${location}`);
    if (redirects >= MAX_REDIRECTS) throw new TypeError(`Too many redirects from ${request.url}`);
    const next = new URL(location, url);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new TypeError(`${url.href} redirected to a non-HTTP address`);
    }
    // As fetch: a 303 (and a 301/302 after a POST) is followed by a GET without the body.
    if ((answer.status === 303 && method !== 'HEAD') || ([301, 302].includes(answer.status) && method === 'POST')) {
      method = 'GET';
      body = null;
      for (const name of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'])
        delete headers[name];
    }
    // Credentials go to the origin they were given for, never to another one.
    if (next.origin !== url.origin) {
      for (const name of ['authorization', 'proxy-authorization', 'cookie']) delete headers[name];
    }
    url = next;
  }
}

function headerOf(rawHeaders: string[], name: string): string | null {
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === name) return rawHeaders[i + 1]!;
  return null;
}

/** One request and its whole answer; rejects with what node:http reports (its error codes) or the cancel's reason. */
async function exchange(
  send: Send,
  url: URL,
  method: string,
  headers: OutgoingHttpHeaders,
  body: Buffer | Blob | null,
  cancellation: Cancellation,
): Promise<Answer> {
  if (cancellation.cancelled) throw cancellation.reason;
  const answer = await new Promise<Answer>((resolve, reject) => {
    const length = body === null ? (['POST', 'PUT', 'PATCH'].includes(method) ? 0 : null) : bodyLength(body);
    const req = send(url, { method, headers: length === null ? headers : { ...headers, 'content-length': length } });
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      cancellation.listen(null);
      req.destroy();
      reject(error);
    };
    cancellation.listen(fail);
    req.once('error', fail);
    req.once('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      const hasBody = !NULL_BODY_STATUSES.has(status) && method !== 'HEAD';
      const chunks: Buffer[] = [];
      res.once('error', fail);
      // The connection closed before the whole answer came.
      res.once('aborted', () => fail(Object.assign(new Error('The answer was cut off'), { code: 'ECONNRESET' })));
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('end', () => {
        if (settled) return;
        settled = true;
        cancellation.listen(null);
        resolve({
          status,
          statusText: res.statusMessage ?? '',
          rawHeaders: res.rawHeaders,
          body: hasBody ? Buffer.concat(chunks) : null,
          decoded: false,
        });
      });
    });
    if (body === null) req.end();
    else if (Buffer.isBuffer(body)) req.end(body);
    else streamBlob(body, req).catch(fail);
  });
  const encoding = headerOf(answer.rawHeaders, 'content-encoding')?.trim().toLowerCase();
  if (!answer.body || !(encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate')) return answer;
  return { ...answer, body: await decode(answer.body, encoding), decoded: true };
}

function bodyLength(body: Buffer | Blob): number {
  return Buffer.isBuffer(body) ? body.byteLength : body.size;
}

/** Writes a Blob (a file-backed one streams from disk) with the request's back-pressure, then ends the request. */
async function streamBlob(blob: Blob, req: ClientRequest): Promise<void> {
  for await (const chunk of blob.stream() as unknown as AsyncIterable<Uint8Array>) {
    if (req.destroyed) return;
    if (!req.write(chunk)) {
      await new Promise<void>((resume) => {
        const go = () => {
          req.off('drain', go).off('close', go);
          resume();
        };
        req.on('drain', go).on('close', go);
      });
    }
  }
  req.end();
}

/** The answer as a fetch Response, for openapi-fetch and the callers above it. */
function toResponse(answer: Answer, url: URL, redirected: boolean): Response {
  // The header pairs as they came, handed to the Response to make its Headers of (one Headers, not a copy of one).
  const headers: [string, string][] = [];
  for (let i = 0; i < answer.rawHeaders.length; i += 2) {
    const name = answer.rawHeaders[i]!.toLowerCase();
    // The body is whole and decoded: the original encoding and length no longer describe it.
    if (answer.decoded && (name === 'content-encoding' || name === 'content-length')) continue;
    headers.push([name, answer.rawHeaders[i + 1]!]);
  }
  if (answer.decoded && answer.body) headers.push(['content-length', String(answer.body.byteLength)]);
  const init = { status: answer.status, statusText: answer.statusText, headers };
  return new WholeResponse(answer.body, init, url.href, redirected) as unknown as Response;
}

const utf8 = new TextDecoder();

/** Response as a base class: Node's fetch types declare its methods as properties, which a subclass cannot override. */
const ResponseBase = Response as unknown as new (
  body: null,
  init: ResponseInit,
) => Pick<Response, 'status' | 'statusText' | 'headers' | 'ok' | 'type'>;

/**
 * A fetch Response over an answer already whole in memory. One made over bytes wraps them in a web stream that each
 * read drains (about 40 µs of CPU per answer, paid by every request of a job of thousands); this one reads the bytes
 * as they are, and makes the stream only if `body` is asked for. Read once, as fetch's: a second read rejects.
 */
class WholeResponse extends ResponseBase {
  readonly #bytes: Buffer | null;
  readonly #url: string;
  readonly #redirected: boolean;
  #used = false;
  /** The stream-backed Response, once `body` has been asked for: every read goes through it from then on. */
  #streamed: Response | null = null;

  constructor(bytes: Buffer | null, init: ResponseInit, url: string, redirected: boolean) {
    super(null, init);
    this.#bytes = bytes;
    this.#url = url;
    this.#redirected = redirected;
  }

  get url(): string {
    return this.#url;
  }

  get redirected(): boolean {
    return this.#redirected;
  }

  #take(): Buffer {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#bytes ?? Buffer.alloc(0);
  }

  get bodyUsed(): boolean {
    return this.#streamed ? this.#streamed.bodyUsed : this.#used;
  }

  get body(): Response['body'] {
    if (this.#bytes === null) return null;
    if (!this.#streamed) {
      const used = this.#used;
      this.#streamed = new Response(this.#bytes, this);
      // Already read: its stream is as used as fetch's would be.
      if (used) this.#streamed.arrayBuffer().catch(() => {});
    }
    return this.#streamed.body;
  }

  async text(): Promise<string> {
    return this.#streamed ? this.#streamed.text() : utf8.decode(this.#take());
  }

  async json(): Promise<unknown> {
    return this.#streamed ? this.#streamed.json() : (JSON.parse(utf8.decode(this.#take())) as unknown);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#streamed) return this.#streamed.arrayBuffer();
    const bytes = this.#take();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async blob(): Promise<Blob> {
    if (this.#streamed) return this.#streamed.blob();
    return new Blob([this.#take()], { type: this.headers.get('content-type') ?? '' });
  }

  async formData(): Promise<FormData> {
    if (!this.#streamed) this.#streamed = new Response(this.#take(), this);
    return this.#streamed.formData();
  }

  clone(): Response {
    if (this.#streamed) return this.#streamed.clone();
    if (this.#used) throw new TypeError('Response.clone: Body has already been consumed.');
    return new WholeResponse(this.#bytes, this, this.#url, this.#redirected) as unknown as Response;
  }
}
