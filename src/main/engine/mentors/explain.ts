/**
 * Platform errors in words an admin can act on: what was not found, why a key was refused and where to fix it.
 * Errors that are not the platform's (network, validation, …) pass through unchanged.
 */
import { EngineError } from '../errors';
import { ApiError, isTransient } from '../platform';

export interface Asked {
  org: string;
  username: string;
  /** The mentor reference the caller gave, when the call is about one. */
  mentor?: string;
  /** The document id the caller gave, when the call is about one. */
  document?: string;
}

const ORGANIZATION = /organi[sz]ation/i;

const withDetail = (message: string, detail: string | undefined) =>
  detail && detail !== message ? `${message} (${detail})` : message;

export function explain(error: unknown, asked: Asked): unknown {
  if (!(error instanceof ApiError)) return error;
  const { status, detail } = error;
  if (status === 404) {
    if (detail && ORGANIZATION.test(detail)) {
      return new EngineError(
        'not_found',
        `The tenant has no organization '${asked.org}': check the org of this tenant connection in Settings → Tenants`,
      );
    }
    if (asked.document) return new EngineError('not_found', `No document '${asked.document}' on this tenant`);
    if (asked.mentor) {
      return new EngineError(
        'not_found',
        `No mentor '${asked.mentor}' on this tenant (give its unique id or exact name)`,
      );
    }
    return new EngineError('not_found', withDetail('Not Found', detail));
  }
  if (status === 401) {
    return new EngineError(
      'api',
      `${withDetail(error.message, detail)}: the tenant refused this key. Enter a valid API key for this tenant in Settings → Tenants.`,
      { status },
    );
  }
  if (status === 403) {
    return new EngineError(
      'api',
      `${withDetail(error.message, detail)}: mentors and documents need a tenant admin's key for '${asked.org}' ` +
        `(acting as user '${asked.username}'). Use such a key in Settings → Tenants.`,
      { status },
    );
  }
  const words = apiWords(error);
  if (status === 400 && /already exists/i.test(words)) return new EngineError('conflict', conflictMessage(words));
  return new EngineError('api', withDetail(error.message, detail ?? bodyWords(error.body)), { status });
}

function conflictMessage(words: string): string {
  const name = /name/i.test(words);
  return name ? 'A mentor with this name already exists on this tenant: choose another name' : words;
}

/** Everything the error says, for matching: the message, the detail and DRF field errors (`{"name": ["…"]}`). */
function apiWords(error: ApiError): string {
  return [error.message, error.detail ?? '', bodyWords(error.body) ?? ''].join(' ');
}

function bodyWords(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return typeof body === 'string' ? body.slice(0, 300) : undefined;
  const parts: string[] = [];
  for (const [field, value] of Object.entries(body)) {
    if (field === 'detail') continue;
    const items = Array.isArray(value) ? value : [value];
    const said = items.filter((item): item is string => typeof item === 'string');
    if (said.length) parts.push(`${field}: ${said.join(' ')}`);
  }
  return parts.length ? parts.join('; ').slice(0, 300) : undefined;
}

/** A 404 about the thing asked for (not about the organization in the path). */
export function isMissing(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && !ORGANIZATION.test(error.detail ?? '');
}

/** The tenant could not be reached or is failing: worth showing the cache with a note, and worth trying later. */
export const isUnreachable = (error: unknown): boolean => isTransient(error);

/** The note shown with cached rows when a refresh did not work. */
export function offlineNote(error: unknown): string {
  if (error instanceof ApiError) {
    return `The tenant is not answering (${error.status} ${error.statusText}); showing what was saved earlier.`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `${message.replace(/\.$/, '')}; showing what was saved earlier.`;
}
