/**
 * The Credentials area's saved copy, through a real engine (real SQLite in a temp folder) against real sandboxes that
 * are then stopped: the last badge list and assertions read are kept per tenant and stand in, marked offline, when the
 * tenant cannot be reached, also after the engine restarts; a tenant never read says it could not read its badges, and
 * one tenant's copy never answers for another.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine';
import type { Sandbox } from '../../src/server/app';
import { connect, failure } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';

let demo: Sandbox;
let other: Sandbox;
beforeAll(async () => {
  requireKeychainSession();
  [demo, other] = await Promise.all([sandbox({ seed: 'demo' }), sandbox({ seed: 'demo' })]);
}, 120_000);

const namesOf = (badges: readonly { name: string }[]) => badges.map((b) => b.name).sort();

describe('badges offline', () => {
  it('shows the last badges and assertions read, marked offline, once the tenant stops; per tenant; across restarts', async () => {
    // Its own engine, reopened below on the same folder and keychain.
    const dataDir = tempDir('badges-offline-');
    const keychainService = uniqueService();
    const engine = await createEngine({ dataDir, shell: 'test', keychainService });
    await engine.invoke('profiles.add', {
      name: 'Sandbox',
      baseUrl: demo.url,
      org: demo.org,
      username: demo.user,
      secret: demo.apiKey,
      makeActive: true,
    });
    const c = { engine, dataDir };
    const second = await c.engine.invoke('profiles.add', {
      name: 'Other',
      baseUrl: other.url,
      org: other.org,
      username: other.user,
      secret: other.apiKey,
      makeActive: false,
    });
    // The other tenant's badges differ from the first's: one of its own is defined there.
    await c.engine.invoke('badges.define', { profileId: second.id, name: 'Only on the other tenant' });

    const fresh = await c.engine.invoke('badges.list', {});
    expect(fresh.freshness).toMatchObject({ source: 'api', offline: null });
    expect(fresh.badges.length).toBeGreaterThan(0);
    const held = fresh.badges.find((b) => (b.issued ?? 0) > 0)!;
    const assertions = await c.engine.invoke('badges.assertions', { badge: held.id });
    expect(assertions.assertions.length).toBeGreaterThan(0);
    const otherFresh = await c.engine.invoke('badges.list', { profileId: second.id });
    expect(namesOf(otherFresh.badges)).toContain('Only on the other tenant');
    expect(namesOf(fresh.badges)).not.toContain('Only on the other tenant');

    await demo.close();
    const offline = await c.engine.invoke('badges.list', {});
    expect(namesOf(offline.badges)).toEqual(namesOf(fresh.badges));
    expect(offline.freshness).toMatchObject({ source: 'cache', asOf: fresh.freshness.asOf });
    expect(offline.freshness.offline).toMatch(/showing what was saved earlier/);
    const offlineAssertions = await c.engine.invoke('badges.assertions', { badge: held.id });
    expect(offlineAssertions.assertions).toEqual(assertions.assertions);
    expect(offlineAssertions.freshness.offline).toMatch(/showing what was saved earlier/);
    // A badge whose assertions were never read has no saved copy: the read fails as before.
    const unread = fresh.badges.find((b) => b.id !== held.id)!;
    expect(await failure(c.engine, 'badges.assertions', { badge: unread.id })).toMatchObject({
      code: 'unreachable',
    });
    // The other tenant still answers, with its own badges, not the stopped one's copy.
    const otherStill = await c.engine.invoke('badges.list', { profileId: second.id });
    expect(otherStill.freshness.offline).toBeNull();
    expect(namesOf(otherStill.badges)).toEqual(namesOf(otherFresh.badges));

    // Kept in SQLite: an engine reopened on the same folder shows the copy too.
    await c.engine.close();
    const reopened = await createEngine({ dataDir, shell: 'test', keychainService });
    try {
      const [profile] = (await reopened.invoke('profiles.list', {})).filter((p) => p.name === 'Sandbox');
      const again = await reopened.invoke('badges.list', { profileId: profile!.id });
      expect(namesOf(again.badges)).toEqual(namesOf(fresh.badges));
      expect(again.freshness).toMatchObject({ source: 'cache', asOf: fresh.freshness.asOf });
    } finally {
      await reopened.close();
    }
  });

  it('says the badges could not be read when the tenant was never read before it stopped', async () => {
    const cold = await sandbox({ seed: 'demo' });
    const c = await connect(cold);
    await cold.close();
    expect(await failure(c.engine, 'badges.list', {})).toMatchObject({ code: 'unreachable' });
  });
});
