/**
 * The rows of an import in SQLite: written in batches while the file is read, paged and filtered by the wizard,
 * fixed in place, dropped and restored. Duplicates (same address, any case) and each row's status are derived here.
 */
import {
  INVITE_FIELDS,
  type ImportRow,
  type ImportSummary,
  type InviteField,
  type RowFilter,
  type RowProblem,
  type RowStatus,
} from '../../../shared/contract/invitations';
import type { Db } from '../store';
import { KEEP_LINES, type BadOwners, type ParsedRow } from './parse';
import { asciiEmail, validateRow, type RowValues } from './validate';

const STATUS_SQL = `CASE WHEN problems IS NOT NULL THEN 'invalid' WHEN dup_of IS NOT NULL THEN 'duplicate'
  WHEN remote = 'member' THEN 'already_member' WHEN remote = 'invited' THEN 'already_invited' ELSE 'ok' END`;

/** Lookups by address must use the address index: without statistics SQLite would scan the primary key instead. */
const BY_EMAIL = 'invite_import_rows INDEXED BY invite_import_rows_by_email';
const BY_STATUS = 'invite_import_rows INDEXED BY invite_import_rows_by_status';

const FILTERS: Record<RowFilter, string> = {
  all: '1',
  problems: `dropped = 0 AND status IN ('invalid', 'duplicate')`,
  ok: `dropped = 0 AND status = 'ok'`,
  already: `dropped = 0 AND status IN ('already_invited', 'already_member')`,
  dropped: 'dropped = 1',
};

export interface StoredRow {
  line: number;
  email: string;
  first_name: string;
  last_name: string;
  company_name: string;
  user_group: string;
  user_group_owner_email: string;
  email_key: string | null;
  problems: string | null;
  dup_of: number | null;
  remote: 'invited' | 'member' | null;
  status: RowStatus;
  dropped: number;
  edited: number;
}

export function valuesOf(row: StoredRow): RowValues {
  return {
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    company_name: row.company_name,
    user_group: row.user_group,
    user_group_owner_email: row.user_group_owner_email,
  };
}

export function presentRow(row: StoredRow): ImportRow {
  return {
    line: row.line,
    values: valuesOf(row),
    status: row.status,
    problems: row.problems ? (JSON.parse(row.problems) as RowProblem[]) : [],
    duplicateOf: row.dup_of,
    dropped: row.dropped === 1,
    edited: row.edited === 1,
  };
}

export class ImportRows {
  private readonly insert;

  constructor(private readonly db: Db) {
    this.insert = db.prepare(
      `INSERT INTO invite_import_rows (import_id, line, email, first_name, last_name, company_name, user_group,
         user_group_owner_email, email_key, problems, status)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  clear(importId: string): void {
    this.db.prepare('DELETE FROM invite_import_rows WHERE import_id = ?').run(importId);
  }

  /** One transaction per batch: a few thousand rows. */
  insertBatch(importId: string, rows: readonly ParsedRow[]): void {
    this.db.transaction(() => {
      for (const row of rows) {
        this.insert.run(
          importId,
          row.line,
          row.email,
          row.first_name,
          row.last_name,
          row.company_name,
          row.user_group,
          row.user_group_owner_email,
          row.emailKey,
          row.problems ? JSON.stringify(row.problems) : null,
          row.problems ? 'invalid' : 'ok',
        );
      }
    })();
  }

  /** Re-applies the admin's fixes and drops after the file was read again; answers the fields that were fixed. */
  applyEdits(importId: string): string[] {
    const edits = this.db
      .prepare('SELECT line, field, value FROM invite_import_edits WHERE import_id = ? ORDER BY line')
      .all(importId) as { line: number; field: string; value: string }[];
    if (!edits.length) return [];
    this.db.transaction(() => {
      for (const edit of edits) {
        if (edit.field === 'dropped') {
          this.db
            .prepare('UPDATE invite_import_rows SET dropped = ? WHERE import_id = ? AND line = ?')
            .run(edit.value === '1' ? 1 : 0, importId, edit.line);
        } else if ((INVITE_FIELDS as readonly string[]).includes(edit.field)) {
          this.writeValue(importId, edit.line, edit.field as InviteField, edit.value);
        }
      }
    })();
    return [...new Set(edits.map((edit) => edit.field))];
  }

  /** Rows whose group owner is not an address (a scan of the rows that have an owner: worker side, or small files). */
  badOwners(importId: string): BadOwners {
    const found: BadOwners = { count: 0, lines: [] };
    const rows = this.db
      .prepare(
        `SELECT line, user_group_owner_email AS owner FROM invite_import_rows
         WHERE import_id = ? AND user_group_owner_email <> '' ORDER BY line`,
      )
      .iterate(importId) as Iterable<{ line: number; owner: string }>;
    for (const row of rows) {
      if (asciiEmail(row.owner)) continue;
      found.count++;
      if (found.lines.length < KEEP_LINES) found.lines.push(row.line);
    }
    return found;
  }

  /** Marks every row whose address appeared on an earlier (kept) row; then every status. */
  markDuplicates(importId: string): void {
    this.db.transaction(() => {
      this.db
        .prepare('UPDATE invite_import_rows SET dup_of = NULL WHERE import_id = ? AND dup_of IS NOT NULL')
        .run(importId);
      this.db
        .prepare(
          `UPDATE invite_import_rows AS r SET dup_of = d.first
           FROM (SELECT line, min(line) OVER (PARTITION BY email_key) AS first FROM ${BY_EMAIL}
                 WHERE import_id = @id AND email_key IS NOT NULL AND dropped = 0) AS d
           WHERE r.import_id = @id AND r.line = d.line AND d.first <> d.line`,
        )
        .run({ id: importId });
      this.refreshStatus(importId);
    })();
  }

  /** Recomputes duplicates of the given addresses only (after a fix or a drop). */
  private remarkKeys(importId: string, keys: readonly string[]): void {
    const update = this.db.prepare(
      `UPDATE ${BY_EMAIL} SET dup_of = (
         SELECT min(o.line) FROM invite_import_rows AS o INDEXED BY invite_import_rows_by_email
         WHERE o.import_id = invite_import_rows.import_id AND o.email_key = invite_import_rows.email_key
           AND o.dropped = 0 AND o.line < invite_import_rows.line)
       WHERE import_id = ? AND email_key = ?`,
    );
    for (const key of new Set(keys)) update.run(importId, key);
  }

  refreshStatus(importId: string, where = '1', ...params: unknown[]): void {
    const table = where.startsWith('email_key') ? BY_EMAIL : 'invite_import_rows';
    this.db
      .prepare(
        `UPDATE ${table} SET status = ${STATUS_SQL}
         WHERE import_id = ? AND (${where}) AND status <> ${STATUS_SQL}`,
      )
      .run(importId, ...params);
  }

  row(importId: string, line: number): StoredRow | undefined {
    return this.db.prepare('SELECT * FROM invite_import_rows WHERE import_id = ? AND line = ?').get(importId, line) as
      StoredRow | undefined;
  }

  page(importId: string, filter: RowFilter, offset: number, limit: number): { rows: StoredRow[]; total: number } {
    const where = FILTERS[filter];
    const table = filter === 'all' ? 'invite_import_rows' : BY_STATUS;
    const total = (
      this.db.prepare(`SELECT count(*) AS n FROM ${table} WHERE import_id = ? AND ${where}`).get(importId) as {
        n: number;
      }
    ).n;
    const rows = this.db
      .prepare(`SELECT * FROM ${table} WHERE import_id = ? AND ${where} ORDER BY line LIMIT ? OFFSET ?`)
      .all(importId, limit, offset) as StoredRow[];
    return { rows, total };
  }

  /** Rows in line order, a page at a time (never one big array). */
  *inOrder(importId: string, pageSize = 5000): Generator<StoredRow> {
    let after = 0;
    for (;;) {
      const rows = this.db
        .prepare('SELECT * FROM invite_import_rows WHERE import_id = ? AND line > ? ORDER BY line LIMIT ?')
        .all(importId, after, pageSize) as StoredRow[];
      if (!rows.length) return;
      yield* rows;
      after = rows[rows.length - 1]!.line;
    }
  }

  summary(importId: string): ImportSummary {
    const groups = this.db
      .prepare(
        'SELECT dropped, status, count(*) AS n FROM invite_import_rows WHERE import_id = ? GROUP BY dropped, status',
      )
      .all(importId) as { dropped: number; status: RowStatus; n: number }[];
    const summary: ImportSummary = {
      rows: 0,
      ok: 0,
      invalid: 0,
      duplicate: 0,
      alreadyInvited: 0,
      alreadyMember: 0,
      dropped: 0,
      willEmail: 0,
    };
    for (const group of groups) {
      summary.rows += group.n;
      if (group.dropped) {
        summary.dropped += group.n;
        continue;
      }
      if (group.status === 'ok') summary.ok += group.n;
      else if (group.status === 'invalid') summary.invalid += group.n;
      else if (group.status === 'duplicate') summary.duplicate += group.n;
      else if (group.status === 'already_invited') summary.alreadyInvited += group.n;
      else summary.alreadyMember += group.n;
    }
    summary.willEmail = summary.ok;
    return summary;
  }

  /** How many distinct addresses the import's rows name. */
  addressCount(importId: string): number {
    const row = this.db
      .prepare(
        `SELECT count(DISTINCT email_key) AS n FROM invite_import_rows INDEXED BY invite_import_rows_by_email
         WHERE import_id = ? AND email_key IS NOT NULL`,
      )
      .get(importId) as { n: number };
    return row.n;
  }

  /** Distinct addresses of kept rows that could be sent, a page at a time: what the platform is asked about. */
  *addresses(importId: string, pageSize = 1000): Generator<string[]> {
    let after = '';
    for (;;) {
      const keys = (
        this.db
          .prepare(
            `SELECT DISTINCT email_key FROM ${BY_EMAIL} WHERE import_id = ? AND email_key IS NOT NULL
             AND email_key > ? ORDER BY email_key LIMIT ?`,
          )
          .all(importId, after, pageSize) as { email_key: string }[]
      ).map((r) => r.email_key);
      if (!keys.length) return;
      yield keys;
      after = keys[keys.length - 1]!;
    }
  }

  clearRemote(importId: string): void {
    this.db
      .prepare('UPDATE invite_import_rows SET remote = NULL WHERE import_id = ? AND remote IS NOT NULL')
      .run(importId);
  }

  setRemote(importId: string, keys: readonly string[], remote: 'invited' | 'member'): void {
    const update = this.db.prepare(
      // A member is more than invited: never downgrade.
      `UPDATE ${BY_EMAIL} SET remote = ? WHERE import_id = ? AND email_key = ? AND (remote IS NULL OR ? = 'member')`,
    );
    this.db.transaction(() => {
      for (const key of keys) update.run(remote, importId, key, remote);
    })();
  }

  /** A fix in place: writes the value, validates the row again, and re-derives duplicates of both addresses. */
  edit(importId: string, line: number, field: InviteField, value: string): StoredRow | undefined {
    return this.db.transaction(() => {
      const before = this.row(importId, line);
      if (!before) return undefined;
      const after = this.writeValue(importId, line, field, value)!;
      this.db
        .prepare(
          `INSERT INTO invite_import_edits (import_id, line, field, value) VALUES (?, ?, ?, ?)
           ON CONFLICT (import_id, line, field) DO UPDATE SET value = excluded.value`,
        )
        .run(importId, line, field, value);
      if (before.email_key !== after.email_key) {
        // A new address has not been checked against the platform yet.
        this.db
          .prepare('UPDATE invite_import_rows SET remote = NULL WHERE import_id = ? AND line = ?')
          .run(importId, line);
        if (!after.email_key) {
          this.db
            .prepare('UPDATE invite_import_rows SET dup_of = NULL WHERE import_id = ? AND line = ?')
            .run(importId, line);
        }
        const keys = [before.email_key, after.email_key].filter((k): k is string => !!k);
        this.remarkKeys(importId, keys);
        this.refreshKeys(importId, keys);
      }
      this.refreshStatus(importId, 'line = ?', line);
      return this.row(importId, line);
    })();
  }

  /** Drops or restores rows; duplicates of their addresses are re-derived. */
  drop(importId: string, lines: readonly number[], dropped: boolean): number {
    return this.db.transaction(() => {
      const flag = dropped ? 1 : 0;
      const update = this.db.prepare(
        'UPDATE invite_import_rows SET dropped = ? WHERE import_id = ? AND line = ? AND dropped <> ?',
      );
      const remember = this.db.prepare(
        `INSERT INTO invite_import_edits (import_id, line, field, value) VALUES (?, ?, 'dropped', ?)
         ON CONFLICT (import_id, line, field) DO UPDATE SET value = excluded.value`,
      );
      const keyOf = this.db.prepare('SELECT email_key FROM invite_import_rows WHERE import_id = ? AND line = ?');
      const keys: string[] = [];
      let changed = 0;
      for (const line of lines) {
        if (!update.run(flag, importId, line, flag).changes) continue;
        changed++;
        remember.run(importId, line, String(flag));
        const key = (keyOf.get(importId, line) as { email_key: string | null } | undefined)?.email_key;
        if (key) keys.push(key);
      }
      if (keys.length > 2000) this.markDuplicates(importId);
      else if (keys.length) {
        this.remarkKeys(importId, keys);
        this.refreshKeys(importId, keys);
      }
      return changed;
    })();
  }

  private refreshKeys(importId: string, keys: readonly string[]): void {
    for (const key of new Set(keys)) this.refreshStatus(importId, 'email_key = ?', key);
  }

  /** Sets one field and stores the row's validation; returns the row. */
  private writeValue(importId: string, line: number, field: InviteField, value: string): StoredRow | undefined {
    const row = this.row(importId, line);
    if (!row) return undefined;
    const values = { ...valuesOf(row), [field]: value };
    const { problems, emailKey } = validateRow(values);
    this.db
      .prepare(
        `UPDATE invite_import_rows SET email = ?, first_name = ?, last_name = ?, company_name = ?, user_group = ?,
           user_group_owner_email = ?, email_key = ?, problems = ?, edited = 1
         WHERE import_id = ? AND line = ?`,
      )
      .run(
        values.email,
        values.first_name,
        values.last_name,
        values.company_name,
        values.user_group,
        values.user_group_owner_email,
        emailKey,
        problems ? JSON.stringify(problems) : null,
        importId,
        line,
      );
    return this.row(importId, line);
  }
}
