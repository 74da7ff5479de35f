/**
 * One typed platform client per profile. Several tenants can be open at once because nothing here is global:
 * the base URL, the auth header and the retry policy all live in the client instance.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { isLoopbackHost, type AuthScheme } from '../../../shared/contract';
import { ApiError, InsecureAddressError, UnexpectedResponseError } from './errors';
import {
  createFetch,
  parseRetryAfter,
  sendRequest,
  type BodyFactory,
  type HeadersInit,
  type HttpOptions,
  type Logger,
  type PerCallOptions,
  type RetryEvent,
  type RetryPolicy,
} from './http';
import type { paths } from './generated/schema';

export type PlatformPaths = paths;
export type PlatformApi = Client<paths>;

export interface PlatformConnection {
  /** May carry a path prefix, e.g. `https://api.example.org/dm`. */
  baseUrl: string;
  authScheme: AuthScheme;
  /** Without a secret no Authorization header is sent. */
  secret: string | null;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  log?: Logger;
  onRetry?: (event: RetryEvent) => void;
}

type QueryValue = string | number | boolean;

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
  /** openapi-fetch client typed with the spec's paths. Pair it with `unwrap` to get data or an ApiError. */
  api: PlatformApi;
  /** Normalised: no trailing slash. */
  baseUrl: string;
  /** An untyped call for anything the generated paths do not cover; throws ApiError on non-2xx. */
  request<T = unknown>(path: string, options?: PlatformRequestOptions): Promise<T>;
}

export function createPlatformClient(conn: PlatformConnection): PlatformClient {
  const baseUrl = normaliseBaseUrl(conn.baseUrl);
  if (conn.secret && !carriesKeysSafely(baseUrl)) throw new InsecureAddressError(baseUrl);
  const http: HttpOptions = {
    ...(conn.timeoutMs !== undefined && { timeoutMs: conn.timeoutMs }),
    ...(conn.retry && { retry: conn.retry }),
    ...(conn.log && { log: conn.log }),
    ...(conn.onRetry && { onRetry: conn.onRetry }),
  };
  const authorization = authorizationHeader(conn.authScheme, conn.secret);

  const api = createClient<paths>({ baseUrl, fetch: createFetch(http) });
  api.use(authMiddleware(authorization), jsonOnlyMiddleware);

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

type FetchResult = { data?: unknown; error?: unknown; response: Response };
type DataOf<R> = R extends { data: infer D } ? D : never;

/**
 * Data of a successful openapi-fetch call, or the ApiError of a failed one:
 * `const mentors = await unwrap(client.api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/', { params }))`.
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

/** A 2xx HTML page where JSON was expected means a wrong base URL; say so instead of a JSON SyntaxError. */
const jsonOnlyMiddleware: Middleware = {
  onResponse({ response, options }) {
    if (!response.ok || options.parseAs !== 'json' || response.status === 204) return;
    if (response.headers.get('content-length') === '0') return;
    const contentType = response.headers.get('content-type') ?? '';
    if (contentType && !isJsonContentType(contentType)) {
      throw new UnexpectedResponseError(response.url, response.status, contentType);
    }
  },
};

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
