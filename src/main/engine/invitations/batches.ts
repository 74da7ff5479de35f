/**
 * The tenant's CSV imports sent from this app, read from their invite jobs: each job's invitations carry its batch
 * tag as `source` (the spec's "The source of the invitation", a free string the list filters by exactly).
 */
import type { ImportBatch } from '../../../shared/contract';
import type { JobJournal } from '../jobs';
import type { InviteCounts, InviteJobParams } from './job';

/** How many batches the list's filter offers (the newest). */
const MAX_BATCHES = 200;

/** The tag of an import's invitations: the file and the moment it was confirmed, readable in the list's Source. */
export function batchSource(fileName: string, at: Date): string {
  const name = fileName.length > 80 ? `${fileName.slice(0, 79)}…` : fileName;
  return `csv:${name}@${at.toISOString().slice(0, 19)}Z`;
}

export function importBatches(jobs: JobJournal, profileId: string): ImportBatch[] {
  const batches: ImportBatch[] = [];
  for (let offset = 0; batches.length < MAX_BATCHES; offset += 500) {
    const { rows } = jobs.list({ kind: 'invite', limit: 500, offset });
    for (const job of rows) {
      if (job.profile_id !== profileId) continue;
      const params = JSON.parse(job.params) as Partial<InviteJobParams>;
      // Jobs from before batches were tagged carry the inviting username: they cannot be told apart.
      if (!params.source?.startsWith('csv:') || !params.target) continue;
      const counts = JSON.parse(job.counts) as InviteCounts;
      batches.push({
        source: params.source,
        fileName: params.fileName ?? '',
        target: params.target,
        jobId: job.id,
        createdAt: job.created_at,
        rows: params.rows ?? 0,
        invited: counts.invited ?? 0,
      });
    }
    if (rows.length < 500) break;
  }
  return batches.slice(0, MAX_BATCHES);
}
