import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];
afterAll(() => {
  while (made.length) rmSync(made.pop()!, { recursive: true, force: true });
});

/** A fresh temp folder, removed when the test file ends (hooks and tests of a file may share it). */
export function tempDir(prefix = 'mentor-admin-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Every file under `dir` whose bytes contain `needle` (SQLite WAL and logs included). */
export function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  const walk = (path: string) => {
    for (const entry of readdirSync(path)) {
      const full = join(path, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (readFileSync(full).includes(Buffer.from(needle))) hits.push(full);
    }
  };
  walk(dir);
  return hits;
}

/** Keychain tests need a real Secret Service: `npm test` runs them under scripts/with-keychain.sh. */
export function requireKeychainSession(): void {
  if (!process.env.MENTOR_ADMIN_KEYCHAIN_READY) {
    throw new Error('This test needs a real Secret Service: run it with scripts/with-keychain.sh (npm test does)');
  }
}

export const uniqueService = () => `mentor-admin-test-${process.pid}-${Math.random().toString(36).slice(2)}`;
