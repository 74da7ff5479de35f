import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileLog } from '../../src/main/engine/log';
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
});
