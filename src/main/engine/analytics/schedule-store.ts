/** The `analytics_schedules` table: scheduled exports as rows. */
import type { Db } from '../store';

export interface ScheduleRow {
  id: string;
  profile_id: string;
  name: string;
  dataset: string;
  cadence: 'daily' | 'weekly';
  weekday: number | null;
  time: string;
  time_zone: string;
  range_days: number;
  folder: string;
  mentor: string | null;
  options: string;
  enabled: number;
  last_slot: string | null;
  created_at: string;
  updated_at: string;
}

/** The columns a save writes (`at` is its time). */
export type ScheduleValues = Omit<ScheduleRow, 'id' | 'last_slot' | 'created_at' | 'updated_at'> & { at: string };

export class ScheduleStore {
  constructor(private readonly db: Db) {}

  get(id: string): ScheduleRow | undefined {
    return this.db.prepare('SELECT * FROM analytics_schedules WHERE id = ?').get(id) as ScheduleRow | undefined;
  }

  list(profileId?: string): ScheduleRow[] {
    return this.db
      .prepare(`SELECT * FROM analytics_schedules ${profileId ? 'WHERE profile_id = ?' : ''} ORDER BY name, created_at`)
      .all(...(profileId ? [profileId] : [])) as ScheduleRow[];
  }

  enabled(): ScheduleRow[] {
    return this.db.prepare('SELECT * FROM analytics_schedules WHERE enabled = 1').all() as ScheduleRow[];
  }

  insert(id: string, values: ScheduleValues): void {
    this.db
      .prepare(
        `INSERT INTO analytics_schedules (id, profile_id, name, dataset, cadence, weekday, time, time_zone, range_days,
           folder, mentor, options, enabled, last_slot, created_at, updated_at)
         VALUES (@id, @profile_id, @name, @dataset, @cadence, @weekday, @time, @time_zone, @range_days, @folder, @mentor,
           @options, @enabled, NULL, @at, @at)`,
      )
      .run({ ...values, id });
  }

  update(id: string, values: ScheduleValues): void {
    this.db
      .prepare(
        `UPDATE analytics_schedules SET profile_id = @profile_id, name = @name, dataset = @dataset, cadence = @cadence,
           weekday = @weekday, time = @time, time_zone = @time_zone, range_days = @range_days, folder = @folder,
           mentor = @mentor, options = @options, enabled = @enabled, updated_at = @at WHERE id = @id`,
      )
      .run({ ...values, id });
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM analytics_schedules WHERE id = ?').run(id);
  }

  /** The slot a schedule last ran for (recorded before the run: a crash never runs it twice). */
  markRun(id: string, slot: string): void {
    this.db.prepare('UPDATE analytics_schedules SET last_slot = ? WHERE id = ?').run(slot, id);
  }
}
