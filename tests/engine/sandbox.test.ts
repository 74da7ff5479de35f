import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine, shellPreset } from '../../src/main/engine';
import { filesContaining, requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const sandboxProfile = (engine: Engine) => async () =>
  (await engine.invoke('profiles.list', {})).find((p) => p.isSandbox && p.hasSecret);

describe('the engine starts the local sandbox', () => {
  beforeAll(requireKeychainSession);

  it('creates an active "Local sandbox" profile that works with no account, and keeps it across restarts', async () => {
    const dataDir = tempDir();
    const service = uniqueService();
    const open = () =>
      createEngine({
        ...shellPreset('browser'),
        dataDir,
        sandbox: 'auto',
        sandboxLaunch: { seed: 'none' },
        keychainService: service,
        env: {},
      });
    const first = await open();
    const profile = await waitFor(sandboxProfile(first));
    expect(profile).toMatchObject({
      name: 'Local sandbox',
      isActive: true,
      secretSource: 'sandbox',
      org: 'northbridge',
      username: 'admin',
    });
    expect(profile.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await first.invoke('profiles.test', { id: profile.id })).toMatchObject({ outcome: 'ok', ok: true });
    expect((await first.invoke('app.info', {})).sandbox).toMatchObject({ state: 'running', url: profile.baseUrl });
    expect(await first.call('profiles.remove', { id: profile.id })).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
    expect(await first.call('profiles.update', { id: profile.id, baseUrl: 'https://elsewhere.example' })).toMatchObject(
      {
        ok: false,
        error: { code: 'validation' },
      },
    );
    await first.close();

    const second = await open();
    const again = await waitFor(sandboxProfile(second));
    expect(again.id).toBe(profile.id);
    const all = await second.invoke('profiles.list', {});
    expect(all.filter((p) => p.isSandbox)).toHaveLength(1);
    await second.close();
  });

  it('a CLI engine starts it only when a call needs it', async () => {
    const dataDir = tempDir();
    const engine = await createEngine({
      ...shellPreset('cli'),
      dataDir,
      sandboxLaunch: { seed: 'none' },
      keychainService: uniqueService(),
      env: {},
    });
    expect((await engine.invoke('app.info', {})).sandbox.state).toBe('off');
    await engine.close();
    expect(filesContaining(dataDir, 'apiKey')).toEqual([]);
  });
});
