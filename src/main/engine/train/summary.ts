/** The counts of a training job, computed from its journal items (the truth) and written back to the job row. */
import type { JobJournal } from '../jobs';

export interface TrainSummary {
  job: string;
  total: number;
  uploaded: number;
  skipped: number;
  trained: number;
  failed: number;
}

export function trainSummary(journal: JobJournal, jobId: string): TrainSummary {
  const totals = journal.totals(jobId);
  return {
    job: jobId,
    total: totals.total,
    uploaded: journal.itemsWithDetail(jobId, 'uploadedAt'),
    skipped: totals.skipped,
    trained: totals.done,
    failed: totals.failed,
  };
}

/**
 * Makes the job's counts equal what its items say. Counts are also kept step by step (gathered for half a second),
 * but a retried item or a resumed run would otherwise count twice.
 */
export function reconcileCounts(journal: JobJournal, jobId: string): void {
  journal.transaction(() => {
    if (!journal.job(jobId)) return;
    const { uploaded, skipped, trained, failed } = trainSummary(journal, jobId);
    journal.setCounts(jobId, { uploaded, skipped, trained, failed });
  });
}
