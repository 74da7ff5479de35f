/**
 * The HTTP layer under the platform client: one attempt = one exchange (transport.ts: node:http under the fetch
 * interface) with its own timeout; attempts are repeated as the request's retry rule allows (retry.ts), after the
 * server's `Retry-After` or an exponential backoff with full jitter; the caller's AbortSignal ends everything at once.
 *
 * The rule comes from the operation (operations.ts, attached to the request by the typed API); a request by path
 * alone gets the rule of its method: GET, HEAD, OPTIONS, PUT, DELETE are idempotent (408/429/500/502/503/504 and
 * lost answers are retried), other methods only after 408/429/502/503/504 (never after a 500 or a lost answer,
 * unless `retryUnsafe`). TLS errors, cancels and other statuses are never retried.
 */
import {
  classifyFetchFailure,
  NetworkError,
  RequestAbortedError,
  TimeoutError,
  TlsError,
  type TransportError,
} from './errors';
import { redactHeaders, scrubSecrets, type Logger } from './redact';
import { bytesOf, Cancellation, exchangeFollowingRedirects } from './transport';
import {
  DEFAULT_RETRY_TIMING,
  parseRetryAfter,
  resolvePolicy,
  retryDelay,
  ruleForMethod,
  type RetryPolicy,
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
  /**
   * Every attempt's outcome for reaching the tenant: true when it answered (any status), false when no answer came
   * (refused, DNS, timeout, TLS). A cancel says nothing either way. The engine keeps each tenant's reachability by it.
   */
  onReach?: (answered: boolean, error?: TransportError) => void;
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
  signal?: AbortSignal | null;
  redirect?: RequestRedirect;
  /** The operation's rule; without one, the rule of the method. */
  rule?: RetryRule;
}

/** A fetch-compatible function (also usable as openapi-fetch's `fetch` option). */
export type PlatformFetch = (
  input: CallRequest | Request | string | URL,
  init?: RequestInit & PerCallOptions,
) => Promise<Response>;

/**
 * A call as openapi-fetch builds it (its `Request` option): the parts as given. A WHATWG Request would wrap the body
 * in a stream and tie a listener to the caller's signal until it is garbage-collected, for every call; the transport
 * needs neither. openapi-fetch copies the call's other options (`timeoutMs`, `maxAttempts`) onto it.
 */
export class CallRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: BodyInit | null;
  readonly signal: AbortSignal | null;
  readonly redirect: RequestRedirect;
  /** The operation's rule, where the call names it (`rule` in its options: the typed API's calls). */
  readonly rule: RetryRule | undefined;

  constructor(input: string | URL, init: RequestInit & { rule?: RetryRule } = {}) {
    this.url = String(input);
    this.method = (init.method ?? 'GET').toUpperCase();
    this.headers = this.headersOf(init.headers);
    this.body = init.body ?? null;
    this.signal = init.signal ?? null;
    this.redirect = init.redirect ?? 'follow';
    this.rule = init.rule;
  }

  /** The request's own headers: a copy of those given, as fetch's Request makes. */
  protected headersOf(given: HeadersInit | undefined): Headers {
    return new Headers(given);
  }
}

/**
 * A fetch with timeouts and retries. A body that can be sent again as it is (bytes, text, a Blob, a FormData) is sent
 * as it is by every attempt (a FormData keeps its boundary within an attempt); a stream is read into memory first when
 * the request may be sent more than once. Per-call options may come in `init`, or as properties of the request:
 * openapi-fetch copies unknown init keys onto it, so `api.GET(path, { params, timeoutMs: 15_000 })` works.
 */
export function createFetch(options: HttpOptions = {}): PlatformFetch {
  return async (input, init) => {
    const call = input instanceof CallRequest && !init ? input : await callOf(input, init);
    if (call.signal?.aborted) throw new RequestAbortedError(call.url);
    const perCall = { ...pickPerCallOptions(input), ...pickPerCallOptions(init) };
    const rule = (input instanceof CallRequest && input.rule) || ruleForMethod(call.method, perCall.retryUnsafe);
    const once = transportPolicy(rule, options, perCall).maxAttempts === 1;
    const given = call.body;
    const body = given === null || once || !(given instanceof ReadableStream) ? given : await bytesOf(given);
    return sendRequest(
      {
        method: call.method,
        url: call.url,
        headers: call.headers,
        body: body === null ? null : () => body,
        signal: call.signal,
        redirect: call.redirect,
        rule,
        ...perCall,
      },
      options,
    );
  };
}

/** A Request, URL or string (with init) as a call; a Request's body is read into memory. */
async function callOf(input: CallRequest | Request | string | URL, init?: RequestInit): Promise<CallRequest> {
  if (input instanceof CallRequest) {
    return new CallRequest(input.url, {
      method: input.method,
      headers: input.headers,
      body: input.body,
      signal: input.signal,
      redirect: input.redirect,
      ...init,
    });
  }
  const request = input instanceof Request && !init ? input : new Request(input, init);
  return new CallRequest(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body ? await request.arrayBuffer() : null,
    signal: request.signal,
    redirect: request.redirect,
  });
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
function transportPolicy(rule: RetryRule, options: HttpOptions, perCall: PerCallOptions): RetryPolicy {
  if (perCall.maxAttempts !== undefined) return uncachedPolicy(rule, options, perCall.maxAttempts);
  // The same few rules on every request of a connection: each resolved once (policies are only read).
  const byRule = policies.get(options) ?? policies.set(options, new Map()).get(options)!;
  let policy = byRule.get(rule);
  if (!policy) byRule.set(rule, (policy = uncachedPolicy(rule, options, undefined)));
  return policy;
}

const policies = new WeakMap<HttpOptions, Map<RetryRule, RetryPolicy>>();

function uncachedPolicy(rule: RetryRule, options: HttpOptions, maxAttempts: number | undefined): RetryPolicy {
  const policy = resolvePolicy(rule, options.retry, { maxAttempts });
  if (rule.by === 'caller') policy.maxAttempts = 1;
  return policy;
}

/** Sends a request, retrying as its rule allows. Resolves with the (fully read) response of the last attempt. */
export async function sendRequest(request: OutgoingRequest, options: HttpOptions = {}): Promise<Response> {
  const method = request.method.toUpperCase();
  const { url } = request;
  // A Headers handed in is the call's own (CallRequest and `request` make one per call) and is only read below.
  const headers = request.headers instanceof Headers ? request.headers : new Headers(request.headers);
  const rule = request.rule ?? ruleForMethod(method, request.retryUnsafe);
  const policy = transportPolicy(rule, options, request);
  const timeoutMs = request.timeoutMs ?? options.timeoutMs ?? rule.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signal = request.signal ?? undefined;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const log = scrubbedLog(options, headers.get('authorization'));

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
      options.onReach?.(true);
      if (response.ok) return response;
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), now());
      delayMs = retryDelay(policy, { status: response.status, retryAfterMs }, attempt, random);
      if (delayMs === null) return response;
      retryEvent = { method, url, attempt, maxAttempts: policy.maxAttempts, delayMs, status: response.status };
    } catch (error) {
      log?.(`${tag} failed in ${now() - started} ms: ${error instanceof Error ? error.message : String(error)}`);
      if (error instanceof NetworkError || error instanceof TimeoutError || error instanceof TlsError) {
        options.onReach?.(false, error);
      }
      delayMs = retryDelay(policy, error, attempt, random);
      if (delayMs === null) throw error;
      retryEvent = { method, url, attempt, maxAttempts: policy.maxAttempts, delayMs, error: error as TransportError };
    }
    options.onRetry?.(retryEvent);
    log?.(`${method} ${url}: retrying in ${delayMs} ms`);
    await sleepUnlessAborted(options.sleep ?? abortableSleep, delayMs, signal, url);
  }
}

/**
 * One attempt, redirects included, with its own timer; the body is read inside the same timer so a stalled body also
 * times out.
 */
async function attemptOnce(
  request: OutgoingRequest & { headers: Headers; signal: AbortSignal | undefined },
  timeoutMs: number,
): Promise<Response> {
  const cancellation = new Cancellation();
  const callerSignal = request.signal;
  let timedOut = false;
  const timer =
    timeoutMs > 0 && Number.isFinite(timeoutMs)
      ? setTimeout(() => {
          timedOut = true;
          cancellation.cancel(new DOMException('This operation was aborted', 'AbortError'));
        }, timeoutMs)
      : undefined;
  const stopListening = callerSignal ? cancelWith(callerSignal, cancellation) : undefined;
  try {
    return await exchangeFollowingRedirects(
      {
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: request.body ? request.body() : null,
        redirect: request.redirect,
      },
      cancellation,
    );
  } catch (error) {
    throw classifyFetchFailure(error, {
      url: request.url,
      callerAborted: callerSignal?.aborted ?? false,
      timedOut,
      timeoutMs,
    });
  } finally {
    clearTimeout(timer);
    stopListening?.();
  }
}

/**
 * The attempts in flight under each caller's signal, all cancelled by its one listener: a job's hundreds of requests
 * share its signal, and adding and removing a listener on it for each of them cost more than the request's own work.
 */
const inFlight = new WeakMap<AbortSignal, Set<Cancellation>>();

function cancelWith(signal: AbortSignal, cancellation: Cancellation): () => void {
  if (signal.aborted) cancellation.cancel(signal.reason);
  let attempts = inFlight.get(signal);
  if (!attempts) {
    const set = (attempts = new Set());
    inFlight.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        for (const attempt of set) attempt.cancel(signal.reason);
        set.clear();
      },
      { once: true },
    );
  }
  attempts.add(cancellation);
  return () => attempts.delete(cancellation);
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

/**
 * The connection's log, scrubbed of the credential in a request's `Authorization` (also outside headers): made once
 * per connection and credential, not for every request.
 */
function scrubbedLog(options: HttpOptions, authorization: string | null): Logger | undefined {
  if (!options.log) return undefined;
  const made = scrubbed.get(options);
  if (made && made.authorization === authorization) return made.log;
  const log = scrubSecrets(options.log, credentialsIn(authorization));
  scrubbed.set(options, { authorization, log });
  return log;
}

const scrubbed = new WeakMap<HttpOptions, { authorization: string | null; log: Logger | undefined }>();

/** The credential part of an `Authorization` value, so log lines can be scrubbed of it even outside headers. */
function credentialsIn(value: string | null): string[] {
  if (!value) return [];
  const parts = value.trim().split(/\s+/);
  return [parts.length > 1 ? parts.slice(1).join(' ') : value.trim()];
}
