/**
 * One typed platform client per profile. Several tenants can be open at once because nothing here is global:
 * the base URL, the auth header and the retry tuning all live in the client instance.
 */
import createClient, { createQuerySerializer, defaultPathSerializer, type Client } from 'openapi-fetch';
import { isLoopbackHost, type AuthScheme } from '../../../shared/contract';
import { ApiError, InsecureAddressError, UnexpectedResponseError } from './errors';
import {
  CallRequest,
  createFetch,
  sendRequest,
  type BodyFactory,
  type HeadersInit,
  type HttpOptions,
  type Logger,
  type PerCallOptions,
  type RetryEvent,
} from './http';
import { declaredRule, type DeclaredPaths, type PlatformApi } from './operations';
import { parseRetryAfter, type RetryRule, type RetryTiming } from './retry';
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

  // Calls travel as CallRequests, not WHATWG Requests: the transport takes their bodies as they are. What middleware
  // would do (the key, the operation's rule, an ApiError for a non-2xx) is done around and inside them instead: each
  // middleware costs every call an await, and openapi-fetch an id and options object for them.
  const client = createClient<DeclaredPaths>({
    baseUrl,
    fetch: createFetch(http) as typeof fetch,
    Request: authorizedRequest(authorization) as unknown as typeof Request,
    // Made once, not for every call (as openapi-fetch does when given none); the path templates split once.
    querySerializer: createQuerySerializer(),
    pathSerializer: templatePathSerializer(),
  });
  const api = checkedApi(client);

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
 * A failed call of the typed API has already thrown its ApiError; a client made otherwise gets it from here.
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

/**
 * The typed API's request: openapi-fetch's headers (made for this call alone, so taken as they are rather than
 * copied), with the key, and JSON asked for unless the call says otherwise.
 */
function authorizedRequest(authorization: string | undefined): typeof CallRequest {
  return class AuthorizedRequest extends CallRequest {
    constructor(input: string | URL, init?: ConstructorParameters<typeof CallRequest>[1]) {
      super(input, init);
      if (authorization) this.headers.set('Authorization', authorization);
      if (!this.headers.has('Accept')) this.headers.set('Accept', 'application/json');
    }

    protected override headersOf(given: HeadersInit | undefined): Headers {
      return given instanceof Headers ? given : new Headers(given);
    }
  };
}

type Call = (
  path: string,
  init?: { parseAs?: string; rule?: RetryRule },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * The typed methods, each call sent with its operation's rule (operations.ts), a non-2xx answer thrown as an ApiError
 * in the platform's words where the call was made, and JSON answers read here: a 2xx that is not JSON (an HTML page:
 * a wrong base URL or path prefix; a cut-off body) is an UnexpectedResponseError naming the address, never a bare
 * SyntaxError.
 */
function checkedApi(client: Client<DeclaredPaths>): PlatformApi {
  const checked =
    (method: string, call: Call): Call =>
    async (path, init) => {
      const rule = declaredRule(method, path);
      const json = !init?.parseAs || init.parseAs === 'json';
      const result = await call(path, { ...init, ...(rule && { rule }), ...(json && { parseAs: 'text' }) });
      const { response } = result;
      // openapi-fetch has read a failed answer's body: JSON where it parses, else its text ('' for none).
      if (!response.ok) throw apiErrorFrom(response, result.error);
      if (!json) return result;
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
  const methods = client as unknown as Record<(typeof METHODS)[number], Call>;
  const request = client.request as unknown as (method: string, path: string, init?: unknown) => ReturnType<Call>;
  // Same methods, same types: only how a call is sent and its answer read differs.
  return {
    ...client,
    ...Object.fromEntries(METHODS.map((method) => [method, checked(method, methods[method])])),
    request: (method: string, path: string, init?: Parameters<Call>[1]) =>
      checked(method.toUpperCase(), (p, i) => request(method, p, i))(path, init),
  } as unknown as PlatformApi;
}

const METHODS = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE'] as const;

/**
 * openapi-fetch's path serializer with each path template split once (it searched every call's template with a
 * regular expression); a name with a style mark (`{.x}`, `{;x}`, `{x*}`) or a list or object value goes to
 * openapi-fetch's own.
 */
export function templatePathSerializer(): (pathname: string, params: Record<string, unknown>) => string {
  const templates = new Map<string, string[] | null>();
  return (pathname, params) => {
    let parts = templates.get(pathname);
    if (parts === undefined) templates.set(pathname, (parts = splitTemplate(pathname)));
    if (!parts) return defaultPathSerializer(pathname, params);
    let url = parts[0]!;
    for (let i = 1; i < parts.length; i += 2) {
      const name = parts[i]!;
      const value = params[name];
      if (value === undefined || value === null) url += `{${name}}`;
      else if (typeof value === 'object') return defaultPathSerializer(pathname, params);
      else url += encodeURIComponent(value as string | number | boolean);
      url += parts[i + 1]!;
    }
    return url;
  };
}

/** `/orgs/{org}/users/{user_id}/` as ['/orgs/', 'org', '/users/', 'user_id', '/']; null where a name has a style mark. */
function splitTemplate(pathname: string): string[] | null {
  const parts = pathname.split(/\{([^{}]+)\}/);
  for (let i = 1; i < parts.length; i += 2) if (/^[.;]|\*$/.test(parts[i]!)) return null;
  return parts;
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
