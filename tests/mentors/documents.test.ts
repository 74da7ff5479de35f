/** A mentor's documents: the cached list, train/untrain, access, retraining, delete, search, and bad input. */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine';
import type { MentorDocument } from '../../src/shared/contract';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { requireKeychainSession } from '../helpers/temp';
import {
  connect,
  documentsPath,
  failure,
  recordingProxy,
  serverDocument,
  serverDocuments,
  serverMentors,
  until,
} from './setup';
import { parseMultipart } from '../platform/test-server';

let server: Sandbox;
let uniqueIds: Map<string, string>;
beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox({ seed: 'demo' });
  uniqueIds = new Map((await serverMentors(server)).map((m) => [m.name, m.uniqueId]));
});

const idOf = (name: string) => uniqueIds.get(name)!;

/** Refreshes until the document has left `pending`. */
async function settled(engine: Engine, mentor: string, id: string): Promise<MentorDocument> {
  return until(`document ${id} to finish training`, async () => {
    const { documents } = await engine.invoke('documents.list', { mentor, refresh: true });
    const document = documents.find((d) => d.id === id);
    return document && document.status !== 'pending' ? document : null;
  });
}

describe('documents.list', () => {
  it("lists a mentor's documents from the API, then from the cache, filtered by status and name", async () => {
    const c = await connect(server);
    const mentor = idOf('Calculus Coach');
    const truth = await serverDocuments(server, mentor);
    const first = await c.engine.invoke('documents.list', { mentor: 'Calculus Coach' });
    expect(first.freshness).toMatchObject({ source: 'api', offline: null });
    expect(first.documents.map((d) => d.id)).toEqual(truth.map((d) => String(d.id)));
    const sample = first.documents.find((d) => d.status === 'trained')!;
    expect(sample).toMatchObject({ access: expect.stringMatching(/public|private/), retrainIntervalDays: null });
    expect(sample.tokens).toBeGreaterThan(0);
    expect(sample.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(sample.size).toBeGreaterThan(0);
    expect(sample.lastTrainedAt).toMatch(/^\d{4}-/);
    expect(sample.type).toMatch(/^(md|txt|html|pdf|csv)$/);
    const failed = first.documents.filter((d) => d.status === 'failed');
    for (const document of failed) expect(document.failureReason).toBeTruthy();

    server.setFaults('error5xx=1');
    try {
      const cached = await c.engine.invoke('documents.list', { mentor: mentor });
      expect(cached.freshness).toEqual({ source: 'cache', asOf: first.freshness.asOf, offline: null });
      expect(cached.documents).toEqual(first.documents);
      const trained = await c.engine.invoke('documents.list', { mentor, status: 'trained' });
      expect(trained.documents.length).toBe(truth.filter((d) => d.training_status === 'trained').length);
      expect(trained.documents.every((d) => d.status === 'trained')).toBe(true);
      const byName = await c.engine.invoke('documents.list', { mentor, search: 'GLOSSARY' });
      expect(byName.documents.map((d) => d.name)).toEqual(
        truth.filter((d) => /glossary/i.test(d.document_name)).map((d) => d.document_name),
      );
      const offline = await c.engine.invoke('documents.list', { mentor, refresh: true });
      expect(offline.documents).toEqual(first.documents);
      expect(offline.freshness.offline).toMatch(/not answering/);
    } finally {
      server.setFaults('');
    }
  });

  it('refreshes within seconds while something is training, and announces it with documents.changed', async () => {
    const c = await connect(server);
    const mentor = idOf('Statistics Buddy');
    const { documents } = await c.engine.invoke('documents.list', { mentor });
    const target = documents.find((d) => d.status === 'trained')!;
    const db = new Database(join(c.dataDir, 'mentor-admin.sqlite'));
    const checkedAgo = (ms: number) =>
      db
        .prepare('UPDATE cached_lists SET checked_at = ? WHERE list = ?')
        .run(new Date(Date.now() - ms).toISOString(), `documents:${mentor}`);
    const changedEvents = () => c.events.filter((e) => e.name === 'documents.changed');

    // Nothing pending and checked 5 s ago: fresh enough, no refresh.
    checkedAgo(5_000);
    await c.engine.invoke('documents.list', { mentor });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(changedEvents()).toEqual([]);

    // The cache says one is still training: 5 s is stale now, a refresh follows and announces itself.
    db.prepare(`UPDATE cached_documents SET data = json_set(data, '$.status', 'pending') WHERE id = ?`).run(target.id);
    checkedAgo(5_000);
    db.close();
    const answer = await c.engine.invoke('documents.list', { mentor });
    expect(answer.documents.find((d) => d.id === target.id)?.status).toBe('pending');
    await until('documents.changed', async () => changedEvents().length > 0);
    expect(changedEvents()[0]!.payload).toEqual({ profileId: c.profileId, mentor });
    const after = await c.engine.invoke('documents.list', { mentor });
    expect(after.documents.find((d) => d.id === target.id)?.status).toBe('trained');
  });
});

describe('one reading of a document', () => {
  it("takes the content hash this app stamped on its upload before the platform's own, as training does", async () => {
    const c = await connect(server);
    const mentor = idOf('Career Advisor');
    // What the app sent was hashed on this computer; the platform hashes what it stored (here: other bytes).
    const stamped = createHash('sha256').update('the bytes this app hashed and sent').digest('hex');
    const form = new FormData();
    form.append('file', new Blob(['the bytes the platform stored']), 'stamped.txt');
    form.append('pathway', mentor);
    form.append('type', 'txt');
    form.append(
      'custom_metadata',
      JSON.stringify({ content_hash: stamped, relative_path: 'notes/stamped.txt', job_id: 'job-1' }),
    );
    const upload = await call(server, 'POST', `${documentsPath(server)}train/`, { form });
    expect(upload.status).toBe(200);
    const id = String((upload.body as { document_id: string | number }).document_id);
    const platform = (await serverDocument(server, id)) as unknown as { content_hash: string };
    expect(platform.content_hash).not.toBe(stamped);

    const { documents } = await c.engine.invoke('documents.list', { mentor, refresh: true });
    expect(documents.find((d) => d.id === id)?.contentHash).toBe(stamped);
  });
});

describe('document changes', () => {
  it('untrains and retrains a document, keeping its access; search follows', async () => {
    const c = await connect(server);
    const mentor = idOf('Intro to Python');
    const { documents } = await c.engine.invoke('documents.list', { mentor: 'Intro to Python' });
    const target = documents.find((d) => d.status === 'trained' && d.access === 'public' && /^Week/.test(d.name))!;
    expect(target).toBeDefined();

    const untrained = await c.engine.invoke('documents.setTraining', {
      mentor: 'Intro to Python',
      documentId: target.id,
      train: false,
    });
    expect(untrained).toMatchObject({ id: target.id, status: 'untrained', access: 'public' });
    const topic = /Week \d+ - (.+)\.\w+$/.exec(target.name)![1]!;
    const found = async () =>
      (await c.engine.invoke('documents.search', { mentor, query: topic, limit: 50 })).passages.map(
        (p) => p.documentId,
      );
    expect(await found()).not.toContain(target.id);
    expect(await serverDocument(server, target.id)).toMatchObject({ training_status: 'untrained', access: 'public' });
    expect(c.events).toContainEqual({ name: 'documents.changed', payload: { profileId: c.profileId, mentor } });
    const cached = await c.engine.invoke('documents.list', { mentor, status: 'untrained' });
    expect(cached.freshness.source).toBe('cache');
    expect(cached.documents.map((d) => d.id)).toContain(target.id);

    const retrained = await c.engine.invoke('documents.setTraining', { mentor, documentId: target.id, train: true });
    expect(retrained.status).toMatch(/pending|trained/);
    expect(retrained.access).toBe('public');
    const done = await settled(c.engine, mentor, target.id);
    expect(done).toMatchObject({ status: 'trained', access: 'public' });
    expect(await serverDocument(server, target.id)).toMatchObject({ training_status: 'trained', access: 'public' });
    expect(await found()).toContain(target.id);
  });

  it("sends the spec's multipart PUT with the pathway and the document's current access", async () => {
    const proxy = await recordingProxy(server);
    const c = await connect({ ...server, url: proxy.url });
    const mentor = idOf('Spanish Conversation');
    const { documents } = await c.engine.invoke('documents.list', { mentor });
    const target = documents.find((d) => d.status === 'trained' && d.access === 'private') ?? documents[0]!;
    await c.engine.invoke('documents.setTraining', { mentor, documentId: target.id, train: true });
    const put = proxy.requests.find((r) => r.method === 'PUT')!;
    expect(put.url).toBe(`/api/ai-index/orgs/${server.org}/users/${server.user}/documents/${target.id}/`);
    const form = await parseMultipart(put);
    expect(Object.fromEntries(form)).toEqual({ pathway: mentor, train: 'true', access: target.access });
    await settled(c.engine, mentor, target.id);
  });

  it('makes a document private and public again', async () => {
    const c = await connect(server);
    const mentor = idOf('Anatomy Review');
    const { documents } = await c.engine.invoke('documents.list', { mentor });
    const target = documents.find((d) => d.status === 'trained')!;
    const flipped = target.access === 'public' ? 'private' : 'public';
    const changed = await c.engine.invoke('documents.setAccess', { mentor, documentId: target.id, access: flipped });
    expect(changed).toMatchObject({ id: target.id, access: flipped, status: 'trained' });
    expect(await serverDocument(server, target.id)).toMatchObject({ access: flipped, training_status: 'trained' });
    const back = await c.engine.invoke('documents.setAccess', {
      mentor,
      documentId: target.id,
      access: target.access!,
    });
    expect(back.access).toBe(target.access);
    expect(await serverDocument(server, target.id)).toMatchObject({ access: target.access });
    const cached = await c.engine.invoke('documents.list', { mentor });
    expect(cached.freshness.source).toBe('cache');
    expect(cached.documents.find((d) => d.id === target.id)).toEqual(back);
  });

  it('sets and clears the retrain interval', async () => {
    const c = await connect(server);
    const mentor = idOf('Financial Accounting');
    const { documents } = await c.engine.invoke('documents.list', { mentor });
    const target = documents[0]!;
    const weekly = await c.engine.invoke('documents.setRetrain', {
      mentor,
      documentId: target.id,
      retrainIntervalDays: 7,
    });
    expect(weekly).toMatchObject({ id: target.id, retrainIntervalDays: 7, status: target.status });
    expect(await serverDocument(server, target.id)).toMatchObject({ retrain_interval_days: 7 });
    expect((await c.engine.invoke('documents.list', { mentor })).documents.find((d) => d.id === target.id)).toEqual(
      weekly,
    );
    const never = await c.engine.invoke('documents.setRetrain', {
      mentor,
      documentId: target.id,
      retrainIntervalDays: null,
    });
    expect(never.retrainIntervalDays).toBeNull();
    expect(await serverDocument(server, target.id)).toMatchObject({ retrain_interval_days: null });
    // Any whole number of days the platform takes: no cap of the app's own.
    const yearly = await c.engine.invoke('documents.setRetrain', {
      mentor,
      documentId: target.id,
      retrainIntervalDays: 10_000,
    });
    expect(yearly.retrainIntervalDays).toBe(10_000);
    expect(await serverDocument(server, target.id)).toMatchObject({ retrain_interval_days: 10_000 });
    await c.engine.invoke('documents.setRetrain', { mentor, documentId: target.id, retrainIntervalDays: 30 });
    const zero = await c.engine.invoke('documents.setRetrain', {
      mentor,
      documentId: target.id,
      retrainIntervalDays: 0,
    });
    expect(zero.retrainIntervalDays).toBeNull();
    expect(await serverDocument(server, target.id)).toMatchObject({ retrain_interval_days: null });
  });

  it('deletes a document from the server and the cache', async () => {
    const c = await connect(server);
    const mentor = idOf('Research Methods');
    const { documents } = await c.engine.invoke('documents.list', { mentor });
    const target = documents.find((d) => d.status === 'failed') ?? documents[0]!;
    expect(await c.engine.invoke('documents.delete', { mentor, documentId: target.id })).toEqual({ ok: true });
    expect(await serverDocument(server, target.id)).toBeNull();
    const after = await c.engine.invoke('documents.list', { mentor });
    expect(after.freshness.source).toBe('cache');
    expect(after.documents.map((d) => d.id)).toEqual(documents.filter((d) => d !== target).map((d) => d.id));
    expect(c.events).toContainEqual({ name: 'documents.changed', payload: { profileId: c.profileId, mentor } });
    // Deleting it again: it is gone.
    expect(await failure(c.engine, 'documents.delete', { mentor, documentId: target.id })).toMatchObject({
      code: 'not_found',
    });
  });
});

describe('documents.search', () => {
  it('finds passages of a document uploaded and trained on the sandbox', async () => {
    const c = await connect(server);
    const mentor = idOf('Career Advisor');
    const phrase = 'The quartermaster zebra negotiates salaries at dawn';
    const form = new FormData();
    form.append(
      'file',
      new Blob([`Interview notes.\n\n${phrase}. Always prepare three questions.\n`]),
      'zebra notes.txt',
    );
    form.append('pathway', mentor);
    form.append('type', 'txt');
    form.append('access', 'public');
    const upload = await call(server, 'POST', `${documentsPath(server)}train/`, { form });
    expect(upload.status).toBe(200);
    const documentId = String((upload.body as { document_id: string | number }).document_id);
    expect((await settled(c.engine, 'Career Advisor', documentId)).status).toBe('trained');

    const { passages } = await c.engine.invoke('documents.search', {
      mentor: 'Career Advisor',
      query: 'quartermaster zebra',
    });
    expect(passages.length).toBeGreaterThan(0);
    expect(passages[0]).toMatchObject({ documentId, documentName: 'zebra notes.txt' });
    expect(passages[0]!.text).toContain(phrase);
    expect(passages[0]!.score).toEqual(expect.any(Number));
  });

  it('returns passages of the seeded, trained documents and honours the limit', async () => {
    const c = await connect(server);
    const mentor = idOf('Organic Chemistry Helper');
    const { documents } = await c.engine.invoke('documents.list', { mentor, status: 'trained' });
    const topic = /Week \d+ - (.+)\.\w+$/.exec(documents.find((d) => /^Week/.test(d.name))!.name)![1]!;
    const { passages } = await c.engine.invoke('documents.search', { mentor, query: topic, limit: 2 });
    expect(passages.length).toBeGreaterThan(0);
    expect(passages.length).toBeLessThanOrEqual(2);
    const trainedIds = new Set(documents.map((d) => d.id));
    for (const passage of passages) {
      expect(trainedIds.has(passage.documentId!)).toBe(true);
      expect(passage.text.length).toBeGreaterThan(0);
    }
    const none = await c.engine.invoke('documents.search', { mentor, query: 'xylophonequasar' });
    expect(none.passages).toEqual([]);
  });
});

describe('bad document input changes nothing', () => {
  it('answers not_found for an unknown mentor on every documents call', async () => {
    const c = await connect(server);
    const documentId = String((await serverDocuments(server, idOf('Study Skills')))[0]!.id);
    const before = await serverDocument(server, documentId);
    const mentor = 'No Such Mentor';
    for (const [name, input] of [
      ['documents.list', { mentor }],
      ['documents.search', { mentor, query: 'anything' }],
      ['documents.setTraining', { mentor, documentId, train: false }],
      ['documents.setAccess', { mentor, documentId, access: 'private' }],
      ['documents.setRetrain', { mentor, documentId, retrainIntervalDays: 3 }],
      ['documents.delete', { mentor, documentId }],
    ] as const) {
      const error = await failure(c.engine, name, input);
      expect(error.code, name).toBe('not_found');
      expect(error.message).toContain("No mentor 'No Such Mentor'");
    }
    expect(await serverDocument(server, documentId)).toEqual(before);
  });

  it("never touches another mentor's document, nor one that does not exist", async () => {
    const c = await connect(server);
    const other = (await serverDocuments(server, idOf('Spanish Conversation'))).find(
      (d) => d.training_status === 'trained',
    )!;
    const before = await serverDocument(server, other.id);
    const mentor = 'Study Skills';
    for (const [name, input] of [
      ['documents.setTraining', { mentor, documentId: String(other.id), train: false }],
      ['documents.setAccess', { mentor, documentId: String(other.id), access: 'private' }],
      ['documents.setRetrain', { mentor, documentId: String(other.id), retrainIntervalDays: 3 }],
      ['documents.delete', { mentor, documentId: String(other.id) }],
    ] as const) {
      const error = await failure(c.engine, name, input);
      expect(error.code, name).toBe('not_found');
      expect(error.message).toMatch(/is not one of the documents of mentor 'Study Skills'/);
    }
    // Still where it was, as it was: a PUT with this mentor's pathway would have moved it.
    expect(await serverDocument(server, other.id)).toEqual(before);

    for (const documentId of ['999999', 'abc']) {
      const error = await failure(c.engine, 'documents.setAccess', { mentor, documentId, access: 'public' });
      expect(error).toMatchObject({ code: 'not_found', message: `No document '${documentId}' on this tenant` });
    }
  });

  it('validates the search query and the retrain interval before sending anything', async () => {
    const c = await connect(server);
    const mentor = idOf('Study Skills');
    const target = (await serverDocuments(server, mentor))[0]!;
    const empty = await failure(c.engine, 'documents.search', { mentor, query: '   ' });
    expect(empty).toMatchObject({ code: 'validation' });
    expect(empty.message).toContain('Type something to search for');
    // Not whole days, or below 0: no number of days (3651 was refused too, a cap the platform does not have).
    for (const days of [-1, 1.5]) {
      expect(
        await failure(c.engine, 'documents.setRetrain', {
          mentor,
          documentId: String(target.id),
          retrainIntervalDays: days,
        }),
      ).toMatchObject({ code: 'validation' });
    }
    expect(await serverDocument(server, target.id)).toEqual(target);
  });

  it("gives a student's key and another tenant a clear answer", async () => {
    const mentor = idOf('Study Skills');
    const target = (await serverDocuments(server, mentor)).find((d) => d.access === 'public')!;
    const before = await serverDocument(server, target.id);

    const student = await connect(server, { username: server.studentUser, secret: server.studentKey });
    const refused = await failure(student.engine, 'documents.setAccess', {
      mentor,
      documentId: String(target.id),
      access: 'private',
    });
    expect(refused).toMatchObject({ code: 'api', status: 403 });
    expect(refused.message).toMatch(/tenant admin's key/);
    expect(await failure(student.engine, 'documents.delete', { mentor, documentId: String(target.id) })).toMatchObject({
      code: 'api',
      status: 403,
    });

    const otherTenant = await connect(server, {
      org: server.otherOrg.org,
      username: server.otherOrg.user,
      secret: server.otherOrg.apiKey,
    });
    for (const [name, input] of [
      ['documents.list', { mentor }],
      ['documents.delete', { mentor, documentId: String(target.id) }],
    ] as const) {
      expect((await failure(otherTenant.engine, name, input)).code, name).toBe('not_found');
    }
    expect(await serverDocument(server, target.id)).toEqual(before);
  });
});
