/**
 * Each tenant's reachability, learnt from the engine's own platform calls, on real sandboxes: one running, one
 * stopped (a real closed loopback port), one behind a proxy that stops answering. A tenant out of reach says so
 * without touching another tenant's state; any answer, a 401 included, means the tenant is there.
 */
import { describe, expect, it } from 'vitest';
import type { TenantReach } from '../../src/shared/contract';
import { connect, until } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { switchableProxy } from '../helpers/switchable-proxy';

describe("a tenant's reachability", () => {
  it('a stopped tenant is unreachable, a running one reachable, and the one never marks the other', async () => {
    const running = await sandbox();
    const stopped = await sandbox();
    const stoppedUrl = stopped.url;
    await stopped.close();
    const { engine, profileId: up, events } = await connect(running);
    const down = (
      await engine.invoke('profiles.add', {
        name: 'Stopped',
        baseUrl: stoppedUrl,
        org: running.org,
        username: running.user,
        secret: running.apiKey,
      })
    ).id;

    // Nothing learnt yet: unknown, and a check starts whose outcome comes as an event.
    expect((await engine.invoke('tenants.reach', { profileId: down })).state).toBe('unknown');
    const changed = await until('the stopped tenant is found out of reach', () =>
      events.find((e) => e.name === 'tenants.reachChanged' && (e.payload as TenantReach).profileId === down),
    );
    expect(changed.payload).toMatchObject({ profileId: down, state: 'unreachable', previous: 'unknown' });
    expect((changed.payload as TenantReach).reason).toBeTruthy();

    const now = await engine.invoke('tenants.probe', { profileId: down });
    expect(now.state).toBe('unreachable');
    expect(now.checkedAt).not.toBeNull();

    // The running tenant's calls answer and it is reachable; the stopped one stays as it was.
    await engine.invoke('mentors.list', { profileId: up });
    expect((await engine.invoke('tenants.reach', { profileId: up })).state).toBe('reachable');
    expect((await engine.invoke('tenants.reach', { profileId: down })).state).toBe('unreachable');
    expect(
      events.filter((e) => e.name === 'tenants.reachChanged' && (e.payload as TenantReach).profileId === up),
    ).toEqual([
      {
        name: 'tenants.reachChanged',
        payload: expect.objectContaining({ profileId: up, state: 'reachable', previous: 'unknown' }),
      },
    ]);
  });

  it('any answer means the tenant is there: a key it refuses (401) still marks it reachable', async () => {
    const server = await sandbox();
    const { engine, profileId } = await connect(server, { secret: 'not-the-key' });
    const reach = await engine.invoke('tenants.probe', { profileId });
    expect(reach).toMatchObject({ state: 'reachable', reason: null });
  });

  it('a tenant that stops answering mid-session turns unreachable at its next call, and reachable when it is back', async () => {
    const server = await sandbox();
    const proxy = await switchableProxy(server);
    const { engine, profileId, events } = await connect(server, { baseUrl: proxy.url });
    await engine.invoke('mentors.list', { profileId });
    expect((await engine.invoke('tenants.reach', { profileId })).state).toBe('reachable');

    proxy.down();
    // The list is served from the saved copy; the failed refresh behind it is what tells.
    await engine.call('mentors.list', { profileId, refresh: true });
    const lost = await until('the tenant is found out of reach', () =>
      events.find((e) => e.name === 'tenants.reachChanged' && (e.payload as TenantReach).state === 'unreachable'),
    );
    expect(lost.payload).toMatchObject({ profileId, previous: 'reachable' });

    proxy.up();
    expect((await engine.invoke('tenants.probe', { profileId })).state).toBe('reachable');
    const back = events.filter((e) => e.name === 'tenants.reachChanged').at(-1);
    expect(back?.payload).toMatchObject({ profileId, state: 'reachable', previous: 'unreachable' });
  });
});
