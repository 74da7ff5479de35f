import { appendFile, appendFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, ensurePrivateFile, PRIVATE_FILE_MODE } from './private-files';

export type Log = (line: string) => void;

const AUTHORIZATION = /(authorization["']?\s*[:=]\s*["']?)(Api-Key|Api-Token|Token|Bearer)?\s*[^"',\s}]+/gi;
const KEY_PARAMETER = /([?&](?:token|key|api_key)=)[^&\s"']+/gi;
/** What any text the two patterns above change contains. */
const MAY_CARRY_CREDENTIALS = /authorization|token=|key=/i;

/** Removes credentials from anything about to be logged: Authorization values and key-like query parameters. */
export function redact(text: string, secrets: readonly string[] = []): string {
  // Most lines have neither (an answer's status line): one search instead of two replaces.
  let out = MAY_CARRY_CREDENTIALS.test(text)
    ? text.replace(AUTHORIZATION, '$1$2 [redacted]').replace(KEY_PARAMETER, '$1[redacted]')
    : text;
  for (const secret of secrets) if (secret && out.includes(secret)) out = out.split(secret).join('[redacted]');
  return out;
}

/** Gathered lines are written this often: one append per batch, not one per line. */
const WRITE_EVERY_MS = 100;

/**
 * Size rotation: past 10 MB (about 70 000 lines, the requests of a 10 000-file training job) `engine.log` becomes
 * `engine.log.1`, the older ones move up a number, and the 3 newest are kept: at most about 40 MB in all.
 */
export interface LogRotation {
  maxBytes: number;
  keep: number;
}
export const DEFAULT_ROTATION: LogRotation = { maxBytes: 10 * 1024 * 1024, keep: 3 };

/** Lines gathered but not yet written, per log file; written synchronously if the process exits first. */
const unwritten = new Map<string, string[]>();
const rotations = new Map<string, LogRotation>();
let exitHookSet = false;
let writesInFlight = 0;
let whenWritten: (() => void)[] = [];
/** Each log file's flush: waiting for the lines starts their write now, as the batching timer does not hold the process. */
const flushes = new Map<string, () => void>();

/** Resolves once every line logged so far is on disk (the engine waits for it when it closes). */
export function logsWritten(): Promise<void> {
  for (const flush of flushes.values()) flush();
  if (!writesInFlight && ![...unwritten.values()].some((lines) => lines.length)) return Promise.resolve();
  return new Promise((resolve) => whenWritten.push(resolve));
}

function settleIfWritten(): void {
  if (writesInFlight || [...unwritten.values()].some((lines) => lines.length)) return;
  const waiting = whenWritten;
  whenWritten = [];
  for (const resolve of waiting) resolve();
}

/** `engine.log.2` → `.3`, `.1` → `.2`, `engine.log` → `.1`; the oldest is replaced. */
const shifts = (file: string, keep: number): [string, string][] =>
  Array.from({ length: keep }, (_, i) => keep - 1 - i).map((n) => [n ? `${file}.${n}` : file, `${file}.${n + 1}`]);

/**
 * How long a log file's size, as last read from the disk plus what this process has appended since, is trusted.
 * Several processes (the app, CLI commands, a background run) append to the same file, so the size is read again
 * this often, and always before a rotation; reading it for every batch cost a `stat` per write.
 */
export const SIZE_TRUSTED_MS = 1000;

/** A log file's size as this process knows it: read from the disk at `readAt`, plus its own appends since. */
interface KnownSize {
  bytes: number;
  readAt: number;
}
const sizes = new Map<string, KnownSize>();

/** Whether a batch of `adding` bytes must start a new file: never split, and never into an empty one. */
const full = (size: number, adding: number, rotation: LogRotation) => size > 0 && size + adding > rotation.maxBytes;

function sizeOnDisk(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0; // Not there yet.
  }
}

/** The size to go by: the known one while it is recent and says there is room, else the disk's (then known). */
function sizeBefore(file: string, adding: number, rotation: LogRotation): number {
  const known = sizes.get(file);
  const now = Date.now();
  if (known && now - known.readAt < SIZE_TRUSTED_MS && !full(known.bytes, adding, rotation)) return known.bytes;
  const bytes = sizeOnDisk(file);
  sizes.set(file, { bytes, readAt: now });
  return bytes;
}

/** Counts an append of this process's own, or a rotation (the file starts again, empty). */
function grew(file: string, bytes: number, rotated: boolean): void {
  const known = sizes.get(file);
  if (known) known.bytes = rotated ? bytes : known.bytes + bytes;
}

/**
 * Rotates the file if a batch of `adding` bytes would take it past its size; says whether it did. The size is read
 * from the disk synchronously only when it is due (a `stat` of a local file, at most once a second per file).
 */
function rotateIfFull(file: string, adding: number, rotation: LogRotation): boolean {
  if (!full(sizeBefore(file, adding, rotation), adding, rotation)) return false;
  // A rename that finds nothing (a file not there yet, another process rotating at the same moment) is no loss.
  for (const [from, to] of shifts(file, rotation.keep)) {
    try {
      renameSync(from, to);
    } catch {
      // As above.
    }
  }
  return true;
}

function writeUnwrittenNow(): void {
  for (const [file, lines] of unwritten) {
    try {
      if (!lines.length) continue;
      const text = lines.join('');
      const bytes = Buffer.byteLength(text);
      const rotated = rotateIfFull(file, bytes, rotations.get(file) ?? DEFAULT_ROTATION);
      appendFileSync(file, text, { mode: PRIVATE_FILE_MODE });
      grew(file, bytes, rotated);
    } catch {
      // Logging must never break the app.
    }
  }
  unwritten.clear();
}

/** `<dataDir>/logs/engine.log`, it and its folder made (owner-only) if need be. */
export function engineLogFile(dataDir: string): string {
  const dir = ensurePrivateDir(join(dataDir, 'logs'));
  return ensurePrivateFile(join(dir, 'engine.log'));
}

/**
 * Appends redacted lines to `<dataDir>/logs/engine.log`; also echoes them to stderr with `echo` (MENTOR_ADMIN_DEBUG).
 * Lines are gathered and written together off the event loop (a big job logs every request), at most every 100 ms,
 * and the file is rotated by size between batches, by the size it is known to have (SIZE_TRUSTED_MS).
 */
export function createFileLog(dataDir: string, options: { echo?: boolean } = {}, rotation = DEFAULT_ROTATION): Log {
  const file = engineLogFile(dataDir);
  rotations.set(file, rotation);
  if (!exitHookSet) {
    exitHookSet = true;
    process.once('exit', writeUnwrittenNow);
  }
  let writing = false;
  let timer: NodeJS.Timeout | null = null;
  const later = () => {
    timer ??= setTimeout(() => {
      timer = null;
      flush();
    }, WRITE_EVERY_MS).unref();
  };
  const flush = () => {
    const lines = unwritten.get(file);
    if (writing || !lines?.length) return;
    unwritten.delete(file);
    writing = true;
    writesInFlight++;
    const text = lines.join('');
    const bytes = Buffer.byteLength(text);
    const done = (error: Error | null) => {
      if (!error) grew(file, bytes, rotated);
      writing = false;
      writesInFlight--;
      // Lines logged meanwhile are the next batch, a tick later (one write per tick during a big job, not one per
      // few lines), unless something is waiting for them.
      if (whenWritten.length) flush();
      else if (unwritten.get(file)?.length) later();
      settleIfWritten();
    };
    let rotated = false;
    try {
      rotated = rotateIfFull(file, bytes, rotation);
    } catch {
      // A failed rotation leaves the lines to the file as it is: logging must never break the app.
    }
    // A failed write is dropped rather than retried, for the same reason.
    appendFile(file, text, { mode: PRIVATE_FILE_MODE }, done);
  };
  flushes.set(file, flush);
  return (line) => {
    const safe = `${new Date().toISOString()} ${redact(line)}\n`;
    let lines = unwritten.get(file);
    if (!lines) unwritten.set(file, (lines = []));
    lines.push(safe);
    later();
    if (options.echo) process.stderr.write(safe);
  };
}
