/**
 * Streams every record of a CSV file: bytes → text in the file's encoding → papaparse (quotes, embedded delimiters
 * and newlines), handed on one chunk of records at a time with the records whose quotes are broken. Memory stays
 * bounded whatever the size of the file; the bytes are counted and hashed (an import's identity on resume). Every
 * CSV import reads its file through here and maps the records to its own rows.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import { TextDecoder } from 'node:util';
import Papa from 'papaparse';
import type { CsvDelimiter, CsvEncoding } from '../../../shared/contract';

/** What reading needs of an import's settings. */
export interface StreamSettings {
  encoding: CsvEncoding;
  bomBytes: number;
  delimiter: CsvDelimiter;
  newline: string;
}

/**
 * Bytes read at a time. Small enough that a chunk's rows die young (a megabyte at a time doubles the garbage
 * collector's work), large enough that each chunk is one cheap SQLite transaction of a few thousand rows.
 */
export const CHUNK_BYTES = 256 * 1024;

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

/** One chunk of records as papaparse read them. */
export interface RecordChunk {
  records: string[][];
  /** 0-based index in the file of the chunk's first record. */
  first: number;
  /** Indexes within the chunk of records whose quotes are not balanced. */
  quoteRows: ReadonlySet<number>;
  /** Bytes read so far. */
  bytes: number;
  /** The decoder has met bytes it could not read in the encoding, in this chunk or before. */
  unreadable: boolean;
}

export interface StreamStats {
  bytes: number;
  sha256: string;
}

/**
 * Streams the records of `path` to `onChunk`. Resolves with the bytes read and their hash; rejects on read errors,
 * when `onChunk` throws, or when `signal` aborts.
 */
export function streamRecords(
  path: string,
  settings: StreamSettings,
  onChunk: (chunk: RecordChunk) => void,
  options: { signal?: AbortSignal | undefined; chunkBytes?: number | undefined } = {},
): Promise<StreamStats> {
  return new Promise((resolve, reject) => {
    const file = createReadStream(path, { highWaterMark: options.chunkBytes ?? CHUNK_BYTES });
    const decode = new DecodeStream(settings.encoding, settings.bomBytes);
    let record = 0;
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
        const first = record;
        record += results.data.length;
        try {
          onChunk({ records: results.data, first, quoteRows, bytes: decode.bytes, unreadable: decode.unreadable });
        } catch (error) {
          fail(error);
        }
      },
      complete() {
        if (settled) return;
        settled = true;
        options.signal?.removeEventListener('abort', onAbort);
        resolve({ bytes: decode.bytes, sha256: decode.hash.digest('hex') });
      },
      error: (error: Error) => fail(error),
    });
  });
}
