/** The erasure reports kept on this computer: the one owner of `person_erasures`. */
import { createHash } from 'node:crypto';
import type { ErasureReport, EraseStep } from '../../../../shared/contract';
import type { Db } from '../../store';

interface Row {
  id: string;
  profile_id: string;
  job_id: string;
  user_id: string;
  username: string;
  email: string | null;
  requested_by: string;
  requested_at: string;
  finished_at: string | null;
  state: ErasureReport['state'];
  steps: string;
  digest: string | null;
}

const toReport = (row: Row): ErasureReport => ({
  id: row.id,
  jobId: row.job_id,
  userId: row.user_id,
  username: row.username,
  email: row.email,
  requestedBy: row.requested_by,
  requestedAt: row.requested_at,
  finishedAt: row.finished_at,
  state: row.state,
  steps: JSON.parse(row.steps) as ErasureReport['steps'],
  digest: row.digest,
});

/** The digest a report is signed off with: SHA-256 over its fields in a fixed order. */
export function reportDigest(report: Omit<ErasureReport, 'digest'>): string {
  const { id, jobId, userId, username, email, requestedBy, requestedAt, finishedAt, state, steps } = report;
  const canonical = JSON.stringify([
    id,
    jobId,
    userId,
    username,
    email,
    requestedBy,
    requestedAt,
    finishedAt,
    state,
    steps,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

export class ErasureStore {
  constructor(private readonly db: Db) {}

  create(profileId: string, report: Omit<ErasureReport, 'digest' | 'finishedAt' | 'state'>): void {
    this.db
      .prepare(
        `INSERT INTO person_erasures (id, profile_id, job_id, user_id, username, email, requested_by, requested_at,
           state, steps) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?)`,
      )
      .run(
        report.id,
        profileId,
        report.jobId,
        report.userId,
        report.username,
        report.email,
        report.requestedBy,
        report.requestedAt,
        JSON.stringify(report.steps),
      );
  }

  byJob(jobId: string): ErasureReport | null {
    const row = this.db.prepare('SELECT * FROM person_erasures WHERE job_id = ?').get(jobId) as Row | undefined;
    return row ? toReport(row) : null;
  }

  list(profileId: string): ErasureReport[] {
    const rows = this.db
      .prepare('SELECT * FROM person_erasures WHERE profile_id = ? ORDER BY requested_at DESC, id')
      .all(profileId) as Row[];
    return rows.map(toReport);
  }

  /** One step's outcome (how many it cleared). */
  erased(jobId: string, step: EraseStep, count: number): void {
    const report = this.byJob(jobId);
    if (!report) return;
    const steps = report.steps.map((s) => (s.step === step ? { ...s, erased: count } : s));
    this.db.prepare('UPDATE person_erasures SET steps = ? WHERE job_id = ?').run(JSON.stringify(steps), jobId);
  }

  /** Signs the report off: its end, and the digest of what it says. */
  finish(jobId: string, state: 'erased' | 'failed', at = new Date().toISOString()): void {
    const report = this.byJob(jobId);
    if (!report || report.state !== 'running') return;
    const ended = { ...report, state, finishedAt: at };
    this.db
      .prepare('UPDATE person_erasures SET state = ?, finished_at = ?, digest = ? WHERE job_id = ?')
      .run(state, at, reportDigest(ended), jobId);
  }
}
