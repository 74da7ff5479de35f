import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller } from '../auth';
import { badRequest, HttpError, notFound } from './errors';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  method: Method;
  /** The path below any mount prefix, exactly as requested (trailing slash significant, as in the spec). */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The caller; null only on routes registered with `auth: 'none'`. */
  caller: Caller | null;
  /** The absolute URL of this request, for DRF `next`/`previous` links. */
  url: URL;
  json<T = unknown>(): Promise<T>;
  form(): Promise<FormData>;
}

/** A body already serialised as JSON (large answers whose parts SQLite writes as text): sent as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}

/** A body that is not JSON (generated speech): sent as it is, with its content type. */
export class BinaryBody {
  constructor(
    readonly bytes: Uint8Array,
    readonly contentType: string,
  ) {}
}

/** What a handler returns: a JSON body (a value, or JsonText) with a status, or nothing (204). */
export type Reply = { status: number; body?: unknown; headers?: Record<string, string> };
export type Handler = (ctx: RequestContext) => Promise<Reply> | Reply;

export type AuthRule =
  /** Anyone, no credentials needed (the spec declares no security). */
  | 'none'
  /** Any authenticated user of the org in the path. */
  | 'user'
  /** Tenant admins of the org in the path. */
  | 'admin';

interface Route {
  method: Method;
  pattern: string;
  regex: RegExp;
  keys: string[];
  auth: AuthRule;
  handler: Handler;
  /** Message used when a student calls an admin route, where the spec has a specific one. */
  forbiddenDetail?: string;
}

export interface RouteOptions {
  auth?: AuthRule;
  forbiddenDetail?: string;
}

/** Routes are spec paths with `{param}` placeholders; matching is exact, trailing slash included. */
export class Router {
  private readonly routes: Route[] = [];

  add(method: Method, pattern: string, handler: Handler, options: RouteOptions = {}): this {
    const keys: string[] = [];
    const source = pattern
      .split(/(\{[a-z_]+\})/)
      .map((part) => {
        const key = /^\{([a-z_]+)\}$/.exec(part)?.[1];
        if (key) {
          keys.push(key);
          return '([^/]+)';
        }
        return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('');
    this.routes.push({
      method,
      pattern,
      regex: new RegExp(`^${source}$`),
      keys,
      auth: options.auth ?? 'user',
      handler,
      ...(options.forbiddenDetail ? { forbiddenDetail: options.forbiddenDetail } : {}),
    });
    return this;
  }

  get = (pattern: string, handler: Handler, options?: RouteOptions) => this.add('GET', pattern, handler, options);
  post = (pattern: string, handler: Handler, options?: RouteOptions) => this.add('POST', pattern, handler, options);
  put = (pattern: string, handler: Handler, options?: RouteOptions) => this.add('PUT', pattern, handler, options);
  patch = (pattern: string, handler: Handler, options?: RouteOptions) => this.add('PATCH', pattern, handler, options);
  delete = (pattern: string, handler: Handler, options?: RouteOptions) => this.add('DELETE', pattern, handler, options);

  /**
   * The route for a method and path, or why there is none (404, or 405 when the path exists). When several
   * patterns match, the one with the fewest placeholders wins: `users/{user_id}/support-tickets/` beats
   * `users/{user_id}/{name}/`, whatever the order they were added in.
   */
  match(method: string, path: string): { route: Route; params: Record<string, string> } {
    let pathExists = false;
    let best: { route: Route; found: RegExpExecArray } | null = null;
    for (const route of this.routes) {
      const found = route.regex.exec(path);
      if (!found) continue;
      pathExists = true;
      if (route.method !== method) continue;
      if (!best || route.keys.length < best.route.keys.length) best = { route, found };
    }
    if (best) {
      const params: Record<string, string> = {};
      best.route.keys.forEach((key, index) => {
        try {
          params[key] = decodeURIComponent(best.found[index + 1]!);
        } catch {
          // A `%` that starts no escape (`/users/50%/`): the client's mistake, not the server's.
          throw badRequest();
        }
      });
      return { route: best.route, params };
    }
    if (pathExists) throw new HttpError(405, `Method "${method}" not allowed.`);
    throw notFound();
  }

  list(): { method: Method; pattern: string; auth: AuthRule }[] {
    return this.routes.map(({ method, pattern, auth }) => ({ method, pattern, auth }));
  }
}
