import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Engine } from '../../src/main/engine';
import type { Sandbox } from '../../src/server/app';
import { catalogueArea } from '../../src/server/areas/catalogue';
import { invitationsArea } from '../../src/server/areas/invitations';
import { cli } from '../helpers/cli';
import { connect, waitForJob } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';

/** A real sandbox (core + catalog invitations, demo data) and an engine whose active tenant points at it. */
export async function sandboxWithInvitations(): Promise<Sandbox> {
  return sandbox({ seed: 'demo', areas: [invitationsArea, catalogueArea] });
}

/**
 * A data folder for `mentor-admin` runs whose active tenant is `server`, reached at `baseUrl` (a proxy in front of it,
 * say); the key comes from the environment, so nothing is stored.
 */
export async function cliTenant(server: Sandbox, baseUrl = server.url) {
  const dataDir = tempDir();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MENTOR_ADMIN_HOME: dataDir,
    MENTOR_ADMIN_API_KEY: server.apiKey,
    MENTOR_ADMIN_SANDBOX: 'off',
  };
  const added = await cli(
    ['profile', 'add', 'Sandbox', '--url', baseUrl, '--org', server.org, '--user', server.user, '--activate'],
    { env },
  );
  expect(added.code, added.stderr).toBe(0);
  return { dataDir, env };
}

/** Keys come from MENTOR_ADMIN_API_KEY in these tests: nothing is stored, no keychain is needed. */
export async function engineFor(server: Sandbox, env: NodeJS.ProcessEnv = {}, baseUrl = server.url) {
  const { engine, dataDir, profileId } = await connect(server, { key: 'env-only', env, baseUrl });
  return { engine, dataDir, profileId };
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
export function settledJob(engine: AnyEngine, id: string, timeoutMs = 20_000) {
  return waitForJob(engine, id, ['completed', 'failed', 'paused', 'cancelled'], timeoutMs);
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
