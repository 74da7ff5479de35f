/**
 * Follows a job this process started until it settles, printing progress: one line a second on stderr, or JSON
 * lines with --json. How long a job waits for an unreachable tenant is the runner's wait limit (the app's setting,
 * or `jobs resume --wait-limit`): when it runs out the runner pauses the job, saying why, and this returns. Ctrl-C
 * pauses the job cleanly.
 */
import type { Job } from '../../shared/contract';
import type { Engine } from '../engine';
import type { CliIo, Output } from './io';

const SETTLED = new Set<Job['state']>(['completed', 'failed', 'cancelled', 'paused']);

/** Items finished either way (done, failed or skipped). */
export const finishedItems = (job: Job) => job.progress.done + job.progress.failed + job.progress.skipped;

export async function followUntilSettled(
  engine: Engine,
  jobId: string,
  out: Output,
  io: CliIo,
  /** The human progress line (a waiting job prints its reason instead). */
  describe: (job: Job) => string,
): Promise<Job> {
  let lastPrinted = Date.now();
  let interrupted = false;
  const onInterrupt = () => {
    interrupted = true;
    void engine.call('jobs.pause', { id: jobId });
  };
  process.once('SIGINT', onInterrupt);
  try {
    for (;;) {
      const job = await engine.invoke('jobs.get', { id: jobId });
      if (SETTLED.has(job.state) || interrupted) return job;
      if (Date.now() - lastPrinted > 1000) {
        lastPrinted = Date.now();
        const { total } = job.progress;
        if (out.json) {
          const done = finishedItems(job);
          out.record({ event: 'progress', job: jobId, state: job.state, done, total, counts: job.counts }, '');
        } else io.stderr.write(`${job.state === 'waiting' && job.reason ? job.reason : describe(job)}\n`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}
