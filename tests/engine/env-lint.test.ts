/**
 * The engine reads its environment once, in config.ts (EngineConfig): the lint configuration refuses `process.env`
 * anywhere else in the engine (no-restricted-properties), and this proves it fires on a deliberate violation.
 */
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: ROOT });

const FIXTURE = [
  'export const limit = Number(process.env.MENTOR_ADMIN_IMPORT_MAX_WAIT_S) || 300;',
  "export const home = process['env']['MENTOR_ADMIN_HOME'];",
  'const { env } = process;',
  'export const all = env;',
  "export const platform = process.platform === 'linux';",
].join('\n');

async function findings(filePath: string) {
  const [result] = await eslint.lintText(FIXTURE, { filePath: join(ROOT, filePath) });
  return result!.messages
    .filter((message) => message.ruleId === 'no-restricted-properties')
    .map((message) => ({ line: message.line, message: message.message }));
}

describe('the environment is read in config.ts only', () => {
  it('refuses process.env in an area, however it is written; other properties of process are fine', async () => {
    for (const place of ['src/main/engine/tickets/outsider.ts', 'src/main/engine/index.ts']) {
      const found = await findings(place);
      expect(
        found.map((f) => f.line),
        place,
      ).toEqual([1, 2, 3]);
      expect(found[0]!.message).toMatch(/only in config\.ts: add a field to EngineConfig/);
    }
  });

  it('lets config.ts read it', async () => {
    expect(await findings('src/main/engine/config.ts')).toEqual([]);
  });
});
