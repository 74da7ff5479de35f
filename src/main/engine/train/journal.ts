/**
 * The training job's writes to the job journal (the same `job_items` and `jobs` rows JobStore owns), each one
 * statement prepared once: a 10,000-file job makes ~40,000 of them, so reading an item back to merge its data
 * (as JobStore.updateItem does) would cost more than the uploads. `data` is merged by SQLite's json_patch: a key
 * set to null is removed.
 */
import type { ItemState } from '../../../shared/contract';
import type { Db } from '../store/database';

export interface ItemChange {
  state?: ItemState;
  phase?: string;
  /** null clears it. */
  error?: string | null;
  bytes?: number;
  attempt?: boolean;
  data?: Record<string, unknown>;
}

export class TrainJournal {
  private readonly updateItem;
  private readonly addCount;

  constructor(private readonly db: Db) {
    this.updateItem = db.prepare(
      `UPDATE job_items SET
         state = coalesce(@state, state),
         phase = coalesce(@phase, phase),
         error = CASE WHEN @setError THEN @error ELSE error END,
         bytes = coalesce(@bytes, bytes),
         attempts = attempts + @attempt,
         data = CASE WHEN @data IS NULL THEN data ELSE json_patch(data, @data) END,
         updated_at = @at
       WHERE id = @id`,
    );
    this.addCount = db.prepare(
      `UPDATE jobs SET counts = json_set(counts, @path, coalesce(json_extract(counts, @path), 0) + @delta), updated_at = @at
       WHERE id = @id`,
    );
  }

  item(id: number, change: ItemChange): void {
    this.updateItem.run({
      id,
      state: change.state ?? null,
      phase: change.phase ?? null,
      setError: change.error === undefined ? 0 : 1,
      error: change.error ?? null,
      bytes: change.bytes ?? null,
      attempt: change.attempt ? 1 : 0,
      data: change.data ? JSON.stringify(change.data) : null,
      at: new Date().toISOString(),
    });
  }

  count(jobId: string, delta: Record<string, number>): void {
    const at = new Date().toISOString();
    for (const [key, value] of Object.entries(delta))
      this.addCount.run({ id: jobId, path: `$.${key}`, delta: value, at });
  }

  /** Runs `work` in one transaction (nested ones become savepoints). */
  atomically(work: () => void): void {
    this.db.transaction(work)();
  }
}
