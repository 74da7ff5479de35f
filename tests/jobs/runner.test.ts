import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventName } from '../../src/shared/contract';
import { JobFailed, JobRunner, type JobKindRunner } from '../../src/main/engine/jobs/runner';
import { JobJournal } from '../../src/main/engine/jobs/journal';
import { ApiError, createPlatformClient, NetworkError } from '../../src/main/engine/platform';
import { openDatabase, type Db } from '../../src/main/engine/store/database';
import { call, sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { until } from '../helpers/engine';
import type { Sandbox } from '../../src/server/app';

/**
 * The runner's mechanics against the real sandbox: each item of this job kind is one real API call (creating a
 * platform API key named after the item), so idempotency, pause, 401 and outages are all real.
 */
function keyMakingKind(server: Sandbox, seen: string[]): JobKindRunner {
  return {
    kind: 'invite',
    async run(ctx) {
      const client = await ctx.client();
      for (const item of ctx.journal.itemsIn(ctx.job.id, ['pending'])) {
        await ctx.limiter.run(async () => {
          ctx.signal.throwIfAborted();
          ctx.journal.updateItem(item.id, { state: 'active', attempt: true });
          // Through the typed API, as a job of the engine calls the platform (it is given no untyped request).
          const user = { org: server.org, user_id: server.user };
          const { data } = await client.api
            .GET('/api/ai-mentor/orgs/{org}/users/{user_id}/{name}/', {
              params: { path: { ...user, name: item.key } },
              signal: ctx.signal,
            })
            // A mentor of that name not there yet: the platform's 404.
            .catch((error: unknown) => {
              if (error instanceof ApiError && error.status === 404) return { data: null };
              throw error;
            });
          if (!data) {
            await client.api.POST('/api/ai-mentor/orgs/{org}/users/{user_id}/', {
              params: { path: user },
              body: { name: item.key },
              signal: ctx.signal,
            });
            seen.push(item.key);
          }
          ctx.journal.updateItem(item.id, { state: 'done', phase: 'created' });
          ctx.progress('Creating keys');
        }, ctx.signal);
      }
      if ((ctx.params as { failAtEnd?: boolean }).failAtEnd) throw new JobFailed('Asked to fail');
    },
  };
}

let dbs: Db[] = [];
afterEach(() => {
  dbs.forEach((db) => db.close());
  dbs = [];
});

async function setup(options: { secret?: string; waitLimitMinutes?: () => number } = {}) {
  const server = await sandbox();
  const db = openDatabase(join(tempDir(), 'app.sqlite'));
  dbs.push(db);
  db.prepare(
    `INSERT INTO profiles (id, name, base_url, org, username, auth_scheme, is_active, created_at, updated_at)
     VALUES ('p1', 'Sandbox', ?, ?, ?, 'Api-Key', 1, 'now', 'now')`,
  ).run(server.url, server.org, server.user);
  const store = new JobJournal(db);
  const events: { name: EventName; payload: unknown }[] = [];
  let secret = options.secret ?? server.apiKey;
  const seen: string[] = [];
  const bulkRuns: string[] = [];
  const runner = new JobRunner({
    beforeBulkRun: () => bulkRuns.push('bulk'),
    journal: store,
    clients: async () =>
      createPlatformClient({
        baseUrl: server.url,
        authScheme: 'Api-Key',
        secret,
        retry: { maxAttempts: 2, baseDelayMs: 10 },
      }),
    emit: (name, payload) => events.push({ name, payload }),
    log: () => {},
    ...(options.waitLimitMinutes && { waitLimitMinutes: options.waitLimitMinutes }),
  });
  runner.register(keyMakingKind(server, seen));
  const create = (count: number, params: Record<string, unknown> = {}) =>
    store.create({
      kind: 'invite',
      profileId: 'p1',
      title: 'Keys',
      params,
      items: Array.from({ length: count }, (_, i) => ({ key: `job-key-${i}`, label: `Key ${i}` })),
    });
  return { server, db, store, runner, events, seen, bulkRuns, create, setSecret: (s: string) => (secret = s) };
}

describe('job runner', () => {
  it('moves checkpoints off the thread only for kinds that write in bulk', async () => {
    const { runner, store, create, bulkRuns, server } = await setup();
    const id = create(2);
    runner.start(id);
    await runner.settled(id);
    // The key-making kind commits rarely: no checkpoint worker is asked for.
    expect(bulkRuns).toEqual([]);
    runner.register({ ...keyMakingKind(server, []), kind: 'train', bulkWrites: true });
    const bulk = store.create({
      kind: 'train',
      profileId: 'p1',
      title: 'Bulk',
      params: {},
      items: [{ key: 'k', label: 'K' }],
    });
    runner.start(bulk);
    await runner.settled(bulk);
    expect(bulkRuns).toEqual(['bulk']);
  });

  it('lets many requests of one job listen to its cancel signal at once without a leak warning', async () => {
    const { runner, store, server } = await setup();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    runner.register({
      kind: 'train',
      async run(ctx) {
        const client = await ctx.client();
        const user = { org: server.org, user_id: server.user };
        // Sixteen in flight together, each listening to the job's signal until it answers.
        await Promise.all(
          Array.from({ length: 16 }, (_, i) =>
            client.api
              .GET('/api/ai-mentor/orgs/{org}/users/{user_id}/{name}/', {
                params: { path: { ...user, name: `absent-${i}` } },
                signal: ctx.signal,
              })
              .catch(() => undefined),
          ),
        );
      },
    });
    const id = store.create({ kind: 'train', profileId: 'p1', title: 'Many', params: {}, items: [] });
    runner.start(id);
    await runner.settled(id);
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    expect(runner.present(id)).toMatchObject({ state: 'completed' });
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('writes the job and its items before running, runs every item once and completes', async () => {
    const { runner, store, create, seen, events } = await setup();
    const id = create(12);
    expect(store.totals(id)).toMatchObject({ total: 12, done: 0 });
    runner.start(id);
    await runner.settled(id);
    expect(runner.present(id)).toMatchObject({ state: 'completed', progress: { total: 12, done: 12, failed: 0 } });
    expect(seen).toHaveLength(12);
    expect(
      events.some((e) => e.name === 'jobs.changed' && (e.payload as { state: string }).state === 'completed'),
    ).toBe(true);
  });

  it('resumes an interrupted job without repeating finished items (a new runner on the same journal)', async () => {
    const first = await setup();
    const id = first.create(20);
    first.server.setFaults('latency=20-20ms');
    first.runner.start(id);
    await new Promise((r) => setTimeout(r, 150));
    await first.runner.close();
    const done = first.store.totals(id).done;
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(20);
    expect(first.store.job(id)!.state).toBe('running');

    const second = new JobRunner({
      journal: first.store,
      clients: async () =>
        createPlatformClient({ baseUrl: first.server.url, authScheme: 'Api-Key', secret: first.server.apiKey }),
      emit: () => {},
      log: () => {},
    });
    second.register(keyMakingKind(first.server, first.seen));
    second.resumeAll();
    await second.settled(id);
    expect(second.present(id).state).toBe('completed');
    const mentors = await call(
      first.server,
      'GET',
      `/api/ai-mentor/orgs/${first.server.org}/users/${first.server.user}/?page_size=100`,
    );
    const names = (mentors.body as { results: { name: string }[] }).results
      .map((m) => m.name)
      .filter((n) => n.startsWith('job-key-'));
    expect(new Set(names).size).toBe(20);
    expect(names).toHaveLength(20);
  });

  it('pauses and resumes on request, and cancel keeps what was done', async () => {
    const { runner, store, create, server } = await setup();
    server.setFaults('latency=15-15ms');
    const id = create(30);
    runner.start(id);
    await new Promise((r) => setTimeout(r, 100));
    expect((await runner.pause(id)).state).toBe('paused');
    const atPause = store.totals(id).done;
    await new Promise((r) => setTimeout(r, 100));
    expect(store.totals(id).done).toBe(atPause);
    runner.resume(id);
    await new Promise((r) => setTimeout(r, 60));
    const cancelled = await runner.cancel(id);
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.progress.done).toBeGreaterThanOrEqual(atPause);
    expect(() => runner.resume(id)).toThrow(/cancelled/);
  });

  it("pauses with 'Authentication failed' on 401 and resumes when the credentials change", async () => {
    const { runner, create, setSecret, server } = await setup({ secret: 'revoked-key' });
    const id = create(3);
    runner.start(id);
    await runner.settled(id);
    expect(runner.present(id)).toMatchObject({ state: 'paused', reason: 'Authentication failed' });
    setSecret(server.apiKey);
    runner.credentialsChanged('p1');
    await runner.settled(id);
    expect(runner.present(id).state).toBe('completed');
  });

  /** A two-item job left waiting by a tenant that answered 5xx, the tenant answering again. */
  async function waitingJob() {
    const { runner, create, server } = await setup();
    server.setFaults('error5xx=1');
    const id = create(2);
    runner.start(id);
    await runner.settled(id);
    expect(runner.present(id)).toMatchObject({ state: 'waiting' });
    const reason = runner.present(id).reason;
    server.setFaults('');
    return { runner, id, reason };
  }

  it('waits while the tenant is unreachable and resumes by itself', async () => {
    const { runner, id, reason } = await waitingJob();
    expect(reason).toMatch(/unreachable.*retrying in 2 s/);
    await new Promise((r) => setTimeout(r, 2300));
    await runner.settled(id);
    expect(runner.present(id).state).toBe('completed');
  });

  it('waits, rather than failing, while the tenant keeps answering 429 after the client retried', async () => {
    const { runner, create, server } = await setup();
    server.setFaults('rate429=1,retryAfter=0');
    const id = create(2);
    runner.start(id);
    await runner.settled(id);
    expect(runner.present(id)).toMatchObject({ state: 'waiting' });
    server.setFaults('');
    expect(runner.wakeWaiting()).toBe(1);
    await runner.settled(id);
    expect(runner.present(id).state).toBe('completed');
  });

  it('tries a waiting job again at once when woken (after sleep or a network change)', async () => {
    const { runner, id } = await waitingJob();
    // Without waking, the next try is 2 s away; woken, it runs now.
    expect(runner.wakeWaiting()).toBe(1);
    await runner.settled(id);
    expect(runner.present(id).state).toBe('completed');
    expect(runner.wakeWaiting()).toBe(0);
  });

  it("woken for one tenant (it answered again), only that tenant's waiting jobs try again", async () => {
    const { runner, id } = await waitingJob();
    expect(runner.wakeWaiting('another-tenant')).toBe(0);
    expect(runner.present(id).state).toBe('waiting');
    expect(runner.wakeWaiting('p1')).toBe(1);
    await runner.settled(id);
    expect(runner.present(id).state).toBe('completed');
  });

  it('fails a job with the message the kind gives', async () => {
    const { runner, create } = await setup();
    const id = create(1, { failAtEnd: true });
    runner.start(id);
    await runner.settled(id);
    expect(runner.present(id)).toMatchObject({ state: 'failed', error: 'Asked to fail' });
  });

  it('waits no longer than its limit: it says when it gives up, then pauses saying why, and resumes later', async () => {
    // A limit of 3 s (the setting is in whole minutes; the mechanics are the same).
    let limitMinutes = 0.05;
    const { runner, create, server } = await setup({ waitLimitMinutes: () => limitMinutes });
    server.setFaults('error5xx=1');
    const id = create(2);
    const before = Date.now();
    runner.start(id);
    await runner.settled(id);
    const waiting = runner.present(id);
    expect(waiting).toMatchObject({ state: 'waiting', runner: { here: true } });
    expect(Date.parse(waiting.givesUpAt!) - before).toBeGreaterThanOrEqual(3000);
    expect(Date.parse(waiting.givesUpAt!) - Date.now()).toBeLessThanOrEqual(3000);
    expect(Date.parse(waiting.retryAt!)).toBeLessThanOrEqual(Date.parse(waiting.givesUpAt!));
    // The setting changes while it waits: the give-up time moves with it.
    limitMinutes = 0.1;
    runner.waitLimitChanged();
    expect(Date.parse(runner.present(id).givesUpAt!) - Date.parse(waiting.givesUpAt!)).toBe(3000);

    await until('the job to give up', () => runner.present(id).state === 'paused', 15_000);
    const paused = runner.present(id);
    expect(paused).toMatchObject({ givesUpAt: null, retryAt: null, runner: null });
    expect(paused.reason).toMatch(
      /^Gave up waiting for the tenant after 6 min|^Gave up waiting for the tenant after 0 min/,
    );
    expect(Date.now() - before).toBeGreaterThanOrEqual(6000);

    server.setFaults('');
    runner.resume(id);
    await runner.settled(id);
    expect(runner.present(id)).toMatchObject({ state: 'completed', runner: null, progress: { done: 2 } });
  }, 30_000);

  it('a job whose runner died (kill -9) is picked up again; one whose runner lives is left to it', async () => {
    const { runner, store, db, create } = await setup();
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const orphan = create(2);
    const held = create(2);
    const claim = (id: string, pid: number) =>
      db
        .prepare(
          `UPDATE jobs SET state = 'running', runner = 'other', runner_pid = ?, runner_host = ?, runner_seen_at = ? WHERE id = ?`,
        )
        .run(pid, hostname(), Date.now(), id);
    claim(orphan, dead);
    claim(held, process.pid);
    runner.resumeAll();
    expect(runner.isActive(held)).toBe(false);
    expect(runner.present(held).runner).toEqual({ pid: process.pid, host: hostname(), here: false });
    expect(() => runner.resume(held)).toThrow(/runs in another Mentor Admin process \(pid \d+\); it goes on there/);
    await runner.settled(orphan);
    expect(runner.present(orphan)).toMatchObject({ state: 'completed', runner: null });
    // A live runner that stops saying so (a frozen process) is taken over after a while.
    db.prepare('UPDATE jobs SET runner_seen_at = ? WHERE id = ?').run(Date.now() - 60_000, held);
    expect(store.job(held)!.runner).toBe('other');
    runner.resume(held);
    await runner.settled(held);
    expect(runner.present(held).state).toBe('completed');
  });

  it('a tenant that answers for a while between outages starts the waiting limit over', async () => {
    // Every run finishes one item, then the tenant drops: five short outages, each far shorter than the 3 s limit,
    // though together longer.
    const { runner, store } = await setup({ waitLimitMinutes: () => 0.05 });
    runner.register({
      kind: 'export',
      async run(ctx) {
        const [item] = ctx.journal.itemsIn(ctx.job.id, ['pending']);
        if (!item) return;
        ctx.journal.updateItem(item.id, { state: 'done' });
        throw new NetworkError('http://127.0.0.1:9/', 'ECONNRESET');
      },
    });
    const id = store.create({
      kind: 'export',
      profileId: 'p1',
      title: 'Blips',
      params: {},
      items: Array.from({ length: 5 }, (_, i) => ({ key: `k${i}`, label: `K${i}` })),
    });
    runner.start(id);
    await until('the job to end', () => !['running', 'waiting'].includes(runner.present(id).state), 25_000);
    expect(runner.present(id)).toMatchObject({ state: 'completed', progress: { done: 5 } });
  }, 30_000);
});
