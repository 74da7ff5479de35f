/**
 * Per-tenant concurrency, counted where it matters: at the platform. A proxy in front of the real sandbox (which
 * answers every request 40 ms late, as a tenant across the internet would) counts the uploads in flight at once.
 * A job that names no concurrency starts at 4 and sends more at once while the tenant answers fast, fewer when it
 * throttles (jobs/adaptive.ts).
 */
import { describe, expect, it } from 'vitest';
import { uploadRecorder } from './proxy';
import { duplicatesOf, newEngine, serverDocuments, setup, text, tree, waitForJob } from './setup';

describe('upload concurrency', () => {
  it('is N for a job started with concurrency N, and learnt from the tenant for a job that names none', async () => {
    const { server, mentor } = await setup();
    const recorder = await uploadRecorder(server.url);
    try {
      const { engine } = await newEngine({ ...server, url: recorder.url });
      server.setFaults('latency=40-40ms');
      // A job's concurrency is its own: neither a slower nor a faster one changes what the tenant's next job gets.
      const runs = [
        { concurrency: 2, peak: 2 },
        { concurrency: 1, peak: 1 },
        { concurrency: undefined, peak: 'more than 4' },
        { concurrency: 8, peak: 8 },
        { concurrency: undefined, peak: 'more than 4' },
      ] as const;
      const peaks: number[] = [];
      for (const [run, { concurrency }] of runs.entries()) {
        const files: Record<string, string> = {};
        for (let i = 0; i < 32; i++) files[`run ${run}/file-${i}.md`] = text(`Run ${run}, file ${i}`);
        const preview = await engine.invoke('train.preview', { mentor, paths: [tree(files)] });
        recorder.resetPeak();
        const { jobId } = await engine.invoke('train.start', {
          previewId: preview.id,
          ...(concurrency && { concurrency }),
        });
        const job = await waitForJob(engine, jobId, ['completed', 'failed', 'cancelled'], 60_000);
        expect(job.counts).toMatchObject({ uploaded: 32, trained: 32, failed: 0 });
        peaks.push(recorder.peak());
      }
      server.setFaults('');
      // Answers stay 40 ms however many are in flight: the learnt limit grows past the starting 4, to at most 16.
      expect(
        peaks.map((peak, i) => (runs[i]!.peak === 'more than 4' && peak > 4 && peak <= 16 ? runs[i]!.peak : peak)),
      ).toEqual(runs.map((run) => run.peak));
    } finally {
      await recorder.close();
    }
  }, 120_000);

  it('backs off when the tenant throttles: every file lands once, with few requests refused', async () => {
    // A gateway that takes 6 at once and answers 429 (Retry-After: 0) to a seventh.
    const { server, mentor, engine } = await setup();
    server.setFaults('latency=30-30ms,capacity=6,retryAfter=0');
    const files: Record<string, string> = {};
    for (let i = 0; i < 120; i++) files[`throttled/file-${i}.md`] = text(`File ${i}`);
    const preview = await engine.invoke('train.preview', { mentor, paths: [tree(files)] });
    server.takeLoad();
    const { jobId } = await engine.invoke('train.start', { previewId: preview.id });
    const job = await waitForJob(engine, jobId, ['completed', 'failed', 'cancelled'], 90_000);
    const load = server.takeLoad();
    server.setFaults('');
    expect(job.counts).toMatchObject({ uploaded: 120, trained: 120, failed: 0 });
    const docs = serverDocuments(server, mentor);
    expect(docs).toHaveLength(120);
    expect(duplicatesOf(docs)).toEqual([]);
    // It did try beyond 6 (it learns by probing), and halved each time it was refused: a job held at 16 would be
    // refused ten requests a round.
    expect(load.refusedForLoad).toBeGreaterThan(0);
    expect(load.refusedForLoad).toBeLessThanOrEqual(15);
  }, 120_000);
});
