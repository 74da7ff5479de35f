/** The import drafts (`invite_imports`): how a file is read, where it goes, and how far the wizard got. */
import type { ImportDraft, ImportState, InviteField, InviteTarget } from '../../../shared/contract';
import { INVITE_FIELD_LABELS } from '../../../shared/contract';
import { notFound } from '../errors';
import type { Db } from '../store';
import type { CsvSettings } from '../csv-import';
import { normaliseHeader } from './columns';
import { badOwnerNotice, type BadOwners } from './parse';
import type { ImportRows } from './import-rows-store';

export type ImportSettings = CsvSettings<InviteField>;

export interface ImportOptions {
  redirectTo: string | null;
  active: boolean;
}

export interface ImportNotices {
  read: string[];
  check: string[];
  /** Rows whose group owner is not an address: kept apart, because fixing a cell changes it. */
  owners?: BadOwners;
}

export interface ImportRecord {
  id: string;
  profile_id: string;
  name: string;
  path: string;
  owned: number;
  size: number;
  sha256: string | null;
  settings: string;
  parsed_with: string | null;
  target: string | null;
  options: string;
  checked_for: string | null;
  state: ImportState;
  phase: string;
  rows_read: number;
  bytes_read: number;
  notices: string;
  error: string | null;
  job_id: string | null;
  created_at: string;
  updated_at: string;
}

const now = () => new Date().toISOString();

/** What the stored rows depend on: reading with other settings makes them stale. */
export function readKey(settings: ImportSettings): string {
  const { encoding, bomBytes, delimiter, newline, headerRow, mapping } = settings;
  return JSON.stringify({ encoding, bomBytes, delimiter, newline, headerRow, mapping });
}

export function settingsOf(record: ImportRecord): ImportSettings {
  return JSON.parse(record.settings) as ImportSettings;
}
export function optionsOf(record: ImportRecord): ImportOptions {
  return { redirectTo: null, active: true, ...(JSON.parse(record.options) as Partial<ImportOptions>) };
}
export function targetOf(record: ImportRecord): InviteTarget | null {
  return record.target ? (JSON.parse(record.target) as InviteTarget) : null;
}
export function noticesOf(record: ImportRecord): ImportNotices {
  const stored = JSON.parse(record.notices) as Partial<ImportNotices> | unknown[];
  if (Array.isArray(stored)) return { read: [], check: [] };
  return { read: stored.read ?? [], check: stored.check ?? [], ...(stored.owners && { owners: stored.owners }) };
}

/** Notices about the columns: which are ignored, and whether an email column was found. */
export function columnNotices(settings: ImportSettings): string[] {
  const notes: string[] = [];
  const ignored = settings.headers
    .map((header, index) => ({ header: header.trim() || `Column ${index + 1}`, field: settings.mapping[index] }))
    .filter((column) => !column.field)
    .map((column) => column.header);
  if (ignored.length) {
    notes.push(
      `${ignored.length === 1 ? 'Column' : 'Columns'} ${ignored.map((h) => `"${h}"`).join(', ')} ${ignored.length === 1 ? 'is' : 'are'} not used and will be ignored.`,
    );
  }
  if (!settings.mapping.includes('email')) {
    notes.push('No column is matched to Email: choose the column that holds the email addresses.');
  }
  // Doubts about the mapping are told here, once for the column: never as an error on each row.
  const headerOf = (field: InviteField) => {
    const index = settings.mapping.indexOf(field);
    return index === -1 ? null : settings.headers[index]?.trim() || `Column ${index + 1}`;
  };
  const group = headerOf('user_group');
  const owner = headerOf('user_group_owner_email');
  if (group && !owner) {
    notes.push(
      `Column "${group}" fills ${INVITE_FIELD_LABELS.user_group}, and no column fills ${INVITE_FIELD_LABELS.user_group_owner_email}: ` +
        'the groups are sent without an owner, which the platform allows (the owner is optional).',
    );
  }
  if (owner && !group) {
    notes.push(
      `Column "${owner}" fills ${INVITE_FIELD_LABELS.user_group_owner_email}, but no column fills ${INVITE_FIELD_LABELS.user_group}: ` +
        'the owners are sent, yet no group is named.',
    );
  }
  return notes;
}

export class ImportStore {
  constructor(
    private readonly db: Db,
    private readonly rows: ImportRows,
  ) {}

  create(input: {
    id: string;
    profileId: string;
    name: string;
    path: string;
    owned: boolean;
    size: number;
    settings: ImportSettings;
  }): void {
    const at = now();
    this.db
      .prepare(
        `INSERT INTO invite_imports (id, profile_id, name, path, owned, size, settings, state, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'sniffed', ?, ?)`,
      )
      .run(
        input.id,
        input.profileId,
        input.name,
        input.path,
        input.owned ? 1 : 0,
        input.size,
        JSON.stringify(input.settings),
        at,
        at,
      );
  }

  get(id: string): ImportRecord {
    const record = this.db.prepare('SELECT * FROM invite_imports WHERE id = ?').get(id) as ImportRecord | undefined;
    if (!record) throw notFound(`No import with id '${id}' (it may have been discarded)`);
    return record;
  }

  /** The import's state, or undefined once it is discarded. */
  stateOf(id: string): ImportRecord['state'] | undefined {
    return this.db.prepare('SELECT state FROM invite_imports WHERE id = ?').pluck().get(id) as
      ImportRecord['state'] | undefined;
  }

  update(
    id: string,
    change: Partial<
      Pick<
        ImportRecord,
        'state' | 'phase' | 'rows_read' | 'bytes_read' | 'error' | 'job_id' | 'sha256' | 'parsed_with' | 'checked_for'
      >
    > & {
      settings?: ImportSettings;
      target?: InviteTarget | null;
      options?: ImportOptions;
      notices?: ImportNotices;
    },
  ): void {
    const sets: string[] = [];
    const params: unknown[] = [];
    for (const [key, value] of Object.entries(change)) {
      if (value === undefined) continue;
      sets.push(`${key} = ?`);
      params.push(
        ['settings', 'options', 'notices'].includes(key) || (key === 'target' && value !== null)
          ? JSON.stringify(value)
          : value,
      );
    }
    sets.push('updated_at = ?');
    params.push(now(), id);
    this.db.prepare(`UPDATE invite_imports SET ${sets.join(', ')} WHERE id = ?`).run(...params);
  }

  delete(id: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM invite_import_rows WHERE import_id = ?').run(id);
      this.db.prepare('DELETE FROM invite_imports WHERE id = ?').run(id);
    })();
  }

  /** Imports untouched for a week, with their rows; their files when the engine wrote them. */
  old(days = 7): ImportRecord[] {
    const before = new Date(Date.now() - days * 86_400_000).toISOString();
    return this.db.prepare('SELECT * FROM invite_imports WHERE updated_at < ?').all(before) as ImportRecord[];
  }

  /** Remembers the admin's mapping for these headers, for this tenant. */
  remember(profileId: string, settings: ImportSettings): void {
    if (settings.headerRow === null) return;
    const upsert = this.db.prepare(
      `INSERT INTO invite_column_memory (profile_id, header, field, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (profile_id, header) DO UPDATE SET field = excluded.field, updated_at = excluded.updated_at`,
    );
    const at = now();
    this.db.transaction(() => {
      settings.headers.forEach((header, index) => {
        const key = normaliseHeader(header);
        if (key) upsert.run(profileId, key, settings.mapping[index] ?? '', at);
      });
    })();
  }

  memory(profileId: string): Map<string, string> {
    const rows = this.db
      .prepare('SELECT header, field FROM invite_column_memory WHERE profile_id = ?')
      .all(profileId) as { header: string; field: string }[];
    return new Map(rows.map((row) => [row.header, row.field]));
  }

  present(record: ImportRecord): ImportDraft {
    const settings = settingsOf(record);
    const options = optionsOf(record);
    const notices = noticesOf(record);
    const hasRows = record.parsed_with !== null && record.state !== 'parsing';
    return {
      id: record.id,
      profileId: record.profile_id,
      name: record.name,
      size: record.size,
      encoding: settings.encoding,
      bom: settings.bomBytes > 0,
      delimiter: settings.delimiter,
      headerRow: settings.headerRow,
      preview: settings.preview,
      columns: settings.headers.map((header, index) => ({
        index,
        header,
        field: settings.mapping[index] ?? null,
        remembered: settings.remembered[index] ?? false,
        samples: settings.samples[index] ?? [],
      })),
      target: targetOf(record),
      redirectTo: options.redirectTo,
      active: options.active,
      state: record.state,
      phase: record.phase,
      progress: { rows: record.rows_read, bytes: record.bytes_read, totalBytes: record.size },
      summary: hasRows
        ? this.rows.summary(record.id)
        : { rows: 0, ok: 0, invalid: 0, duplicate: 0, alreadyInvited: 0, alreadyMember: 0, dropped: 0, willEmail: 0 },
      notices: [
        ...columnNotices(settings),
        ...notices.read,
        ...(notices.owners ? [badOwnerNotice(notices.owners)].filter((n): n is string => !!n) : []),
        ...notices.check,
      ],
      error: record.error,
      jobId: record.job_id,
      createdAt: record.created_at,
      updatedAt: record.updated_at,
    };
  }
}
