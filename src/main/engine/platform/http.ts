/**
 * The HTTP layer under the platform client: one attempt = one fetch with its own timeout; attempts are repeated
 * with exponential backoff and full jitter when repeating is safe; the caller's AbortSignal ends everything at once.
 *
 * Retry rules:
 * - 408/429/502/503/504 (the server says "try again"): any method.
 * - network errors and timeouts: idempotent methods only (GET, HEAD, OPTIONS, PUT, DELETE), unless the caller
 *   passes `retryUnsafe: true` — a POST that timed out may already have been applied.
 * - TLS errors and other statuses: never (retrying cannot fix them).
 */
import { classifyFetchFailure, NetworkError, RequestAbortedError, TimeoutError, type TransportError } from './errors';
import { redactHeaders, scrubSecrets, type Logger } from './redact';

export type { Logger } from './redact';

// The project type-checks without the DOM lib; these are the fetch types as Node declares them.
export type HeadersInit = ConstructorParameters<typeof Headers>[0];
export type BodyInit = NonNullable<RequestInit['body']>;
type RequestRedirect = NonNullable<RequestInit['redirect']>;

export interface RetryPolicy {
  /** Attempts in total, the first one included. */
  maxAttempts: number;
  /** Backoff for retry n is a random delay in [0, min(maxDelayMs, baseDelayMs * 2^(n-1))]. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A longer `Retry-After` is shortened to this. */
  maxRetryAfterMs: number;
  /** Statuses retried for every method. */
  retryStatuses: readonly number[];
  /** Also retry non-idempotent requests (POST, PATCH) after network errors and timeouts. */
  retryUnsafe: boolean;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 5,
  baseDelayMs: 250,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
  retryStatuses: Object.freeze([408, 429, 502, 503, 504]),
  retryUnsafe: false,
});

/** A 500 may have done part of the work: only a request that is safe to repeat is sent again after one. */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export interface RetryEvent {
  method: string;
  url: string;
  /** The attempt that just failed (1-based). */
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  /** Set when the server answered with a retryable status. */
  status?: number;
  /** Set when the attempt failed without an answer. */
  error?: TransportError;
}

export type Sleep = (ms: number, signal: AbortSignal | undefined) => Promise<void>;

export interface HttpOptions {
  /** Per attempt, from sending to the last byte of the answer; 0 or Infinity for none. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  log?: Logger;
  onRetry?: (event: RetryEvent) => void;
  /** Injectable for tests. */
  random?: () => number;
  sleep?: Sleep;
  now?: () => number;
}

/** Options a single call may override. */
export interface PerCallOptions {
  retryUnsafe?: boolean;
  timeoutMs?: number;
  maxAttempts?: number;
}

/** A body that can be produced again for every attempt. */
export type BodyFactory = () => BodyInit;

export interface OutgoingRequest extends PerCallOptions {
  method: string;
  url: string;
  headers?: HeadersInit;
  body?: BodyFactory | null;
  signal?: AbortSignal | null;
  redirect?: RequestRedirect;
}

/** A fetch-compatible function (also usable as openapi-fetch's `fetch` option). */
export type PlatformFetch = (input: Request | string | URL, init?: RequestInit & PerCallOptions) => Promise<Response>;

/**
 * A fetch with timeouts and retries. Request bodies are buffered once so every attempt resends the same bytes
 * (a FormData body keeps its boundary). Per-call options may come in `init`, or as properties of the Request:
 * openapi-fetch copies unknown init keys onto it, so `api.POST(path, { body, retryUnsafe: true })` works.
 */
export function createFetch(options: HttpOptions = {}): PlatformFetch {
  return async (input, init) => {
    const request = input instanceof Request && !init ? input : new Request(input, init);
    if (request.signal.aborted) throw new RequestAbortedError(request.url);
    const perCall = { ...pickPerCallOptions(input), ...pickPerCallOptions(init) };
    const bytes = request.body ? await request.arrayBuffer() : null;
    return sendRequest(
      {
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: bytes ? () => bytes.slice(0) : null,
        signal: request.signal,
        redirect: request.redirect,
        ...perCall,
      },
      options,
    );
  };
}

function pickPerCallOptions(source: unknown): PerCallOptions {
  if (!source || typeof source !== 'object') return {};
  const { retryUnsafe, timeoutMs, maxAttempts } = source as Record<string, unknown>;
  const picked: PerCallOptions = {};
  if (typeof retryUnsafe === 'boolean') picked.retryUnsafe = retryUnsafe;
  if (typeof timeoutMs === 'number') picked.timeoutMs = timeoutMs;
  if (typeof maxAttempts === 'number') picked.maxAttempts = maxAttempts;
  return picked;
}

/** Sends a request, retrying as the policy allows. Resolves with the (fully read) response of the last attempt. */
export async function sendRequest(request: OutgoingRequest, options: HttpOptions = {}): Promise<Response> {
  const method = request.method.toUpperCase();
  const { url } = request;
  const headers = new Headers(request.headers);
  const policy = resolvePolicy(options.retry, request);
  const timeoutMs = request.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signal = request.signal ?? undefined;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const log = scrubSecrets(options.log, credentialsIn(headers));
  const mayRetryFailures = IDEMPOTENT_METHODS.has(method) || policy.retryUnsafe;

  if (signal?.aborted) throw new RequestAbortedError(url);
  log?.(`${method} ${url} headers=${JSON.stringify(redactHeaders(headers))}`);

  for (let attempt = 1; ; attempt++) {
    const started = now();
    const tag = `${method} ${url} (attempt ${attempt}/${policy.maxAttempts})`;
    let delayMs: number;
    let retryEvent: RetryEvent;
    try {
      const response = await attemptOnce({ ...request, method, headers, signal }, timeoutMs);
      log?.(`${tag} -> ${response.status} ${response.statusText} in ${now() - started} ms`);
      const retryableStatus =
        policy.retryStatuses.includes(response.status) || (response.status === 500 && IDEMPOTENT_METHODS.has(method));
      if (!retryableStatus || attempt >= policy.maxAttempts) return response;
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), now());
      delayMs =
        retryAfterMs === undefined
          ? backoffDelay(attempt, policy, random)
          : Math.min(retryAfterMs, policy.maxRetryAfterMs);
      retryEvent = { method, url, attempt, maxAttempts: policy.maxAttempts, delayMs, status: response.status };
    } catch (error) {
      const retryable = (error instanceof NetworkError || error instanceof TimeoutError) && mayRetryFailures;
      log?.(`${tag} failed in ${now() - started} ms: ${error instanceof Error ? error.message : String(error)}`);
      if (!retryable || attempt >= policy.maxAttempts) throw error;
      delayMs = backoffDelay(attempt, policy, random);
      retryEvent = { method, url, attempt, maxAttempts: policy.maxAttempts, delayMs, error };
    }
    options.onRetry?.(retryEvent);
    log?.(`${method} ${url}: retrying in ${delayMs} ms`);
    await sleepUnlessAborted(options.sleep ?? abortableSleep, delayMs, signal, url);
  }
}

function resolvePolicy(overrides: Partial<RetryPolicy> | undefined, request: PerCallOptions): RetryPolicy {
  const policy = { ...DEFAULT_RETRY_POLICY, ...stripUndefined(overrides ?? {}) };
  if (request.retryUnsafe !== undefined) policy.retryUnsafe = request.retryUnsafe;
  if (request.maxAttempts !== undefined) policy.maxAttempts = request.maxAttempts;
  policy.maxAttempts = Math.max(1, Math.floor(policy.maxAttempts));
  return policy;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** One fetch, with its own timer; the body is read inside the same timer so a stalled body also times out. */
async function attemptOnce(
  request: OutgoingRequest & { headers: Headers; signal: AbortSignal | undefined },
  timeoutMs: number,
): Promise<Response> {
  const controller = new AbortController();
  const callerSignal = request.signal;
  let timedOut = false;
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  const timer =
    timeoutMs > 0 && Number.isFinite(timeoutMs)
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs)
      : undefined;
  try {
    const init: RequestInit & { duplex?: 'half' } = {
      method: request.method,
      headers: request.headers,
      body: request.body ? request.body() : null,
      signal: controller.signal,
      redirect: request.redirect ?? 'follow',
    };
    // Node's fetch insists on `duplex` for stream bodies; it is harmless for the others.
    if (init.body) init.duplex = 'half';
    const response = await fetch(request.url, init);
    return await readFully(response, request.method);
  } catch (error) {
    throw classifyFetchFailure(error, {
      url: request.url,
      callerAborted: callerSignal?.aborted ?? false,
      timedOut,
      timeoutMs,
    });
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}

/**
 * Reads the body into memory and returns an equivalent Response. This frees the connection before any retry and
 * keeps read errors inside the attempt (so they are classified and retried like any other). Platform answers are
 * JSON pages, so buffering is cheap.
 */
async function readFully(response: Response, method: string): Promise<Response> {
  const hasBody = !NULL_BODY_STATUSES.has(response.status) && method !== 'HEAD';
  const bytes = hasBody ? new Uint8Array(await response.arrayBuffer()) : null;
  if (!hasBody) await response.body?.cancel();
  const headers = new Headers(response.headers);
  if (bytes) {
    // fetch already decoded the body, so the original encoding and length no longer describe it.
    headers.delete('content-encoding');
    headers.set('content-length', String(bytes.byteLength));
  }
  const copy = new Response(bytes, { status: response.status, statusText: response.statusText, headers });
  Object.defineProperties(copy, {
    url: { value: response.url },
    redirected: { value: response.redirected },
  });
  return copy;
}

/** Full jitter: spreads retries of many clients evenly instead of in waves. */
export function backoffDelay(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(random() * ceiling);
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

async function sleepUnlessAborted(sleep: Sleep, ms: number, signal: AbortSignal | undefined, url: string) {
  if (signal?.aborted) throw new RequestAbortedError(url);
  if (!signal) return sleep(ms, undefined);
  // Race the (possibly injected) sleep against the signal so a cancel during backoff is immediate.
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new RequestAbortedError(url));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([sleep(ms, signal), aborted]);
  } catch (error) {
    if (signal.aborted) throw new RequestAbortedError(url);
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

export const abortableSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new RequestAbortedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new RequestAbortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** The credential part of `Authorization` values, so log lines can be scrubbed of it even outside headers. */
function credentialsIn(headers: Headers): string[] {
  const value = headers.get('authorization');
  if (!value) return [];
  const parts = value.trim().split(/\s+/);
  return [parts.length > 1 ? parts.slice(1).join(' ') : value.trim()];
}
