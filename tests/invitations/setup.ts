import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine';
import type { SecretStore } from '../../src/main/engine/secrets/keychain';
import type { Sandbox } from '../../src/server/app';
import { invitationsArea } from '../../src/server/areas/invitations';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';

const engines: Engine[] = [];

/** Keys come from MENTOR_ADMIN_API_KEY in these tests: nothing is stored. */
const noKeychain: SecretStore = {
  get: async () => null,
  set: async () => {},
  delete: async () => false,
  status: async () => ({ available: true, message: 'not used' }),
};
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

/** A real sandbox (core + catalog invitations, demo data) and an engine whose active tenant points at it. */
export async function sandboxWithInvitations(): Promise<Sandbox> {
  return sandbox({ seed: 'demo', areas: [invitationsArea] });
}

export async function engineFor(server: Sandbox, env: NodeJS.ProcessEnv = {}, baseUrl = server.url) {
  const dataDir = tempDir();
  // The key comes from the environment: no keychain needed.
  const engine = await createEngine({
    dataDir,
    shell: 'test',
    env: { MENTOR_ADMIN_API_KEY: server.apiKey, ...env },
    secrets: noKeychain,
  });
  engines.push(engine);
  const profile = await engine.invoke('profiles.add', {
    name: 'Sandbox',
    baseUrl,
    org: server.org,
    username: server.user,
    makeActive: true,
  });
  return { engine, dataDir, profileId: profile.id };
}

export function csvFile(name: string, content: string | Buffer): string {
  const path = join(tempDir(), name);
  writeFileSync(path, content);
  return path;
}

/** Every invitation row the sandbox holds for an address (any case), for exactly-once checks. */
export function invitationsOf(server: Sandbox, email: string, kind = 'platform'): number {
  return (
    server.db
      .prepare('SELECT count(*) AS n FROM catalog_invitations WHERE kind = ? AND email = ? COLLATE NOCASE')
      .get(kind, email) as { n: number }
  ).n;
}

type AnyEngine = Engine;

/** Polls a job until it completes, fails, pauses or is cancelled. */
export async function settledJob(engine: AnyEngine, id: string, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = await engine.invoke('jobs.get', { id });
    if (['completed', 'failed', 'paused', 'cancelled'].includes(job.state)) return job;
    if (Date.now() > until) throw new Error(`job ${id} still ${job.state} (${job.reason ?? ''})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Opens, reads and targets a file the way the wizard does; answers the ready draft. */
export async function readyImport(
  engine: AnyEngine,
  path: string,
  target: { kind: 'platform' } | { kind: 'course' | 'program'; id: string } = { kind: 'platform' },
) {
  const draft = await engine.invoke('invitations.importOpen', { path });
  await engine.invoke('invitations.importParse', { id: draft.id, wait: true });
  return engine.invoke('invitations.importTarget', { id: draft.id, target, wait: true });
}

/** Every row of an import, in file order. */
export async function allRows(
  engine: AnyEngine,
  id: string,
  filter: 'all' | 'problems' | 'ok' | 'already' | 'dropped' = 'all',
) {
  return (await engine.invoke('invitations.importRows', { id, filter, limit: 1000 })).rows;
}
