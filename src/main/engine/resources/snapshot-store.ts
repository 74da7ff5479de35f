/**
 * The local history of single records that keep one (a mentor's settings): the one owner of `resource_snapshots`.
 * Every save keeps the record as the platform answered it, per tenant connection, kind and parent.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store';
import { KeptRecord } from './cache';

type Row = Record<string, unknown>;

export type SnapshotReason = 'found' | 'saved' | 'reverted';

export interface Snapshot {
  id: number;
  takenAt: string;
  reason: SnapshotReason;
  revertedTo: number | null;
  changed: string[];
  record: Row;
}

interface SnapshotRow {
  id: number;
  taken_at: string;
  reason: SnapshotReason;
  reverted_to: number | null;
  changed: string;
  data: string;
}

const toSnapshot = (row: SnapshotRow): Snapshot => ({
  id: row.id,
  takenAt: row.taken_at,
  reason: row.reason,
  revertedTo: row.reverted_to,
  changed: JSON.parse(row.changed) as string[],
  record: JSON.parse(row.data) as Row,
});

/** A snapshot's data: the record's JSON text, made once already when it comes as the cache keeps it. */
function jsonOf(kind: string, record: Row | KeptRecord): string {
  if (!(record instanceof KeptRecord)) return JSON.stringify(record);
  if (record.kind !== kind) throw new Error(`A ${record.kind} record kept in the history of ${kind}`);
  return record.json;
}

export class SnapshotStore {
  constructor(private readonly db: Db) {}

  /** Prepared once: a bulk change keeps hundreds of snapshots in a row. */
  private readonly statements = new Map<string, Statement>();
  private sql(text: string): Statement {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  /**
   * Keeps a save: first, when this parent has no history yet, the record as it was before (`before`), so the
   * first change can be undone too.
   */
  keep(
    profileId: string,
    kind: string,
    key: string,
    save: { before: Row | null; after: Row; changed: string[]; revertedTo?: number | null },
    at = new Date().toISOString(),
  ): number {
    return this.keepAll(profileId, kind, [{ key, ...save }], at)[0]!;
  }

  /**
   * `keep` for many parents (a bulk change's batch) in one transaction; the new snapshots' ids in order. `after` may
   * come as the cache keeps it (its JSON text made once for both).
   */
  keepAll(
    profileId: string,
    kind: string,
    saves: readonly {
      key: string;
      before: Row | null;
      after: Row | KeptRecord;
      changed: string[];
      revertedTo?: number | null;
    }[],
    at = new Date().toISOString(),
  ): number[] {
    const insert = this.sql(
      `INSERT INTO resource_snapshots (profile_id, kind, key, taken_at, reason, reverted_to, changed, data)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    return this.db.transaction(() => {
      // Which parents have a history already: one index probe each, however long their histories are.
      const known = new Set(
        this.sql(
          `SELECT value FROM json_each(@keys) WHERE EXISTS (
             SELECT 1 FROM resource_snapshots WHERE profile_id = @profileId AND kind = @kind AND key = value)`,
        )
          .pluck()
          .all({ profileId, kind, keys: JSON.stringify(saves.map((save) => save.key)) }) as string[],
      );
      return saves.map((save) => {
        if (!known.has(save.key) && save.before) {
          insert.run(profileId, kind, save.key, at, 'found', null, '[]', JSON.stringify(save.before));
        }
        known.add(save.key);
        const reason: SnapshotReason = save.revertedTo ? 'reverted' : 'saved';
        const result = insert.run(
          profileId,
          kind,
          save.key,
          at,
          reason,
          save.revertedTo ?? null,
          JSON.stringify(save.changed),
          jsonOf(kind, save.after),
        );
        return Number(result.lastInsertRowid);
      });
    })();
  }

  /** A parent's snapshots, newest first. */
  list(profileId: string, kind: string, key: string): Snapshot[] {
    const rows = this.db
      .prepare(
        `SELECT id, taken_at, reason, reverted_to, changed, data FROM resource_snapshots
         WHERE profile_id = ? AND kind = ? AND key = ? ORDER BY id DESC`,
      )
      .all(profileId, kind, key) as SnapshotRow[];
    return rows.map(toSnapshot);
  }

  /** One snapshot of this tenant's parent, or null (another tenant's snapshot is never found here). */
  find(profileId: string, kind: string, key: string, id: number): Snapshot | null {
    const row = this.db
      .prepare(
        `SELECT id, taken_at, reason, reverted_to, changed, data FROM resource_snapshots
         WHERE profile_id = ? AND kind = ? AND key = ? AND id = ?`,
      )
      .get(profileId, kind, key, id) as SnapshotRow | undefined;
    return row ? toSnapshot(row) : null;
  }
}
