import { appendFile, appendFileSync, renameSync, statSync } from 'node:fs';
import { rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePrivateDir, ensurePrivateFile, PRIVATE_FILE_MODE } from './private-files';

export type Log = (line: string) => void;

/** Removes credentials from anything about to be logged: Authorization values and key-like query parameters. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text
    .replace(/(authorization["']?\s*[:=]\s*["']?)(Api-Key|Api-Token|Token|Bearer)?\s*[^"',\s}]+/gi, '$1$2 [redacted]')
    .replace(/([?&](?:token|key|api_key)=)[^&\s"']+/gi, '$1[redacted]');
  for (const secret of secrets) if (secret) out = out.split(secret).join('[redacted]');
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
 * Whether a batch of `adding` bytes must start a new file. Several processes (the app, CLI commands, a background
 * run) append to the same file, so its size is read from the disk rather than counted here; a batch is never split.
 */
const full = (size: number, adding: number, rotation: LogRotation) => size > 0 && size + adding > rotation.maxBytes;

async function rotateIfFull(file: string, adding: number, rotation: LogRotation): Promise<void> {
  const size = await stat(file).then(
    (s) => s.size,
    () => 0,
  );
  if (!full(size, adding, rotation)) return;
  // A rename that finds nothing (a file not there yet, another process rotating at the same moment) is no loss.
  for (const [from, to] of shifts(file, rotation.keep)) await rename(from, to).catch(() => {});
}

function rotateIfFullSync(file: string, adding: number, rotation: LogRotation): void {
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    // Not there yet.
  }
  if (!full(size, adding, rotation)) return;
  for (const [from, to] of shifts(file, rotation.keep)) {
    try {
      renameSync(from, to);
    } catch {
      // As above.
    }
  }
}

function writeUnwrittenNow(): void {
  for (const [file, lines] of unwritten) {
    try {
      if (!lines.length) continue;
      const text = lines.join('');
      rotateIfFullSync(file, Buffer.byteLength(text), rotations.get(file) ?? DEFAULT_ROTATION);
      appendFileSync(file, text, { mode: PRIVATE_FILE_MODE });
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
 * and the file is rotated by size between batches.
 */
export function createFileLog(dataDir: string, options: { echo?: boolean } = {}, rotation = DEFAULT_ROTATION): Log {
  const file = engineLogFile(dataDir);
  rotations.set(file, rotation);
  if (!exitHookSet) {
    exitHookSet = true;
    process.once('exit', writeUnwrittenNow);
  }
  let writing = false;
  const flush = () => {
    const lines = unwritten.get(file);
    if (writing || !lines?.length) return;
    unwritten.delete(file);
    writing = true;
    writesInFlight++;
    const text = lines.join('');
    const done = () => {
      writing = false;
      writesInFlight--;
      flush();
      settleIfWritten();
    };
    // A failed write is dropped rather than retried: logging must never break the app.
    rotateIfFull(file, Buffer.byteLength(text), rotation).then(
      () => appendFile(file, text, { mode: PRIVATE_FILE_MODE }, done),
      () => appendFile(file, text, { mode: PRIVATE_FILE_MODE }, done),
    );
  };
  flushes.set(file, flush);
  return (line) => {
    const safe = `${new Date().toISOString()} ${redact(line)}\n`;
    let lines = unwritten.get(file);
    if (!lines) unwritten.set(file, (lines = []));
    lines.push(safe);
    if (lines.length === 1) setTimeout(flush, WRITE_EVERY_MS).unref();
    if (options.echo) process.stderr.write(safe);
  };
}
