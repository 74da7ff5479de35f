/**
 * One typed platform client per profile. Several tenants can be open at once because nothing here is global:
 * the base URL, the auth header and the retry tuning all live in the client instance.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import { isLoopbackHost, type AuthScheme } from '../../../shared/contract';
import { ApiError, InsecureAddressError, UnexpectedResponseError } from './errors';
import {
  CallRequest,
  createFetch,
  declareRule,
  sendRequest,
  type BodyFactory,
  type HeadersInit,
  type HttpOptions,
  type Logger,
  type PerCallOptions,
  type RetryEvent,
} from './http';
import { declaredRule, type DeclaredPaths, type PlatformApi } from './operations';
import { parseRetryAfter, type RetryTiming } from './retry';
import type { paths } from './generated/schema';

export type PlatformPaths = paths;
export type { PlatformApi } from './operations';

/** What a call may say about itself, beside the spec's params and body: its signal and how patient it is. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxAttempts?: number;
}

export interface PlatformConnection {
  /** May carry a path prefix, e.g. `https://api.example.org/dm`. */
  baseUrl: string;
  authScheme: AuthScheme;
  /** Without a secret no Authorization header is sent. */
  secret: string | null;
  timeoutMs?: number;
  /** Tuning of retry timing for every call (tests, the connection test); what is retried is each operation's rule. */
  retry?: Partial<RetryTiming>;
  log?: Logger;
  onRetry?: (event: RetryEvent) => void;
  onReach?: HttpOptions['onReach'];
}

type QueryValue = string | number | boolean;

/** Options of the untyped `request` (platform/ and tests only). */
export interface PlatformRequestOptions extends PerCallOptions {
  method?: string;
  /** Arrays become repeated parameters; null/undefined are left out. */
  query?: Record<string, QueryValue | readonly QueryValue[] | null | undefined>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is; streams must come from a factory so that a retry can send them again. */
  body?: string | FormData | Blob | URLSearchParams | ArrayBuffer | Uint8Array | BodyFactory;
  headers?: HeadersInit;
  signal?: AbortSignal;
  /** 'json' (default) refuses a non-JSON 2xx answer; 'text' returns the raw text. */
  expect?: 'json' | 'text';
}

export interface PlatformClient {
  /**
   * The tenant's typed API (openapi-fetch over the spec's paths, narrowed to the operations declared in
   * operations.ts, each sent with its retry rule). A non-2xx answer throws an ApiError; a 2xx resolves
   * `{ data, response }`, whose data is parsed with zod by the area that asked.
   */
  api: PlatformApi;
  /** Normalised: no trailing slash. */
  baseUrl: string;
}

/**
 * The client as platform/ makes it, with an untyped call by path (retried by its method's rule; throws ApiError on
 * non-2xx). For platform/ and tests only: what the engine hands its areas and jobs is a PlatformClient, which has
 * no such call (and a lint rule keeps `request(` out of the areas as well).
 */
export interface UntypedPlatformClient extends PlatformClient {
  request<T = unknown>(path: string, options?: PlatformRequestOptions): Promise<T>;
}

export function createPlatformClient(conn: PlatformConnection): UntypedPlatformClient {
  const baseUrl = normaliseBaseUrl(conn.baseUrl);
  if (conn.secret && !carriesKeysSafely(baseUrl)) throw new InsecureAddressError(baseUrl);
  const http: HttpOptions = {
    ...(conn.timeoutMs !== undefined && { timeoutMs: conn.timeoutMs }),
    ...(conn.retry && { retry: conn.retry }),
    ...(conn.log && { log: conn.log }),
    ...(conn.onRetry && { onRetry: conn.onRetry }),
    ...(conn.onReach && { onReach: conn.onReach }),
  };
  const authorization = authorizationHeader(conn.authScheme, conn.secret);

  // Calls travel as CallRequests, not WHATWG Requests: the transport takes their bodies as they are.
  const client = createClient<DeclaredPaths>({
    baseUrl,
    fetch: createFetch(http) as typeof fetch,
    Request: CallRequest as unknown as typeof Request,
  });
  client.use(authMiddleware(authorization), operationRuleMiddleware, apiErrorMiddleware);
  const api = jsonChecked(client);

  async function request<T = unknown>(path: string, options: PlatformRequestOptions = {}): Promise<T> {
    const headers = new Headers(options.headers);
    if (authorization) headers.set('Authorization', authorization);
    let body: BodyFactory | null = null;
    if (options.json !== undefined) {
      const text = JSON.stringify(options.json);
      headers.set('Content-Type', 'application/json');
      body = () => text;
    } else if (options.body !== undefined) {
      const given = options.body;
      body = typeof given === 'function' ? given : () => given;
    }
    if (!headers.has('Accept')) headers.set('Accept', 'application/json');

    const response = await sendRequest(
      {
        method: options.method ?? 'GET',
        url: joinUrl(baseUrl, path, options.query),
        headers,
        body,
        ...(options.signal && { signal: options.signal }),
        ...(options.retryUnsafe !== undefined && { retryUnsafe: options.retryUnsafe }),
        ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
        ...(options.maxAttempts !== undefined && { maxAttempts: options.maxAttempts }),
      },
      http,
    );
    const text = await response.text();
    if (!response.ok) throw apiErrorFrom(response, parseMaybeJson(text));
    if (options.expect === 'text') return text as T;
    if (!text) return undefined as T;
    const contentType = response.headers.get('content-type') ?? '';
    if (contentType && !isJsonContentType(contentType)) {
      throw new UnexpectedResponseError(response.url, response.status, contentType);
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new UnexpectedResponseError(response.url, response.status, contentType);
    }
  }

  return { api, baseUrl, request };
}

/**
 * A JSON body the caller has already serialised, for a typed call: `api.POST(path, { ...jsonText(text) })`. The invite
 * job builds a million rows' JSON in SQLite, far cheaper than as objects; the text is sent as it is, with the JSON
 * content type, and keeping it to the operation's schema is the caller's part (the body is not checked here).
 */
export function jsonText(text: string): { body: never; bodySerializer: () => string } {
  return { body: PRESERIALIZED as never, bodySerializer: () => text };
}

const PRESERIALIZED = Object.freeze({});

type FetchResult = { data?: unknown; error?: unknown; response: Response };
type DataOf<R> = R extends { data: infer D } ? D : never;

/**
 * Data of a typed call: `const page = await unwrap(client.api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/', { params }))`.
 * A failed call has already thrown its ApiError; a client without that middleware gets it from here.
 */
export async function unwrap<R extends FetchResult>(pending: Promise<R> | R): Promise<DataOf<R>> {
  const { data, error, response } = await pending;
  if (!response.ok) throw apiErrorFrom(response, error);
  return data as DataOf<R>;
}

export function apiErrorFrom(response: Response, body: unknown): ApiError {
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
  return new ApiError({
    url: response.url,
    status: response.status,
    statusText: response.statusText,
    body: body === '' ? undefined : body,
    ...(retryAfterMs !== undefined && { retryAfterMs }),
  });
}

export function authorizationHeader(scheme: AuthScheme, secret: string | null): string | undefined {
  const value = secret?.trim();
  return value ? `${scheme} ${value}` : undefined;
}

function authMiddleware(authorization: string | undefined): Middleware {
  return {
    onRequest({ request }) {
      if (authorization) request.headers.set('Authorization', authorization);
      if (!request.headers.has('Accept')) request.headers.set('Accept', 'application/json');
    },
  };
}

/** Each request carries the retry rule of the operation it calls. */
const operationRuleMiddleware: Middleware = {
  onRequest({ request, schemaPath }) {
    const rule = declaredRule(request.method, schemaPath);
    if (rule) declareRule(request, rule);
  },
};

/** A non-2xx answer is an ApiError in the platform's words, thrown where the call was made. */
const apiErrorMiddleware: Middleware = {
  async onResponse({ response }) {
    if (!response.ok) throw apiErrorFrom(response, parseMaybeJson(await response.text()));
  },
};

/**
 * The typed methods, with JSON answers read here: a 2xx that is not JSON (an HTML page: a wrong base URL or path
 * prefix; a cut-off body) is an UnexpectedResponseError naming the address, never a bare SyntaxError.
 */
function jsonChecked(client: PlatformApi): PlatformApi {
  type Call = (path: string, init?: { parseAs?: string }) => Promise<{ data?: unknown; response: Response }>;
  const checked =
    (call: Call): Call =>
    async (path, init) => {
      if (init?.parseAs && init.parseAs !== 'json') return call(path, init);
      const result = await call(path, { ...init, parseAs: 'text' });
      const { response } = result;
      const text = typeof result.data === 'string' ? result.data : '';
      if (!text) return { ...result, data: undefined };
      const contentType = response.headers.get('content-type') ?? '';
      if (contentType && !isJsonContentType(contentType)) {
        throw new UnexpectedResponseError(response.url, response.status, contentType);
      }
      try {
        return { ...result, data: JSON.parse(text) as unknown };
      } catch {
        throw new UnexpectedResponseError(response.url, response.status, contentType);
      }
    };
  const methods = client as unknown as Record<'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE', Call>;
  // Same methods, same types: only how a 2xx body is read differs.
  return {
    ...client,
    GET: checked(methods.GET),
    PUT: checked(methods.PUT),
    POST: checked(methods.POST),
    PATCH: checked(methods.PATCH),
    DELETE: checked(methods.DELETE),
  } as unknown as PlatformApi;
}

export function isJsonContentType(contentType: string): boolean {
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

function parseMaybeJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function normaliseBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.trim().replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new TypeError(`Not a valid base URL: "${baseUrl}". Use a full address such as https://api.example.org/dm`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`The base URL must start with http:// or https:// (got "${baseUrl}")`);
  }
  return trimmed;
}

/** https anywhere, plain http only to this computer: a key never crosses a network in clear. */
export function carriesKeysSafely(baseUrl: string): boolean {
  const url = new URL(baseUrl);
  return url.protocol === 'https:' || isLoopbackHost(url.hostname);
}

/** Joins a base URL (possibly with a path prefix) and an API path: exactly one slash between them, prefix kept. */
export function joinUrl(baseUrl: string, path: string, query?: PlatformRequestOptions['query']): string {
  const url = `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    const values: readonly unknown[] = Array.isArray(value) ? value : [value];
    for (const item of values) if (item !== null && item !== undefined) search.append(name, String(item));
  }
  const queryString = search.toString();
  return queryString ? `${url}${url.includes('?') ? '&' : '?'}${queryString}` : url;
}
