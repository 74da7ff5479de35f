import { AsyncEntry } from '@napi-rs/keyring';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine';
import { createPlatformClient, InsecureAddressError } from '../../src/main/engine/platform';
import { BaseUrl, baseUrlProblem, isLoopbackHost, Settings } from '../../src/shared/contract';
import { sandbox } from '../helpers/sandbox';
import { filesContaining, requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';

const SECRET = 'sk-test-7f3a9c0e1b2d4f6a8c0e2b4d6f8a0c2e';
const tenant = { name: 'Main campus', baseUrl: 'https://api.example.org/dm/', org: 'main', username: 'admin1' };

let engines: Engine[] = [];
afterEach(async () => {
  await Promise.all(engines.map((e) => e.close()));
  engines = [];
});

async function open(options: { dataDir?: string; service?: string; env?: NodeJS.ProcessEnv; apiKeyFor?: string } = {}) {
  const dataDir = options.dataDir ?? tempDir();
  const service = options.service ?? uniqueService();
  const engine = await createEngine({
    dataDir,
    shell: 'test',
    keychainService: service,
    env: options.env ?? {},
    ...(options.apiKeyFor ? { apiKeyFor: options.apiKeyFor } : {}),
  });
  engines.push(engine);
  return { engine, dataDir, service };
}

describe('profiles with the real OS keychain', () => {
  beforeAll(requireKeychainSession);

  it('stores the key in the keychain and in no file under the data dir', async () => {
    const { engine, dataDir, service } = await open();
    const profile = await engine.invoke('profiles.add', { ...tenant, secret: SECRET });
    expect(profile).toMatchObject({
      name: 'Main campus',
      baseUrl: 'https://api.example.org/dm',
      authScheme: 'Api-Key',
      hasSecret: true,
      secretSource: 'keychain',
      isActive: true,
    });
    expect(JSON.stringify(profile)).not.toContain(SECRET);
    expect(await new AsyncEntry(service, profile.id).getPassword()).toBe(SECRET);
    // A real call attempt (to a closed loopback port) must not log the key either.
    await engine.invoke('profiles.update', { id: profile.id, baseUrl: 'http://127.0.0.1:9/dm', secret: SECRET });
    await engine.invoke('profiles.test', { id: profile.id });
    await engine.close();
    expect(filesContaining(dataDir, SECRET)).toEqual([]);
  });

  it('replaces, keeps and removes the key on update, and removes it with the profile', async () => {
    const { engine, service } = await open();
    const { id } = await engine.invoke('profiles.add', { ...tenant, secret: SECRET });
    await engine.invoke('profiles.update', { id, secret: 'new-key-123' });
    expect(await new AsyncEntry(service, id).getPassword()).toBe('new-key-123');
    await engine.invoke('profiles.update', { id, name: 'Renamed' });
    expect(await new AsyncEntry(service, id).getPassword()).toBe('new-key-123');
    const cleared = await engine.invoke('profiles.update', { id, secret: null });
    expect(cleared.hasSecret).toBe(false);
    expect(await new AsyncEntry(service, id).getPassword()).toBeNull();
    await engine.invoke('profiles.update', { id, secret: SECRET });
    await engine.invoke('profiles.remove', { id });
    expect(await new AsyncEntry(service, id).getPassword()).toBeNull();
    expect(await engine.invoke('profiles.list', {})).toEqual([]);
  });

  it('lets MENTOR_ADMIN_API_KEY override the stored key without persisting it', async () => {
    const { engine, dataDir, service } = await open({ env: { MENTOR_ADMIN_API_KEY: 'from-env-key-999' } });
    const profile = await engine.invoke('profiles.add', tenant);
    expect(profile).toMatchObject({ hasSecret: true, secretSource: 'env' });
    expect(await new AsyncEntry(service, profile.id).getPassword()).toBeNull();
    await engine.close();
    expect(filesContaining(dataDir, 'from-env-key-999')).toEqual([]);
  });

  it('keeps exactly one active profile across add, setActive and remove', async () => {
    const { engine } = await open();
    const a = await engine.invoke('profiles.add', { ...tenant, name: 'A' });
    const b = await engine.invoke('profiles.add', { ...tenant, name: 'B' });
    expect([a.isActive, b.isActive]).toEqual([true, false]);
    await engine.invoke('profiles.setActive', { id: b.id });
    let list = await engine.invoke('profiles.list', {});
    expect(list.filter((p) => p.isActive).map((p) => p.name)).toEqual(['B']);
    await engine.invoke('profiles.remove', { id: b.id });
    list = await engine.invoke('profiles.list', {});
    expect(list.map((p) => [p.name, p.isActive])).toEqual([['A', true]]);
  });

  it('persists profiles and settings across restarts', async () => {
    const dataDir = tempDir();
    const service = uniqueService();
    const first = await open({ dataDir, service });
    await first.engine.invoke('profiles.add', { ...tenant, secret: SECRET });
    await first.engine.invoke('settings.set', { theme: 'dark', notifyNewTickets: true });
    await first.engine.close();
    const second = await open({ dataDir, service });
    const [profile] = await second.engine.invoke('profiles.list', {});
    expect(profile).toMatchObject({ name: 'Main campus', hasSecret: true });
    expect(await second.engine.invoke('settings.get', {})).toEqual({
      theme: 'dark',
      notifyNewTickets: true,
      notifyJobEnds: true,
      navigation: 'auto',
      formatLocale: 'system',
      jobWaitLimitMinutes: 60,
    });
  });

  it('keeps every setting a patch leaves out, and reads one saved before a setting existed', async () => {
    const { engine } = await open();
    await engine.invoke('settings.set', { navigation: 'rail', formatLocale: 'de-DE' });
    await engine.invoke('settings.set', { theme: 'dark' });
    expect(await engine.invoke('settings.get', {})).toMatchObject({
      theme: 'dark',
      navigation: 'rail',
      formatLocale: 'de-DE',
    });
    // A settings.changed event from an engine older than these settings.
    expect(Settings.parse({ theme: 'light', notifyNewTickets: false, notifyJobEnds: true })).toMatchObject({
      navigation: 'auto',
      formatLocale: 'system',
    });
  });

  it('emits events for changes', async () => {
    const { engine } = await open();
    const seen: string[] = [];
    engine.onEvent((name, payload) => seen.push(`${name}:${(payload as { reason?: string }).reason ?? ''}`));
    const { id } = await engine.invoke('profiles.add', tenant);
    await engine.invoke('profiles.update', { id, org: 'other' });
    await engine.invoke('settings.set', { theme: 'light' });
    await engine.invoke('profiles.remove', { id });
    expect(seen).toEqual([
      'profiles.changed:added',
      'profiles.changed:updated',
      'settings.changed:',
      'profiles.changed:removed',
    ]);
  });
});

describe('malformed calls answer a typed validation error and change nothing', () => {
  beforeAll(requireKeychainSession);

  const bad: [string, unknown, RegExp][] = [
    [
      'profiles.add',
      { ...tenant, baseUrl: 'ftp://files.example.org' },
      /baseUrl: Base URL must be an http\(s\) address/,
    ],
    ['profiles.add', { ...tenant, baseUrl: 'not a url' }, /baseUrl/],
    ['profiles.add', { ...tenant, org: 'a/b' }, /org: Org \(tenant key\) must not contain/],
    ['profiles.add', { ...tenant, name: '   ' }, /name: Name is required/],
    ['profiles.add', { ...tenant, authScheme: 'Basic' }, /authScheme/],
    ['profiles.add', { ...tenant, secret: 'has spaces in it' }, /secret: The key must be printable ASCII/],
    ['profiles.add', { ...tenant, extra: true }, /Unrecognized key/],
    ['profiles.add', 'not an object', /Invalid input/],
    ['profiles.get', {}, /id/],
    ['settings.set', { theme: 'purple' }, /theme/],
    ['settings.set', { navigation: 'sideways' }, /navigation/],
    ['settings.set', { formatLocale: 'not a locale!' }, /formatLocale: Not a locale this computer knows/],
    ['no.such.call', {}, /Unknown call 'no.such.call'/],
  ];
  it.each(bad)('%s %j', async (name, input, message) => {
    const { engine } = await open();
    const result = await engine.call(name, input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('validation');
    expect(result.error.message).toMatch(message);
    expect(await engine.invoke('profiles.list', {})).toEqual([]);
    expect(await engine.invoke('settings.get', {})).toEqual({
      theme: 'system',
      notifyNewTickets: false,
      notifyJobEnds: true,
      navigation: 'auto',
      formatLocale: 'system',
      jobWaitLimitMinutes: 60,
    });
  });

  it('refuses a duplicate name (any case) with a conflict and keeps the first', async () => {
    const { engine } = await open();
    await engine.invoke('profiles.add', { ...tenant, secret: SECRET });
    const result = await engine.call('profiles.add', { ...tenant, name: 'MAIN CAMPUS', secret: 'other-key' });
    expect(result).toMatchObject({ ok: false, error: { code: 'conflict' } });
    const list = await engine.invoke('profiles.list', {});
    expect(list).toHaveLength(1);
  });

  it('answers not_found for an unknown profile id', async () => {
    const { engine } = await open();
    expect(await engine.call('profiles.remove', { id: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});

describe('where a key may go', () => {
  beforeAll(requireKeychainSession);

  it('keeps a stored key from following the base URL to another server: the same call must bring a key or drop it', async () => {
    const { engine, service } = await open();
    const { id } = await engine.invoke('profiles.add', { ...tenant, secret: SECRET });
    const moved = await engine.call('profiles.update', { id, baseUrl: 'https://elsewhere.example.org/dm' });
    expect(moved).toMatchObject({ ok: false, error: { code: 'validation', issues: [{ path: 'secret' }] } });
    if (!moved.ok)
      expect(moved.error.message).toMatch(/another server \(https:\/\/elsewhere\.example\.org\).*never sent elsewhere/);
    // Nothing changed: the address and the key are as they were.
    expect(await engine.invoke('profiles.get', { id })).toMatchObject({ baseUrl: 'https://api.example.org/dm' });
    expect(await new AsyncEntry(service, id).getPassword()).toBe(SECRET);

    // Another path on the same server keeps the key; a move that names a new key, or drops the key, is made.
    await engine.invoke('profiles.update', { id, baseUrl: 'https://api.example.org/v2' });
    expect(await new AsyncEntry(service, id).getPassword()).toBe(SECRET);
    await engine.invoke('profiles.update', {
      id,
      baseUrl: 'https://elsewhere.example.org',
      secret: 'key-for-elsewhere',
    });
    expect(await new AsyncEntry(service, id).getPassword()).toBe('key-for-elsewhere');
    const dropped = await engine.invoke('profiles.update', { id, baseUrl: 'https://third.example.org', secret: null });
    expect(dropped).toMatchObject({ baseUrl: 'https://third.example.org', hasSecret: false, secretSource: 'none' });
    expect(await new AsyncEntry(service, id).getPassword()).toBeNull();
    // With no key stored there is nothing to protect.
    await engine.invoke('profiles.update', { id, baseUrl: 'https://fourth.example.org' });
  });

  it('keeps a key for this session only in memory: sent to the tenant, never in the keychain or a file, gone at restart', async () => {
    const server = await sandbox({ seed: 'none' });
    const dataDir = tempDir();
    const service = uniqueService();
    const first = await open({ dataDir, service });
    const profile = await first.engine.invoke('profiles.add', {
      name: 'Session tenant',
      baseUrl: server.url,
      org: server.org,
      username: server.user,
      secret: server.apiKey,
      keyStorage: 'session',
    });
    expect(profile).toMatchObject({ hasSecret: true, secretSource: 'session' });
    expect(await new AsyncEntry(service, profile.id).getPassword()).toBeNull();
    expect(await first.engine.invoke('profiles.test', { id: profile.id })).toMatchObject({ outcome: 'ok' });
    expect((await first.engine.invoke('mentors.list', {})).mentors).toEqual([]);
    // Moving the address drops it like a stored key.
    expect(await first.engine.call('profiles.update', { id: profile.id, baseUrl: 'http://127.0.0.1:9' })).toMatchObject(
      {
        ok: false,
        error: { issues: [{ path: 'secret' }] },
      },
    );
    await first.engine.close();
    expect(filesContaining(dataDir, server.apiKey)).toEqual([]);
    const second = await open({ dataDir, service });
    expect(await second.engine.invoke('profiles.get', { id: profile.id })).toMatchObject({
      hasSecret: false,
      secretSource: 'none',
    });
  });

  it('tests a connection as typed before it is saved: with the typed key, with the stored one on the same server, without a key', async () => {
    const server = await sandbox({ seed: 'none' });
    const { engine } = await open();
    const typed = { baseUrl: server.url, org: server.org, username: server.user };
    expect(await engine.invoke('profiles.try', { ...typed, secret: server.apiKey })).toMatchObject({
      outcome: 'ok',
      ok: true,
    });
    expect(await engine.invoke('profiles.try', { ...typed, secret: 'wrong-key' })).toMatchObject({
      outcome: 'auth_failed',
    });
    const keyless = await engine.invoke('profiles.try', typed);
    expect(keyless).toMatchObject({ outcome: 'no_secret', status: 401 });
    expect(keyless.message).toMatch(/answers at this address/);
    expect(await engine.invoke('profiles.try', { ...typed, org: 'no-such-org', secret: server.apiKey })).toMatchObject({
      ok: false,
    });
    // Nothing was saved.
    expect(await engine.invoke('profiles.list', {})).toEqual([]);

    const saved = await engine.invoke('profiles.add', { name: 'Saved', ...typed, secret: server.apiKey });
    expect(await engine.invoke('profiles.try', { id: saved.id, ...typed })).toMatchObject({ outcome: 'ok' });
    // Edited to another server: the stored key is not sent there.
    const other = await sandbox({ seed: 'none' });
    const elsewhere = await engine.invoke('profiles.try', { id: saved.id, ...typed, baseUrl: other.url });
    expect(elsewhere).toMatchObject({ outcome: 'no_secret' });
  });

  it('gives MENTOR_ADMIN_API_KEY to one tenant only: the active one at start (or the first made active), or the one named', async () => {
    const server = await sandbox({ seed: 'none' });
    const env = { MENTOR_ADMIN_API_KEY: server.apiKey };
    const at = { baseUrl: server.url, org: server.org, username: server.user };
    const dataDir = tempDir();
    const service = uniqueService();
    const first = await open({ dataDir, service, env });
    expect((await first.engine.invoke('app.info', {})).envKey).toEqual({ profileId: null });
    const a = await first.engine.invoke('profiles.add', { name: 'A', ...at });
    const b = await first.engine.invoke('profiles.add', { name: 'B', ...at });
    const sources = async (engine: Engine) =>
      Object.fromEntries((await engine.invoke('profiles.list', {})).map((p) => [p.name, p.secretSource]));
    expect(await sources(first.engine)).toEqual({ A: 'env', B: 'none' });
    expect((await first.engine.invoke('app.info', {})).envKey).toEqual({ profileId: a.id });
    // B never gets it, even once active: the key is not sent there.
    await first.engine.invoke('profiles.setActive', { id: b.id });
    expect(await sources(first.engine)).toEqual({ A: 'env', B: 'none' });
    expect(await first.engine.invoke('profiles.test', { id: b.id })).toMatchObject({ outcome: 'no_secret' });
    expect(await first.engine.invoke('profiles.test', { id: a.id })).toMatchObject({ outcome: 'ok' });
    await first.engine.close();

    // Started again with B active, B is the one; or the one named (the CLI's --profile), whichever is active.
    const second = await open({ dataDir, service, env });
    expect(await sources(second.engine)).toEqual({ A: 'none', B: 'env' });
    await second.engine.close();
    const third = await open({ dataDir, service, env, apiKeyFor: 'a' });
    expect(await sources(third.engine)).toEqual({ A: 'env', B: 'none' });
  });
});

describe('what the platform allows is allowed', () => {
  beforeAll(requireKeychainSession);

  it("takes an org or username with a space, '?' or '#' (the spec sets no pattern) and sends it URL-encoded; '/' never", async () => {
    const { engine } = await open();
    const odd = await engine.invoke('profiles.add', {
      ...tenant,
      baseUrl: 'http://127.0.0.1:9',
      org: 'Main Campus?#1',
      username: 'ann lee',
    });
    expect(odd).toMatchObject({ org: 'Main Campus?#1', username: 'ann lee' });
    const tested = await engine.invoke('profiles.test', { id: odd.id });
    expect(tested.url).toBe(
      'http://127.0.0.1:9/api/ai-mentor/orgs/Main%20Campus%3F%231/users/ann%20lee/?page=1&page_size=1',
    );
    expect(await engine.call('profiles.update', { id: odd.id, username: 'ann/lee' })).toMatchObject({
      ok: false,
      error: {
        issues: [{ path: 'username', message: "Username must not contain '/': it travels inside the API's paths" }],
      },
    });
  });
});

describe('plain http is for this computer only (a key would travel in clear)', () => {
  it('knows which hosts are this computer', () => {
    for (const host of ['localhost', 'app.localhost', '127.0.0.1', '127.12.0.9', '::1', '[::1]', '::ffff:127.0.0.1']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of [
      'example.org',
      '10.0.0.1',
      '192.168.1.2',
      '128.0.0.1',
      '127.0.0.1.example.org',
      'localhost.example.org',
      '::2',
      '',
    ]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });

  it('accepts https anywhere and http only for loopback addresses, saying why', () => {
    for (const url of [
      'https://api.example.org/dm',
      'http://127.0.0.1:9',
      'http://localhost:3000/dm',
      'http://[::1]:8080',
    ]) {
      expect(baseUrlProblem(url), url).toBeNull();
      expect(BaseUrl.safeParse(url).success, url).toBe(true);
    }
    for (const url of ['http://api.example.org', 'http://10.0.0.5:8000/dm', 'http://127.0.0.1.nip.io']) {
      expect(baseUrlProblem(url), url).toMatch(/Use https:\/\/ .*only for this computer/);
      expect(BaseUrl.safeParse(url).success, url).toBe(false);
    }
  });

  it('never builds a client that would send a key in clear to another computer (nothing is sent)', () => {
    expect(() =>
      createPlatformClient({ baseUrl: 'http://api.example.org', authScheme: 'Api-Key', secret: 'k' }),
    ).toThrow(InsecureAddressError);
    expect(() =>
      createPlatformClient({ baseUrl: 'http://127.0.0.1:9', authScheme: 'Api-Key', secret: 'k' }),
    ).not.toThrow();
    expect(() =>
      createPlatformClient({ baseUrl: 'http://api.example.org', authScheme: 'Api-Key', secret: null }),
    ).not.toThrow();
  });
});
