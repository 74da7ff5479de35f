/**
 * Per-tenant concurrency, counted where it matters: at the platform. A proxy in front of the real sandbox (which
 * answers every request 40 ms late, as a tenant across the internet would) counts the uploads in flight at once.
 */
import { describe, expect, it } from 'vitest';
import { uploadRecorder } from './proxy';
import { newEngine, setup, text, tree, waitForJob } from './setup';

describe('upload concurrency', () => {
  it('is 4 by default, N for a job started with concurrency N, and back to 4 for the next job', async () => {
    const { server, mentor } = await setup();
    const recorder = await uploadRecorder(server.url);
    try {
      const { engine } = await newEngine({ ...server, url: recorder.url });
      server.setFaults('latency=40-40ms');
      // A job's concurrency is its own: neither a slower nor a faster one changes what the tenant's next job gets.
      const runs = [
        { concurrency: 2, peak: 2 },
        { concurrency: 1, peak: 1 },
        { concurrency: undefined, peak: 4 },
        { concurrency: 8, peak: 8 },
        { concurrency: undefined, peak: 4 },
      ];
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
      expect(peaks).toEqual(runs.map((run) => run.peak));
    } finally {
      await recorder.close();
    }
  }, 120_000);
});
