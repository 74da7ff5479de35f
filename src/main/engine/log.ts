import { appendFile, appendFileSync } from 'node:fs';
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

/** Lines gathered but not yet written, per log file; written synchronously if the process exits first. */
const unwritten = new Map<string, string[]>();
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

function writeUnwrittenNow(): void {
  for (const [file, lines] of unwritten) {
    try {
      if (lines.length) appendFileSync(file, lines.join(''), { mode: PRIVATE_FILE_MODE });
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
 * Appends redacted lines to `<dataDir>/logs/engine.log`; also echoes to stderr when MENTOR_ADMIN_DEBUG is set.
 * Lines are gathered and written together off the event loop (a big job logs every request), at most every 100 ms.
 */
export function createFileLog(dataDir: string, env: NodeJS.ProcessEnv): Log {
  const file = engineLogFile(dataDir);
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
    // A failed write is dropped rather than retried: logging must never break the app.
    appendFile(file, lines.join(''), { mode: PRIVATE_FILE_MODE }, () => {
      writing = false;
      writesInFlight--;
      flush();
      settleIfWritten();
    });
  };
  flushes.set(file, flush);
  return (line) => {
    const safe = `${new Date().toISOString()} ${redact(line)}\n`;
    let lines = unwritten.get(file);
    if (!lines) unwritten.set(file, (lines = []));
    lines.push(safe);
    if (lines.length === 1) setTimeout(flush, WRITE_EVERY_MS).unref();
    if (env.MENTOR_ADMIN_DEBUG) process.stderr.write(safe);
  };
}
