/**
 * Errors raised by the platform client. They speak the platform's language: non-2xx answers become an `ApiError`
 * whose message follows the spec's error catalogue (the same messages the vendor SDK throws), and transport failures
 * are classified (network, TLS, timeout, cancelled) so the UI can say what to do next.
 */
import { STATUS_CODES } from 'node:http';

/** The spec's error catalogue: the default message for each status it names. */
export const CATALOGUE_MESSAGES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export const REQUEST_ABORTED_MESSAGE = 'Request aborted';

export interface ApiErrorInit {
  url: string;
  status: number;
  statusText?: string;
  /** Parsed JSON when the server sent JSON, otherwise the text (undefined when empty). */
  body?: unknown;
  /** How long the server asked us to wait (from `Retry-After`), when it said so. */
  retryAfterMs?: number;
}

/** A non-2xx answer from the platform. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  readonly body: unknown;
  /** The server's own explanation (`{"detail": "..."}`), worth showing to the user. */
  readonly detail: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit) {
    const statusText = init.statusText || STATUS_CODES[init.status] || 'unknown';
    super(apiErrorMessage(init.status, statusText, init.body));
    this.url = init.url;
    this.status = init.status;
    this.statusText = statusText;
    this.body = init.body;
    this.detail = extractDetail(init.body);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** The catalogue message for a status, or the vendor SDK's generic message for any other one. */
export function apiErrorMessage(status: number, statusText: string, body: unknown): string {
  const known = CATALOGUE_MESSAGES[status];
  if (known) return known;
  return `Generic Error: status: ${status}; status text: ${statusText}; body: ${stringifyBody(body)}`;
}

function stringifyBody(body: unknown): string | undefined {
  try {
    return JSON.stringify(body, null, 2);
  } catch {
    return undefined;
  }
}

/** DRF-style `{"detail": "..."}`; also accepts a JSON text body that carries one. */
export function extractDetail(body: unknown): string | undefined {
  let value = body;
  if (typeof value === 'string' && value.trimStart().startsWith('{')) {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (value && typeof value === 'object' && 'detail' in value) {
    const detail = (value as { detail: unknown }).detail;
    if (typeof detail === 'string' && detail.trim()) return detail.trim();
  }
  return undefined;
}

/** One problem the platform named in an answer: at a field (dotted path) or, with an empty path, at none. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** DRF's error body as issues: `{field: ["…"]}`, nested objects by dotted path, `non_field_errors` at no field. */
export function drfIssues(body: unknown, prefix = ''): FieldIssue[] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  const issues: FieldIssue[] = [];
  for (const [key, value] of Object.entries(body)) {
    // DRF's message is a string `detail`; a list under `detail` is the errors of a field named so (profile memory's).
    if (key === 'detail' && !prefix && !Array.isArray(value)) continue;
    const path = key === 'non_field_errors' ? prefix.replace(/\.$/, '') : `${prefix}${key}`;
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (typeof item === 'string') issues.push({ path, message: item });
      else if (item && typeof item === 'object') issues.push(...drfIssues(item, `${path}.`));
    }
  }
  return issues;
}

/**
 * A refusal in the platform's own words, for a screen or a report row: its `detail`, else DRF's field errors
 * ("field: message message; other: message"), else the status line.
 */
export function platformWords(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  if (error.detail) return error.detail;
  const byField = new Map<string, string[]>();
  for (const issue of drfIssues(error.body))
    byField.set(issue.path, [...(byField.get(issue.path) ?? []), issue.message]);
  if (byField.size === 0) return `${error.status} ${error.statusText}`;
  return [...byField].map(([field, messages]) => `${field ? `${field}: ` : ''}${messages.join(' ')}`).join('; ');
}

/** The caller cancelled the request through its AbortSignal. */
/**
 * A key would travel in clear: plain http to another computer. Addresses like this are refused when a profile is
 * saved; this guards connections saved before that rule (and any other way in).
 */
export class InsecureAddressError extends Error {
  constructor(baseUrl: string) {
    super(
      `The tenant's base URL (${baseUrl}) uses plain http:// to another computer, so its key would travel unencrypted: ` +
        'change it to https:// in Settings → Tenants (plain http is for this computer only)',
    );
    this.name = 'InsecureAddressError';
  }
}

export class RequestAbortedError extends Error {
  override readonly name = 'RequestAbortedError';
  readonly url: string | undefined;

  constructor(url?: string) {
    super(REQUEST_ABORTED_MESSAGE);
    this.url = url;
  }
}

/** No answer within the time allowed for one attempt. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
  readonly url: string;
  readonly timeoutMs: number | undefined;

  constructor(url: string, timeoutMs?: number) {
    super(
      `No answer from ${describeHost(url)} within ${timeoutMs === undefined ? 'the time allowed' : `${timeoutMs} ms`}`,
    );
    this.url = url;
    this.timeoutMs = timeoutMs;
  }
}

/** The server could not be reached, or dropped the connection. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  readonly url: string;
  /** The system or undici error code, e.g. ECONNREFUSED, ENOTFOUND, ECONNRESET, UND_ERR_SOCKET. */
  readonly code: string;

  constructor(url: string, code: string, options?: { cause?: unknown }) {
    const words = NETWORK_CODE_WORDS[code] ?? innermostMessage(options?.cause) ?? 'network error';
    super(`Could not reach ${describeHost(url)}: ${words} (${code})`, options);
    this.url = url;
    this.code = code;
  }
}

/** The TLS handshake failed: the server's certificate was not accepted. Retrying does not help. */
export class TlsError extends Error {
  override readonly name = 'TlsError';
  readonly url: string;
  readonly code: string;

  constructor(url: string, code: string, options?: { cause?: unknown }) {
    super(
      `The certificate of ${describeHost(url)} was rejected: ${TLS_CODE_WORDS[code] ?? 'TLS error'} (${code})`,
      options,
    );
    this.url = url;
    this.code = code;
  }
}

/** A 2xx answer that is not what the API sends (typically an HTML page: wrong base URL or path prefix). */
export class UnexpectedResponseError extends Error {
  override readonly name = 'UnexpectedResponseError';
  readonly url: string;
  readonly status: number;
  readonly contentType: string;

  constructor(url: string, status: number, contentType: string) {
    super(`Expected JSON from ${url} but got ${contentType || 'a body without a content type'} (status ${status})`);
    this.url = url;
    this.status = status;
    this.contentType = contentType;
  }
}

/** Any failure that never produced an HTTP answer. */
export type TransportError = RequestAbortedError | TimeoutError | NetworkError | TlsError;

const NETWORK_CODE_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed while sending',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENETDOWN: 'network down',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CLOSED: 'connection closed',
};

const TLS_CODE_WORDS: Record<string, string> = {
  CERT_HAS_EXPIRED: 'the certificate has expired',
  CERT_NOT_YET_VALID: 'the certificate is not valid yet (check the clock)',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'a self-signed certificate is in the chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the certificate cannot be verified',
  UNABLE_TO_GET_ISSUER_CERT: 'the certificate issuer is unknown',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the certificate issuer is not trusted on this computer',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate is for a different host name',
  CERT_REVOKED: 'the certificate was revoked',
  ERR_SSL_WRONG_VERSION_NUMBER: 'the server does not speak TLS on this port (try http://)',
};

const TLS_CODE_PATTERN = /^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/;

export function isTlsErrorCode(code: string): boolean {
  return code in TLS_CODE_WORDS || TLS_CODE_PATTERN.test(code);
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * The error code behind a fetch failure. Node's fetch (undici) throws `TypeError('fetch failed')` whose `cause`
 * carries the code, sometimes inside an AggregateError (one error per address tried).
 */
export function findErrorCode(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== 'object' || depth > 5) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code !== 'ERR_INVALID_ARG_TYPE') return code;
  const nested = (error as { errors?: unknown }).errors;
  if (Array.isArray(nested)) {
    for (const inner of nested) {
      const innerCode = findErrorCode(inner, depth + 1);
      if (innerCode) return innerCode;
    }
  }
  return findErrorCode((error as { cause?: unknown }).cause, depth + 1);
}

export interface FailureContext {
  url: string;
  /** The caller's signal fired. */
  callerAborted: boolean;
  /** Our per-attempt timer fired. */
  timedOut: boolean;
  timeoutMs?: number;
}

/** Turns whatever fetch threw into one of the transport errors (or returns it unchanged when it is none of them). */
export function classifyFetchFailure(error: unknown, context: FailureContext): unknown {
  if (isTransportError(error)) return error;
  if (context.callerAborted) return new RequestAbortedError(context.url);
  if (context.timedOut) return new TimeoutError(context.url, context.timeoutMs);
  const code = findErrorCode(error);
  if (code && TIMEOUT_CODES.has(code)) return new TimeoutError(context.url, context.timeoutMs);
  if (code && isTlsErrorCode(code)) return new TlsError(context.url, code, { cause: error });
  if (code) return new NetworkError(context.url, code, { cause: error });
  // undici reports some socket failures without a code; still a network failure, not a bug in our code.
  if (error instanceof TypeError && error.message === 'fetch failed') {
    return new NetworkError(context.url, 'UNKNOWN', { cause: error });
  }
  return error;
}

export function isTransportError(error: unknown): error is TransportError {
  return (
    error instanceof RequestAbortedError ||
    error instanceof TimeoutError ||
    error instanceof NetworkError ||
    error instanceof TlsError
  );
}

/** The deepest `cause` message: undici's own `fetch failed` says nothing, its cause says what went wrong. */
function innermostMessage(error: unknown, depth = 0): string | undefined {
  if (!(error instanceof Error) || depth > 5) return undefined;
  return innermostMessage(error.cause, depth + 1) ?? (error.message === 'fetch failed' ? undefined : error.message);
}

function describeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
