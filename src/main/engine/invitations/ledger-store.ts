/**
 * What the invite job has sent: every address invited per tenant and target (`invite_sent`, so a re-run or a resume
 * never invites it again), and the chunks whose answers are not recorded yet (`invite_inflight`, asked about after a
 * crash). Statements are prepared once: a million-row job runs them for every chunk.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store';

export class InviteLedger {
  private readonly inflightOf: Statement;
  private readonly addInflight: Statement;
  private readonly dropInflight: Statement;
  private readonly dropAllInflight: Statement;
  private readonly sentAmong: Statement;
  private readonly recordSent: Statement;

  constructor(db: Db) {
    this.inflightOf = db.prepare('SELECT item_ids FROM invite_inflight WHERE job_id = ?');
    this.addInflight = db.prepare('INSERT INTO invite_inflight (job_id, chunk, item_ids) VALUES (?, ?, ?)');
    this.dropInflight = db.prepare('DELETE FROM invite_inflight WHERE job_id = ? AND chunk = ?');
    this.dropAllInflight = db.prepare('DELETE FROM invite_inflight WHERE job_id = ?');
    this.sentAmong = db.prepare(
      `SELECT email_key, job_id FROM invite_sent WHERE profile_id = ? AND target = ?
       AND email_key IN (SELECT value FROM json_each(?))`,
    );
    this.recordSent = db.prepare(
      `INSERT INTO invite_sent (profile_id, target, email_key, job_id, at)
       SELECT ?, ?, value, ?, ? FROM json_each(?) WHERE true
       ON CONFLICT (profile_id, target, email_key) DO NOTHING`,
    );
  }

  /** The items of the job's chunks whose answers were never recorded. */
  inflight(jobId: string): number[] {
    const rows = this.inflightOf.all(jobId) as { item_ids: string }[];
    return rows.flatMap((row) => JSON.parse(row.item_ids) as number[]);
  }

  /** A chunk about to be sent, journaled before the request leaves. */
  sending(jobId: string, chunk: number, itemIds: readonly number[]): void {
    this.addInflight.run(jobId, chunk, JSON.stringify(itemIds));
  }

  /** The chunk's answer is recorded (or it was not applied). */
  settled(jobId: string, chunk: number): void {
    this.dropInflight.run(jobId, chunk);
  }

  settledAll(jobId: string): void {
    this.dropAllInflight.run(jobId);
  }

  /** Which of these addresses were invited to the target before, and by which job (null: one at a time). */
  sentBefore(profileId: string, target: string, keys: readonly string[]): Map<string, string | null> {
    const rows = this.sentAmong.all(profileId, target, JSON.stringify(keys)) as {
      email_key: string;
      job_id: string | null;
    }[];
    return new Map(rows.map((row) => [row.email_key, row.job_id]));
  }

  /** Addresses invited to the target, by a job or (jobId null) one at a time; already recorded ones stay. */
  recordInvited(profileId: string, target: string, jobId: string | null, at: string, keys: readonly string[]): void {
    this.recordSent.run(profileId, target, jobId, at, JSON.stringify(keys));
  }
}
