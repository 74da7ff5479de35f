/**
 * Reads every row of an invitations CSV file as a stream: the shared record stream (csv-import/stream.ts) → mapped
 * fields → validated rows, handed on in batches. Memory stays bounded whatever the
 * size of the file. Runs in a worker thread (parse-worker.ts), in-process as a fallback, and in the benchmarks.
 */
import type { CsvDelimiter, CsvEncoding, InviteField, RowProblem } from '../../../shared/contract/invitations';
import { streamRecords } from '../csv-import';
import { asciiEmail, validateRows, type RowValues } from './validate';

export interface ReadSettings {
  encoding: CsvEncoding;
  bomBytes: number;
  delimiter: CsvDelimiter;
  newline: string;
  /** 0-based record with the column names; records before it are title lines. Null: no header. */
  headerRow: number | null;
  /** Per column: the field it fills, or null. */
  mapping: (InviteField | null)[];
}

/** A row's fields, with its place in the file and what validation found: one object per row. */
export interface ParsedRow extends RowValues {
  /** 1-based record number in the file. */
  line: number;
  problems: RowProblem[] | null;
  emailKey: string | null;
}

function newRow(line: number): ParsedRow {
  return {
    email: '',
    first_name: '',
    last_name: '',
    company_name: '',
    user_group: '',
    user_group_owner_email: '',
    line,
    problems: null,
    emailKey: null,
  };
}

export interface ReadStats {
  rows: number;
  blank: number;
  /** Lines of rows with fewer / more cells than the header (first few). */
  short: number[];
  shortCount: number;
  long: number[];
  longCount: number;
  quoteProblems: number[];
  quoteProblemCount: number;
  /** Rows with characters the decoder could not read outside the address (which is checked on its own). */
  unreadable: number[];
  unreadableCount: number;
  /** Rows whose group owner is not an email address (the group is sent without one). */
  badOwners: number[];
  badOwnerCount: number;
  bytes: number;
  sha256: string;
}

export const KEEP_LINES = 5;
/** U+FFFD outside the address: the file's encoding was guessed wrong (the address has a problem of its own). */
const hasUnreadable = (row: RowValues) =>
  row.first_name.includes('\uFFFD') ||
  row.last_name.includes('\uFFFD') ||
  row.company_name.includes('\uFFFD') ||
  row.user_group.includes('\uFFFD') ||
  row.user_group_owner_email.includes('\uFFFD');

/**
 * A cell whose quotes are not balanced swallows the rows after it (or part of them): which cell holds what cannot be
 * told, so the row is not sent as read. Not a platform rule, a reading one: the admin fixes the cells or the file.
 */
const QUOTE_PROBLEM: RowProblem = {
  field: null,
  message: 'A quoted cell in this row is not closed, or has a stray quote: check the row in the file',
};

/** Turns records into validated rows: mapping, trimming, blank lines, ragged rows, quote problems. */
export class RowMapper {
  /** The mapped columns only: their indexes and fields. */
  private readonly columns: [number, InviteField][];
  private readonly columnIndexes: number[];
  private readonly columnFields: InviteField[];
  width: number;
  /** Set once the decoder produced U+FFFD: from then on cells are checked for unreadable characters. */
  readCheck = false;
  private readonly hasOwner: boolean;

  constructor(mapping: readonly (InviteField | null)[]) {
    this.columns = mapping.flatMap((field, column) => (field ? [[column, field] as [number, InviteField]] : []));
    this.columnIndexes = this.columns.map(([column]) => column);
    this.columnFields = this.columns.map(([, field]) => field);
    this.width = mapping.length;
    this.hasOwner = this.columnFields.includes('user_group_owner_email');
  }

  /** Maps and validates a chunk of records; blank records are left out. */
  map(
    records: readonly (readonly string[])[],
    firstLine: number,
    quoteRows: ReadonlySet<number>,
    stats: ReadStats,
    skip: (index: number) => boolean,
  ): ParsedRow[] {
    const rows: ParsedRow[] = [];
    for (let i = 0; i < records.length; i++) {
      if (skip(i)) continue;
      const record = records[i]!;
      const line = firstLine + i;
      const row = newRow(line);
      let filled = false;
      for (let c = 0; c < this.columns.length; c++) {
        const column = this.columnIndexes[c]!;
        if (column < record.length) {
          const value = record[column]!.trim();
          if (value) {
            row[this.columnFields[c]!] = value;
            filled = true;
          }
        }
      }
      if (!filled && record.every((cell) => cell.trim() === '')) {
        stats.blank++;
        continue;
      }
      if (quoteRows.has(i)) {
        row.problems = [QUOTE_PROBLEM];
        stats.quoteProblemCount++;
        if (stats.quoteProblems.length < KEEP_LINES) stats.quoteProblems.push(line);
      }
      // A short row is read with its missing cells empty (said once for the file): the platform needs only the address.
      if (record.length < this.width) {
        stats.shortCount++;
        if (stats.short.length < KEEP_LINES) stats.short.push(line);
      } else if (record.length > this.width && record.slice(this.width).some((cell) => cell.trim() !== '')) {
        stats.longCount++;
        if (stats.long.length < KEEP_LINES) stats.long.push(line);
      }
      rows.push(row);
    }
    const checked = validateRows(rows);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      row.emailKey = checked.keys[i] ?? null;
      const found = checked.problems[i];
      if (found) row.problems = row.problems ? [...row.problems, ...found] : found;
      if (this.hasOwner && row.user_group_owner_email && !asciiEmail(row.user_group_owner_email)) {
        stats.badOwnerCount++;
        if (stats.badOwners.length < KEEP_LINES) stats.badOwners.push(row.line);
      }
      if (this.readCheck && hasUnreadable(row)) {
        stats.unreadableCount++;
        if (stats.unreadable.length < KEEP_LINES) stats.unreadable.push(row.line);
      }
    }
    return rows;
  }
}

/**
 * Streams the rows of `path` to `onBatch` (one call per chunk of text, a few thousand rows). Resolves with what
 * was read; rejects on read errors or when `signal` aborts.
 */
export async function readRows(
  path: string,
  settings: ReadSettings,
  onBatch: (rows: ParsedRow[], bytesRead: number) => void,
  options: { signal?: AbortSignal; chunkBytes?: number; onHeader?: (headers: string[]) => void } = {},
): Promise<ReadStats> {
  const stats: ReadStats = {
    rows: 0,
    blank: 0,
    short: [],
    shortCount: 0,
    long: [],
    longCount: 0,
    quoteProblems: [],
    quoteProblemCount: 0,
    unreadable: [],
    unreadableCount: 0,
    badOwners: [],
    badOwnerCount: 0,
    bytes: 0,
    sha256: '',
  };
  const mapper = new RowMapper(settings.mapping);
  const read = await streamRecords(
    path,
    settings,
    ({ records, first, quoteRows, bytes, unreadable }) => {
      mapper.readCheck ||= unreadable;
      const batch = mapper.map(records, first + 1, quoteRows, stats, (i) => {
        const index = first + i;
        if (settings.headerRow === null || index > settings.headerRow) return false;
        if (index === settings.headerRow) {
          mapper.width = Math.max(records[i]!.length, settings.mapping.length);
          options.onHeader?.(records[i]!);
        }
        return true;
      });
      stats.rows += batch.length;
      if (batch.length) onBatch(batch, bytes);
    },
    options,
  );
  stats.bytes = read.bytes;
  stats.sha256 = read.sha256;
  return stats;
}

const lineList = (list: readonly number[], count: number) =>
  `${list.join(', ')}${count > list.length ? ` and ${count - list.length} more` : ''}`;

const rowsHave = (count: number) => (count === 1 ? '1 row has' : `${count.toLocaleString('en-US')} rows have`);

/** Rows whose group owner is not an address: how many, and the first few lines. */
export interface BadOwners {
  count: number;
  lines: number[];
}

/** What the app does with group owners that are not addresses, said once for the file (see `fieldsOf`). */
export function badOwnerNotice({ count, lines }: BadOwners): string | null {
  if (!count) return null;
  return (
    `${rowsHave(count)} a group owner that is not an email address (line ${lineList(lines, count)}): ` +
    'those people are invited and put in their group without an owner (the owner is optional). Fix the cells to send one.'
  );
}

/** The admin-facing notes about what reading found (ragged rows, broken quotes, unreadable characters). */
export function readNotices(stats: ReadStats, encoding: CsvEncoding): string[] {
  const notes: string[] = [];
  if (stats.shortCount) {
    notes.push(
      `${rowsHave(stats.shortCount)} fewer cells than the header (line ${lineList(stats.short, stats.shortCount)}): the missing cells were left empty.`,
    );
  }
  if (stats.longCount) {
    notes.push(
      `${rowsHave(stats.longCount)} more cells than the header (line ${lineList(stats.long, stats.longCount)}): the extra cells were ignored.`,
    );
  }
  if (stats.quoteProblemCount) {
    notes.push(
      `${rowsHave(stats.quoteProblemCount)} unbalanced quotes (line ${lineList(stats.quoteProblems, stats.quoteProblemCount)}): check them in the file.`,
    );
  }
  if (stats.unreadableCount) {
    notes.push(
      `${rowsHave(stats.unreadableCount)} characters that could not be read as ${ENCODING_NAMES[encoding]} (line ${lineList(stats.unreadable, stats.unreadableCount)}): ` +
        "they would be sent as “\uFFFD”. Choose the file's encoding under Columns (spreadsheets saved on Windows are often Windows-1252).",
    );
  }
  return notes;
}

const ENCODING_NAMES: Record<CsvEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16 LE',
  'utf-16be': 'UTF-16 BE',
  'windows-1252': 'Windows-1252',
};
