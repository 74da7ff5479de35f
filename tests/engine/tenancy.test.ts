/**
 * Which calls belong to one tenant, and the renderer's tenant bridge over a real engine with two sandbox tenants:
 * it names its tenant in every call that takes one (whatever the engine's active tenant is) and hears only that
 * tenant's events.
 */
import { describe, expect, it } from 'vitest';
import type { BridgeEvent } from '../../src/renderer/bridge/types';
import { tenantBridge } from '../../src/renderer/tenants/tenantBridge';
import { TENANT_CALLS, withTenant } from '../../src/shared/tenancy';
import { inProcessBridge } from '../helpers/bridge';
import { connect } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';

describe('tenant calls', () => {
  it('are the calls whose input takes profileId, unions included; app-wide calls are not', () => {
    for (const name of ['tickets.list', 'tickets.status', 'mentors.list', 'analytics.overview', 'jobs.list'] as const) {
      expect(TENANT_CALLS.has(name), name).toBe(true);
    }
    expect(TENANT_CALLS.has('invitations.importOpen')).toBe(true);
    expect(TENANT_CALLS.has('analytics.exports')).toBe(true);
    for (const name of ['settings.get', 'profiles.list', 'app.info', 'jobs.get', 'tickets.cannedReplies'] as const) {
      expect(TENANT_CALLS.has(name as never), name).toBe(false);
    }
  });

  it('get the tenant when they name none, keep the one they name, and other calls are left as they are', () => {
    expect(withTenant('tickets.status', undefined, 'b')).toEqual({ profileId: 'b' });
    expect(withTenant('tickets.get', { id: 3 }, 'b')).toEqual({ id: 3, profileId: 'b' });
    expect(withTenant('tickets.get', { id: 3, profileId: 'a' }, 'b')).toEqual({ id: 3, profileId: 'a' });
    expect(withTenant('settings.get', {}, 'b')).toEqual({});
    expect(withTenant('jobs.get', { id: 'j' }, 'b')).toEqual({ id: 'j' });
    expect(withTenant('tickets.get', { id: 3 }, null)).toEqual({ id: 3 });
  });
});

describe('a tenant with nothing cached', () => {
  it('says so by name when it cannot be reached, instead of offering a cached queue; one with a cache keeps it', async () => {
    const server = await sandbox({ seed: 'demo' });
    const { engine, profileId } = await connect(server);
    const closed = await engine.invoke('profiles.add', {
      name: 'Charlie Offline',
      baseUrl: 'http://127.0.0.1:9',
      org: 'charlie',
      username: 'admin',
      secret: 'charlie-key',
    });
    const never = await engine.invoke('tickets.sync', { profileId: closed.id, wait: true });
    expect(never.state).toBe('offline');
    expect(never.message).toMatch(/^Nothing is cached for Charlie Offline yet: the tenant is unreachable \(/);
    expect(never.asOf).toBeNull();
    expect((await engine.invoke('tickets.list', { profileId: closed.id, view: 'all' })).total).toBe(0);

    // A tenant that was synced once and then cannot be reached still shows what it had.
    await engine.invoke('tickets.sync', { profileId, wait: true });
    server.setFaults('error5xx=1');
    const later = await engine.invoke('tickets.sync', { profileId, wait: true });
    expect(later.state).toBe('offline');
    expect(later.message).toMatch(/unreachable.*showing the cached queue/);
    server.setFaults('');
  });
});

describe('the tenant bridge', () => {
  it("answers for its own tenant while another is active, and hears only its tenant's events", async () => {
    const alphaServer = await sandbox({ seed: 'demo' });
    const bravoServer = await sandbox({ seed: 'none' });
    const { engine, profileId: alpha } = await connect(alphaServer);
    const bravo = (
      await engine.invoke('profiles.add', {
        name: 'Bravo',
        baseUrl: bravoServer.url,
        org: bravoServer.org,
        username: bravoServer.user,
        secret: bravoServer.apiKey,
      })
    ).id;
    expect((await engine.invoke('profiles.list', {})).find((p) => p.isActive)?.id).toBe(alpha);

    const forBravo = tenantBridge(inProcessBridge(engine), bravo);
    const forAlpha = tenantBridge(inProcessBridge(engine), alpha);
    const heard = { alpha: [] as BridgeEvent[], bravo: [] as BridgeEvent[] };
    forAlpha.onEvent((event) => heard.alpha.push(event));
    forBravo.onEvent((event) => heard.bravo.push(event));

    // Alpha (active) has mentors; Bravo has none: the bridge of Bravo answers Bravo's list.
    expect((await forAlpha.call('mentors.list', {})).mentors.length).toBeGreaterThan(0);
    expect((await forBravo.call('mentors.list', {})).mentors).toEqual([]);

    await forAlpha.call('tickets.sync', { wait: true });
    await forBravo.call('tickets.sync', { wait: true });
    const about = (events: BridgeEvent[]) =>
      new Set(events.flatMap((e) => ('profileId' in e.payload ? [e.payload.profileId] : [])));
    expect(heard.alpha.some((e) => e.name === 'tickets.sync')).toBe(true);
    expect(heard.bravo.some((e) => e.name === 'tickets.sync')).toBe(true);
    expect(about(heard.alpha)).toEqual(new Set([alpha]));
    expect(about(heard.bravo)).toEqual(new Set([bravo]));
    // App-wide events reach every tenant's bridge.
    await engine.invoke('settings.set', { theme: 'dark' });
    expect(heard.alpha.some((e) => e.name === 'settings.changed')).toBe(true);
    expect(heard.bravo.some((e) => e.name === 'settings.changed')).toBe(true);
    // Each tenant's sync state is its own: Bravo's says nothing of Alpha's tickets.
    expect((await forBravo.call('tickets.views', {})).views.find((v) => v.id === 'all')?.count).toBe(0);
    expect((await forAlpha.call('tickets.views', {})).views.find((v) => v.id === 'all')?.count).toBeGreaterThan(0);
  });
});
