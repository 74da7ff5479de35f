/** The lint rule that keeps platform calls on the typed API: it refuses a deliberate violation in an area. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');
const fixture = readFileSync(join(__dirname, 'fixtures', 'calls-by-path.ts.txt'), 'utf8');
const RULE = 'project/platform-calls-in-platform';

async function violations(filePath: string) {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(fixture, { filePath: join(root, filePath) });
  return result!.messages
    .filter((message) => message.ruleId === RULE)
    .map((message) => [message.line, message.message]);
}

describe('platform calls outside platform/', () => {
  it('refuses requests by path, fetch and HTTP clients in an area of the engine', async () => {
    const found = await violations('src/main/engine/tickets/calls-by-path.ts');
    expect(found.map(([line]) => line)).toEqual([3, 4, 8, 9, 10]);
    expect(found[0]![1]).toMatch(/^openapi-fetch belongs to platform\//);
    expect(found[1]![1]).toMatch(/^node:https belongs to platform\//);
    expect(found[2]![1]).toMatch(/^Call the platform through its typed API/);
    expect(found[3]![1]).toMatch(/^fetch belongs to platform\//);
  });

  it('lets the ticket images fetcher use node:http(s): it fetches image hosts through the SSRF guard, not the platform', async () => {
    const found = await violations('src/main/engine/tickets/images.ts');
    expect(found.map(([line]) => line)).toEqual([3, 8, 9, 10]);
  });

  it('lets platform/ build the typed API with them', async () => {
    expect(await violations('src/main/engine/platform/calls-by-path.ts')).toEqual([]);
  });
}, 60_000);
