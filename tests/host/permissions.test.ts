/**
 * The data folder is private: every folder 0700 and every file 0600 (SQLite with its -wal and -shm, the engine log,
 * pasted imports, browser-mode staging, the local sandbox's database and stored files), whatever the umask, and a
 * data folder an older version left readable by others is tightened when the app opens it.
 */
import { chmodSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine, shellPreset } from '../../src/main/engine';
import { startHost, type Host } from '../../src/main/host/server';
import { until } from '../helpers/engine';
import { requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';

/** Every folder and file under `dir` whose mode lets anyone but the owner in. */
function looseEntries(dir: string): string[] {
  const loose: string[] = [];
  const walk = (path: string) => {
    const info = statSync(path);
    const mode = info.mode & 0o777;
    if (info.isDirectory()) {
      if (mode !== 0o700) loose.push(`${path} ${mode.toString(8)}`);
      for (const entry of readdirSync(path)) walk(join(path, entry));
    } else if (mode !== 0o600) loose.push(`${path} ${mode.toString(8)}`);
  };
  walk(dir);
  return loose;
}

function loosenAll(dir: string): void {
  const walk = (path: string) => {
    const info = statSync(path);
    chmodSync(path, info.isDirectory() ? 0o755 : 0o644);
    if (info.isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
  };
  walk(dir);
}

const service = uniqueService();
let dataDir: string;
const previousUmask = process.umask(0o022);

function openEngine(): Promise<Engine> {
  return createEngine({
    ...shellPreset('browser'),
    dataDir,
    sandbox: 'auto',
    sandboxLaunch: { seed: 'demo' },
    keychainService: service,
    env: {},
  });
}

beforeAll(() => {
  requireKeychainSession();
  // A folder that does not exist yet, in a parent anyone may read (as ~/.config is).
  const parent = tempDir();
  chmodSync(parent, 0o755);
  dataDir = join(parent, 'Mentor Admin');
});
afterAll(() => process.umask(previousUmask));

describe('the data folder', () => {
  let engine: Engine;
  let host: Host;

  it('holds only owner-only folders and files after a real run', async () => {
    engine = await openEngine();
    const rendererDir = tempDir();
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Mentor Admin</title>');
    host = await startHost({ dataDir, engine, rendererDir });
    await until(
      'the local sandbox',
      async () => (await engine.invoke('profiles.list', {})).find((profile) => profile.isSandbox && profile.hasSecret),
      60_000,
    );
    await engine.invoke('invitations.importOpen', { name: 'cohort.csv', text: 'email\nada@example.org\n' });
    const staged = await fetch(`${host.origin}/stage/perm-test-1/files/notes/a.md`, {
      method: 'POST',
      headers: { origin: host.origin, cookie: host.sessionCookie },
      body: '# Notes',
    });
    expect(staged.status).toBe(200);
    await host.close();
    await engine.close();

    const entries = readdirSync(dataDir);
    for (const name of ['mentor-admin.sqlite', 'logs', 'imports', 'staging', 'sandbox'])
      expect(entries).toContain(name);
    expect(readdirSync(join(dataDir, 'sandbox'))).toContain('files');
    expect(looseEntries(dataDir)).toEqual([]);
  }, 120_000);

  it('is tightened when an older version left it readable by others', async () => {
    loosenAll(dataDir);
    expect(looseEntries(dataDir).length).toBeGreaterThan(5);
    engine = await openEngine();
    await until(
      'the local sandbox',
      async () => (await engine.invoke('profiles.list', {})).find((profile) => profile.isSandbox && profile.hasSecret),
      60_000,
    );
    await engine.close();
    // What this version opens is private again (folders, databases with their -wal and -shm, the log); what it only
    // keeps (old stagings and imports, the sandbox's stored documents) is inside a folder nobody else may enter.
    const kept = ['staging', 'imports', join('sandbox', 'files')].map((folder) => join(dataDir, folder));
    const loose = looseEntries(dataDir).filter((entry) => !kept.some((folder) => entry.startsWith(`${folder}/`)));
    expect(loose.sort()).toEqual(kept.map((folder) => `${folder} 755`).sort());
  }, 120_000);
});
