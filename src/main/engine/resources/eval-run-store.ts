/**
 * A mentor's evaluation runs started from this app, with their reports: the one owner of `mentor_eval_runs`. The
 * platform answers a run with a report id but lists no reports, so this is where runs are listed and compared.
 */
import type { EvalReport, EvalRun, EvalRunState } from '../../../shared/contract';
import type { Db } from '../store';

interface RunRow {
  id: number;
  profile_id: string;
  mentor: string;
  evaluation_id: number;
  job_id: string | null;
  report_id: number | null;
  started_at: string;
  state: EvalRunState;
  error: string | null;
  report: string | null;
}

const toRun = (row: RunRow): EvalRun => ({
  id: row.id,
  mentor: row.mentor,
  evaluationId: row.evaluation_id,
  reportId: row.report_id,
  startedAt: row.started_at,
  state: row.state,
  jobId: row.job_id,
  error: row.error,
  report: row.report ? (JSON.parse(row.report) as EvalReport) : null,
});

export class EvalRunStore {
  constructor(private readonly db: Db) {}

  /** A new run, before anything is sent. */
  start(profileId: string, mentor: string, evaluationId: number, at = new Date().toISOString()): number {
    return Number(
      this.db
        .prepare(
          `INSERT INTO mentor_eval_runs (profile_id, mentor, evaluation_id, started_at, state)
           VALUES (?, ?, ?, ?, 'sending')`,
        )
        .run(profileId, mentor, evaluationId, at).lastInsertRowid,
    );
  }

  setJob(id: number, jobId: string): void {
    this.db.prepare('UPDATE mentor_eval_runs SET job_id = ? WHERE id = ?').run(jobId, id);
  }

  /** The platform took the run: its report is being written. */
  sent(id: number, reportId: number): void {
    this.db.prepare("UPDATE mentor_eval_runs SET report_id = ?, state = 'waiting' WHERE id = ?").run(reportId, id);
  }

  ready(id: number, report: EvalReport): void {
    this.db
      .prepare("UPDATE mentor_eval_runs SET report = ?, state = 'ready', error = NULL WHERE id = ?")
      .run(JSON.stringify(report), id);
  }

  fail(id: number, error: string): void {
    this.db.prepare("UPDATE mentor_eval_runs SET state = 'failed', error = ? WHERE id = ?").run(error, id);
  }

  /** One run of this tenant connection (undefined for another tenant's). */
  run(profileId: string, id: number): EvalRun | undefined {
    const row = this.db.prepare('SELECT * FROM mentor_eval_runs WHERE id = ? AND profile_id = ?').get(id, profileId) as
      RunRow | undefined;
    return row && toRun(row);
  }

  /** A mentor's runs, newest first. */
  runs(profileId: string, mentor: string): EvalRun[] {
    const rows = this.db
      .prepare('SELECT * FROM mentor_eval_runs WHERE profile_id = ? AND mentor = ? ORDER BY id DESC')
      .all(profileId, mentor) as RunRow[];
    return rows.map(toRun);
  }
}
