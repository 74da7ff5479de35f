/**
 * Opens a file once to learn its size (fstat) and, when asked, its SHA-256, streamed in 1 MB pieces into one
 * reused buffer. Opening with O_NONBLOCK means a named pipe can never hang the scan. The callback API is used on
 * purpose: for thousands of small files FileHandle costs noticeably more CPU per file.
 */
import {
  close,
  closeSync,
  constants,
  fstat,
  fstatSync,
  open,
  openAsBlob,
  openSync,
  read,
  readSync,
  type Stats,
} from 'node:fs';
import { stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';

const openFile = (path: string) =>
  new Promise<number>((resolve, reject) =>
    open(path, OPEN_FLAGS, (error, fd) => (error ? reject(error) : resolve(fd))),
  );
const statFile = (fd: number) =>
  new Promise<Stats>((resolve, reject) => fstat(fd, (error, stats) => (error ? reject(error) : resolve(stats))));
const readFile = (fd: number, buffer: Buffer, offset: number, length: number) =>
  new Promise<number>((resolve, reject) =>
    read(fd, buffer, offset, length, null, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead))),
  );
const closeFile = (fd: number) => new Promise<void>((resolve) => close(fd, () => resolve()));

export interface FileFacts {
  size: number;
  mtimeMs: number;
  /** Null when hashing was not wanted (e.g. the file is too large to send anyway). */
  sha256: string | null;
}

export const HASH_BUFFER_BYTES = 1024 * 1024;
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** A file that is not a regular file (a pipe, a device), found only once it was opened. */
export class NotRegularFileError extends Error {
  override name = 'NotRegularFileError';
  readonly code = 'ENOTREG';
}

/**
 * Size, modification time and (when `wantHash(size)` says so) SHA-256 of a file. `buffer` is the caller's
 * scratch buffer so concurrent hashers do not allocate per file.
 */
export async function inspectFile(
  path: string,
  wantHash: (size: number) => boolean,
  buffer: Buffer = Buffer.allocUnsafe(HASH_BUFFER_BYTES),
  signal?: AbortSignal,
): Promise<FileFacts> {
  const fd = await openFile(path);
  try {
    const stats = await statFile(fd);
    if (!stats.isFile()) throw new NotRegularFileError(`${path} is not a regular file`);
    if (!wantHash(stats.size)) return { size: stats.size, mtimeMs: stats.mtimeMs, sha256: null };
    const hash = createHash('sha256');
    let total = 0;
    for (;;) {
      signal?.throwIfAborted();
      const bytesRead = await readFile(fd, buffer, 0, buffer.length);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      total += bytesRead;
      // A short read at the size fstat gave is the end: saves one read per small file.
      if (bytesRead < buffer.length && total === stats.size) break;
    }
    return { size: total, mtimeMs: stats.mtimeMs, sha256: hash.digest('hex') };
  } finally {
    await closeFile(fd);
  }
}

/** Files up to this size are sent from memory (one read); larger ones stream from disk. */
export const IN_MEMORY_UPLOAD_BYTES = 1024 * 1024;
/** Files expected to be this small are read synchronously (well under a millisecond from the page cache). */
export const TINY_FILE_BYTES = 64 * 1024;

/**
 * A file ready to send, with exactly the bytes hashed: a small file is read once into memory (`content`); a larger
 * one is opened as a file-backed Blob first and hashed after, so that any change to the file after the Blob was made
 * fails every read of it (on the first send and on retries) instead of sending other bytes.
 */
export type Payload = { facts: FileFacts; content: Buffer; blob?: undefined } | { facts: FileFacts; blob: Blob };

export async function loadForUpload(
  path: string,
  expectedSize: number,
  buffer: Buffer,
  signal?: AbortSignal,
): Promise<Payload> {
  const loaded = (expectedSize <= TINY_FILE_BYTES && readTinySync(path, TINY_FILE_BYTES)) || (await readSmall(path));
  if (loaded) return loaded;
  const before = await stat(path);
  const blob = await openAsBlob(path);
  const facts = await inspectFile(path, () => true, buffer, signal);
  if (facts.size !== before.size || facts.mtimeMs !== before.mtimeMs || blob.size !== before.size) {
    throw new FileChangedError(path);
  }
  return { facts, blob };
}

/** The whole file in one read, hashed, when it is small enough to send from memory; null otherwise. */
async function readSmall(path: string): Promise<Payload | null> {
  const fd = await openFile(path);
  try {
    const stats = await statFile(fd);
    if (!stats.isFile()) throw new NotRegularFileError(`${path} is not a regular file`);
    if (stats.size > IN_MEMORY_UPLOAD_BYTES) return null;
    const bytes = Buffer.allocUnsafe(stats.size);
    let total = 0;
    while (total < stats.size) {
      const bytesRead = await readFile(fd, bytes, total, stats.size - total);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    return small(bytes.subarray(0, total), stats);
  } finally {
    await closeFile(fd);
  }
}

/**
 * A tiny file read in one go without the thread pool: for thousands of small files the four asynchronous round
 * trips (open, fstat, read, close) cost more CPU than the read itself. Null when the file is larger than `limit`.
 */
function readTinySync(path: string, limit: number): Payload | null {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new NotRegularFileError(`${path} is not a regular file`);
    if (stats.size > limit) return null;
    const bytes = Buffer.allocUnsafe(stats.size);
    let total = 0;
    while (total < stats.size) {
      const bytesRead = readSync(fd, bytes, total, stats.size - total, null);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    return small(bytes.subarray(0, total), stats);
  } finally {
    closeSync(fd);
  }
}

function small(content: Buffer, stats: Stats): Payload {
  const sha256 = createHash('sha256').update(content).digest('hex');
  return { facts: { size: content.length, mtimeMs: stats.mtimeMs, sha256 }, content };
}

/** The file changed while it was being read for sending. */
export class FileChangedError extends Error {
  override name = 'FileChangedError';
  constructor(path: string) {
    super(`${path} changed while it was being read`);
  }
}
