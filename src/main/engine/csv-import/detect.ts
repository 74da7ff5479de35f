/**
 * Guessing how a CSV file is written, from its first bytes: encoding (UTF-8 with or without BOM, UTF-16 LE/BE,
 * Windows-1252), whether it is a CSV at all, the delimiter (not fooled by decimal commas) and the header row (title
 * lines may come first). Shared by every CSV import (invitations, the resource kit): what a column name or a data
 * value looks like is the importer's to say.
 */
import Papa from 'papaparse';
import type { CsvDelimiter, CsvEncoding } from '../../../shared/contract';
import { EngineError } from '../errors';

export interface DetectedEncoding {
  encoding: CsvEncoding;
  /** Bytes of byte order mark to skip. */
  bomBytes: number;
}

export function detectEncoding(head: Uint8Array): DetectedEncoding {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bomBytes: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bomBytes: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bomBytes: 2 };
  // UTF-16 without a mark: ASCII text has a zero in every other byte.
  const sample = head.subarray(0, 4096);
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] === 0) {
      if (i % 2 === 0) evenZeros++;
      else oddZeros++;
    }
  }
  const pairs = Math.max(1, Math.floor(sample.length / 2));
  if (oddZeros / pairs > 0.3 && evenZeros / pairs < 0.05) return { encoding: 'utf-16le', bomBytes: 0 };
  if (evenZeros / pairs > 0.3 && oddZeros / pairs < 0.05) return { encoding: 'utf-16be', bomBytes: 0 };
  // Valid UTF-8 (an incomplete sequence at the end of the sample is fine: `stream` keeps it pending).
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return { encoding: 'utf-8', bomBytes: 0 };
  } catch {
    return { encoding: 'windows-1252', bomBytes: 0 };
  }
}

const MAGIC: { bytes: number[]; what: string }[] = [
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'an Excel workbook or a zip archive' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0], what: 'an old Excel workbook (.xls)' },
  { bytes: [0x25, 0x50, 0x44, 0x46], what: 'a PDF document' },
  { bytes: [0x1f, 0x8b], what: 'a gzip archive' },
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
];

const SAVE_AS_CSV = 'Open it in your spreadsheet program and save it as "CSV UTF-8", then choose that file.';

/** Refuses files that are clearly not text (a workbook, an image, binary data) with what to do instead. */
export function refuseNonCsv(head: Uint8Array, encoding: CsvEncoding): void {
  for (const magic of MAGIC) {
    if (magic.bytes.every((byte, i) => head[i] === byte)) {
      throw new EngineError('validation', `This file is ${magic.what}, not a CSV file. ${SAVE_AS_CSV}`);
    }
  }
  if (encoding.startsWith('utf-16')) return;
  const sample = head.subarray(0, 8192);
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) throw new EngineError('validation', `This file holds binary data, not CSV text. ${SAVE_AS_CSV}`);
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) control++;
  }
  if (sample.length && control / sample.length > 0.05) {
    throw new EngineError('validation', `This file holds binary data, not CSV text. ${SAVE_AS_CSV}`);
  }
}

export function detectNewline(text: string): '\r\n' | '\n' | '\r' {
  const crlf = text.indexOf('\r\n');
  const lf = text.indexOf('\n');
  const cr = text.indexOf('\r');
  if (crlf !== -1 && crlf <= lf) return '\r\n';
  if (lf !== -1 && (cr === -1 || lf < cr)) return '\n';
  if (cr !== -1) return '\r';
  return '\n';
}

const DELIMITERS: readonly CsvDelimiter[] = [',', ';', '\t', '|'];

/** Field counts of the first records when read with `delimiter` (quotes respected). */
function fieldCounts(text: string, delimiter: CsvDelimiter, newline: string): number[] {
  const parsed = Papa.parse<string[]>(text, { delimiter, newline: newline as '\n', preview: 60, quoteChar: '"' });
  return parsed.data.filter((row) => row.some((cell) => cell.trim() !== '')).map((row) => row.length);
}

function mode(values: number[]): number {
  const counts = new Map<number, number>();
  let best = 0;
  let bestCount = 0;
  for (const value of values) {
    const count = (counts.get(value) ?? 0) + 1;
    counts.set(value, count);
    if (count > bestCount || (count === bestCount && value > best)) {
      best = value;
      bestCount = count;
    }
  }
  return best;
}

/**
 * The delimiter that splits the most records into the same number (≥ 2) of fields. A comma that mostly sits between
 * digits is a decimal comma ("1,5"): another delimiter that splits the records as consistently wins over it.
 */
export function detectDelimiter(text: string, newline = detectNewline(text)): CsvDelimiter {
  const scores = DELIMITERS.map((delimiter) => {
    const counts = fieldCounts(text, delimiter, newline);
    const fields = mode(counts);
    const consistency = counts.length ? counts.filter((c) => c === fields).length / counts.length : 0;
    return { delimiter, fields, score: fields >= 2 ? consistency : 0 };
  });
  const commas = text.match(/,/g)?.length ?? 0;
  const decimalCommas = text.match(/\d,\d/g)?.length ?? 0;
  const commaIsDecimal = commas > 0 && decimalCommas / commas >= 0.5;
  scores.sort((a, b) => {
    if (b.score !== a.score) {
      // Within a whisker of each other, the decimal-comma rule decides.
      if (Math.abs(b.score - a.score) < 0.15 && commaIsDecimal) {
        if (a.delimiter === ',') return 1;
        if (b.delimiter === ',') return -1;
      }
      return b.score - a.score;
    }
    if (commaIsDecimal && a.delimiter === ',') return 1;
    if (commaIsDecimal && b.delimiter === ',') return -1;
    return b.fields - a.fields;
  });
  const best = scores[0]!;
  if (best.score === 0) return ',';
  if (best.delimiter === ',' && commaIsDecimal) {
    const other = scores.find((s) => s.delimiter !== ',' && s.score >= 0.8);
    if (other) return other.delimiter;
  }
  return best.delimiter;
}

/** What an importer knows about its columns, for finding the header row. */
export interface HeaderClues {
  /** A cell that names one of the importer's fields (a synonym counts). */
  isKnownHeader(cell: string): boolean;
  /** A cell that is surely data, never a column name (an email address, for invitations). */
  isData?(cell: string): boolean;
}

/**
 * The record that names the columns: the first one with a known column name, else the first that is as wide as
 * the data below it and holds no data value. Null when the file starts with data (no header at all).
 */
export function detectHeaderRow(records: readonly (readonly string[])[], clues: HeaderClues): number | null {
  const isData = clues.isData ?? (() => false);
  const filled = (row: readonly string[]) => row.filter((cell) => cell.trim() !== '').length;
  const widths = records.map(filled).filter((n) => n > 0);
  const width = mode(widths);
  const limit = Math.min(records.length, 30);
  for (let i = 0; i < limit; i++) {
    const row = records[i]!;
    if (filled(row) === 0) continue;
    const known = row.filter((cell) => clues.isKnownHeader(cell)).length;
    // A known column name and no data value: the header, even when the data has more columns than it names.
    if (known > 0 && !row.some(isData)) return i;
  }
  for (let i = 0; i < limit; i++) {
    const row = records[i]!;
    const n = filled(row);
    if (n === 0) continue;
    if (row.some(isData)) return null;
    if (n >= Math.max(width === 1 ? 1 : 2, Math.ceil(width * 0.6))) return i;
  }
  return records.length ? 0 : null;
}
