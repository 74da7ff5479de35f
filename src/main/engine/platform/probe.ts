/**
 * "Test connection": one real, cheap, admin-only call (the first page of the user's mentors) and a verdict in plain
 * words with what to do next. Without a key the same call goes out with no Authorization header: it still proves the
 * host name, TLS and the path (the platform answers 401/403 there). Never throws for a failed test; only a caller's
 * cancel is rethrown.
 */
import type { ProfileTestResult, TestOutcome } from '../../../shared/contract';
import {
  carriesKeysSafely,
  createPlatformClient,
  isJsonContentType,
  joinUrl,
  normaliseBaseUrl,
  type PlatformConnection,
} from './client';
import { ApiError, NetworkError, RequestAbortedError, TimeoutError, TlsError, UnexpectedResponseError } from './errors';

export interface ProbeConnection extends PlatformConnection {
  /** The tenant key (`platform_key`). */
  org: string;
  username: string;
}

export interface ProbeOptions {
  signal?: AbortSignal;
  /** Per attempt; default 10 s (never more than the connection's own timeout). */
  timeoutMs?: number;
  /** Default 2: one retry absorbs a stale keep-alive connection without keeping the user waiting. */
  maxAttempts?: number;
}

export const PROBE_TIMEOUT_MS = 10_000;
const PROBE_PATH = '/api/ai-mentor/orgs/{org}/users/{user_id}/';
const SCHEMES_HINT = 'Api-Key, Api-Token, Token or Bearer';

export async function testConnection(conn: ProbeConnection, options: ProbeOptions = {}): Promise<ProfileTestResult> {
  const started = performance.now();
  const url = probeUrl(conn);
  const result = (outcome: TestOutcome, message: string, hint: string, status?: number): ProfileTestResult => ({
    outcome,
    ok: outcome === 'ok',
    message,
    hint,
    ...(status !== undefined && { status }),
    url,
    elapsedMs: Math.round(performance.now() - started),
  });

  const secret = conn.secret?.trim() ? conn.secret : null;
  /** Without a key, an answer that proves the address: the host, TLS and the path are right. */
  const reachedWithoutKey = (what: string, status: number) =>
    result(
      'no_secret',
      `The platform answers at this address (${what}): the host name, TLS and the path are right. No key was sent, so the sign-in is not tested yet.`,
      'Enter the API key or token, then test again to check the sign-in.',
      status,
    );

  let baseUrl: string;
  try {
    baseUrl = normaliseBaseUrl(conn.baseUrl);
  } catch (error) {
    return result('unexpected', (error as Error).message, 'Enter a full base URL such as https://api.example.org/dm.');
  }
  if (secret && !carriesKeysSafely(baseUrl)) {
    return result(
      'unexpected',
      'Nothing was sent: this address uses plain http:// to another computer, so the key would travel unencrypted.',
      'Use the https:// address of the tenant (plain http is for this computer only).',
    );
  }

  const timeoutMs = options.timeoutMs ?? Math.min(conn.timeoutMs ?? PROBE_TIMEOUT_MS, PROBE_TIMEOUT_MS);
  const client = createPlatformClient({
    ...conn,
    secret,
    baseUrl,
    timeoutMs,
    // A test should answer quickly: at most one short retry, and no long Retry-After waits.
    retry: { ...conn.retry, maxAttempts: options.maxAttempts ?? 2, maxDelayMs: 1_000, maxRetryAfterMs: 2_000 },
  });

  try {
    const { data, response } = await client.api.GET(PROBE_PATH, {
      params: { path: { org: conn.org, user_id: conn.username }, query: { page: 1, page_size: 1 } },
      parseAs: 'text',
      ...(options.signal && { signal: options.signal }),
    });
    const status = response.status;
    const statusLine = `${status} ${response.statusText || ''}`.trim();
    const contentType = response.headers.get('content-type') ?? '';
    if (isJsonContentType(contentType) && isJson(data)) {
      if (!secret) return reachedWithoutKey(`${statusLine} without a key`, status);
      return result(
        'ok',
        `Connected to ${conn.org} as ${conn.username}.`,
        'Nothing to fix: this profile is ready to use.',
        status,
      );
    }
    return result(
      'unexpected',
      `The address answered (${statusLine}), but with ${describeContent(contentType)} instead of the platform's JSON.`,
      'Check the base URL and its path prefix: the API is often served under a prefix such as https://host/dm.',
      status,
    );
  } catch (error) {
    if (!(error instanceof ApiError)) return failed(error);
    const status = error.status;
    const statusLine = `${status} ${error.statusText}`.trim();
    const because = withDetail(statusLine, error.detail);
    if (!secret && (status === 401 || status === 403)) return reachedWithoutKey(`${statusLine} without a key`, status);
    switch (true) {
      case status === 401:
        return result(
          'auth_failed',
          `The server did not accept the credentials (${because}).`,
          `Check the key and the auth scheme: this profile sends "${conn.authScheme}", tenants may expect ${SCHEMES_HINT}.`,
          status,
        );
      case status === 403:
        return result(
          'forbidden',
          `The credentials work, but ${conn.username} may not manage ${conn.org} (${because}).`,
          `The user must be a tenant admin of "${conn.org}": use an admin's username and key, or ask an admin to grant the role.`,
          status,
        );
      case status === 404:
        return result(
          'not_found',
          `Nothing was found at this address for ${conn.org} / ${conn.username} (${because}).`,
          `Check the org (tenant key) "${conn.org}", the username, and the base URL's path prefix such as /dm.`,
          status,
        );
      case status >= 500:
        return result(
          'server_error',
          `The platform reported an error on its side (${because}).`,
          'Try again in a few minutes; if it keeps failing, contact the platform operator with this status.',
          status,
        );
      case status === 429:
        return result(
          'unexpected',
          `The server is limiting requests right now (${because}).`,
          'Wait a minute, then test again.',
          status,
        );
      default:
        return result(
          'unexpected',
          `The server gave an unexpected answer (${because}).`,
          'Check the base URL (including any path prefix such as /dm); if it is right, contact the platform operator.',
          status,
        );
    }
  }

  /** A test that got no answer: what failed on the way, in words. Only a caller's cancel is thrown. */
  function failed(error: unknown): ProfileTestResult {
    if (error instanceof RequestAbortedError) throw error;
    if (error instanceof TlsError) return result('tls_error', `${error.message}.`, tlsHint(error.code));
    if (error instanceof TimeoutError) {
      return result(
        'timeout',
        `${error.message}.`,
        'The server or the network is slow or blocking the request: check the base URL, your VPN or proxy, and try again.',
      );
    }
    if (error instanceof NetworkError) return result('unreachable', `${error.message}.`, networkHint(error.code));
    if (error instanceof UnexpectedResponseError) {
      return result('unexpected', error.message, 'Check the base URL and its path prefix such as /dm.', error.status);
    }
    return result(
      'unexpected',
      `The test failed: ${error instanceof Error ? error.message : String(error)}`,
      'Check the base URL, org and username; if they are right, report this message.',
    );
  }
}

/** The probe's URL, with org and username URL-encoded into the path. */
export function probeUrl(conn: Pick<ProbeConnection, 'baseUrl' | 'org' | 'username'>): string {
  const path = PROBE_PATH.replace('{org}', encodeURIComponent(conn.org)).replace(
    '{user_id}',
    encodeURIComponent(conn.username),
  );
  return joinUrl(conn.baseUrl.trim(), path, { page: 1, page_size: 1 });
}

function isJson(text: unknown): boolean {
  if (typeof text !== 'string' || !text.trim()) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function describeContent(contentType: string): string {
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  if (type === 'text/html') return 'a web page (HTML)';
  return type ? `"${type}"` : 'a body of unknown type';
}

function withDetail(statusLine: string, detail: string | undefined): string {
  return detail ? `${statusLine}: ${detail}` : statusLine;
}

function networkHint(code: string): string {
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return 'Check the host name in the base URL and that this computer is online.';
  }
  if (code === 'ECONNREFUSED') {
    return 'Nothing is listening at that address: check the base URL (host and port) and that the server is running.';
  }
  return 'Check the base URL, that the server is running, and your network, VPN or proxy; then try again.';
}

function tlsHint(code: string): string {
  switch (code) {
    case 'CERT_HAS_EXPIRED':
    case 'CERT_NOT_YET_VALID':
      return "Check this computer's date and time; if they are right, the server's administrator must renew the certificate.";
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return 'Use the host name the certificate was issued for in the base URL.';
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return 'The server does not speak HTTPS on that port: check the port, or try http:// if it is a local server.';
    default:
      return (
        "This computer does not trust the server's certificate. If your organisation uses its own certificate " +
        'authority, start the app with NODE_EXTRA_CA_CERTS pointing at it; otherwise check the base URL.'
      );
  }
}
