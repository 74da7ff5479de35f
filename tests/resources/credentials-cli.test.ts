/**
 * `mentor-admin create|get|update|delete credentials` and `mentor-admin llm-access` against a real sandbox: a padded
 * key is trimmed and the command says so at its field, no output ever prints a stored key, and the vendor's own SDK
 * reads back what the commands wrote.
 */
import { AiAccountService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { TRIMMED_NOTE } from '../../src/shared/resources';
import { cli } from '../helpers/cli';
import { sandbox } from '../helpers/sandbox';
import { cliTenant } from '../invitations/setup';
import { filesContaining } from '../helpers/temp';

let server: Sandbox;
let dataDir: string;
let env: NodeJS.ProcessEnv;
const run = (args: string[]) => cli(['--data-dir', dataDir, ...args], { env });

beforeAll(async () => {
  server = await sandbox();
  // A tenant added to a fresh data folder, its key from MENTOR_ADMIN_API_KEY (the CLI's own setup of a script).
  ({ dataDir, env } = await cliTenant(server));
});

const SECRET = 'sk-ant-api03-Hq7Rr2Kd0Wm9';

describe('mentor-admin credentials', () => {
  it('creates a key from --set value.key with the padding removed and said, and never prints it', async () => {
    const outputs: string[] = [];
    const created = await run(['create', 'credentials', '--set', 'name=anthropic', '--set', `value.key= ${SECRET}  `]);
    outputs.push(created.stdout, created.stderr);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain(`value.key: ${TRIMMED_NOTE}`);
    expect(created.stdout).toContain('Created LLM provider key "anthropic".');

    const json = await run([
      'create',
      'integration-credentials',
      '--set',
      'name=github',
      '--set',
      `value.token=${SECRET}\t`,
      '--json',
    ]);
    outputs.push(json.stdout, json.stderr);
    expect(json.code, json.stderr).toBe(0);
    expect(json.lines[0]).toMatchObject({
      name: 'github',
      value: { token: '************0Wm9' },
      notes: [{ path: 'value.token', message: TRIMMED_NOTE }],
    });

    const listed = await run(['get', 'credentials']);
    outputs.push(listed.stdout, listed.stderr);
    expect(listed.stdout).toMatch(/anthropic\s+\{"key":"\*+0Wm9"\}/);
    const one = await run(['get', 'credentials', 'anthropic', '--json']);
    outputs.push(one.stdout);
    expect(one.lines[0]).toMatchObject({ name: 'anthropic', value: { key: '************0Wm9' } });

    // The vendor's SDK reads the platform's masked view of what the command wrote: the trimmed key's last characters.
    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const read = await AiAccountService.aiAccountOrgsMaskedLlmCredentialRetrieve({
      org: server.org,
      name: 'anthropic',
    });
    expect(read).toEqual([expect.objectContaining({ name: 'anthropic', value: { key: '************0Wm9' } })]);

    const replaced = await run(['update', 'credentials', 'anthropic', '--set', 'value.key=sk-ant-second-0042']);
    outputs.push(replaced.stdout, replaced.stderr);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.stderr).toBe('');
    expect((await run(['get', 'credentials', 'anthropic'])).stdout).toContain('0042');

    const removed = await run(['delete', 'credentials', 'anthropic', '--yes']);
    expect(removed.code, removed.stderr).toBe(0);
    expect((await run(['get', 'credentials', '--json'])).lines).toEqual([]);

    for (const text of outputs) expect(text).not.toContain(SECRET);
    expect(filesContaining(dataDir, SECRET)).toEqual([]);
  });

  it('llm-access reads and switches the default key and the free trial', async () => {
    const read = await run(['llm-access']);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toContain('Default LLM key: off');
    expect(read.stdout).toContain('Free trial: off');
    const switched = await run(['llm-access', '--default-key', 'on', '--free-trial', 'on', '--json']);
    expect(switched.code, switched.stderr).toBe(0);
    expect(switched.lines[0]).toMatchObject({ defaultKey: true, freeTrial: true, usage: { limit: 10000 } });
    expect((await run(['llm-access', '--free-trial', 'maybe'])).code).toBe(2);
    expect((await run(['llm-access', 'extra'])).code).toBe(2);
  });
});
