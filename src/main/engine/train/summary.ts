/** The counts of a training job, computed from its journal items (the truth) and written back to the job row. */
import type { Db } from '../store/database';

export interface TrainSummary {
  job: string;
  total: number;
  uploaded: number;
  skipped: number;
  trained: number;
  failed: number;
}

const COUNTED = ['uploaded', 'skipped', 'trained', 'failed'] as const;

export function trainSummary(db: Db, jobId: string): TrainSummary {
  const row = db
    .prepare(
      `SELECT count(*) AS total,
         coalesce(sum(json_extract(data, '$.uploadedAt') IS NOT NULL), 0) AS uploaded,
         coalesce(sum(state = 'skipped'), 0) AS skipped,
         coalesce(sum(state = 'done'), 0) AS trained,
         coalesce(sum(state = 'failed'), 0) AS failed
       FROM job_items WHERE job_id = ?`,
    )
    .get(jobId) as Omit<TrainSummary, 'job'>;
  return { job: jobId, ...row };
}

/**
 * Makes the job's counts equal what its items say. Counts are also kept step by step (in the same transactions
 * as the items), but a retried item or a resumed run would otherwise count twice.
 */
export function reconcileCounts(db: Db, jobId: string): void {
  db.transaction(() => {
    const job = db.prepare('SELECT counts FROM jobs WHERE id = ?').get(jobId) as { counts: string } | undefined;
    if (!job) return;
    const counts = JSON.parse(job.counts) as Record<string, number>;
    const summary = trainSummary(db, jobId);
    for (const key of COUNTED) counts[key] = summary[key];
    db.prepare('UPDATE jobs SET counts = ? WHERE id = ?').run(JSON.stringify(counts), jobId);
  })();
}
