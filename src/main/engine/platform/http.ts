/**
 * The HTTP layer under the platform client: one attempt = one fetch with its own timeout; attempts are repeated as
 * the request's retry rule allows (retry.ts), after the server's `Retry-After` or an exponential backoff with full
 * jitter; the caller's AbortSignal ends everything at once.
 *
 * The rule comes from the operation (operations.ts, attached to the request by the typed API); a request by path
 * alone gets the rule of its method: GET, HEAD, OPTIONS, PUT, DELETE are idempotent (408/429/500/502/503/504 and
 * lost answers are retried), other methods only after 408/429/502/503/504 (never after a 500 or a lost answer,
 * unless `retryUnsafe`). TLS errors, cancels and other statuses are never retried.
 */
import { classifyFetchFailure, RequestAbortedError, type TransportError } from './errors';
import { redactHeaders, scrubSecrets, type Logger } from './redact';
import {
  DEFAULT_RETRY_TIMING,
  parseRetryAfter,
  resolvePolicy,
  retryDelay,
  ruleForMethod,
  type RetryRule,
  type RetryTiming,
} from './retry';

export type { Logger } from './redact';

// The project type-checks without the DOM lib; these are the fetch types as Node declares them.
export type HeadersInit = ConstructorParameters<typeof Headers>[0];
export type BodyInit = NonNullable<RequestInit['body']>;
type RequestRedirect = NonNullable<RequestInit['redirect']>;

export const DEFAULT_TIMEOUT_MS = 30_000;

/** The default timing of retries (each operation's rule may set its own). */
export const DEFAULT_RETRY_POLICY = DEFAULT_RETRY_TIMING;

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
  /** The connection's tuning of retry timing (tests, the connection test); what is retried stays the rule's. */
  retry?: Partial<RetryTiming>;
  log?: Logger;
  onRetry?: (event: RetryEvent) => void;
  /** Injectable for tests. */
  random?: () => number;
  sleep?: Sleep;
  now?: () => number;
}

/** Options a single call may override: how patient the caller is. */
export interface PerCallOptions {
  timeoutMs?: number;
  maxAttempts?: number;
  /** Untyped requests only: also repeat a POST or PATCH after a lost answer (operations declare this instead). */
  retryUnsafe?: boolean;
}

/** A body that can be produced again for every attempt. */
export type BodyFactory = () => BodyInit;

export interface OutgoingRequest extends PerCallOptions {
  method: string;
  url: string;
  headers?: HeadersInit;
  body?: BodyFactory | null;
  /** Sent as is when there is a single attempt (its body is streamed, never buffered). */
  original?: Request;
  signal?: AbortSignal | null;
  redirect?: RequestRedirect;
  /** The operation's rule; without one, the rule of the method. */
  rule?: RetryRule;
}

/** A fetch-compatible function (also usable as openapi-fetch's `fetch` option). */
export type PlatformFetch = (input: Request | string | URL, init?: RequestInit & PerCallOptions) => Promise<Response>;

const declaredRules = new WeakMap<Request, RetryRule>();

/** Attaches an operation's rule to a request on its way to a fetch made by `createFetch`. */
export function declareRule(request: Request, rule: RetryRule): void {
  declaredRules.set(request, rule);
}

/**
 * A fetch with timeouts and retries. A request that may be sent more than once has its body buffered once, so every
 * attempt resends the same bytes (a FormData body keeps its boundary); one sent once streams its body as it is.
 * Per-call options may come in `init`, or as properties of the Request: openapi-fetch copies unknown init keys onto
 * it, so `api.GET(path, { params, timeoutMs: 15_000 })` works.
 */
export function createFetch(options: HttpOptions = {}): PlatformFetch {
  return async (input, init) => {
    const request = input instanceof Request && !init ? input : new Request(input, init);
    if (request.signal.aborted) throw new RequestAbortedError(request.url);
    const perCall = { ...pickPerCallOptions(input), ...pickPerCallOptions(init) };
    const rule =
      (input instanceof Request && declaredRules.get(input)) || ruleForMethod(request.method, perCall.retryUnsafe);
    const once = transportPolicy(rule, options, perCall).maxAttempts === 1;
    const bytes = request.body && !once ? await request.arrayBuffer() : null;
    return sendRequest(
      {
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: bytes ? () => bytes.slice(0) : null,
        ...(once && request.body && { original: request }),
        signal: request.signal,
        redirect: request.redirect,
        rule,
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

/** The policy the transport follows: a rule whose caller repeats the request leaves it a single attempt. */
function transportPolicy(rule: RetryRule, options: HttpOptions, perCall: PerCallOptions) {
  const policy = resolvePolicy(rule, options.retry, { maxAttempts: perCall.maxAttempts });
  if (rule.by === 'caller') policy.maxAttempts = 1;
  return policy;
}

/** Sends a request, retrying as its rule allows. Resolves with the (fully read) response of the last attempt. */
export async function sendRequest(request: OutgoingRequest, options: HttpOptions = {}): Promise<Response> {
  const method = request.method.toUpperCase();
  const { url } = request;
  const headers = new Headers(request.headers);
  const rule = request.rule ?? ruleForMethod(method, request.retryUnsafe);
  const policy = transportPolicy(rule, options, request);
  const timeoutMs = request.timeoutMs ?? options.timeoutMs ?? rule.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signal = request.signal ?? undefined;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const log = scrubSecrets(options.log, credentialsIn(headers));

  if (signal?.aborted) throw new RequestAbortedError(url);
  log?.(`${method} ${url} headers=${JSON.stringify(redactHeaders(headers))}`);

  for (let attempt = 1; ; attempt++) {
    const started = now();
    const tag = `${method} ${url} (attempt ${attempt}/${policy.maxAttempts})`;
    let delayMs: number | null;
    let retryEvent: RetryEvent;
    try {
      const response = await attemptOnce({ ...request, method, headers, signal }, timeoutMs);
      log?.(`${tag} -> ${response.status} ${response.statusText} in ${now() - started} ms`);
      if (response.ok) return response;
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), now());
      delayMs = retryDelay(policy, { status: response.status, retryAfterMs }, attempt, random);
      if (delayMs === null) return response;
      retryEvent = { method, url, attempt, maxAttempts: policy.maxAttempts, delayMs, status: response.status };
    } catch (error) {
      log?.(`${tag} failed in ${now() - started} ms: ${error instanceof Error ? error.message : String(error)}`);
      delayMs = retryDelay(policy, error, attempt, random);
      if (delayMs === null) throw error;
      retryEvent = { method, url, attempt, maxAttempts: policy.maxAttempts, delayMs, error: error as TransportError };
    }
    options.onRetry?.(retryEvent);
    log?.(`${method} ${url}: retrying in ${delayMs} ms`);
    await sleepUnlessAborted(options.sleep ?? abortableSleep, delayMs, signal, url);
  }
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
    // A request sent once keeps its own body (a file streams from disk with its length known).
    const response = await (request.original
      ? fetch(request.original, { signal: controller.signal })
      : fetch(request.url, init));
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
