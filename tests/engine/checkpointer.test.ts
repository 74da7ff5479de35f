/**
 * WAL checkpoints run on a worker thread: the engine's own connection stops checkpointing inside its commits, and
 * the worker copies the log into the database file instead. Without the worker, the connection does it itself.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_WORKER_FILE, startCheckpointer } from '../../src/main/engine/store/checkpointer';
import { openDatabase, type Db } from '../../src/main/engine/store/database';
import { bundleText } from '../helpers/build';
import { tempDir } from '../helpers/temp';

const autocheckpoint = (db: Db) => db.pragma('wal_autocheckpoint', { simple: true }) as number;

function writeMegabytes(db: Db, megabytes: number) {
  db.exec('CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, data BLOB)');
  const insert = db.prepare('INSERT INTO filler (data) VALUES (?)');
  // One small transaction per row, like the job journal's writes.
  for (let i = 0; i < megabytes * 64; i++) insert.run(Buffer.alloc(16 * 1024, i % 251));
}

describe('the WAL checkpointer', () => {
  it('checkpoints on its worker thread while the engine connection commits without checkpointing', async () => {
    const file = join(tempDir('checkpoint-'), 'app.sqlite');
    const db = openDatabase(file);
    const checkpointer = startCheckpointer(db, { everyMs: 100 });
    try {
      await expect.poll(() => checkpointer.running, { timeout: 15_000 }).toBe(true);
      expect(autocheckpoint(db)).toBe(0);
      const before = statSync(file).size;
      writeMegabytes(db, 8);
      // The 8 MB reach the database file although this connection never checkpoints.
      await expect.poll(() => statSync(file).size - before, { timeout: 15_000 }).toBeGreaterThan(8 * 1024 * 1024);
      await expect.poll(() => checkpointer.framesCheckpointed).toBeGreaterThan(2000);
    } finally {
      await checkpointer.stop();
      // Stopped: the connection checkpoints by itself again.
      expect(autocheckpoint(db)).toBe(1000);
      db.close();
    }
  });

  it('leaves checkpointing to the connection when no worker can be found', async () => {
    const db = openDatabase(join(tempDir('checkpoint-none-'), 'app.sqlite'));
    const nowhere = pathToFileURL(join(tempDir(), 'engine.js')).href;
    const checkpointer = startCheckpointer(db, { moduleUrl: nowhere });
    expect(checkpointer.running).toBe(false);
    expect(autocheckpoint(db)).toBe(1000);
    await checkpointer.stop();
    db.close();
  });

  it('hands checkpointing back to the connection when the worker fails', async () => {
    const dir = tempDir('checkpoint-fail-');
    const db = openDatabase(join(dir, 'app.sqlite'));
    const lines: string[] = [];
    // A native binding that does not exist: the worker cannot open the database.
    const checkpointer = startCheckpointer(db, {
      nativeBinding: join(dir, 'missing.node'),
      log: (line) => lines.push(line),
    });
    await expect.poll(() => lines.join('\n'), { timeout: 15_000 }).toMatch(/checkpoint worker failed/);
    expect(checkpointer.running).toBe(false);
    expect(autocheckpoint(db)).toBe(1000);
    await checkpointer.stop();
    db.close();
  });
});

describe('the checkpoint worker in the build', () => {
  const outMain = resolve('out/main');

  it('is an entry of the build beside the engine, which looks for it by name', () => {
    expect(existsSync(join(outMain, 'engine.js')), 'run `npx electron-vite build` first').toBe(true);
    expect(readFileSync(join(outMain, CHECKPOINT_WORKER_FILE), 'utf8')).toMatch(/wal_checkpoint\(PASSIVE\)/);
    expect(bundleText(join(outMain, 'engine.js'))).toContain(CHECKPOINT_WORKER_FILE);
  });

  it('checkpoints when the engine runs from the build', async () => {
    const file = join(tempDir('checkpoint-built-'), 'app.sqlite');
    const db = openDatabase(file);
    const checkpointer = startCheckpointer(db, {
      moduleUrl: pathToFileURL(join(outMain, 'engine.js')).href,
      everyMs: 100,
    });
    try {
      await expect.poll(() => checkpointer.running, { timeout: 15_000 }).toBe(true);
      writeMegabytes(db, 2);
      await expect.poll(() => checkpointer.framesCheckpointed, { timeout: 15_000 }).toBeGreaterThan(500);
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });
});
