/**
 * A mentor copied as a journalled `mentor-copy` job (issue 16), two real sandboxes as two tenants: the mentor, its
 * settings and call configuration, and with documents each trained document the platform gives a URL for (trained on
 * the target from it); a document the platform gives no way to read is listed in the preview and the report, never
 * silently dropped. A CLI process killed with SIGKILL while it creates the mentor, and again mid-documents, resumes
 * the same job and creates neither the mentor nor any document twice.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { AiIndexService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine';
import type { Sandbox } from '../../src/server/app';
import { NO_FILE_READ } from '../../src/main/engine/mentor-copy';
import { cli } from '../helpers/cli';
import { waitForJob } from '../helpers/engine';
import { call, sandbox } from '../helpers/sandbox';
import { requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';
import { startServer } from '../platform/test-server';
import { connect, documentsPath, recordingProxy, until } from './setup';

const mentorsPath = (server: Sandbox) => `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;

let source: Sandbox;
let target: Sandbox;
beforeAll(async () => {
  requireKeychainSession();
  [source, target] = await Promise.all([sandbox(), sandbox()]);
});

interface Doc {
  id: number;
  document_name: string;
  url: string | null;
  training_status: string;
  custom_metadata: Record<string, unknown>;
}

async function documentsOf(server: Sandbox, pathway: string): Promise<Doc[]> {
  const list = await call(server, 'GET', `${documentsPath(server)}pathways/${pathway}/?limit=1000`);
  if (list.status === 404) return [];
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  return (list.body as { results: Doc[] }).results;
}

async function mentorsNamed(server: Sandbox, name: string) {
  const list = await call(server, 'GET', `${mentorsPath(server)}?page_size=1000`);
  return (list.body as { results: { name: string; unique_id: string }[] }).results.filter((m) => m.name === name);
}

/** A mentor on the source with `urls` URL documents (data: URLs the sandbox fetches) and one uploaded file, trained. */
async function sourceMentor(name: string, urls: number) {
  const made = await call(source, 'POST', mentorsPath(source), { json: { name, description: `${name} mentor` } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const pathway = (made.body as { unique_id: string }).unique_id;
  await call(source, 'PUT', `${mentorsPath(source)}mentors/${pathway}/settings/`, {
    json: { display_name: `${name} display`, theme: 'dark' },
  });
  for (let i = 0; i < urls; i++) {
    const form = new FormData();
    form.set('pathway', pathway);
    form.set('type', 'url');
    form.set('access', i % 2 ? 'public' : 'private');
    form.set('url', `data:text/plain,${encodeURIComponent(`Lesson ${i} of ${name}: fractions and ratios.`)}`);
    const sent = await call(source, 'POST', `${documentsPath(source)}train/`, { form });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  }
  const form = new FormData();
  form.set('pathway', pathway);
  form.set('type', 'file');
  form.set('file', new Blob(['A file only the source has.']), 'notes.txt');
  expect((await call(source, 'POST', `${documentsPath(source)}train/`, { form })).status).toBe(200);
  await until(
    'the source documents trained',
    async () => (await documentsOf(source, pathway)).filter((d) => d.training_status === 'trained').length === urls + 1,
    30_000,
  );
  return pathway;
}

async function twoTenants() {
  const c = await connect(source);
  const second = await c.engine.invoke('profiles.add', {
    name: 'Second',
    baseUrl: target.url,
    org: target.org,
    username: target.user,
    secret: target.apiKey,
  });
  return { ...c, secondId: second.id };
}

async function itemsOf(engine: Engine, id: string) {
  const { items } = await engine.invoke('jobs.items', { id, limit: 1000, offset: 0 });
  return new Map(items.map((item) => [item.key, item]));
}

describe('mentors.copy as a job', () => {
  it('copies the mentor, its settings and its URL documents; the file the API cannot read is listed, not dropped', async () => {
    const c = await twoTenants();
    const pathway = await sourceMentor('Fractions', 3);
    const sourceDocs = await documentsOf(source, pathway);
    const file = sourceDocs.find((d) => d.document_name === 'notes.txt')!;

    const dry = await c.engine.invoke('mentors.copy', {
      mentor: pathway,
      toProfileId: c.secondId,
      withDocuments: true,
      dryRun: true,
    });
    expect(dry.job).toBeNull();
    expect(dry.documents!.copied).toHaveLength(3);
    expect(dry.documents!.notCopied).toEqual([{ id: String(file.id), name: 'notes.txt', reason: NO_FILE_READ }]);
    expect(await mentorsNamed(target, 'Fractions')).toEqual([]);

    const started = await c.engine.invoke('mentors.copy', {
      mentor: pathway,
      toProfileId: c.secondId,
      withDocuments: true,
    });
    expect(started.job).toMatchObject({ kind: 'mentor-copy', profileId: c.secondId });
    const job = await waitForJob(c.engine, started.job!.id);
    expect(job.state, job.error ?? '').toBe('completed');
    expect(job.progress).toMatchObject({ total: 6, done: 5, skipped: 1, failed: 0 });
    const items = await itemsOf(c.engine, job.id);
    expect(items.get('mentor')).toMatchObject({ state: 'done', phase: 'created' });
    expect(items.get('settings')).toMatchObject({ state: 'done', phase: 'saved' });
    expect(items.get(`document:${file.id}`)).toMatchObject({ state: 'skipped', error: NO_FILE_READ });

    const [copy] = await mentorsNamed(target, 'Fractions');
    expect(copy).toBeDefined();
    const settings = (await call(target, 'GET', `${mentorsPath(target)}mentors/${copy!.unique_id}/settings/`))
      .body as Record<string, unknown>;
    expect(settings).toMatchObject({ display_name: 'Fractions display', theme: 'dark' });
    const copied = await documentsOf(target, copy!.unique_id);
    const urlDocs = sourceDocs.filter((d) => d.url);
    expect(copied.map((d) => d.url).sort()).toEqual(urlDocs.map((d) => d.url).sort());
    expect(copied.map((d) => d.custom_metadata.copied_from).sort()).toEqual(urlDocs.map((d) => String(d.id)).sort());
    // The vendor's SDK reads the copies back from the target's platform.
    OpenAPI.BASE = target.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${target.apiKey}` };
    // The SDK's typings drop `userId` (a comment swallows it); its code sends it.
    const read = await AiIndexService.aiIndexOrgsUsersDocumentsPathwaysList({
      org: target.org,
      userId: target.user,
      pathway: copy!.unique_id,
    } as { org: string; pathway: string });
    expect(read.results.map((d) => d.url).sort()).toEqual(urlDocs.map((d) => d.url).sort());
    // The target trains them from their URLs.
    await until(
      'the copies trained',
      async () =>
        (await documentsOf(target, copy!.unique_id)).filter((d) => d.training_status === 'trained').length === 3,
      30_000,
    );

    // The report names the file that was not copied, and why.
    const report = await c.engine.invoke('jobs.exportReport', { id: job.id, path: `${tempDir()}/report.csv` });
    expect(report.rows).toBe(6);
    const csv = readFileSync(report.path, 'utf8');
    expect(csv).toContain(`document:${file.id},notes.txt,not copied,,"${NO_FILE_READ}"`);
    expect(csv).toMatch(/^mentor,Create mentor 'Fractions',created,[0-9a-f-]{36},,1/m);
  });

  it('between two tenants of one sandbox: the copies are the other tenant’s, the source keeps only its own', async () => {
    const c = await connect(source);
    const other = source.otherOrg;
    const riverside = await c.engine.invoke('profiles.add', {
      name: 'Riverside',
      baseUrl: source.url,
      org: other.org,
      username: other.user,
      secret: other.apiKey,
    });
    const pathway = await sourceMentor('Shared Lessons', 2);
    const before = await documentsOf(source, pathway);
    const started = await c.engine.invoke('mentors.copy', {
      mentor: pathway,
      toProfileId: riverside.id,
      withDocuments: true,
    });
    expect((await waitForJob(c.engine, started.job!.id)).state).toBe('completed');
    const asOther = (path: string) => call(source, 'GET', path, { key: other.apiKey });
    const mentors = (await asOther(`/api/ai-mentor/orgs/${other.org}/users/${other.user}/?page_size=1000`)).body as {
      results: { name: string; unique_id: string }[];
    };
    const copy = mentors.results.find((m) => m.name === 'Shared Lessons')!;
    const copies = (
      (await asOther(`/api/ai-index/orgs/${other.org}/users/${other.user}/documents/pathways/${copy.unique_id}/`))
        .body as { results: { url: string; platform_key: string }[] }
    ).results;
    expect(copies.map((d) => d.platform_key)).toEqual([other.org, other.org]);
    expect(copies.map((d) => d.url).sort()).toEqual(before.flatMap((d) => (d.url ? [d.url] : [])).sort());
    // The source tenant cannot see the copy, and its own mentor has what it had.
    expect((await mentorsNamed(source, 'Shared Lessons')).map((m) => m.unique_id)).toEqual([pathway]);
    expect(await documentsOf(source, pathway)).toHaveLength(before.length);
  });

  it('the same copy asked for again while it runs is the same job', async () => {
    const c = await connect(source);
    // The target behind a proxy that holds the documents' answers: the copy is still running when asked again.
    const proxy = await recordingProxy(target);
    let release!: () => void;
    proxy.hold = { match: /\/documents\/train\/$/, until: new Promise<void>((resolve) => (release = resolve)) };
    const second = await c.engine.invoke('profiles.add', {
      name: 'Held',
      baseUrl: proxy.url,
      org: target.org,
      username: target.user,
      secret: target.apiKey,
    });
    const pathway = await sourceMentor('Twice', 1);
    const input = { mentor: pathway, toProfileId: second.id, withDocuments: true };
    const first = await c.engine.invoke('mentors.copy', input);
    await until('the upload sent', () => proxy.requests.some((r) => r.url.endsWith('/documents/train/')));
    const again = await c.engine.invoke('mentors.copy', input);
    expect(again.resumed).toBe(true);
    expect(again.job!.id).toBe(first.job!.id);
    release();
    const job = await waitForJob(c.engine, first.job!.id);
    expect(job.state).toBe('completed');
    expect(await mentorsNamed(target, 'Twice')).toHaveLength(1);
    expect(proxy.requests.filter((r) => r.url.endsWith('/documents/train/'))).toHaveLength(1);
    await proxy.close();
  });
  it('a target that does not answer pauses the copy, saying so; resumed, it goes on without a second mentor', async () => {
    const c = await connect(source);
    const proxy = await recordingProxy(target);
    const second = await c.engine.invoke('profiles.add', {
      name: 'Busy',
      baseUrl: proxy.url,
      org: target.org,
      username: target.user,
      secret: target.apiKey,
    });
    const pathway = await sourceMentor('Busy Day', 1);
    proxy.failWith = { status: 503, match: /^POST \/api\/ai-mentor\/orgs\/[^/]+\/users\/[^/]+\/$/ };
    const started = await c.engine.invoke('mentors.copy', { mentor: pathway, toProfileId: second.id });
    const paused = await waitForJob(c.engine, started.job!.id, ['paused', 'completed', 'failed']);
    expect(paused.state).toBe('paused');
    expect(paused.reason).toBe(
      'The tenant did not answer (Service Unavailable (Proxy failure)): resume the copy once it does',
    );
    proxy.failWith = null;
    await c.engine.invoke('jobs.resume', { id: paused.id });
    const job = await waitForJob(c.engine, paused.id);
    expect(job.state).toBe('completed');
    expect(await mentorsNamed(target, 'Busy Day')).toHaveLength(1);
    await proxy.close();
  });
});

describe('mentor-admin mentors copy --with-documents', () => {
  it('killed with SIGKILL creating the mentor, then mid-documents: resumed, nothing is created twice', async () => {
    const count = 12;
    const pathway = await sourceMentor('Resumable', count);
    let mentorPosts = 0;
    let trainPosts = 0;
    let kill: (() => void) | null = null;
    // A loopback proxy in front of the target: counts what is created there, and kills the CLI as a request arrives
    // (the request itself still lands: the CLI never hears the answer).
    const proxy = await startServer(async (req, res, { body }) => {
      if (req.method === 'POST' && req.url === mentorsPath(target) && ++mentorPosts === 1) kill?.();
      if (req.method === 'POST' && req.url?.endsWith('/documents/train/') && ++trainPosts === 5) kill?.();
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const answer = await fetch(target.url + req.url, {
        method: req.method ?? 'GET',
        headers,
        ...(body.length ? { body: new Uint8Array(body) } : {}),
      });
      res
        .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
        .end(Buffer.from(await answer.arrayBuffer()));
    });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      MENTOR_ADMIN_HOME: tempDir(),
      MENTOR_ADMIN_KEYCHAIN_SERVICE: uniqueService(),
      MENTOR_ADMIN_SANDBOX: 'off',
    };
    delete env.MENTOR_ADMIN_API_KEY;
    for (const [name, server, url] of [
      ['Campus', source, source.url],
      ['Other', target, proxy.url],
    ] as const) {
      const at = ['--url', url, '--org', server.org, '--user', server.user, '--key-stdin'];
      const added = await cli(['profile', 'add', name, ...at, ...(name === 'Campus' ? ['--activate'] : [])], {
        env,
        stdin: server.apiKey,
      });
      expect(added.code, added.stderr).toBe(0);
    }
    const run = () =>
      new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
        const args = ['bin/mentor-admin.mjs', 'mentors', 'copy', pathway, '--to-profile', 'Other', '--with-documents'];
        const child = spawn(process.execPath, args, { env });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        kill = () => child.kill('SIGKILL');
        child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
      });

    const first = await run();
    expect(first.signal, first.stderr).toBe('SIGKILL');
    expect(first.stdout).toContain(`documents: ${count} copied, 1 not copied`);
    expect(first.stdout).toContain(`not copied: notes.txt — ${NO_FILE_READ}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await mentorsNamed(target, 'Resumable')).toHaveLength(1);

    const second = await run();
    expect(second.signal, second.stderr).toBe('SIGKILL');
    expect(second.stdout).toMatch(/Resumed job/);
    await new Promise((resolve) => setTimeout(resolve, 300));

    kill = null;
    const third = await run();
    expect(third.code, third.stderr).toBe(0);
    expect(third.stdout).toMatch(/Resumed job/);
    expect(third.stdout).toMatch(new RegExp(`completed: ${count + 2} of ${count + 3} done, 1 not copied, 0 failed`));

    const [copy, ...more] = await mentorsNamed(target, 'Resumable');
    expect(more).toEqual([]);
    expect(mentorPosts).toBe(1);
    // Each document sent once: the one the kill interrupted was found on the target and adopted.
    expect(trainPosts).toBe(count);
    const copied = await documentsOf(target, copy!.unique_id);
    expect(copied).toHaveLength(count);
    expect(new Set(copied.map((d) => d.custom_metadata.copied_from)).size).toBe(count);
    await proxy.close();
  });
});
