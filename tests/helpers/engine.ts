/** Real engines for tests, each with a real sandbox as its tenant; closed after each test. */
import { afterEach, expect } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine';
import type { SecretStore } from '../../src/main/engine/secrets/keychain';
import type { BridgeError, CallInput, CallName, EventName, Job } from '../../src/shared/contract';
import type { Sandbox } from '../../src/server/app';
import { requireKeychainSession, tempDir, uniqueService } from './temp';

const engines: Engine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

/** For keys that come from MENTOR_ADMIN_API_KEY: nothing is stored, no Secret Service is asked. */
export const noKeychain: SecretStore = {
  get: async () => null,
  set: async () => {},
  delete: async () => false,
  status: async () => ({ available: true, message: 'not used' }),
};

export interface Connected {
  engine: Engine;
  profileId: string;
  dataDir: string;
  /** Every event the engine emitted since the tenant was added. */
  events: { name: EventName; payload: unknown }[];
}

export interface ConnectOptions {
  /** Default: a new temp folder. An engine reopened on a folder uses the tenant already in it. */
  dataDir?: string;
  /**
   * Where the engine finds the key. `keychain` (the default): `secret` is stored in the OS keychain, under a
   * service of this test only. `env`: MENTOR_ADMIN_API_KEY holds the sandbox's admin key, and the keychain of this
   * test holds nothing. `env-only`: the same with no keychain at all (no Secret Service needed).
   */
  key?: 'keychain' | 'env' | 'env-only';
  /** With `key: 'keychain'`: the key stored (default the sandbox's admin key). */
  secret?: string;
  /** More environment for the engine. */
  env?: NodeJS.ProcessEnv;
  /** The tenant's address (default the sandbox's: a proxy in front of it, say), org and username. */
  baseUrl?: string;
  org?: string;
  username?: string;
  /** Left open after the test (it is closed by the test itself). */
  keep?: boolean;
}

/** An engine whose active tenant, "Sandbox", is `server`. */
export async function connect(server: Sandbox, options: ConnectOptions = {}): Promise<Connected> {
  const key = options.key ?? 'keychain';
  if (key === 'keychain') requireKeychainSession();
  const dataDir = options.dataDir ?? tempDir();
  const engine = await createEngine({
    dataDir,
    shell: 'test',
    ...(key === 'env-only' ? { secrets: noKeychain } : { keychainService: uniqueService() }),
    env: { ...(key === 'keychain' ? {} : { MENTOR_ADMIN_API_KEY: server.apiKey }), ...options.env },
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
      org: options.org ?? server.org,
      username: options.username ?? server.user,
      ...(key === 'keychain' ? { secret: options.secret ?? server.apiKey } : {}),
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

/** Polls `probe` until it answers something truthy, and answers that. */
export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false> | T, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Polls a job until `done` holds for it (the runner may go through waiting and back by itself). */
export async function waitUntil(
  engine: Engine,
  id: string,
  done: (job: Job) => boolean,
  timeoutMs = 30_000,
): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await engine.invoke('jobs.get', { id });
    if (done(job)) return job;
    if (Date.now() > deadline) {
      throw new Error(
        `job ${id} did not get there in ${timeoutMs} ms: ${job.state} (${job.reason ?? ''}), ${JSON.stringify(job.counts)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Polls a job until it reaches one of `states`. */
export function waitForJob(
  engine: Engine,
  id: string,
  states: Job['state'][] = ['completed', 'failed', 'cancelled'],
  timeoutMs = 60_000,
): Promise<Job> {
  return waitUntil(engine, id, (job) => states.includes(job.state), timeoutMs);
}
