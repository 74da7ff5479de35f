/**
 * Reads every row of a CSV file as a stream: bytes → text in the file's encoding → papaparse (quotes, embedded
 * delimiters and newlines) → mapped fields → validated rows, handed on in batches. Memory stays bounded whatever the
 * size of the file. Runs in a worker thread (parse-worker.ts), in-process as a fallback, and in the benchmarks.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import { TextDecoder } from 'node:util';
import Papa from 'papaparse';
import type { CsvDelimiter, CsvEncoding, InviteField, RowProblem } from '../../../shared/contract/invitations';
import { validateRows, type RowValues } from './validate';

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
  bytes: number;
  sha256: string;
}

const KEEP_LINES = 5;
/**
 * Bytes read at a time. Small enough that a chunk's rows die young (a megabyte at a time doubles the garbage
 * collector's work), large enough that each chunk is one cheap SQLite transaction of a few thousand rows.
 */
const CHUNK_BYTES = 256 * 1024;

/** Bytes to text in the file's encoding; counts and hashes every byte (the BOM is hashed, not decoded). */
class DecodeStream extends Transform {
  bytes = 0;
  /** The text has U+FFFD: bytes that are not valid in the encoding (or the file really contains it). */
  unreadable = false;
  private readonly decoder: TextDecoder;
  private skip: number;
  readonly hash = createHash('sha256');

  constructor(encoding: CsvEncoding, bomBytes: number) {
    super({ readableObjectMode: true });
    this.decoder = new TextDecoder(encoding, { fatal: false, ignoreBOM: true });
    this.skip = bomBytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    this.hash.update(chunk);
    let bytes: Buffer = chunk;
    if (this.skip > 0) {
      const skipped = Math.min(this.skip, bytes.length);
      bytes = bytes.subarray(skipped);
      this.skip -= skipped;
    }
    const text = this.decoder.decode(bytes, { stream: true });
    if (!this.unreadable && text.includes('\uFFFD')) this.unreadable = true;
    if (text) this.push(text);
    done();
  }

  override _flush(done: TransformCallback): void {
    const text = this.decoder.decode();
    if (text) this.push(text);
    done();
  }
}

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

  constructor(mapping: readonly (InviteField | null)[]) {
    this.columns = mapping.flatMap((field, column) => (field ? [[column, field] as [number, InviteField]] : []));
    this.columnIndexes = this.columns.map(([column]) => column);
    this.columnFields = this.columns.map(([, field]) => field);
    this.width = mapping.length;
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
      let missing = 0;
      for (let c = 0; c < this.columns.length; c++) {
        const column = this.columnIndexes[c]!;
        if (column < record.length) {
          const value = record[column]!.trim();
          if (value) {
            row[this.columnFields[c]!] = value;
            filled = true;
          }
        } else missing++;
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
      if (record.length < this.width) {
        stats.shortCount++;
        if (stats.short.length < KEEP_LINES) stats.short.push(line);
        if (missing)
          (row.problems ??= []).push({
            field: null,
            message: `This row has only ${record.length} of ${this.width} columns`,
          });
      } else if (record.length > this.width && record.slice(this.width).some((cell) => cell.trim() !== '')) {
        stats.longCount++;
        if (stats.long.length < KEEP_LINES) stats.long.push(line);
      }
      rows.push(row);
    }
    const checked = validateRows(rows, this.readCheck);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      row.emailKey = checked.keys[i] ?? null;
      const found = checked.problems[i];
      if (found) row.problems = row.problems ? [...row.problems, ...found] : found;
    }
    return rows;
  }
}

/**
 * Streams the rows of `path` to `onBatch` (one call per chunk of text, a few thousand rows). Resolves with what
 * was read; rejects on read errors or when `signal` aborts.
 */
export function readRows(
  path: string,
  settings: ReadSettings,
  onBatch: (rows: ParsedRow[], bytesRead: number) => void,
  options: { signal?: AbortSignal; chunkBytes?: number; onHeader?: (headers: string[]) => void } = {},
): Promise<ReadStats> {
  return new Promise((resolve, reject) => {
    const file = createReadStream(path, { highWaterMark: options.chunkBytes ?? CHUNK_BYTES });
    const decode = new DecodeStream(settings.encoding, settings.bomBytes);
    const stats: ReadStats = {
      rows: 0,
      blank: 0,
      short: [],
      shortCount: 0,
      long: [],
      longCount: 0,
      quoteProblems: [],
      quoteProblemCount: 0,
      bytes: 0,
      sha256: '',
    };
    let record = 0;
    const mapper = new RowMapper(settings.mapping);
    let settled = false;
    let parser: Papa.Parser | null = null;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      parser?.abort();
      file.destroy();
      decode.destroy();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    const onAbort = () => fail(options.signal?.reason ?? new Error('Reading was cancelled'));
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    file.on('error', fail);
    decode.on('error', fail);

    Papa.parse<string[]>(file.pipe(decode) as unknown as File, {
      delimiter: settings.delimiter,
      newline: settings.newline as '\n',
      quoteChar: '"',
      escapeChar: '"',
      header: false,
      skipEmptyLines: false,
      chunk(results, chunkParser) {
        parser = chunkParser;
        if (settled) return chunkParser.abort();
        const quoteRows = new Set<number>();
        for (const error of results.errors) {
          if (error.type === 'Quotes' && typeof error.row === 'number') quoteRows.add(error.row);
        }
        const data = results.data;
        const first = record;
        record += data.length;
        mapper.readCheck ||= decode.unreadable;
        const batch = mapper.map(data, first + 1, quoteRows, stats, (i) => {
          const index = first + i;
          if (settings.headerRow === null || index > settings.headerRow) return false;
          if (index === settings.headerRow) {
            mapper.width = Math.max(data[i]!.length, settings.mapping.length);
            options.onHeader?.(data[i]!);
          }
          return true;
        });
        stats.rows += batch.length;
        try {
          if (batch.length) onBatch(batch, decode.bytes);
        } catch (error) {
          fail(error);
        }
      },
      complete() {
        if (settled) return;
        settled = true;
        options.signal?.removeEventListener('abort', onAbort);
        stats.bytes = decode.bytes;
        stats.sha256 = decode.hash.digest('hex');
        resolve(stats);
      },
      error: (error: Error) => fail(error),
    });
  });
}

/** The admin-facing notes about what reading found (ragged rows, broken quotes). */
export function readNotices(stats: ReadStats): string[] {
  const notes: string[] = [];
  const lines = (list: number[], count: number) =>
    `${list.join(', ')}${count > list.length ? ` and ${count - list.length} more` : ''}`;
  if (stats.shortCount) {
    notes.push(
      `${stats.shortCount} row${stats.shortCount === 1 ? ' has' : 's have'} fewer cells than the header (line ${lines(stats.short, stats.shortCount)}): the missing cells were left empty.`,
    );
  }
  if (stats.longCount) {
    notes.push(
      `${stats.longCount} row${stats.longCount === 1 ? ' has' : 's have'} more cells than the header (line ${lines(stats.long, stats.longCount)}): the extra cells were ignored.`,
    );
  }
  if (stats.quoteProblemCount) {
    notes.push(
      `${stats.quoteProblemCount} row${stats.quoteProblemCount === 1 ? ' has' : 's have'} unbalanced quotes (line ${lines(stats.quoteProblems, stats.quoteProblemCount)}): check them in the file.`,
    );
  }
  return notes;
}
