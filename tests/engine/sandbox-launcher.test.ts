/**
 * How the engine starts the local sandbox: as a plain Node child (CLI, browser mode) or as a worker thread (the
 * Electron app, whose binary is never run as plain Node), and with only an allowlisted part of the environment.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { launchSandbox, sandboxEnvironment } from '../../src/main/engine/sandbox/launcher';
import { tempDir } from '../helpers/temp';

const CANARY = 'canary-secret-7f3a';

describe('sandboxEnvironment', () => {
  it('keeps what a program needs to run and drops everything else', () => {
    const env = sandboxEnvironment(
      {
        PATH: '/usr/bin',
        HOME: '/home/admin',
        TMPDIR: '/tmp/x',
        TZ: 'Europe/Paris',
        LANG: 'fr_FR.UTF-8',
        SystemRoot: 'C:\\Windows',
        MENTOR_ADMIN_API_KEY: CANARY,
        MENTOR_ADMIN_HOME: '/data',
        NODE_OPTIONS: '--require /tmp/evil.js',
        ELECTRON_RUN_AS_NODE: '1',
        AWS_SECRET_ACCESS_KEY: CANARY,
        SANDBOX_FAULTS: 'error5xx=1',
        GITHUB_TOKEN: CANARY,
      },
      { SANDBOX_NATIVE_BINDING: '/app/native/electron/better_sqlite3.node' },
    );
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/admin',
      TMPDIR: '/tmp/x',
      TZ: 'Europe/Paris',
      LANG: 'fr_FR.UTF-8',
      SystemRoot: 'C:\\Windows',
      SANDBOX_NATIVE_BINDING: '/app/native/electron/better_sqlite3.node',
    });
  });
});

describe('launchSandbox', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  });

  it('gives a child process none of the parent environment but the allowlist', async () => {
    process.env.MENTOR_ADMIN_API_KEY = CANARY;
    process.env.SOME_TOKEN = CANARY;
    // A stand-in for the server that reports the environment it got, then says it is ready.
    const script = join(tempDir(), 'report-env.mjs');
    writeFileSync(
      script,
      `process.stderr.write(JSON.stringify(process.env) + '\\n');
       process.stdout.write(JSON.stringify({ url: 'http://127.0.0.1:1', org: 'o', user: 'u', apiKey: 'k',
         studentUser: 's', studentKey: 'k' }) + '\\n');
       setTimeout(() => {}, 60_000);
       process.once('SIGTERM', () => process.exit(0));`,
    );
    const lines: string[] = [];
    const running = await launchSandbox({
      dataDir: tempDir(),
      parentEnv: process.env,
      runner: { kind: 'process', file: process.execPath, args: [script] },
      env: { SANDBOX_NATIVE_BINDING: '/x.node' },
      log: (line) => lines.push(line),
    });
    await running.stop();
    const reported = lines.find((line) => line.startsWith('sandbox: {'));
    expect(reported).toBeDefined();
    const env = JSON.parse(reported!.slice('sandbox: '.length)) as Record<string, string>;
    expect(JSON.stringify(env)).not.toContain(CANARY);
    expect(env.SANDBOX_NATIVE_BINDING).toBe('/x.node');
    expect(env.PATH).toBe(process.env.PATH);
  });

  it('runs the real server in a worker thread of this process, and stops it cleanly', async () => {
    const dataDir = tempDir();
    const running = await launchSandbox({ dataDir, parentEnv: process.env, seed: 'none', runner: { kind: 'worker' } });
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await fetch(`${running.url}/_sandbox/health`);
      expect(health.status).toBe(200);
      const users = await fetch(`${running.url}/api/core/platform/users/`, {
        headers: { authorization: `Api-Key ${running.apiKey}` },
      });
      expect(users.status).toBe(200);
    } finally {
      const started = Date.now();
      await running.stop();
      // Asked to stop, it closes its database and ends: no 10-second wait for a forced end.
      expect(await running.exited).toBe(0);
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  });

  it('reports a worker that cannot start (a bad seed) instead of waiting', async () => {
    const started = launchSandbox({
      dataDir: tempDir(),
      parentEnv: process.env,
      seed: 'bogus' as 'none',
      runner: { kind: 'worker' },
      startTimeoutMs: 30_000,
    });
    await expect(started).rejects.toThrow(
      /exited \(2\) before it was ready: sandbox: --seed must be demo, large or none/,
    );
  });
});
