import type { Db } from '../../db';

/**
 * Derived learning tables (schema.ts): each learner's totals and active days by the previous active day. They are
 * built in one pass after seeding, kept in step by triggers afterwards, and rebuilt before the next answer when a
 * change the triggers do not follow (or an older data folder without them) leaves them stale.
 *
 * Bump the version when the derived tables' definition changes: existing data folders then rebuild them once.
 */
export const DERIVED_VERSION = 1;

export function rebuildDerived(db: Db): void {
  db.transaction(() => {
    db.exec(`
      DELETE FROM learner_totals;
      INSERT INTO learner_totals (user_id, enrollments, completions, passed)
        SELECT user_id, count(*), count(completed_at), sum(passed) FROM learning_enrollments GROUP BY user_id;
      INSERT INTO learner_totals (user_id, seconds)
        SELECT user_id, sum(seconds) FROM learning_time WHERE true GROUP BY user_id
        ON CONFLICT (user_id) DO UPDATE SET seconds = excluded.seconds;

      DELETE FROM learning_activity_gaps;
      INSERT INTO learning_activity_gaps (org, day, prev_day, department_id, users)
        SELECT org, day, prev_day, department_id, count(*) FROM (
          SELECT a.org, a.day, coalesce(lag(a.day) OVER (PARTITION BY a.org, a.user_id ORDER BY a.day), '') AS prev_day,
            coalesce(u.department_id, -1) AS department_id
          FROM learning_activity a LEFT JOIN users u ON u.id = a.user_id
        ) GROUP BY org, day, prev_day, department_id ORDER BY org, day, prev_day, department_id;
    `);
    db.prepare("UPDATE analytics_state SET value = ? WHERE key = 'learning_derived'").run(DERIVED_VERSION);
  })();
  db.exec('ANALYZE learner_totals; ANALYZE learning_activity_gaps');
}

/** A check before reading the derived tables: one indexed read, and a rebuild only when they are stale. */
export interface DerivedTables {
  ensure(): void;
}

export function derivedTables(db: Db): DerivedTables {
  const version = db.prepare("SELECT value FROM analytics_state WHERE key = 'learning_derived'").pluck();
  return {
    ensure() {
      if (version.get() !== DERIVED_VERSION) rebuildDerived(db);
    },
  };
}
