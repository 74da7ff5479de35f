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

  describe('back in reach: what waited on a timer for the tenant goes at once', () => {
    async function outOfReach() {
      const server = await sandbox();
      const proxy = await switchableProxy(server);
      const { engine, profileId } = await connect(server, { baseUrl: proxy.url });
      const { record } = await engine.invoke('resources.create', {
        profileId,
        kind: 'lti-keys',
        values: { name: 'Away' },
      });
      proxy.down();
      const ticketState = async () => (await engine.invoke('tickets.status', { profileId })).state;
      return { proxy, engine, profileId, record, ticketState };
    }

    it('the ticket index stopped for want of an answer catches up as soon as any call finds the tenant back', async () => {
      const { proxy, engine, profileId, ticketState } = await outOfReach();
      expect((await engine.invoke('tickets.sync', { profileId, wait: true })).state).toBe('offline');
      proxy.up();
      // Nothing asks for the tickets again: the tenant answering another call is what sets the index going.
      expect((await engine.invoke('tenants.probe', { profileId })).state).toBe('reachable');
      await until('the ticket index caught up', async () => (await ticketState()) === 'idle', 10_000);
      expect((await engine.invoke('tickets.status', { profileId })).asOf).not.toBeNull();
    });

    it('the watched queue is polled then, not at its backed-off next poll', async () => {
      const { proxy, engine, profileId, ticketState } = await outOfReach();
      await engine.invoke('tickets.watch', { profileId, visible: true });
      await until('the poll to fail', async () => (await ticketState()) === 'offline', 10_000);
      const nextPoll = Date.now() + (await engine.invoke('tickets.status', { profileId })).pollMs;
      expect(nextPoll - Date.now()).toBeGreaterThan(5_000);
      proxy.up();
      await engine.invoke('tenants.probe', { profileId });
      await until('the ticket index caught up', async () => (await ticketState()) === 'idle', 10_000);
      expect(Date.now()).toBeLessThan(nextPoll);
      await engine.invoke('tickets.watch', { profileId, visible: false });
    });

    it("the tenant's jobs waiting for it try again then, not at their backed-off next try", async () => {
      const { proxy, engine, profileId, record } = await outOfReach();
      const started = await engine.invoke('resources.bulk', {
        profileId,
        kind: 'lti-keys',
        action: 'delete',
        ids: [String(record.id)],
      });
      // Left waiting a second time: its next try is seconds away.
      const waiting = await until(
        'a longer wait',
        async () => {
          const job = await engine.invoke('jobs.get', { id: started.id });
          return job.state === 'waiting' && !!job.retryAt && Date.parse(job.retryAt) - Date.now() > 2_500 && job;
        },
        30_000,
      );
      const nextTry = Date.parse(waiting.retryAt!);
      proxy.up();
      await engine.invoke('tenants.probe', { profileId });
      const done = await until(
        'the job to finish',
        async () => {
          const job = await engine.invoke('jobs.get', { id: started.id });
          return job.state === 'completed' && job;
        },
        10_000,
      );
      expect(Date.now()).toBeLessThan(nextTry);
      expect(done.counts).toMatchObject({ deleted: 1 });
    });
  });
});
