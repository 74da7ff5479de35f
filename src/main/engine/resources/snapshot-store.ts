/**
 * The local history of single records that keep one (a mentor's settings): the one owner of `resource_snapshots`.
 * Every save keeps the record as the platform answered it, per tenant connection, kind and parent.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store';

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

  /** `keep` for many parents (a bulk change's batch) in one transaction; the new snapshots' ids in order. */
  keepAll(
    profileId: string,
    kind: string,
    saves: readonly { key: string; before: Row | null; after: Row; changed: string[]; revertedTo?: number | null }[],
    at = new Date().toISOString(),
  ): number[] {
    const insert = this.sql(
      `INSERT INTO resource_snapshots (profile_id, kind, key, taken_at, reason, reverted_to, changed, data)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    return this.db.transaction(() => {
      const known = new Set(
        this.sql(
          `SELECT DISTINCT key FROM resource_snapshots
             WHERE profile_id = ? AND kind = ? AND key IN (SELECT value FROM json_each(?))`,
        )
          .pluck()
          .all(profileId, kind, JSON.stringify(saves.map((save) => save.key))) as string[],
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
          JSON.stringify(save.after),
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
