/** An engine connected to a real sandbox for analytics tests (the key comes from the environment: no keychain). */
import { afterEach, expect } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine';
import type { BridgeError, CallInput, CallName, EventName } from '../../src/shared/contract';
import type { Sandbox } from '../../src/server/app';
import { tempDir, uniqueService } from '../helpers/temp';
import { startServer } from '../platform/test-server';

const engines: Engine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

export interface Connected {
  engine: Engine;
  profileId: string;
  dataDir: string;
  events: { name: EventName; payload: unknown }[];
}

export async function connect(
  server: Sandbox,
  options: { dataDir?: string; env?: NodeJS.ProcessEnv; keep?: boolean; baseUrl?: string } = {},
): Promise<Connected> {
  const dataDir = options.dataDir ?? tempDir();
  const engine = await createEngine({
    dataDir,
    shell: 'test',
    keychainService: uniqueService(),
    env: { MENTOR_ADMIN_API_KEY: server.apiKey, ...options.env },
  });
  if (!options.keep) engines.push(engine);
  const events: Connected['events'] = [];
  engine.onEvent((name, payload) => events.push({ name, payload }));
  const existing = (await engine.invoke('profiles.list', {})).find((p) => p.name === 'Sandbox');
  const profile =
    existing ??
    (await engine.invoke('profiles.add', {
      name: 'Sandbox',
      baseUrl: options.baseUrl ?? server.url,
      org: server.org,
      username: server.user,
      makeActive: true,
    }));
  events.length = 0;
  return { engine, profileId: profile.id, dataDir, events };
}

/** The error a call answers (it must fail). */
export async function failure<N extends CallName>(engine: Engine, name: N, input: CallInput<N>): Promise<BridgeError> {
  const result = await engine.call(name, input);
  expect(result.ok, `${name} should have failed`).toBe(false);
  return (result as { ok: false; error: BridgeError }).error;
}

export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false> | T, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
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
