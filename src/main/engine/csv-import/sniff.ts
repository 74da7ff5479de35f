/**
 * Opening a file: reads its first megabyte only, to guess the encoding, delimiter, header row and columns, and to
 * show the first records. The rest is streamed (stream.ts) once the admin is happy with the settings. Any importer
 * uses it with its own column matcher.
 */
import { open } from 'node:fs/promises';
import Papa from 'papaparse';
import type { CsvDelimiter, CsvEncoding } from '../../../shared/contract';
import { EngineError } from '../errors';
import type { ColumnMatcher } from './columns';
import {
  detectDelimiter,
  detectEncoding,
  detectHeaderRow,
  detectNewline,
  refuseNonCsv,
  type HeaderClues,
} from './detect';

const HEAD_BYTES = 1024 * 1024;
const PREVIEW_RECORDS = 30;
const SAMPLE_ROWS = 20;
const CELL_CHARS = 200;

export interface SniffChoices<F extends string = string> {
  encoding?: CsvEncoding;
  delimiter?: CsvDelimiter;
  headerRow?: number | null;
  mapping?: (F | null)[];
}

/** How a file is read, and what its head showed: the settings an import keeps. */
export interface CsvSettings<F extends string = string> {
  encoding: CsvEncoding;
  bomBytes: number;
  delimiter: CsvDelimiter;
  newline: string;
  /** 0-based record with the column names; records before it are title lines. Null: no header. */
  headerRow: number | null;
  headers: string[];
  /** Per column: the field it fills, or null. */
  mapping: (F | null)[];
  remembered: boolean[];
  samples: string[][];
  preview: string[][];
}

export interface Head {
  bytes: Uint8Array;
  /** The whole file fits in `bytes`. */
  complete: boolean;
}

export async function readHead(path: string, size: number): Promise<Head> {
  const handle = await open(path, 'r');
  try {
    const length = Math.min(size, HEAD_BYTES);
    const bytes = new Uint8Array(length);
    let read = 0;
    while (read < length) {
      const { bytesRead } = await handle.read(bytes, read, length - read, read);
      if (!bytesRead) break;
      read += bytesRead;
    }
    return { bytes: bytes.subarray(0, read), complete: read >= size };
  } finally {
    await handle.close();
  }
}

function bomLength(bytes: Uint8Array, encoding: CsvEncoding): number {
  if (encoding === 'utf-8' && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 3;
  if (encoding === 'utf-16le' && bytes[0] === 0xff && bytes[1] === 0xfe) return 2;
  if (encoding === 'utf-16be' && bytes[0] === 0xfe && bytes[1] === 0xff) return 2;
  return 0;
}

/** How to read the file, guessed from its head; `choices` override any guess (and keep the rest guessed). */
export function sniffWith<F extends string>(
  matcher: ColumnMatcher<F>,
  clues: HeaderClues,
  head: Head,
  choices: SniffChoices<F>,
  memory: ReadonlyMap<string, string>,
): CsvSettings<F> {
  const detected = detectEncoding(head.bytes);
  const encoding = choices.encoding ?? detected.encoding;
  refuseNonCsv(head.bytes, encoding);
  const bomBytes = bomLength(head.bytes, encoding);
  let text = new TextDecoder(encoding, { ignoreBOM: true }).decode(head.bytes.subarray(bomBytes));
  if (!head.complete) {
    // The head may end inside a record: keep whole lines only.
    const end = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
    if (end > 0) text = text.slice(0, end);
  }
  if (!text.trim()) {
    throw new EngineError(
      'validation',
      head.complete
        ? 'The file is empty: there is nothing to import.'
        : 'The file starts with a megabyte of blank space: is it really a CSV file?',
    );
  }
  const newline = detectNewline(text);
  const delimiter = choices.delimiter ?? detectDelimiter(text, newline);
  const records = Papa.parse<string[]>(text, {
    delimiter,
    newline: newline as '\n',
    quoteChar: '"',
    preview: 200,
  }).data;
  // A trailing newline leaves one empty record: not a row.
  while (records.length && records[records.length - 1]!.every((cell) => cell === '')) records.pop();
  const headerRow = choices.headerRow === undefined ? detectHeaderRow(records, clues) : choices.headerRow;
  if (headerRow !== null && headerRow >= records.length) {
    throw new EngineError(
      'validation',
      `The file has only ${records.length} records at its start: row ${headerRow + 1} cannot be the header.`,
    );
  }
  const dataRows = records.slice(headerRow === null ? 0 : headerRow + 1).filter((row) => row.some((c) => c.trim()));
  // The header says how many columns there are (longer rows are ragged); without one, the widest of the first rows.
  const width =
    headerRow === null ? Math.max(1, ...dataRows.slice(0, 50).map((row) => row.length)) : records[headerRow]!.length;
  const headers = Array.from({ length: width }, (_, index) => {
    const given = headerRow === null ? '' : (records[headerRow]![index] ?? '').trim();
    return given || `Column ${index + 1}`;
  });
  const samples = headers.map((_, index) =>
    dataRows.slice(0, SAMPLE_ROWS).map((row) => (row[index] ?? '').slice(0, CELL_CHARS)),
  );
  const matched = matcher.matchColumns(
    headerRow === null ? headers.map(() => '') : headers,
    headerRow === null ? new Map() : memory,
    samples,
  );
  const mapping = choices.mapping
    ? headers.map((_, index) => choices.mapping![index] ?? null)
    : matched.map((c) => c.field);
  return {
    encoding,
    bomBytes,
    delimiter,
    newline,
    headerRow,
    headers,
    mapping,
    remembered: matched.map((c) => c.remembered),
    samples,
    preview: records.slice(0, PREVIEW_RECORDS).map((row) => row.slice(0, 50).map((cell) => cell.slice(0, CELL_CHARS))),
  };
}
