/**
 * What this app uploaded to each mentor (`train_uploads`): relative path + SHA-256 → the document it became. An
 * upload is claimed here before it is sent, in one immediate transaction, so two jobs (even in two processes, the
 * app and the CLI) never send the same content for the same mentor at once.
 */
import type { Statement } from 'better-sqlite3';
import { UNFINISHED_STATES, type JobJournal } from '../jobs';
import type { Db } from '../store';

export type UploadStatus = 'uploading' | 'pending' | 'trained' | 'failed';

export interface UploadRow {
  profile_id: string;
  mentor_id: string;
  relative_path: string;
  sha256: string;
  job_id: string;
  item_id: number;
  document_id: string | null;
  task_id: string | null;
  status: UploadStatus;
  created_at: string;
  updated_at: string;
}

export interface UploadKey {
  profileId: string;
  mentorId: string;
  relativePath: string;
  sha256: string;
}

/** `takenOver`: an earlier claim of this content had no answer, so the platform may hold it: look before sending. */
export type Claim = { mine: true; takenOver: boolean } | { mine: false; reason: string; documentId: string | null };

/** Jobs that may still send what they claimed. */
const LIVE_JOB_STATES = new Set(UNFINISHED_STATES);
const now = () => new Date().toISOString();
const short = (id: string) => id.slice(0, 8);

export class UploadLedger {
  private readonly statements = new Map<string, Statement<unknown[]>>();

  constructor(
    private readonly db: Db,
    /** The states of the jobs that made the uploads. */
    private readonly journal: JobJournal,
  ) {}

  /** Prepared once: a big job claims, acknowledges and settles thousands of rows. */
  private sql(text: string): Statement<unknown[]> {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  /** Every upload of a mentor, with the state of the job that made it. */
  forMentor(profileId: string, mentorId: string): (UploadRow & { job_state: string | null })[] {
    const rows = this.sql('SELECT * FROM train_uploads WHERE profile_id = ? AND mentor_id = ?').all(
      profileId,
      mentorId,
    ) as UploadRow[];
    const states = this.journal.states([...new Set(rows.map((row) => row.job_id))]);
    return rows.map((row) => ({ ...row, job_state: states.get(row.job_id) ?? null }));
  }

  /** Forgets acknowledged uploads whose documents are no longer on the platform (deleted there). */
  forgetMissing(profileId: string, mentorId: string, existing: ReadonlySet<string>): void {
    const stale = this.forMentor(profileId, mentorId).filter(
      (row) => row.document_id !== null && !existing.has(row.document_id),
    );
    if (!stale.length) return;
    const remove = this.sql(
      'DELETE FROM train_uploads WHERE profile_id = ? AND mentor_id = ? AND relative_path = ? AND sha256 = ?',
    );
    this.db.transaction(() => stale.forEach((row) => remove.run(profileId, mentorId, row.relative_path, row.sha256)))();
  }

  /**
   * Claims the right to send this content for `jobId`'s item. Another live job's claim wins (it is sending the same
   * bytes now), and so does an acknowledged upload (the preview saw no such document, so it came since; documents
   * deleted on the platform were forgotten by the preview). A claim of a job that ended without an answer, or whose
   * document failed to train, is taken over. `onMine` runs in the same transaction (the journal's 'uploading' mark).
   */
  claim(key: UploadKey, jobId: string, itemId: number, onMine?: () => void): Claim {
    const decide = this.db.transaction((): Claim => {
      const claim = this.decide(key, jobId, itemId);
      if (claim.mine) onMine?.();
      return claim;
    });
    return decide.immediate();
  }

  private decide(key: UploadKey, jobId: string, itemId: number): Claim {
    const row = this.get(key);
    if (!row) {
      const at = now();
      this.sql(
        `INSERT INTO train_uploads (profile_id, mentor_id, relative_path, sha256, job_id, item_id, status, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, 'uploading', ?, ?)`,
      ).run(key.profileId, key.mentorId, key.relativePath, key.sha256, jobId, itemId, at, at);
      return { mine: true, takenOver: false };
    }
    if (row.job_id === jobId && row.item_id === itemId) return { mine: true, takenOver: false };
    if (row.status !== 'failed') {
      const other = this.journal.state(row.job_id);
      const live = !!other && LIVE_JOB_STATES.has(other) && row.job_id !== jobId;
      if (row.document_id !== null) {
        // The preview found no such document, so it was uploaded since, by another job.
        const when = live ? 'at the same time' : 'meanwhile';
        return {
          mine: false,
          documentId: row.document_id,
          reason: `Uploaded ${when} by job ${short(row.job_id)} as document ${row.document_id}`,
        };
      }
      if (live) {
        return {
          mine: false,
          documentId: null,
          reason: `Being uploaded at the same time by job ${short(row.job_id)}`,
        };
      }
    }
    this.sql(
      `UPDATE train_uploads SET job_id = ?, item_id = ?, document_id = NULL, task_id = NULL, status = 'uploading',
           created_at = ?, updated_at = ? WHERE profile_id = ? AND mentor_id = ? AND relative_path = ? AND sha256 = ?`,
    ).run(jobId, itemId, now(), now(), key.profileId, key.mentorId, key.relativePath, key.sha256);
    return { mine: true, takenOver: true };
  }

  /** The platform acknowledged (or was found to hold) the upload. */
  acknowledge(key: UploadKey, documentId: string, taskId: string | null): void {
    this.update(key, `document_id = ?, task_id = ?, status = 'pending'`, documentId, taskId);
  }

  settle(key: UploadKey, status: 'trained' | 'failed'): void {
    this.update(key, 'status = ?', status);
  }

  /** Gives a claim back (the upload was refused), so a later job may try again. */
  release(key: UploadKey, jobId: string): void {
    this.sql(
      `DELETE FROM train_uploads WHERE profile_id = ? AND mentor_id = ? AND relative_path = ? AND sha256 = ?
           AND job_id = ? AND document_id IS NULL`,
    ).run(key.profileId, key.mentorId, key.relativePath, key.sha256, jobId);
  }

  /** A superseded document was deleted from the platform. */
  forgetDocument(profileId: string, mentorId: string, documentId: string): void {
    this.sql('DELETE FROM train_uploads WHERE profile_id = ? AND mentor_id = ? AND document_id = ?').run(
      profileId,
      mentorId,
      documentId,
    );
  }

  private get(key: UploadKey): UploadRow | undefined {
    return this.sql(
      'SELECT * FROM train_uploads WHERE profile_id = ? AND mentor_id = ? AND relative_path = ? AND sha256 = ?',
    ).get(key.profileId, key.mentorId, key.relativePath, key.sha256) as UploadRow | undefined;
  }

  private update(key: UploadKey, set: string, ...values: unknown[]): void {
    this.sql(
      `UPDATE train_uploads SET ${set}, updated_at = ?
         WHERE profile_id = ? AND mentor_id = ? AND relative_path = ? AND sha256 = ?`,
    ).run(...values, now(), key.profileId, key.mentorId, key.relativePath, key.sha256);
  }
}
