import { AsyncEntry } from '@napi-rs/keyring';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine';
import { Settings } from '../../src/shared/contract';
import { filesContaining, requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';

const SECRET = 'sk-test-7f3a9c0e1b2d4f6a8c0e2b4d6f8a0c2e';
const tenant = { name: 'Main campus', baseUrl: 'https://api.example.org/dm/', org: 'main', username: 'admin1' };

let engines: Engine[] = [];
afterEach(async () => {
  await Promise.all(engines.map((e) => e.close()));
  engines = [];
});

async function open(options: { dataDir?: string; service?: string; env?: NodeJS.ProcessEnv } = {}) {
  const dataDir = options.dataDir ?? tempDir();
  const service = options.service ?? uniqueService();
  const engine = await createEngine({ dataDir, shell: 'test', keychainService: service, env: options.env ?? {} });
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
    await engine.invoke('profiles.test', { id: profile.id }); // a real call attempt must not log the key either
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
