import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileLog, logsWritten, SIZE_TRUSTED_MS } from '../../src/main/engine/log';
import { tempDir } from '../helpers/temp';

const logFile = (dataDir: string) => join(dataDir, 'logs', 'engine.log');

describe('the engine log file', () => {
  it('writes every line, in order and redacted, without blocking the caller', async () => {
    const dataDir = tempDir('log-');
    const log = createFileLog(dataDir, {});
    for (let i = 0; i < 2000; i++) log(`GET /x?token=abc${i} line ${i}`);
    // Gathered, not yet written: the caller never waits on the disk (the file exists, owner-only, but is empty).
    expect(readFileSync(logFile(dataDir), 'utf8')).toBe('');
    await expect.poll(() => readFileSync(logFile(dataDir), 'utf8').split('\n').length - 1).toBe(2000);
    const lines = readFileSync(logFile(dataDir), 'utf8').trim().split('\n');
    expect(lines[0]).toMatch(/GET \/x\?token=\[redacted\] line 0$/);
    expect(lines[1999]).toMatch(/line 1999$/);
    expect(readFileSync(logFile(dataDir), 'utf8')).not.toContain('abc');
  });

  it('still writes the lines gathered when the process exits at once', () => {
    const dataDir = tempDir('log-exit-');
    const script = `
      import { createFileLog } from ${JSON.stringify(join(process.cwd(), 'src/main/engine/log.ts'))};
      const log = createFileLog(process.argv[1], {});
      log('last words before exit');
      process.exit(3);`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dataDir], {
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(3);
    expect(readFileSync(logFile(dataDir), 'utf8')).toMatch(/last words before exit\n$/);
  });

  it('waiting for the lines to be written writes them now: the wait never outlives an idle process', () => {
    // The CLI awaits logsWritten() in engine.close() and then sets its exit code; a wait on an unref'd timer let
    // the process end first, with exit code 0.
    const dataDir = tempDir('log-wait-');
    const script = `
      import { createFileLog, logsWritten } from ${JSON.stringify(join(process.cwd(), 'src/main/engine/log.ts'))};
      const log = createFileLog(process.argv[1], {});
      log('written before the exit code is set');
      await logsWritten();
      process.exitCode = 130;`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dataDir], {
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(130);
    expect(readFileSync(logFile(dataDir), 'utf8')).toMatch(/written before the exit code is set\n$/);
  });

  it('rotates by size between batches: the newest files are kept, every line redacted, a batch never split', async () => {
    const dataDir = tempDir('log-rotate-');
    const file = logFile(dataDir);
    const log = createFileLog(dataDir, {}, { maxBytes: 3 * 1024, keep: 2 });
    const line = (batch: number, i: number) =>
      `POST /api?api_key=s3cret${batch}x${i} Authorization: Bearer tok${i} b${batch} n${i}`;
    // Batch 0: 200 lines (~19 KB) logged at once, more than a file may hold: gathered and written as one batch.
    for (let i = 0; i < 200; i++) log(line(0, i));
    // The file is made (owner-only) when the log is, and stays empty until the batch is written.
    expect(readFileSync(file, 'utf8')).toBe('');
    await logsWritten();
    expect(existsSync(`${file}.1`)).toBe(false);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(200);
    // Batches 1-4, 20 lines each (~1.9 KB, two do not fit in 3 KB): before each, the file moves to .1, the older up.
    for (let batch = 1; batch <= 4; batch++) {
      for (let i = 0; i < 20; i++) log(line(batch, i));
      await logsWritten();
    }
    expect(existsSync(`${file}.3`)).toBe(false);
    const read = (name: string) => readFileSync(name, 'utf8').trim().split('\n');
    const kept = [...read(`${file}.2`), ...read(`${file}.1`), ...read(file)];
    // Batches 0 and 1 are gone (2 rotated files kept); the rest is whole, in order, each file within the limit.
    expect(
      kept.map((text) =>
        text
          .match(/ b(\d+) n(\d+)$/)!
          .slice(1)
          .join('.'),
      ),
    ).toEqual([2, 3, 4].flatMap((batch) => Array.from({ length: 20 }, (_, i) => `${batch}.${i}`)));
    for (const name of [file, `${file}.1`, `${file}.2`]) expect(statSync(name).size).toBeLessThanOrEqual(3 * 1024);
    for (const name of [file, `${file}.1`, `${file}.2`]) {
      const text = readFileSync(name, 'utf8');
      expect(text).not.toMatch(/s3cret|tok\d/);
      expect(text).toContain('api_key=[redacted]');
      expect(text).toContain('Authorization: Bearer [redacted]');
    }
  });

  it('counts its own appends but reads the size again: a file another process grew is rotated at its size', async () => {
    const dataDir = tempDir('log-shared-');
    const file = logFile(dataDir);
    const log = createFileLog(dataDir, {}, { maxBytes: 4 * 1024, keep: 2 });
    log('ours, first');
    await logsWritten();
    // Another process (a CLI command, a background run) appends to the same file: 3.5 KB this process never wrote.
    appendFileSync(file, `${'x'.repeat(99)}\n`.repeat(35));
    await new Promise((resolve) => setTimeout(resolve, SIZE_TRUSTED_MS + 100));
    log(`ours, second ${'y'.repeat(600)}`);
    await logsWritten();
    // 3.5 KB + this batch do not fit in 4 KB: the file was rotated before it, going by the size on the disk.
    expect(readFileSync(`${file}.1`, 'utf8')).toMatch(/ours, first\n(x{99}\n){35}$/);
    expect(readFileSync(file, 'utf8')).toMatch(/^\S+ ours, second y+\n$/);
  });

  it('reads the size again before rotating: a file another process has just rotated is not rotated twice', async () => {
    const dataDir = tempDir('log-rotated-elsewhere-');
    const file = logFile(dataDir);
    const log = createFileLog(dataDir, {}, { maxBytes: 4 * 1024, keep: 3 });
    for (let i = 0; i < 30; i++) log(`ours ${i} ${'z'.repeat(100)}`);
    await logsWritten();
    expect(statSync(file).size).toBeGreaterThan(3 * 1024);
    // Another process rotates the file (it is near full) and starts a new one, at once.
    renameSync(file, `${file}.1`);
    writeFileSync(file, 'theirs\n');
    log(`ours, after their rotation ${'w'.repeat(1000)}`);
    await logsWritten();
    // This process knew the file as nearly full, but the file on the disk has room: no second rotation.
    expect(existsSync(`${file}.2`)).toBe(false);
    expect(readFileSync(file, 'utf8')).toMatch(/^theirs\n\S+ ours, after their rotation w+\n$/);
  });
});
