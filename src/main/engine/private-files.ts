/**
 * The data folder holds tenant data, job journals and logs: owner-only permissions (folders 0700, files 0600),
 * whatever the umask. A folder or file left looser by an older version is tightened when the app opens it. Windows
 * keeps access in ACLs (the profile folder is already private there), so modes are not touched on it.
 */
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

function tighten(path: string, mode: number): void {
  if (process.platform === 'win32') return;
  try {
    const info = statSync(path);
    // Only what this user owns: a shared folder someone pointed --data-dir at is theirs to decide.
    if ((info.mode & 0o777 & ~mode) !== 0 && info.uid === process.getuid?.()) chmodSync(path, mode);
  } catch {
    // Gone meanwhile, or not ours: opening it will say so if it matters.
  }
}

/** Makes `dir` (and missing parents) readable by this user only; tightens it if it exists. */
export function ensurePrivateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(dir, PRIVATE_DIR_MODE);
  return dir;
}

/** Creates `file` empty if missing, readable by this user only; tightens it if it exists. */
export function ensurePrivateFile(file: string): string {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  tighten(file, PRIVATE_FILE_MODE);
  return file;
}

/** Tightens `file` if it exists (SQLite's -wal and -shm files from an older version). */
export function tightenIfPresent(file: string): void {
  tighten(file, PRIVATE_FILE_MODE);
}
