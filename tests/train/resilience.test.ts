/**
 * What goes wrong mid-job, for real: injected 5xx/429/dropped connections, a file over the platform's limit, a key
 * revoked, the mentor deleted, the server going away and coming back, pause/resume/cancel. Each ends with the
 * platform's own list of documents: every file trained exactly once, or a clear reason why not.
 */
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/server/app';
import { NO_FAULTS } from '../../src/server/faults';
import { call } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { answer, isUpload, proxy, uploadRecorder } from './proxy';
import {
  allItems,
  createMentor,
  duplicatesOf,
  newEngine,
  serverDocuments,
  setup,
  text,
  tree,
  waitForJob,
  waitUntil,
} from './setup';

function notes(count: number, prefix = 'note') {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) files[`notes/${prefix}-${String(i).padStart(3, '0')}.md`] = text(`${prefix} ${i}`);
  return tree(files);
}

/**
 * A proxy in front of the sandbox that lets the first `drops` uploads reach it but cuts the connection before the
 * answer comes back ("sent, never acknowledged"), and refuses the next `failedLookups` document lists with 503.
 */
async function unreliableProxy(target: string, options: { drops: number; failedLookups: number }) {
  let drops = options.drops;
  let failedLookups = 0;
  const seen = { dropped: 0, refusedLookups: 0 };
  const unreliable = await proxy(target, async (req, res, _payload, forward) => {
    const isLookup = req.method === 'GET' && req.url!.includes('/documents/pathways/');
    if (isLookup && failedLookups > 0) {
      failedLookups--;
      seen.refusedLookups++;
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"detail":"Service Unavailable"}');
      return;
    }
    const forwarded = await forward();
    if (isUpload(req) && drops > 0) {
      drops--;
      seen.dropped++;
      // The first lost answer also makes the look-ups fail for a while: the job must go on from its journal.
      if (seen.dropped === 1) failedLookups = options.failedLookups;
      req.socket.destroy();
      return;
    }
    answer(res, forwarded);
  });
  return { ...unreliable, seen };
}

describe('training when things go wrong', () => {
  it('finds an upload that landed but was never answered, and adopts it instead of sending it again', async () => {
    const { server, mentor } = await setup();
    const proxy = await unreliableProxy(server.url, { drops: 3, failedLookups: 5 });
    try {
      const { engine } = await newEngine({ ...server, url: proxy.url });
      const root = notes(8);
      const preview = await engine.invoke('train.preview', { mentor, paths: [root] });
      const states: string[] = [];
      engine.onEvent((name, payload) => {
        if (name === 'jobs.changed') states.push((payload as { state: string }).state);
      });
      const { jobId } = await engine.invoke('train.start', { previewId: preview.id, concurrency: 1 });
      const job = await waitForJob(engine, jobId, ['completed', 'failed', 'cancelled'], 60_000);
      expect(job.state).toBe('completed');
      expect(proxy.seen).toEqual({ dropped: 3, refusedLookups: 5 });
      // The first lost answer could not be looked up: the job waited, then resumed from its journal.
      expect(states).toContain('waiting');
      expect(job.counts).toMatchObject({ uploaded: 8, trained: 8, failed: 0 });
      const items = await allItems(engine, jobId);
      const adopted = items.filter((item) => item.detail.adopted === true);
      expect(adopted).toHaveLength(3);
      expect(adopted.every((item) => item.attempts === 1)).toBe(true);
      const docs = serverDocuments(server, mentor);
      expect(duplicatesOf(docs)).toEqual([]);
      expect(docs).toHaveLength(8);
    } finally {
      await proxy.close();
    }
  });

  it('under 5xx, 429 and dropped connections, every file is trained exactly once', async () => {
    const { server, engine, mentor } = await setup();
    const root = notes(60);
    server.setFaults('error5xx=0.1,rate429=0.1,retryAfter=0,reset=0.05');
    const preview = await engine.invoke('train.preview', { mentor, paths: [root] });
    expect(preview.classes.new).toBe(60);
    const { jobId } = await engine.invoke('train.start', { previewId: preview.id });
    const job = await waitForJob(engine, jobId, ['completed', 'failed', 'cancelled'], 90_000);
    server.setFaults('');
    expect(job.state, `${job.error ?? ''} ${job.reason ?? ''}`).toBe('completed');
    expect(job.counts).toMatchObject({ uploaded: 60, trained: 60, failed: 0 });
    const docs = serverDocuments(server, mentor);
    expect(duplicatesOf(docs)).toEqual([]);
    expect(docs).toHaveLength(60);
    expect(docs.every((doc) => doc.training_status === 'trained')).toBe(true);
  }, 120_000);

  it('waits as long as a busy platform asks before sending an upload again, then trains it once', async () => {
    const { server, mentor } = await setup();
    const uploads: number[] = [];
    const busy = await proxy(server.url, async (req, res, _payload, forward) => {
      if (isUpload(req)) uploads.push(Date.now());
      if (isUpload(req) && uploads.length === 1) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '2' }).end('{"detail":"Busy"}');
        return;
      }
      answer(res, await forward());
    });
    try {
      const { engine } = await newEngine({ ...server, url: busy.url });
      const preview = await engine.invoke('train.preview', { mentor, paths: [notes(1)] });
      const { jobId } = await engine.invoke('train.start', { previewId: preview.id });
      const job = await waitForJob(engine, jobId, ['completed', 'failed', 'cancelled'], 60_000);
      expect(job.state).toBe('completed');
      expect(uploads).toHaveLength(2);
      // The upload's retry policy honours Retry-After (the train job asks it instead of keeping its own list).
      expect(uploads[1]! - uploads[0]!).toBeGreaterThanOrEqual(1_900);
      expect(serverDocuments(server, mentor)).toHaveLength(1);
    } finally {
      await busy.close();
    }
  });

  it("fails a file over the platform's limit with 'File too large' and trains the others", async () => {
    const { server, engine, mentor } = await setup({ uploadLimitBytes: 2000 });
    const root = tree({ 'small.md': text('Small'), 'big.txt': 'x'.repeat(5000) });
    // The app's own limit is higher, so the file is sent and the platform refuses it.
    const preview = await engine.invoke('train.preview', { mentor, paths: [root], maxFileBytes: 10_000 });
    expect(preview.classes.new).toBe(2);
    const { jobId } = await engine.invoke('train.start', { previewId: preview.id });
    const job = await waitForJob(engine, jobId);
    expect(job.state).toBe('completed');
    expect(job.counts).toMatchObject({ uploaded: 1, trained: 1, failed: 1 });
    const big = (await allItems(engine, jobId)).find((item) => item.label === 'course/big.txt')!;
    expect(big).toMatchObject({ state: 'failed', error: 'File too large', attempts: 1 });
    expect(serverDocuments(server, mentor).map((doc) => doc.document_name)).toEqual(['course/small.md']);
  });

  it("fails a file the platform refuses with another 4xx with the platform's message, sent once; the others train", async () => {
    const { server, mentor } = await setup();
    const recorder = await uploadRecorder(server.url);
    try {
      const { engine } = await newEngine({ ...server, url: recorder.url });
      // `message`: what the item says when the answer carries no detail (the spec's catalogue for the status).
      const refused: Record<string, { status: number; detail?: string; message?: string }> = {
        'note-003.md': { status: 422, detail: 'Unprocessable: the document has no text to learn from' },
        'note-006.md': { status: 409, detail: 'A document is already being trained from this source' },
        'note-008.md': { status: 400, message: 'Bad Request' },
        'note-010.md': {
          status: 415,
          message: 'Generic Error: status: 415; status text: Unsupported Media Type; body: {}',
        },
      };
      server.setFaults({
        ...NO_FAULTS,
        refuseUploads: Object.entries(refused).map(([fileName, { status, detail }]) => ({
          fileName,
          status,
          ...(detail && { detail }),
        })),
      });
      const root = notes(12);
      const preview = await engine.invoke('train.preview', { mentor, paths: [root] });
      const { jobId } = await engine.invoke('train.start', { previewId: preview.id });
      const job = await waitForJob(engine, jobId);
      expect(job.state).toBe('completed');
      expect(job.counts).toMatchObject({ uploaded: 8, trained: 8, failed: 4 });

      const expected = Object.entries(refused).map(([fileName, refusal]) => ({
        label: `course/notes/${fileName}`,
        state: 'failed',
        error: refusal.detail ?? refusal.message,
        attempts: 1,
      }));
      const failedInJournal = (await allItems(engine, jobId)).filter((item) => item.state === 'failed');
      expect(failedInJournal).toMatchObject(expected);
      const needsAttention = await engine.invoke('jobs.items', { id: jobId, states: ['failed'] });
      expect(needsAttention.total).toBe(4);
      expect(needsAttention.items).toMatchObject(expected);
      // Refused is final: each refused file reached the platform exactly once; the others once each too.
      for (const fileName of Object.keys(refused)) {
        expect(recorder.sent.filter((name) => name === `course/notes/${fileName}`)).toHaveLength(1);
      }
      expect(recorder.sent).toHaveLength(12);
      const docs = serverDocuments(server, mentor);
      expect(docs.map((doc) => doc.document_name).sort()).toEqual(
        preview.files
          .map((file) => file.relativePath)
          .filter((path) => !(path.split('/').pop()! in refused))
          .sort(),
      );
      expect(docs.every((doc) => doc.training_status === 'trained')).toBe(true);
    } finally {
      await recorder.close();
    }
  });

  it('pauses with "Authentication failed" when the key is revoked, and goes on once a new key is entered', async () => {
    const { server, mentor } = await setup();
    const minted = await call(server, 'POST', '/api/core/platform/api-tokens/', {
      json: { name: 'train-test-key', platform_key: server.org },
    });
    expect(minted.status).toBe(201);
    const { engine, profileId } = await newEngine(server, tempDir(), (minted.body as { key: string }).key);
    const root = notes(30);
    server.setFaults('latency=40-40ms');
    const preview = await engine.invoke('train.preview', { mentor, paths: [root] });
    const { jobId } = await engine.invoke('train.start', { previewId: preview.id, concurrency: 2 });
    await waitUntil(engine, jobId, (job) => (job.counts.uploaded ?? 0) >= 3);
    const revoked = await call(
      server,
      'DELETE',
      `/api/core/platform/api-tokens/train-test-key?platform_key=${server.org}`,
    );
    expect(revoked.status).toBe(204);
    const paused = await waitForJob(engine, jobId, ['paused', 'completed', 'failed']);
    expect(paused).toMatchObject({ state: 'paused', reason: 'Authentication failed' });

    await engine.invoke('profiles.update', { id: profileId, secret: server.apiKey });
    const job = await waitForJob(engine, jobId);
    server.setFaults('');
    expect(job.state).toBe('completed');
    expect(job.counts).toMatchObject({ uploaded: 30, trained: 30, failed: 0 });
    const docs = serverDocuments(server, mentor);
    expect(duplicatesOf(docs)).toEqual([]);
    expect(docs).toHaveLength(30);
  });

  it('fails the job with a clear message when the mentor is deleted mid-job', async () => {
    const { server, engine, mentor } = await setup({ mentor: 'Statistics' });
    const root = notes(30);
    server.setFaults('latency=40-40ms');
    const preview = await engine.invoke('train.preview', { mentor, paths: [root] });
    const { jobId } = await engine.invoke('train.start', { previewId: preview.id, concurrency: 2 });
    await waitUntil(engine, jobId, (job) => (job.counts.uploaded ?? 0) >= 3);
    const deleted = await call(server, 'DELETE', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/${mentor}/`);
    expect(deleted.status).toBe(204);
    const job = await waitForJob(engine, jobId);
    server.setFaults('');
    expect(job.state).toBe('failed');
    expect(job.error).toBe('The mentor "Statistics" was deleted on the tenant; files not sent yet were not trained');
    expect(duplicatesOf(serverDocuments(server, mentor))).toEqual([]);
  });

  it('waits while the server is down and completes by itself once it is back', async () => {
    const dataDir = tempDir('sandbox-');
    let server = await startSandbox({ dataDir, seed: 'none', log: () => {} });
    const port = server.port;
    try {
      const mentor = await createMentor(server, 'Geometry');
      const { engine } = await newEngine(server);
      const root = notes(30);
      server.setFaults('latency=40-40ms');
      const preview = await engine.invoke('train.preview', { mentor, paths: [root] });
      const { jobId } = await engine.invoke('train.start', { previewId: preview.id, concurrency: 2 });
      await waitUntil(engine, jobId, (job) => (job.counts.uploaded ?? 0) >= 3);
      // Down for real: drop every connection (keep-alive ones would otherwise be served until they close), stop.
      server.setFaults('reset=1');
      await server.close();
      const waiting = await waitForJob(engine, jobId, ['waiting', 'completed', 'failed'], 30_000);
      expect(waiting.state).toBe('waiting');
      expect(waiting.reason).toMatch(/The tenant is unreachable .*; retrying in \d+ s/);

      server = await startSandbox({ dataDir, port, seed: 'none', log: () => {} });
      const job = await waitForJob(engine, jobId, ['completed', 'failed', 'cancelled'], 60_000);
      expect(job.state).toBe('completed');
      expect(job.counts).toMatchObject({ uploaded: 30, trained: 30, failed: 0 });
      const docs = serverDocuments(server, mentor);
      expect(duplicatesOf(docs)).toEqual([]);
      expect(docs).toHaveLength(30);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('pauses, resumes and cancels without losing or duplicating anything', async () => {
    const { server, engine, mentor } = await setup();
    const root = notes(30);
    server.setFaults('latency=40-40ms');
    const preview = await engine.invoke('train.preview', { mentor, paths: [root] });
    const { jobId } = await engine.invoke('train.start', { previewId: preview.id, concurrency: 2 });
    await waitUntil(engine, jobId, (job) => (job.counts.uploaded ?? 0) >= 3);
    const paused = await engine.invoke('jobs.pause', { id: jobId });
    expect(paused.state).toBe('paused');
    // Uploads cut off by the pause may still land (the platform had their bytes); after that nothing is sent.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const uploadedWhilePaused = serverDocuments(server, mentor).length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(serverDocuments(server, mentor)).toHaveLength(uploadedWhilePaused);

    await engine.invoke('jobs.resume', { id: jobId });
    await waitUntil(engine, jobId, (job) => (job.counts.uploaded ?? 0) >= 10);
    const cancelled = await engine.invoke('jobs.cancel', { id: jobId });
    expect(cancelled.state).toBe('cancelled');
    server.setFaults('');
    // An upload cut off by the cancel may still land: give it a moment before counting.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const docs = serverDocuments(server, mentor);
    expect(duplicatesOf(docs)).toEqual([]);
    expect(docs.length).toBeLessThan(30);

    // A new drop of the same folder sends only what the cancelled job did not.
    const again = await engine.invoke('train.preview', { mentor, paths: [root] });
    expect(again.classes.new + again.classes.unchanged).toBe(30);
    expect(again.classes.unchanged).toBe(docs.length);
    const rest = await waitForJob(engine, (await engine.invoke('train.start', { previewId: again.id })).jobId);
    expect(rest.state).toBe('completed');
    const all = serverDocuments(server, mentor);
    expect(duplicatesOf(all)).toEqual([]);
    expect(all).toHaveLength(30);
  });
});
