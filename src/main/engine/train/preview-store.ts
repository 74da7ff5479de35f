/** Previews in SQLite: written in batches while the scan runs, paged by the screen, read by train.start; 24 h. */
import type { FileClass, Preview, PreviewFile } from '../../../shared/contract';
import type { Db } from '../store';

export const PREVIEW_TTL_MS = 24 * 60 * 60 * 1000;
const FLUSH_EVERY = 500;

export interface PreviewRow extends PreviewFile {
  seq: number;
  supersedes: string[];
  mtimeMs: number | null;
  /** The access the upload keeps (a changed file: the replaced document's); null for the platform's default. */
  access: 'public' | 'private' | null;
}

export interface StoredPreview {
  id: string;
  profileId: string;
  mentor: { uniqueId: string; name: string };
  maxFileBytes: number;
  summary: Omit<Preview, 'files'>;
  jobId: string | null;
  createdAt: string;
}

interface FileRecord {
  seq: number;
  path: string;
  relative_path: string;
  type: string;
  size: number;
  class: FileClass;
  reason: string | null;
  sha256: string | null;
  supersedes: string;
  mtime_ms: number | null;
  access: 'public' | 'private' | null;
  warning: string | null;
}

const toRow = (record: FileRecord): PreviewRow => ({
  seq: record.seq,
  path: record.path,
  relativePath: record.relative_path,
  type: record.type,
  size: record.size,
  class: record.class,
  reason: record.reason,
  sha256: record.sha256,
  supersedes: JSON.parse(record.supersedes) as string[],
  mtimeMs: record.mtime_ms,
  access: record.access,
  warning: record.warning,
});

export const toPreviewFile = (row: PreviewRow): PreviewFile => ({
  path: row.path,
  relativePath: row.relativePath,
  type: row.type,
  size: row.size,
  class: row.class,
  reason: row.reason,
  sha256: row.sha256,
  warning: row.warning,
});

export class PreviewStore {
  constructor(private readonly db: Db) {}

  /** Removes expired previews (with their files). */
  sweep(at = Date.now()): void {
    this.db.prepare('DELETE FROM train_previews WHERE expires_at < ?').run(new Date(at).toISOString());
  }

  create(input: {
    id: string;
    profileId: string;
    mentor: { uniqueId: string; name: string };
    maxFileBytes: number;
    createdAt: string;
  }) {
    const expires = new Date(Date.parse(input.createdAt) + PREVIEW_TTL_MS).toISOString();
    this.db
      .prepare(
        `INSERT INTO train_previews (id, profile_id, mentor_id, mentor_name, max_file_bytes, summary, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, '{}', ?, ?)`,
      )
      .run(
        input.id,
        input.profileId,
        input.mentor.uniqueId,
        input.mentor.name,
        input.maxFileBytes,
        input.createdAt,
        expires,
      );
    return new PreviewWriter(this.db, input.id);
  }

  finish(id: string, summary: Omit<Preview, 'files'>): void {
    this.db.prepare('UPDATE train_previews SET summary = ? WHERE id = ?').run(JSON.stringify(summary), id);
  }

  remove(id: string): void {
    this.db.prepare('DELETE FROM train_previews WHERE id = ?').run(id);
  }

  get(id: string): StoredPreview | null {
    const row = this.db
      .prepare('SELECT * FROM train_previews WHERE id = ? AND expires_at >= ?')
      .get(id, new Date().toISOString()) as
      | {
          id: string;
          profile_id: string;
          mentor_id: string;
          mentor_name: string;
          max_file_bytes: number;
          summary: string;
          job_id: string | null;
          created_at: string;
        }
      | undefined;
    if (!row) return null;
    return {
      id: row.id,
      profileId: row.profile_id,
      mentor: { uniqueId: row.mentor_id, name: row.mentor_name },
      maxFileBytes: row.max_file_bytes,
      summary: JSON.parse(row.summary) as Omit<Preview, 'files'>,
      jobId: row.job_id,
      createdAt: row.created_at,
    };
  }

  /** Files in relative-path order, optionally of some classes only. */
  files(
    id: string,
    filter: { classes?: FileClass[]; offset: number; limit: number },
  ): { rows: PreviewRow[]; total: number } {
    const where = ['preview_id = ?'];
    const params: unknown[] = [id];
    if (filter.classes?.length) {
      where.push(`class IN (${filter.classes.map(() => '?').join(',')})`);
      params.push(...filter.classes);
    }
    const clause = where.join(' AND ');
    const total = (
      this.db.prepare(`SELECT count(*) AS n FROM train_preview_files WHERE ${clause}`).get(...params) as { n: number }
    ).n;
    const rows = this.db
      .prepare(`SELECT * FROM train_preview_files WHERE ${clause} ORDER BY relative_path, seq LIMIT ? OFFSET ?`)
      .all(...params, filter.limit, filter.offset) as FileRecord[];
    return { rows: rows.map(toRow), total };
  }

  /** Every file, in relative-path order, a page at a time (for creating a job's items without one giant array). */
  *allFiles(id: string, pageSize = 2000): Generator<PreviewRow> {
    for (let offset = 0; ; offset += pageSize) {
      const { rows } = this.files(id, { offset, limit: pageSize });
      yield* rows;
      if (rows.length < pageSize) return;
    }
  }

  /** Records the job started from a preview, unless one already was: answers the job that owns it. */
  attachJob(id: string, jobId: string): string {
    this.db.prepare('UPDATE train_previews SET job_id = ? WHERE id = ? AND job_id IS NULL').run(jobId, id);
    return (this.db.prepare('SELECT job_id FROM train_previews WHERE id = ?').get(id) as { job_id: string }).job_id;
  }
}

/** Buffers a scan's rows and writes them a few hundred at a time, each batch in one transaction. */
export class PreviewWriter {
  private pending: PreviewRow[] = [];
  private readonly insert;

  constructor(
    private readonly db: Db,
    private readonly previewId: string,
  ) {
    this.insert = db.prepare(
      `INSERT INTO train_preview_files (preview_id, seq, path, relative_path, type, size, class, reason, sha256, supersedes,
         mtime_ms, access, warning)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  add(row: PreviewRow): void {
    this.pending.push(row);
    if (this.pending.length >= FLUSH_EVERY) this.flush();
  }

  flush(): void {
    if (!this.pending.length) return;
    const rows = this.pending;
    this.pending = [];
    this.db.transaction(() => {
      for (const row of rows) {
        this.insert.run(
          this.previewId,
          row.seq,
          row.path,
          row.relativePath,
          row.type,
          row.size,
          row.class,
          row.reason,
          row.sha256,
          JSON.stringify(row.supersedes),
          row.mtimeMs,
          row.access,
          row.warning,
        );
      }
    })();
  }
}
