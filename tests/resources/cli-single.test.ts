/**
 * `mentor-admin get|update` over single-record kinds (no ID) and the field inputs `--set` types as the spec does
 * (numbers, JSON, an image from a file), against a real sandbox; the vendor's SDK reads back what they wrote.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoreService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { cli } from '../helpers/cli';
import { call, sandbox } from '../helpers/sandbox';
import { cliTenant } from '../invitations/setup';
import { tempDir } from '../helpers/temp';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let server: Sandbox;
let dataDir: string;
let env: NodeJS.ProcessEnv;
const run = (args: string[]) => cli(['--data-dir', dataDir, ...args], { env });

beforeAll(async () => {
  server = await sandbox();
  // A tenant added to a fresh data folder, its key from MENTOR_ADMIN_API_KEY (the CLI's own setup of a script).
  ({ dataDir, env } = await cliTenant(server));
});

describe('mentor-admin single-record kinds', () => {
  it('update org-metadata --set metadata=JSON writes it typed; get org-metadata prints it; the SDK reads it', async () => {
    const updated = await run(['update', 'org-metadata', '--set', 'metadata={"tier":"gold","seats":40}', '--json']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.lines[0]).toMatchObject({ platform_key: server.org, metadata: { tier: 'gold', seats: 40 } });
    const got = await run(['get', 'org-metadata']);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toContain('metadata: {"tier":"gold","seats":40}');
    expect(got.stdout).toMatch(/\(as of \d{4}-/);

    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const vendor = await CoreService.coreOrgsMetadataRetrieve({ org: server.org });
    expect(vendor.metadata).toEqual({ tier: 'gold', seats: 40 });

    const bad = await run(['update', 'org-metadata', '--set', 'metadata={tier:gold}']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--set metadata= takes JSON/);
    expect((await run(['update', 'org-metadata', 'some-id', '--set', 'metadata=1'])).stderr).toMatch(/takes no ID/);
  });

  it('update branding --set logo=@FILE uploads the image; a file that is no image is refused at its field', async () => {
    const dir = tempDir('branding-');
    writeFileSync(join(dir, 'logo.png'), PNG);
    writeFileSync(join(dir, 'notes.png'), 'just text');
    const updated = await run(['update', 'branding', '--set', `logo=@${join(dir, 'logo.png')}`]);
    expect(updated.code, updated.stderr).toBe(0);
    const platform = await call(server, 'GET', `/api/core/orgs/${server.org}/logo/`, { key: null });
    expect(platform.body).toEqual({ file: `data:image/png;base64,${PNG.toString('base64')}` });
    const got = await run(['get', 'branding']);
    expect(got.stdout).toContain(`logo: image/png image, ${PNG.length} B`);

    const refused = await run(['update', 'branding', '--set', `favicon=@${join(dir, 'notes.png')}`]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/favicon: Not an image/);
    expect((await run(['update', 'branding', '--set', 'favicon=https://x.example/f.ico'])).stderr).toMatch(
      /favicon=@FILE takes an image file/,
    );
  });

  it('site-config takes any JSON value; billing is read-only; lti-tools numbers and JSON are typed', async () => {
    const key = await call(server, 'POST', '/api/core/lti/1p3/provider/lti-keys/', {
      json: { name: 'Blackboard signing', platform_key: server.org },
    });
    const keyId = (key.body as { id: number }).id;
    const saved = await run(['update', 'site-config', '--set', 'field_key=seats', '--set', 'value=25', '--json']);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.lines[0]).toMatchObject({ seats: 25 });
    expect((await run(['get', 'billing', '--json'])).lines[0]).toEqual({ subscriptions: [] });
    const readOnly = await run(['update', 'billing', '--set', 'plan=pro']);
    expect(readOnly.code).not.toBe(0);
    expect(readOnly.stderr).toMatch(/read-only/);

    const created = await run([
      'create',
      'lti-tools',
      '--set',
      'title=Blackboard',
      '--set',
      'issuer=https://bb.example.edu',
      '--set',
      'client_id=bb-1',
      '--set',
      'auth_login_url=https://bb.example.edu/login',
      '--set',
      'auth_token_url=https://bb.example.edu/token',
      '--set',
      `tool_key=${keyId}`,
      '--set',
      'deployment_ids=["d-1","d-2"]',
      '--set',
      'launch_gate={"allow_all_within_org":true}',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.lines[0]).toMatchObject({ tool_key: keyId, deployment_ids: ['d-1', 'd-2'] });
    const kinds = await run(['kinds', '--json']);
    expect(kinds.lines.find((k) => k.kind === 'billing')).toMatchObject({ verbs: ['get'] });
    expect(kinds.lines.find((k) => k.kind === 'branding')).toMatchObject({ verbs: ['get', 'update'] });
  });
});
