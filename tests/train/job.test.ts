/**
 * The `train` job against the real sandbox: real uploads, the sandbox's real training worker, the real journal.
 * Every test checks the platform's own list of the mentor's documents: each file trained exactly once.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect, until } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { answer, isUpload, proxy } from './proxy';
import { allItems, createMentor, duplicatesOf, serverDocuments, setup, text, tree, waitForJob } from './setup';

const course = () =>
  tree({
    'intro.md': text('Intro'),
    'notes/week 1.txt': text('Week 1'),
    'notes/week 2.txt': text('Week 2'),
    'notes/ünïcødé 😀 notes.txt': text('Unicode'),
    'syllabus.html': '<h1>Syllabus</h1><p>Limits and derivatives.</p>',
    'data.csv': 'topic,weeks\nlimits,2\nderivatives,3\n',
    '.hidden.txt': 'hidden',
    'diagram.png': 'png',
    'empty.md': '',
  });

describe('the train job', () => {
  it('journals every file first, uploads each sendable one once and follows it until trained', async () => {
    const { server, engine, mentor } = await setup();
    const root = course();
    const preview = await engine.invoke('train.preview', { mentor, paths: [root] });
    expect(preview.toSend.files).toBe(6);
    const states: string[] = [];
    const off = engine.onEvent((name, payload) => {
      if (name === 'jobs.changed') states.push((payload as { state: string }).state);
    });
    const { jobId } = await engine.invoke('train.start', { previewId: preview.id });
    // Journal first: every file of the preview is an item the moment the job exists.
    const items = await allItems(engine, jobId);
    expect(items).toHaveLength(preview.totalFiles);
    const job = await waitForJob(engine, jobId);
    off();
    expect(job.state).toBe('completed');
    expect(job.counts).toMatchObject({ uploaded: 6, skipped: 3, trained: 6, failed: 0 });
    expect(job.progress).toMatchObject({ total: 9, done: 6, skipped: 3, failed: 0 });

    const docs = serverDocuments(server, mentor);
    expect(docs).toHaveLength(6);
    expect(duplicatesOf(docs)).toEqual([]);
    expect(docs.every((doc) => doc.training_status === 'trained')).toBe(true);
    expect(docs.map((doc) => doc.document_name).sort()).toEqual(
      [
        'course/data.csv',
        'course/intro.md',
        'course/notes/week 1.txt',
        'course/notes/week 2.txt',
        'course/notes/ünïcødé 😀 notes.txt',
        'course/syllabus.html',
      ].sort(),
    );
    for (const doc of docs) {
      const metadata = JSON.parse(doc.custom_metadata!) as Record<string, string>;
      expect(metadata).toEqual({ content_hash: doc.content_hash, job_id: jobId, relative_path: doc.document_name });
    }

    const final = await allItems(engine, jobId);
    const skipped = final.filter((item) => item.state === 'skipped');
    expect(skipped.map((item) => [item.label, item.error])).toEqual(
      expect.arrayContaining([
        ['course/.hidden.txt', 'Hidden file'],
        ['course/diagram.png', '.png is not a type known to train (send it with "other file types")'],
        ['course/empty.md', 'Empty file (nothing to train)'],
      ]),
    );
    const done = final.filter((item) => item.state === 'done');
    expect(done.every((item) => item.phase === 'trained' && typeof item.detail.documentId === 'string')).toBe(true);
    expect(done.every((item) => item.attempts === 1)).toBe(true);

    // The same folder again: nothing is sent, every file says which document already holds it.
    const again = await engine.invoke('train.preview', { mentor, paths: [root] });
    expect(again.classes).toMatchObject({ new: 0, changed: 0, unchanged: 6 });
    expect(again.files.find((f) => f.relativePath === 'course/intro.md')!.reason).toMatch(
      /^Already trained as document \d+$/,
    );
    const second = await engine.invoke('train.start', { previewId: again.id });
    const secondJob = await waitForJob(engine, second.jobId);
    expect(secondJob.counts).toMatchObject({ uploaded: 0, skipped: 9, trained: 0, failed: 0 });
    expect(serverDocuments(server, mentor)).toHaveLength(6);
    // The mentor's page lists its recent training jobs, newest first, and no other mentor's.
    expect((await engine.invoke('train.jobs', { mentor })).jobs.map((job) => job.id)).toEqual([second.jobId, jobId]);
    expect((await engine.invoke('train.jobs', { mentor: 'another-mentor' })).jobs).toEqual([]);

    // The item report is a CSV with one row per file.
    const report = await engine.invoke('jobs.exportReport', { id: jobId, path: join(root, '..', 'report.csv') });
    expect(report.rows).toBe(9);
    expect(states).toEqual(['running', 'completed']);
  });

  it('tells open screens the documents changed, and the next read shows them trained', async () => {
    const { engine, mentor } = await setup();
    const before = await engine.invoke('documents.list', { mentor });
    expect(before.documents).toEqual([]);
    const changes: { mentor: string }[] = [];
    const off = engine.onEvent((name, payload) => {
      if (name === 'documents.changed') changes.push(payload as { mentor: string });
    });
    const preview = await engine.invoke('train.preview', { mentor, paths: [course()] });
    const { jobId } = await engine.invoke('train.start', { previewId: preview.id });
    expect((await waitForJob(engine, jobId)).state).toBe('completed');
    off();
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.every((change) => change.mentor === mentor)).toBe(true);
    // Well inside the cache's 30 s refresh period, reads show every document trained: the job marked the cached
    // list stale, so the first read after it refreshes from the tenant (answering the cache meanwhile).
    const deadline = Date.now() + 5_000;
    let after = await engine.invoke('documents.list', { mentor });
    while (after.documents.filter((doc) => doc.status === 'trained').length < 6 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await engine.invoke('documents.list', { mentor });
    }
    expect(after.documents).toHaveLength(6);
    expect(after.documents.every((doc) => doc.status === 'trained')).toBe(true);
  });

  it('announces each document as it ends training, and a read on that announcement shows it trained', async () => {
    const server = await sandbox();
    const mentor = await createMentor(server, 'Calculus');
    // b.md's upload waits at a proxy, so a.md ends training while the job is still going.
    let releaseB = () => {};
    const bHeld = new Promise<void>((resolve) => (releaseB = resolve));
    const gate = await proxy(server.url, async (req, res, payload, send) => {
      if (isUpload(req) && payload.includes('filename="course/b.md"')) await bHeld;
      answer(res, await send());
    });
    try {
      const { engine } = await connect(server, { baseUrl: gate.url });
      // The mentor's Documents tab is open: its list is cached, and it reads the list again on each event.
      expect((await engine.invoke('documents.list', { mentor })).documents).toEqual([]);
      const reads: { at: number; trained: string[] }[] = [];
      engine.onEvent((name, payload) => {
        if (name !== 'documents.changed' || (payload as { mentor: string }).mentor !== mentor) return;
        const at = Date.now();
        void engine.invoke('documents.list', { mentor }).then(
          ({ documents }) => {
            reads.push({ at, trained: documents.filter((d) => d.status === 'trained').map((d) => d.name) });
          },
          // A read still on its way when the test ends is cut off by the engine's close.
          (error: { code?: string }) => {
            if (error.code !== 'aborted') throw error;
          },
        );
      });
      const preview = await engine.invoke('train.preview', {
        mentor,
        paths: [tree({ 'a.md': text('A'), 'b.md': text('B') })],
      });
      const { jobId } = await engine.invoke('train.start', { previewId: preview.id });
      const aDone = await until('a.md to end training', async () => {
        const items = await allItems(engine, jobId);
        return items.some((item) => item.label === 'course/a.md' && item.state === 'done') && Date.now();
      });
      // Said as it ended, not a throttle's two seconds later; and the read on it shows the document trained.
      const said = await until('an announcement once a.md ended', () => reads.find((read) => read.at > aDone - 1_000));
      expect(said.at - aDone).toBeLessThan(1_000);
      expect(said.trained).toEqual(['course/a.md']);
      expect((await engine.invoke('jobs.get', { id: jobId })).state).toBe('running');

      releaseB();
      expect((await waitForJob(engine, jobId)).state).toBe('completed');
      await until('a read showing both trained', () => reads.find((read) => read.trained.length === 2));
    } finally {
      releaseB();
      await gate.close();
    }
  });

  it('looks at the documents still training again moments after the last upload, not 2 s later', async () => {
    const server = await sandbox();
    const mentor = await createMentor(server, 'Calculus');
    // The first look at training after the upload says "still training": the job must look again soon.
    const looks: number[] = [];
    const gate = await proxy(server.url, async (req, res, _payload, send) => {
      const forwarded = await send();
      if (req.method === 'GET' && req.url!.includes('/documents/tasks/')) {
        looks.push(performance.now());
        if (looks.length === 1) {
          const task = JSON.parse(forwarded.body.toString()) as Record<string, unknown>;
          forwarded.body = Buffer.from(JSON.stringify({ ...task, status: 'PENDING' }));
        }
      }
      answer(res, forwarded);
    });
    try {
      const { engine } = await connect(server, { baseUrl: gate.url });
      const preview = await engine.invoke('train.preview', { mentor, paths: [tree({ 'a.md': text('A') })] });
      const { jobId } = await engine.invoke('train.start', { previewId: preview.id });
      expect((await waitForJob(engine, jobId)).state).toBe('completed');
      expect(looks.length).toBeGreaterThanOrEqual(2);
      expect(looks[1]! - looks[0]!).toBeLessThan(1_000);
    } finally {
      await gate.close();
    }
  });

  it('a list refresh that started before documents ended training does not hide them afterwards', async () => {
    const server = await sandbox();
    const mentor = await createMentor(server, 'Calculus');
    // The answer to one listing of the mentor's documents is held back: it was read before anything was trained.
    let holdList = false;
    let releaseList = () => {};
    const listHeld = new Promise<void>((resolve) => (releaseList = resolve));
    const gate = await proxy(server.url, async (req, res, _payload, send) => {
      const held = holdList && req.method === 'GET' && req.url!.includes('/documents/pathways/');
      if (held) holdList = false;
      const forwarded = await send();
      if (held) await listHeld;
      answer(res, forwarded);
    });
    try {
      const { engine } = await connect(server, { baseUrl: gate.url });
      expect((await engine.invoke('documents.list', { mentor })).documents).toEqual([]);
      holdList = true;
      const early = engine.invoke('documents.list', { mentor, refresh: true });
      const preview = await engine.invoke('train.preview', { mentor, paths: [tree({ 'a.md': text('A') })] });
      const { jobId } = await engine.invoke('train.start', { previewId: preview.id });
      expect((await waitForJob(engine, jobId)).state).toBe('completed');
      // The early refresh ends after the job: its empty list must not pass for the mentor's current documents.
      releaseList();
      await early;
      const now = await engine.invoke('documents.list', { mentor });
      expect(now.documents.map((d) => [d.name, d.status])).toEqual([['course/a.md', 'trained']]);
    } finally {
      releaseList();
      await gate.close();
    }
  });

  it('uploads a changed file and deletes the document it replaces once the new one is trained', async () => {
    const { server, engine, mentor } = await setup();
    const root = tree({ 'a.md': text('A v1'), 'b.md': text('B') });
    const first = await engine.invoke('train.preview', { mentor, paths: [root] });
    await waitForJob(engine, (await engine.invoke('train.start', { previewId: first.id })).jobId);
    const before = serverDocuments(server, mentor);
    const oldA = before.find((doc) => doc.document_name === 'course/a.md')!;

    writeFileSync(join(root, 'a.md'), text('A v2, with a new section on series'));
    const preview = await engine.invoke('train.preview', { mentor, paths: [root] });
    const a = preview.files.find((f) => f.relativePath === 'course/a.md')!;
    expect(a.class).toBe('changed');
    expect(a.reason).toBe(`Content changed: replaces "course/a.md" (document ${oldA.id}); stays private`);
    expect(a.warning).toBeNull();
    expect(preview.classes).toMatchObject({ changed: 1, unchanged: 1 });
    const { jobId } = await engine.invoke('train.start', { previewId: preview.id });
    const job = await waitForJob(engine, jobId);
    expect(job.counts).toMatchObject({ uploaded: 1, skipped: 1, trained: 1, failed: 0 });

    const after = serverDocuments(server, mentor);
    expect(after).toHaveLength(2);
    expect(after.find((doc) => doc.id === oldA.id)).toBeUndefined();
    const newA = after.find((doc) => doc.document_name === 'course/a.md')!;
    expect(newA.training_status).toBe('trained');
    expect(newA.content_hash).toBe(a.sha256);
    const item = (await allItems(engine, jobId)).find((i) => i.label === 'course/a.md')!;
    expect(item.detail.replaced).toEqual([String(oldA.id)]);
  });

  it('a replacement keeps the access of the document it replaces, unless the job says otherwise, and a much shorter one is flagged', async () => {
    const { server, engine, mentor } = await setup();
    const root = tree({ 'a.md': text('A long chapter', 100), 'b.md': text('B') });
    const first = await engine.invoke('train.preview', { mentor, paths: [root] });
    await waitForJob(engine, (await engine.invoke('train.start', { previewId: first.id })).jobId);
    const oldA = serverDocuments(server, mentor).find((doc) => doc.document_name === 'course/a.md')!;
    await engine.invoke('documents.setAccess', { mentor, documentId: String(oldA.id), access: 'public' });

    // a.md is emptied down to a line; b.md gains a line.
    writeFileSync(join(root, 'a.md'), 'A\n');
    writeFileSync(join(root, 'b.md'), text('B, with more', 4));
    const preview = await engine.invoke('train.preview', { mentor, paths: [root] });
    const a = preview.files.find((f) => f.relativePath === 'course/a.md')!;
    const b = preview.files.find((f) => f.relativePath === 'course/b.md')!;
    expect(a.reason).toBe(`Content changed: replaces "course/a.md" (document ${oldA.id}); stays public`);
    expect(a.warning).toMatch(
      new RegExp(`^Much shorter than "course/a.md" \\(document ${oldA.id}\\): [\\d.]+ KB → 2 B$`),
    );
    expect(b.reason).toMatch(/; stays private$/);
    expect(b.warning).toBeNull();
    expect(preview.warnings).toContain(
      '1 changed file(s) are much shorter than the document they replace: check them in the file list before training',
    );
    await waitForJob(engine, (await engine.invoke('train.start', { previewId: preview.id })).jobId);
    const access = () =>
      Object.fromEntries(
        (
          server.db.prepare('SELECT document_name, access FROM documents WHERE pathway = ?').all(mentor) as {
            document_name: string;
            access: string;
          }[]
        ).map((doc) => [doc.document_name, doc.access]),
      );
    expect(access()).toEqual({ 'course/a.md': 'public', 'course/b.md': 'private' });

    // Asked for: every upload of the job gets the access chosen.
    writeFileSync(join(root, 'a.md'), text('A again', 2));
    writeFileSync(join(root, 'b.md'), text('B again', 2));
    const again = await engine.invoke('train.preview', { mentor, paths: [root] });
    await waitForJob(engine, (await engine.invoke('train.start', { previewId: again.id, access: 'public' })).jobId);
    expect(access()).toEqual({ 'course/a.md': 'public', 'course/b.md': 'public' });
  });

  it('re-hashes before sending: a file changed since the preview is sent with its new content, a vanished one fails', async () => {
    const { server, engine, mentor } = await setup();
    const root = tree({ 'a.md': text('A'), 'b.md': text('B'), 'c.md': text('C') });
    const preview = await engine.invoke('train.preview', { mentor, paths: [root] });
    writeFileSync(join(root, 'a.md'), text('A, edited after the preview'));
    rmSync(join(root, 'b.md'));
    const { jobId } = await engine.invoke('train.start', { previewId: preview.id });
    const job = await waitForJob(engine, jobId);
    expect(job.state).toBe('completed');
    expect(job.counts).toMatchObject({ uploaded: 2, trained: 2, failed: 1 });
    const items = await allItems(engine, jobId);
    expect(items.find((i) => i.label === 'course/b.md')).toMatchObject({
      state: 'failed',
      error: 'File vanished since the preview',
    });
    const a = items.find((i) => i.label === 'course/a.md')!;
    const previewHash = preview.files.find((f) => f.relativePath === 'course/a.md')!.sha256;
    expect(a.detail.previewSha256).toBe(previewHash);
    expect(a.detail.sha256).not.toBe(previewHash);
    const doc = serverDocuments(server, mentor).find((d) => d.document_name === 'course/a.md')!;
    expect(doc.content_hash).toBe(a.detail.sha256);
  });

  it('starting the same preview twice answers the same job', async () => {
    const { server, engine, mentor } = await setup();
    const preview = await engine.invoke('train.preview', { mentor, paths: [tree({ 'a.md': text('A') })] });
    const [one, two] = await Promise.all([
      engine.invoke('train.start', { previewId: preview.id }),
      engine.invoke('train.start', { previewId: preview.id }),
    ]);
    expect(two.jobId).toBe(one.jobId);
    await waitForJob(engine, one.jobId);
    expect(serverDocuments(server, mentor)).toHaveLength(1);
  });

  it('the same folder started twice at once does not duplicate documents', async () => {
    const { server, engine, mentor } = await setup();
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`notes/n${i}.md`] = text(`Note ${i}`);
    const root = tree(files);
    const [p1, p2] = await Promise.all([
      engine.invoke('train.preview', { mentor, paths: [root] }),
      engine.invoke('train.preview', { mentor, paths: [root] }),
    ]);
    expect(p1.classes.new).toBe(40);
    expect(p2.classes.new).toBe(40);
    const [j1, j2] = await Promise.all([
      engine.invoke('train.start', { previewId: p1.id }),
      engine.invoke('train.start', { previewId: p2.id }),
    ]);
    const [a, b] = await Promise.all([waitForJob(engine, j1.jobId), waitForJob(engine, j2.jobId)]);
    const docs = serverDocuments(server, mentor);
    expect(duplicatesOf(docs)).toEqual([]);
    expect(docs).toHaveLength(40);
    expect(docs.every((doc) => doc.training_status === 'trained')).toBe(true);
    expect(a.counts.uploaded! + b.counts.uploaded!).toBe(40);
    expect(a.counts.failed! + b.counts.failed!).toBe(0);
    const skipped = [...(await allItems(engine, j1.jobId)), ...(await allItems(engine, j2.jobId))].filter(
      (item) => item.state === 'skipped',
    );
    expect(skipped).toHaveLength(40);
    expect(
      skipped.every((item) => /(Being uploaded|Uploaded) (at the same time|meanwhile) by job/.test(item.error!)),
    ).toBe(true);
  });
});
