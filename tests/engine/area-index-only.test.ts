/**
 * Each engine area exposes its index.ts to shells and other areas: the project's lint configuration says so
 * (project/area-index-only), and this proves the rule fires on a deliberate violation and lets the area itself,
 * indexes and the engine's root modules through.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const FIXTURE = readFileSync(join(import.meta.dirname, 'fixtures/inner-imports.ts.txt'), 'utf8');
const RULE = 'project/area-index-only';
const eslint = new ESLint({ cwd: ROOT });

async function findings(filePath: string, text = FIXTURE) {
  const [result] = await eslint.lintText(text, { filePath: join(ROOT, filePath) });
  return result!.messages.filter((message) => message.ruleId === RULE).map((m) => [m.line, m.message] as const);
}

const line = (text: string) => FIXTURE.split('\n').findIndex((l) => l.includes(text)) + 1;

describe('engine areas are imported through their index', () => {
  it("reports imports, type imports, re-exports and dynamic imports of another area's inner modules", async () => {
    const found = await findings('src/main/engine/invitations/outsider.ts');
    expect(found.map(([at]) => at)).toEqual([
      line("'../tickets/cache'"),
      line("'../jobs/journal'"),
      line("'../train/summary'"),
      line("'../store/database'"),
      line("'../analytics/schedules'"),
    ]);
    expect(found[0]![1]).toMatch(
      /^Import 'tickets' through its index \('…\/engine\/tickets'\), not '\.\.\/tickets\/cache'/,
    );
  });

  it('lets an area import its own modules', async () => {
    const found = await findings('src/main/engine/tickets/outsider.ts');
    expect(found.map(([at]) => at)).not.toContain(line("'../tickets/cache'"));
    expect(found).toHaveLength(4);
  });

  it('reports a shell reaching inside an area, and lets it use the engine and its root modules', async () => {
    const shell = [
      "import { TicketCache } from '../engine/tickets/cache';",
      "import { launchSandbox } from '../engine/sandbox/launcher';",
      "import { createEngine } from '../engine';",
      "import { ticketsArea } from '../engine/tickets';",
      "import { defaultDataDir } from '../engine/paths';",
      'export const used = [TicketCache, launchSandbox, createEngine, ticketsArea, defaultDataDir];',
    ].join('\n');
    for (const place of ['src/main/cli/outsider.ts', 'src/main/host/outsider.ts', 'src/main/electron/outsider.ts']) {
      expect(
        (await findings(place, shell)).map(([at]) => at),
        place,
      ).toEqual([1, 2]);
    }
  });
}, 60_000);
