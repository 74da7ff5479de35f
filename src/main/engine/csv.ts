import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { once } from 'node:events';

export interface CsvOptions {
  delimiter?: string;
  /** A UTF-8 byte order mark so Excel opens the file as UTF-8. */
  bom?: boolean;
}

/**
 * A cell a spreadsheet could run as a formula. papaparse's own pattern for `escapeFormulae: true` ends in `.*$`
 * without the `s` flag, so it misses any cell holding a line break (chat messages, names from a CSV with quoted
 * newlines): only the first character matters.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Cells starting with `=`, `+`, `-`, `@`, tab or CR are prefixed with `'` (papaparse's escapeFormulae), so a
 * spreadsheet never runs them as formulas (CSV injection). Every CSV the app writes goes through here.
 */
export function toCsv(rows: readonly (readonly unknown[])[], options: CsvOptions = {}): string {
  // papaparse's rules, written out: a person's 50,000 messages took its general-purpose unparse about 90 ms.
  // tests/jobs/csv-papaparse.test.ts holds this to Papa.unparse's output, byte for byte.
  const wanted = options.delimiter ?? ',';
  const delimiter = BAD_DELIMITER.test(wanted) ? ',' : wanted;
  const lines = new Array<string>(rows.length);
  for (let r = 0; r < rows.length; r++) lines[r] = rowText(rows[r]!, delimiter);
  return lines.join('\r\n');
}

/** One row's cells as `toCsv` writes them, without its line break (comma-separated). */
export function csvRow(row: readonly unknown[]): string {
  return rowText(row, ',');
}

function rowText(row: readonly unknown[], delimiter: string): string {
  let line = '';
  for (let c = 0; c < row.length; c++) line += c ? delimiter + csvCell(row[c], delimiter) : csvCell(row[c], delimiter);
  return line;
}

/** What papaparse will not take as a delimiter (it writes commas then), and what makes it quote a cell. */
const BAD_DELIMITER = /[\r\n"\uFEFF]/;
const NEEDS_QUOTES = /[\r\n"\uFEFF]|^ | $/;

/** Anything in a text cell that makes it more than itself: a formula start or a reason to quote (as below). */
const PLAIN_TEXT_UNSAFE = /^[=+\-@\t\r ]|[\r\n"\uFEFF]| $/;

/** One cell as papaparse's `safe` writes it with escapeFormulae: FORMULA_START. */
function csvCell(value: unknown, delimiter: string): string {
  // Most cells are plain text: one test, no copies (a person's 50,000 messages are 400,000 cells).
  if (typeof value === 'string' && !PLAIN_TEXT_UNSAFE.test(value) && !value.includes(delimiter)) return value;
  if (value === undefined || value === null) return '';
  if (value instanceof Date && value.constructor === Date) return isNaN(value.getTime()) ? '' : value.toISOString();
  let text = (value as { toString(): string }).toString();
  let quote = false;
  if (
    typeof value !== 'number' &&
    typeof value !== 'bigint' &&
    typeof value !== 'boolean' &&
    FORMULA_START.test(text)
  ) {
    text = `'${text}`;
    quote = true;
  }
  if (text.includes('"')) text = text.replaceAll('"', '""');
  return quote || NEEDS_QUOTES.test(text) || text.includes(delimiter) ? `"${text}"` : text;
}

/**
 * Streams rows to a temporary file beside `path` and renames it into place only when complete: a failure (full
 * disk, unwritable folder, crash) never leaves a partial file under the final name.
 */
export async function writeCsvAtomically(
  path: string,
  header: readonly string[],
  batches: AsyncIterable<readonly (readonly unknown[])[]> | Iterable<readonly (readonly unknown[])[]>,
  options: CsvOptions = {},
): Promise<{ path: string; rows: number }> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.partial`);
  const out = createWriteStream(temp, { flags: 'wx' });
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => {});
  let rows = 0;
  const write = async (text: string) => {
    if (!out.write(text)) await Promise.race([once(out, 'drain'), failed]);
  };
  try {
    await Promise.race([once(out, 'open'), failed]);
    await write(`${options.bom === false ? '' : '\uFEFF'}${toCsv([header], options)}\r\n`);
    for await (const batch of batches) {
      if (!batch.length) continue;
      rows += batch.length;
      await write(`${toCsv(batch, options)}\r\n`);
    }
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
    await rename(temp, path);
    return { path, rows };
  } catch (error) {
    out.destroy();
    await rm(temp, { force: true });
    throw error;
  }
}

/** The header line of a CSV file, with the byte order mark when asked (on by default). */
export function csvHeader(header: readonly string[], options: CsvOptions = {}): string {
  return `${options.bom === false ? '' : '\uFEFF'}${toCsv([header], options)}\r\n`;
}

/** Rows as CSV lines, each ending in CRLF (empty for no rows), formulas neutralised. */
export function csvLines(rows: readonly (readonly unknown[])[], options: CsvOptions = {}): string {
  return rows.length ? `${toCsv(rows, options)}\r\n` : '';
}

/**
 * A CSV file written in chunks that can be continued after a crash. The caller records `length` in its journal
 * after each chunk; reopening at a recorded length cuts off whatever a killed process wrote after it, so the
 * finished file is byte for byte what one uninterrupted run writes. `commit` renames it into place.
 */
export class ResumableCsvFile {
  private constructor(
    private handle: FileHandle | null,
    readonly tempPath: string,
    private position: number,
  ) {}

  /**
   * Opens `tempPath` to continue at `length` (a new, empty file when 0). Null when the file is missing or shorter
   * than recorded: the journal and the file disagree and the export must start over.
   */
  static async open(tempPath: string, length: number): Promise<ResumableCsvFile | null> {
    if (length === 0) return new ResumableCsvFile(await open(tempPath, 'w'), tempPath, 0);
    let handle: FileHandle;
    try {
      handle = await open(tempPath, 'r+');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const { size } = await handle.stat();
    if (size < length) {
      await handle.close();
      return null;
    }
    await handle.truncate(length);
    return new ResumableCsvFile(handle, tempPath, length);
  }

  get length(): number {
    return this.position;
  }

  /** Appends a chunk; resolves to the file's new length once the bytes are handed to the system. */
  async append(text: string): Promise<number> {
    if (!this.handle) throw new Error('The CSV file is closed');
    const bytes = Buffer.from(text, 'utf8');
    let offset = 0;
    while (offset < bytes.length) {
      const { bytesWritten } = await this.handle.write(bytes, offset, bytes.length - offset, this.position + offset);
      offset += bytesWritten;
    }
    this.position += bytes.length;
    return this.position;
  }

  /** Flushes to disk and renames the file into place; the final name only ever holds a complete file. */
  async commit(path: string): Promise<void> {
    if (!this.handle) throw new Error('The CSV file is closed');
    await this.handle.sync();
    await this.close();
    await rename(this.tempPath, path);
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.close();
  }

  /** Closes and deletes the temporary file (failed or cancelled exports). */
  async discard(): Promise<void> {
    await this.close().catch(() => {});
    await rm(this.tempPath, { force: true });
  }
}
