/**
 * Declared invalidation: each contract event names the calls whose cached answers it changes, narrowed by its
 * payload, and one renderer hook applies them. The declarations are checked against the contract; then TanStack
 * Query's own cache, fed by a real engine with two real sandbox tenants, shows that the engine's events reach the
 * answers they name — and never another tenant's.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryClient, type QueryKey } from '@tanstack/query-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Engine } from '../../src/main/engine';
import { applyEvent, watchOutsideAnswers } from '../../src/renderer/queries/declaredInvalidation';
import { callKey } from '../../src/renderer/queries/keys';
import { calls, eventSpecs, type CallName, type EventName } from '../../src/shared/contract';
import { isTenantCall } from '../../src/shared/tenancy';
import type { Sandbox } from '../../src/server/app';
import { inProcessBridge } from '../helpers/bridge';
import { connect, until, waitForJob } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { createMentor } from '../train/setup';

/** The fields an input or payload schema can hold (any variant of a union), through optional and pipe wrappers. */
function shapeOf(schema: z.ZodType): Record<string, z.ZodType> {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault || schema instanceof z.ZodNullable) {
    return shapeOf(schema.unwrap() as z.ZodType);
  }
  if (schema instanceof z.ZodPipe) return shapeOf(schema.in as z.ZodType);
  if (schema instanceof z.ZodUnion) {
    return Object.assign({}, ...schema.options.map((option) => shapeOf(option as z.ZodType)));
  }
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, z.ZodType>;
  return {};
}

type Rule = { call?: string; tenant?: string; by?: readonly string[]; when?: Record<string, readonly unknown[]> };

const declared = (Object.keys(eventSpecs) as EventName[]).flatMap((name) => {
  const spec = eventSpecs[name] as { invalidates: readonly Rule[]; updates: readonly Rule[] };
  return [...spec.invalidates, ...spec.updates].map((rule) => ({ event: name, rule }));
});

describe('the events’ declarations', () => {
  it('name calls of the contract, narrow by fields both the payload and the call hold, when values the payload can take', () => {
    expect(declared.length).toBeGreaterThan(20);
    for (const { event, rule } of declared) {
      const payload = shapeOf(eventSpecs[event].payload);
      const where = `${event} → ${rule.call ?? `tenant ${rule.tenant}`}`;
      if (rule.tenant !== undefined) expect(Object.keys(payload), where).toContain(rule.tenant);
      else expect(Object.keys(calls), where).toContain(rule.call);
      const input = rule.call ? shapeOf(calls[rule.call as CallName].input) : {};
      for (const field of rule.by ?? []) {
        expect(Object.keys(payload), `${where}: the payload has ${field}`).toContain(field);
        expect(Object.keys(input), `${where}: the call's input takes ${field}`).toContain(field);
      }
      for (const [field, values] of Object.entries(rule.when ?? {})) {
        expect(Object.keys(payload), `${where}: when ${field}`).toContain(field);
        for (const value of values)
          expect(payload[field]!.safeParse(value).success, `${where}: ${field}=${value}`).toBe(true);
      }
    }
  });

  it('keep an event about one tenant to that tenant: each of its tenant calls is narrowed by profileId', () => {
    const loose = declared.filter(
      ({ event, rule }) =>
        'profileId' in shapeOf(eventSpecs[event].payload) &&
        rule.call !== undefined &&
        isTenantCall(rule.call as CallName) &&
        !rule.by?.includes('profileId'),
    );
    expect(loose.map(({ event, rule }) => `${event} → ${rule.call}`)).toEqual([]);
  });
});

describe('the one hook, over a real engine and two tenants', () => {
  let alphaServer: Sandbox;
  let bravoServer: Sandbox;
  let engine: Engine;
  let alpha: string;
  let bravo: string;
  let alphaMentor: string;
  let bravoMentor: string;
  let queryClient: QueryClient;

  beforeAll(async () => {
    alphaServer = await sandbox({ seed: 'demo' });
    bravoServer = await sandbox({ seed: 'demo', seedValue: 7 });
    alphaMentor = await createMentor(alphaServer, 'Alpha calculus');
    bravoMentor = await createMentor(bravoServer, 'Bravo calculus');
    const connected = await connect(alphaServer, { keep: true });
    engine = connected.engine;
    alpha = connected.profileId;
    bravo = (
      await engine.invoke('profiles.add', {
        name: 'Bravo',
        baseUrl: bravoServer.url,
        org: bravoServer.org,
        username: bravoServer.user,
        secret: bravoServer.apiKey,
      })
    ).id;
    queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, gcTime: Infinity } } });
    const bridge = inProcessBridge(engine);
    bridge.onEvent((event) => applyEvent(queryClient, event));
  });

  afterAll(async () => {
    queryClient?.clear();
    await engine?.close();
  });

  /** Asks the engine as a screen would, under the key `useCall` gives the answer. */
  async function cache(key: QueryKey): Promise<void> {
    const [name, input] = key as [CallName, never];
    await queryClient.fetchQuery({ queryKey: key, queryFn: () => engine.invoke(name, input) });
  }
  const stale = (key: QueryKey) => queryClient.getQueryState(key)?.isInvalidated ?? null;

  it('marks stale the training tenant’s jobs and its mentor’s documents when a job ends, and none of the other tenant’s', async () => {
    const keys = {
      alphaJobs: callKey('jobs.list', { profileId: alpha }),
      bravoJobs: callKey('jobs.list', { profileId: bravo }),
      alphaDocuments: callKey('documents.list', { profileId: alpha, mentor: alphaMentor }),
      bravoDocuments: callKey('documents.list', { profileId: bravo, mentor: bravoMentor }),
      alphaTraining: callKey('train.jobs', { profileId: alpha, mentor: alphaMentor }),
      bravoTraining: callKey('train.jobs', { profileId: bravo, mentor: bravoMentor }),
    };
    for (const key of Object.values(keys)) await cache(key);
    expect(Object.values(keys).map(stale)).toEqual(Object.values(keys).map(() => false));

    const folder = tempDir('declared-');
    writeFileSync(join(folder, 'limits.md'), '# Limits\n\nA limit is where a function heads.\n');
    const preview = await engine.invoke('train.preview', { profileId: alpha, mentor: alphaMentor, paths: [folder] });
    const { jobId } = await engine.invoke('train.start', { previewId: preview.id });
    const job = callKey('jobs.get', { id: jobId });
    await cache(job);
    const asked = queryClient.getQueryState(job)!.dataUpdatedAt;
    expect((await waitForJob(engine, jobId)).state).toBe('completed');

    await until('the job’s end to reach the cache', () => stale(keys.alphaJobs));
    expect(stale(keys.alphaDocuments)).toBe(true);
    expect(stale(keys.alphaTraining)).toBe(true);
    expect(stale(keys.bravoJobs)).toBe(false);
    expect(stale(keys.bravoDocuments)).toBe(false);
    expect(stale(keys.bravoTraining)).toBe(false);
    // Progress patched the cached job in place: its end is there without asking again, and the answer kept its age.
    const patched = queryClient.getQueryState<{ state: string; progress: { done: number } }>(job)!;
    expect(patched.data).toMatchObject({ state: 'completed', progress: { done: 1 } });
    expect(patched.dataUpdatedAt).toBe(asked);
  });

  it('tells a tenant’s ticket queue, cached or kept outside the cache, when a ticket changes; not the other tenant’s', async () => {
    let lastHeard = Date.now();
    const off = engine.onEvent((name) => void (name.startsWith('tickets.') && (lastHeard = Date.now())));
    await engine.invoke('tickets.sync', { profileId: alpha, wait: true });
    await engine.invoke('tickets.sync', { profileId: bravo, wait: true });
    // A sync goes on caching threads after it answers: start once both tenants are quiet.
    await until('the syncs to settle', () => Date.now() - lastHeard > 1_500);
    off();
    const list = (profileId: string) =>
      callKey('tickets.list', { profileId, view: 'open', sort: 'newest', search: '' });
    const keys = {
      alphaList: list(alpha),
      bravoList: list(bravo),
      alphaViews: callKey('tickets.views', { profileId: alpha }),
      bravoViews: callKey('tickets.views', { profileId: bravo }),
      cannedReplies: callKey('tickets.cannedReplies', {}),
    };
    for (const key of Object.values(keys)) await cache(key);
    const told = { alpha: 0, bravo: 0 };
    const stopAlpha = watchOutsideAnswers(queryClient, list(alpha), () => told.alpha++);
    const stopBravo = watchOutsideAnswers(queryClient, list(bravo), () => told.bravo++);

    const open = await engine.invoke('tickets.list', { profileId: alpha, view: 'open', limit: 1 });
    const ticket = open.rows[0]!.id;
    await engine.invoke('tickets.setStatus', { profileId: alpha, ids: [ticket], status: 'closed' });
    await until('the change to reach the cache', () => stale(keys.alphaList));
    expect(stale(keys.alphaViews)).toBe(true);
    expect(told.alpha).toBeGreaterThan(0);
    expect(stale(keys.bravoList)).toBe(false);
    expect(stale(keys.bravoViews)).toBe(false);
    expect(told.bravo).toBe(0);
    // The canned replies do not change with a ticket.
    expect(stale(keys.cannedReplies)).toBe(false);
    stopAlpha();
    stopBravo();
  });

  it('brings settings and a tenant’s sync state up to date in place, from the event alone', async () => {
    const settings = callKey('settings.get', {});
    const status = callKey('tickets.status', { profileId: bravo });
    const otherStatus = callKey('tickets.status', { profileId: alpha });
    await cache(settings);
    await cache(status);
    await cache(otherStatus);
    const before = queryClient.getQueryData(otherStatus);

    await engine.invoke('settings.set', { theme: 'dark' });
    expect(queryClient.getQueryData(settings)).toMatchObject({ theme: 'dark' });
    const sync = engine.invoke('tickets.sync', { profileId: bravo, wait: true });
    await until('the sync state to reach the cache', () =>
      (queryClient.getQueryData(status) as { state: string }).state === 'syncing' ? true : undefined,
    );
    await sync;
    await until('the sync to end in the cache', () =>
      (queryClient.getQueryData(status) as { state: string }).state !== 'syncing' ? true : undefined,
    );
    expect(queryClient.getQueryData(otherStatus)).toBe(before);
  });

  it('marks stale a tenant’s lists and records of the kind a resource write changed, not another kind’s or tenant’s', async () => {
    const record = (profileId: string, kind: 'api-tokens' | 'domains', id: string) =>
      callKey('resources.get', { profileId, kind, id });
    const keys = {
      alphaTokens: callKey('resources.list', { profileId: alpha, kind: 'api-tokens' }),
      alphaDomains: callKey('resources.list', { profileId: alpha, kind: 'domains' }),
      bravoTokens: callKey('resources.list', { profileId: bravo, kind: 'api-tokens' }),
    };
    for (const key of Object.values(keys)) await cache(key);
    // Records as a drawer caches them (api-tokens has no single GET; the answer's shape is all the cache needs).
    const records = {
      alphaToken: record(alpha, 'api-tokens', 'declared-sync'),
      alphaDomain: record(alpha, 'domains', 'declared.example'),
      bravoToken: record(bravo, 'api-tokens', 'declared-sync'),
    };
    for (const key of Object.values(records)) queryClient.setQueryData(key, { record: {} });

    await engine.invoke('resources.create', {
      profileId: alpha,
      kind: 'api-tokens',
      values: { name: 'declared-sync' },
    });
    expect(stale(keys.alphaTokens)).toBe(true);
    expect(stale(records.alphaToken)).toBe(true);
    expect(stale(keys.alphaDomains)).toBe(false);
    expect(stale(records.alphaDomain)).toBe(false);
    expect(stale(keys.bravoTokens)).toBe(false);
    expect(stale(records.bravoToken)).toBe(false);
  });

  it('forgets every answer of a removed tenant, and only those', async () => {
    const keys = [callKey('mentors.list', { profileId: bravo }), callKey('mentors.list', { profileId: alpha })];
    for (const key of keys) await cache(key);
    await engine.invoke('profiles.remove', { id: bravo });
    expect(
      queryClient
        .getQueryCache()
        .findAll()
        .filter((query) => JSON.stringify(query.queryKey).includes(bravo)),
    ).toEqual([]);
    expect(queryClient.getQueryData(keys[1]!)).toBeDefined();
  });
});
