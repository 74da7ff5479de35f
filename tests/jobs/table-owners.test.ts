/**
 * The job journal is the only code that names `jobs` and `job_items` in SQL: the project's lint configuration says
 * so (the `local/table-owners` rule), and this proves the rule fires where it should and only there.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const FIXTURE = readFileSync(join(import.meta.dirname, 'fixtures/journal-outsider.ts'), 'utf8');
const eslint = new ESLint({ cwd: ROOT });

async function tableFindings(filePath: string) {
  const [result] = await eslint.lintText(FIXTURE, { filePath: join(ROOT, filePath) });
  return result!.messages
    .filter((message) => message.ruleId === 'local/table-owners')
    .map((message) => ({ line: message.line, message: message.message }));
}

describe('only the job journal names its tables in SQL', () => {
  it('reports every statement naming them in an area of the engine, and nothing else', async () => {
    const findings = await tableFindings('src/main/engine/tickets/outsider.ts');
    const line = (text: string) => FIXTURE.split('\n').findIndex((l) => l.includes(text)) + 1;
    expect(findings).toEqual([
      {
        line: line('SELECT * FROM jobs WHERE'),
        message: expect.stringContaining('`jobs` table belongs in src/main/engine/jobs/journal.ts'),
      },
      { line: line('UPDATE job_items'), message: expect.stringContaining('`job_items` table') },
      { line: line('LEFT JOIN jobs j'), message: expect.stringContaining('`jobs` table') },
      { line: line('DELETE FROM'), message: expect.stringContaining('`job_items` table') },
      { line: line('insert into jobs'), message: expect.stringContaining('`jobs` table') },
    ]);
  });

  it('reports the same SQL anywhere else in the app (shells, the CLI, the renderer)', async () => {
    for (const place of [
      'src/main/cli/outsider.ts',
      'src/main/engine/jobs/runner-helper.ts',
      'src/renderer/outsider.tsx',
    ]) {
      expect(await tableFindings(place), place).toHaveLength(5);
    }
  });

  it('lets the journal itself name them', async () => {
    expect(await tableFindings('src/main/engine/jobs/journal.ts')).toEqual([]);
  });
});

describe('only the list freshness store names `cached_lists` in SQL', () => {
  it('reports a cache writing list freshness itself, and lets the store do it', async () => {
    const sql = "db.prepare('UPDATE cached_lists SET error = NULL WHERE profile_id = ? AND list = ?').run(p, l);";
    const findings = async (filePath: string) =>
      (await eslint.lintText(sql, { filePath: join(ROOT, filePath) }))[0]!.messages
        .filter((message) => message.ruleId === 'local/table-owners')
        .map((message) => message.message);
    for (const place of ['src/main/engine/mentors/cache.ts', 'src/main/engine/resources/cache.ts']) {
      expect(await findings(place), place).toEqual([
        expect.stringContaining('`cached_lists` table belongs in src/main/engine/store/list-freshness.ts'),
      ]);
    }
    expect(await findings('src/main/engine/store/list-freshness.ts')).toEqual([]);
  });
});

describe('only the profile store names `profiles` in SQL', () => {
  const SQL = [
    "db.prepare('SELECT base_url, org, username FROM profiles WHERE id = ?').get(id);",
    "db.prepare('SELECT c.* FROM cached_mentors c JOIN profiles p ON p.id = c.profile_id').all();",
    "db.prepare('UPDATE profiles SET name = ? WHERE id = ?').run(name, id);",
    "const label = 'Pick one of your profiles';",
  ].join('\n');

  async function profileFindings(filePath: string) {
    const [result] = await eslint.lintText(SQL, { filePath: join(ROOT, filePath) });
    return result!.messages.filter((message) => message.ruleId === 'local/table-owners').map((m) => m.message);
  }

  it('reports a cache or an area reading the connections table itself', async () => {
    for (const place of ['src/main/engine/mentors/cache.ts', 'src/main/engine/resources/cache.ts']) {
      expect(await profileFindings(place), place).toEqual([
        expect.stringContaining('`profiles` table belongs in src/main/engine/profiles/store.ts'),
        expect.stringContaining('`profiles` table'),
        expect.stringContaining('`profiles` table'),
      ]);
    }
  });

  it('lets the profile store name it', async () => {
    expect(await profileFindings('src/main/engine/profiles/store.ts')).toEqual([]);
  });
});
