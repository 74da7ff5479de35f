/**
 * SQL lives in store modules: the project's lint configuration says so (project/sql-in-stores), and this proves the
 * rule fires on a deliberate violation in an area, a shell and an area's logic, and not in the modules that own tables.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const FIXTURE = readFileSync(join(import.meta.dirname, 'fixtures/sql-outside-store.ts.txt'), 'utf8');
const RULE = 'project/sql-in-stores';
const eslint = new ESLint({ cwd: ROOT });

async function findings(filePath: string) {
  const [result] = await eslint.lintText(FIXTURE, { filePath: join(ROOT, filePath) });
  return result!.messages.filter((message) => message.ruleId === RULE).map((message) => message.line);
}

const line = (text: string) => FIXTURE.split('\n').findIndex((l) => l.includes(text)) + 1;

describe('SQL only in store modules', () => {
  it('reports every statement prepared or run outside a store, and no regular expression', async () => {
    expect(await findings('src/main/engine/tickets/outsider.ts')).toEqual([
      line("db.prepare('SELECT count(*)"),
      line('this.db.exec(`CREATE INDEX'),
      line("this.db.prepare('DELETE FROM"),
      line('this.db.exec(sql)'),
    ]);
  });

  it('reports the same in an area index, a shell and the engine root', async () => {
    for (const place of [
      'src/main/engine/tickets/index.ts',
      'src/main/engine/invitations/job.ts',
      'src/main/cli/outsider.ts',
      'src/main/engine/outsider.ts',
    ]) {
      expect(await findings(place), place).toHaveLength(4);
    }
  });

  it('lets the owners run SQL: stores, caches, the job journal and the database itself', async () => {
    for (const place of [
      'src/main/engine/profiles/store.ts',
      'src/main/engine/tickets/queue-store.ts',
      'src/main/engine/tickets/cache.ts',
      'src/main/engine/invitations/list-cache.ts',
      'src/main/engine/jobs/journal.ts',
      'src/main/engine/store/database.ts',
    ]) {
      expect(await findings(place), place).toEqual([]);
    }
  });
}, 60_000);
