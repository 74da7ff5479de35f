/**
 * The background process `train --no-wait` leaves running has no terminal: what it prints reaches the engine log
 * through the log's redaction, like every other line there, never as raw bytes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDetached } from '../../src/main/cli/background';
import { until } from '../helpers/engine';
import { requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('startDetached', () => {
  it("writes the process's output to the engine log redacted, line by line", async () => {
    requireKeychainSession();
    const dataDir = tempDir();
    const env = {
      ...process.env,
      MENTOR_ADMIN_SANDBOX: 'off',
      MENTOR_ADMIN_KEYCHAIN_SERVICE: uniqueService(),
    };
    // A command whose error message repeats its argument: a header and a query string carrying secrets.
    const pid = await startDetached(['jobs', 'show', 'Authorization: Bearer s3cr3t-bearer ?token=s3cr3t-query'], {
      dataDir,
      env,
    });
    await until('the background process to end', () => !alive(pid), 30_000);
    const log = readFileSync(join(dataDir, 'logs', 'engine.log'), 'utf8');
    expect(log).not.toContain('s3cr3t');
    const lines = log.split('\n').filter((line) => line.includes(`cli ${pid}: `));
    expect(lines.join('\n')).toMatch(/cli \d+: mentor-admin: No job 'Authorization: Bearer \[redacted\]/);
    expect(lines.join('\n')).toContain('?token=[redacted]');
    // Each line is stamped like the engine's own lines.
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z cli \d+: /);
  }, 60_000);
});
