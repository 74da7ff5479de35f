/** An engine connected to a real sandbox for analytics tests (the key comes from the environment: no keychain). */
import type { Engine } from '../../src/main/engine';
import type { Sandbox } from '../../src/server/app';
import { connect as connectEngine, until, type ConnectOptions } from '../helpers/engine';
import { startServer } from '../platform/test-server';

export { failure, until, type Connected } from '../helpers/engine';

/** An engine on `server`, its key in MENTOR_ADMIN_API_KEY. */
export function connect(server: Sandbox, options: Omit<ConnectOptions, 'key'> = {}) {
  return connectEngine(server, { key: 'env', ...options });
}

/**
 * A pass-through proxy in front of the sandbox that can slow every answer down, fail some requests (the tenant
 * failing mid-export) or rewrite an answer (the platform changing its shape). Closed after the test.
 */
export interface Proxy {
  url: string;
  requests: string[];
  delayMs: number;
  /** Requests whose path and query match are answered with this status instead. */
  fail: { match: RegExp; status: number } | null;
  rewrite: { match: RegExp; body: (original: unknown) => unknown } | null;
}

export async function proxy(server: Sandbox, delayMs = 0): Promise<Proxy> {
  const state: Proxy = { url: '', requests: [], delayMs, fail: null, rewrite: null };
  const running = await startServer(async (req, res) => {
    const url = req.url ?? '/';
    state.requests.push(url);
    if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    if (state.fail && state.fail.match.test(url)) {
      res.writeHead(state.fail.status, { 'content-type': 'application/json' }).end('{"detail": "Service unavailable"}');
      return;
    }
    const answer = await fetch(server.url + url, {
      headers: { authorization: String(req.headers.authorization ?? ''), accept: 'application/json' },
    });
    let body = Buffer.from(await answer.arrayBuffer());
    if (state.rewrite && state.rewrite.match.test(url) && answer.ok) {
      body = Buffer.from(JSON.stringify(state.rewrite.body(JSON.parse(body.toString('utf8')))));
    }
    res
      .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
      .end(body);
  });
  state.url = running.url;
  return state;
}

/** Waits for an export to end (completed, failed or cancelled). */
export async function settled(engine: Engine, id: string, ms = 60_000) {
  return until(
    `export ${id} to end`,
    async () => {
      const info = await engine.invoke('analytics.export', { id });
      return ['completed', 'failed', 'cancelled'].includes(info.state) ? info : null;
    },
    ms,
  );
}
