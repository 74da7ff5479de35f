import { afterAll } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/server/app';
import { tempDir } from './temp';

const running: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** A real sandbox server on a free loopback port with its data in a temp folder; closed after the file. */
export async function sandbox(options: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  const server = await startSandbox({ dataDir: tempDir('sandbox-'), seed: 'none', log: () => {}, ...options });
  running.push(server);
  return server;
}

export interface Call {
  status: number;
  body: unknown;
  headers: Headers;
}

/** A raw HTTP call with an `Authorization: <scheme> <key>` header (default: the admin's Api-Key). */
export async function call(
  server: Sandbox,
  method: string,
  path: string,
  options: { key?: string | null; scheme?: string; json?: unknown; form?: FormData } = {},
): Promise<Call> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? server.apiKey : options.key;
  if (key) headers.authorization = `${options.scheme ?? 'Api-Key'} ${key}`;
  let body: RequestInit['body'];
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) body = options.form;
  const res = await fetch(server.url + path, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON; keep the text
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/**
 * Reads on the sandbox's own database, the figures its answers must match. `server` is asked at each call, so the
 * sandbox may be started in a `beforeAll` after these are made.
 */
export function sandboxQueries(server: () => Sandbox) {
  const prepare = (sql: string) => server().db.prepare(sql);
  return {
    scalar: <T = number>(sql: string, ...params: unknown[]) =>
      prepare(sql)
        .pluck()
        .get(...params) as T,
    rows: <T>(sql: string, ...params: unknown[]) => prepare(sql).all(...params) as T[],
  };
}
