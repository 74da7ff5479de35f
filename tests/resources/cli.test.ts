/**
 * `mentor-admin kinds|get|create|update|delete|do` against a real sandbox, and the vendor's own SDK reading back what
 * they wrote. A new token's key is printed by `create` once and found nowhere after: not in later output, the data
 * folder or its logs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoreService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { RESOURCE_KINDS } from '../../src/shared/resources';
import { cli, cliProcess } from '../helpers/cli';
import { sandbox } from '../helpers/sandbox';
import { cliTenant } from '../invitations/setup';
import { filesContaining, tempDir } from '../helpers/temp';

let server: Sandbox;
let dataDir: string;
let env: NodeJS.ProcessEnv;
const run = (args: string[]) => cli(['--data-dir', dataDir, ...args], { env });

beforeAll(async () => {
  server = await sandbox();
  // A tenant added to a fresh data folder, its key from MENTOR_ADMIN_API_KEY (the CLI's own setup of a script).
  ({ dataDir, env } = await cliTenant(server));
});

/** The vendor's generated SDK, as a script of the tenant's would use it, on the same sandbox. */
function vendorSdk() {
  OpenAPI.BASE = server.url;
  OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
  return CoreService;
}

describe('mentor-admin resource verbs', () => {
  it('update: a field changed by --set, the rest of the record kept (the platform takes a PUT)', async () => {
    const created = await run(['create', 'lti-keys', '--set', 'name=D2L', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const id = String(created.lines[0]!.id);
    const updated = await run(['update', 'lti-keys', id, '--set', 'name=D2L Brightspace', '--json']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.lines[0]).toMatchObject({
      id: Number(id),
      name: 'D2L Brightspace',
      public_key: created.lines[0]!.public_key,
    });
    expect((await run(['update', 'lti-keys', id])).code).toBe(2);
  });

  it('kinds: one line per kind with its label, area and verbs', async () => {
    const kinds = await run(['kinds', '--json']);
    expect(kinds.code, kinds.stderr).toBe(0);
    expect(kinds.lines).toEqual([
      { kind: 'api-tokens', label: 'API tokens', area: 'Tenant settings', verbs: ['list', 'create', 'delete'] },
      { kind: 'domains', label: 'Domain whitelist', area: 'Tenant settings', verbs: ['list', 'get', 'create'] },
      {
        kind: 'lti-keys',
        label: 'LTI keys',
        area: 'Tenant settings',
        verbs: ['list', 'get', 'create', 'update', 'delete'],
      },
      {
        kind: 'lti-tools',
        label: 'LTI tools',
        area: 'Tenant settings',
        verbs: ['list', 'get', 'create', 'update', 'delete'],
      },
      { kind: 'org-metadata', label: 'Org metadata', area: 'Tenant settings', verbs: ['get', 'update'] },
      { kind: 'branding', label: 'Branding', area: 'Tenant settings', verbs: ['get', 'update'] },
      { kind: 'site-config', label: 'Site config', area: 'Tenant settings', verbs: ['get', 'update'] },
      { kind: 'billing', label: 'Billing', area: 'Tenant settings', verbs: ['get'] },
      {
        kind: 'credentials',
        label: 'LLM provider keys',
        area: 'Models and keys',
        verbs: ['list', 'create', 'update', 'delete'],
      },
      {
        kind: 'integration-credentials',
        label: 'Integration keys',
        area: 'Tenant settings',
        verbs: ['list', 'create', 'update', 'delete'],
      },
      { kind: 'tenant-llms', label: 'Tenant models', area: 'Models and keys', verbs: ['list', 'create'] },
      { kind: 'mentor-llms', label: 'Available LLMs', area: 'Models and keys', verbs: ['list'] },
      { kind: 'users', label: 'Users', area: 'People and access', verbs: ['list'] },
      {
        kind: 'departments',
        label: 'Departments',
        area: 'People and access',
        verbs: ['list', 'create', 'update', 'delete'],
      },
      {
        kind: 'department-members',
        label: 'Department members',
        area: 'People and access',
        verbs: ['list', 'create', 'delete'],
      },
      {
        kind: 'user-groups',
        label: 'User groups',
        area: 'People and access',
        verbs: ['list', 'create', 'update', 'delete'],
      },
      {
        kind: 'user-group-members',
        label: 'User group members',
        area: 'People and access',
        verbs: ['list', 'create', 'delete'],
      },
      {
        kind: 'rbac-roles',
        label: 'Roles',
        area: 'People and access',
        verbs: ['list', 'get', 'create', 'update', 'delete'],
      },
      {
        kind: 'rbac-policies',
        label: 'Policies',
        area: 'People and access',
        verbs: ['list', 'get', 'create', 'update', 'delete'],
      },
      {
        kind: 'rbac-groups',
        label: 'Access groups',
        area: 'People and access',
        verbs: ['list', 'get', 'create', 'update', 'delete'],
      },
      {
        kind: 'mcp-servers',
        label: 'MCP servers',
        area: 'Mentor configuration',
        verbs: ['list', 'get', 'create', 'update', 'delete'],
      },
      // The spec offers no delete of a call configuration.
      {
        kind: 'call-configurations',
        label: 'Call configurations',
        area: 'Mentor configuration',
        verbs: ['list', 'get', 'create', 'update'],
      },
      {
        kind: 'category-groups',
        label: 'Category groups',
        area: 'Mentor configuration',
        verbs: ['list', 'get', 'create', 'update', 'delete'],
      },
      { kind: 'voices', label: 'Voices', area: 'Mentor configuration', verbs: ['list', 'get'] },
      {
        kind: 'mentor-audiences',
        label: 'Mentor audiences',
        area: 'Mentor configuration',
        verbs: ['list', 'create', 'delete'],
      },
      {
        kind: 'mentor-categories',
        label: 'Mentor categories',
        area: 'Mentor configuration',
        verbs: ['list', 'create', 'delete'],
      },
      { kind: 'mentor-types', label: 'Mentor types', area: 'Mentor configuration', verbs: ['list'] },
      { kind: 'subjects', label: 'Subjects', area: 'Mentor configuration', verbs: ['list'] },
      { kind: 'mentor-settings', label: 'Mentor settings', area: 'Mentors', verbs: ['get', 'update'] },
      { kind: 'mentor-public-settings', label: 'Mentor public settings', area: 'Mentors', verbs: ['get'] },
      {
        kind: 'custom-instruction',
        label: 'Custom instruction',
        area: 'Mentor configuration',
        verbs: ['get', 'update'],
      },
      { kind: 'assumed-knowledge', label: 'Assumed knowledge', area: 'Mentor configuration', verbs: ['get', 'update'] },
      { kind: 'mentor-tools', label: 'Mentor tools', area: 'Mentor configuration', verbs: ['list'] },
      { kind: 'available-tools', label: 'Available tools', area: 'Mentors', verbs: ['get'] },
      { kind: 'mentor-memory-settings', label: 'Memory settings', area: 'Mentors', verbs: ['get', 'update'] },
      { kind: 'mentor-course-link', label: 'Linked course', area: 'Mentors', verbs: ['get', 'update'] },
      { kind: 'mentor-scenarios', label: 'Scenario', area: 'Mentors', verbs: ['get', 'update'] },
      { kind: 'mentor-auto-memory-prompt', label: 'Auto memory prompt', area: 'Mentors', verbs: ['get', 'update'] },
      { kind: 'licenses', label: 'Licences', area: 'Licences', verbs: ['list', 'create', 'update'] },
      { kind: 'course-licenses', label: 'Course licences', area: 'Licences', verbs: ['list', 'create', 'update'] },
      { kind: 'program-licenses', label: 'Program licences', area: 'Licences', verbs: ['list', 'create', 'update'] },
      { kind: 'platform-licenses', label: 'Platform licences', area: 'Licences', verbs: ['list', 'create', 'update'] },
      // The platform lists seats per licence only: the kit lists those given here (a licence's page reads them all).
      { kind: 'license-assignments', label: 'Licence seats', area: 'Licences', verbs: ['list', 'create'] },
      {
        kind: 'course-license-assignments',
        label: 'Course licence seats',
        area: 'Licences',
        verbs: ['list', 'create'],
      },
      {
        kind: 'program-license-assignments',
        label: 'Program licence seats',
        area: 'Licences',
        verbs: ['list', 'create'],
      },
      // A user group holding a licence: listed per licence like seats, given by licence and group.
      { kind: 'license-group-assignments', label: 'Licence group seats', area: 'Licences', verbs: ['list', 'create'] },
      {
        kind: 'course-license-group-assignments',
        label: 'Course licence group seats',
        area: 'Licences',
        verbs: ['list', 'create'],
      },
      {
        kind: 'program-license-group-assignments',
        label: 'Program licence group seats',
        area: 'Licences',
        verbs: ['list', 'create'],
      },
      { kind: 'access-requests', label: 'Access requests', area: 'Licences', verbs: ['list', 'update'] },
      { kind: 'courses', label: 'Courses', area: 'Catalogue', verbs: ['list', 'create', 'update', 'delete'] },
      { kind: 'pathways', label: 'Pathways', area: 'Catalogue', verbs: ['list', 'create', 'update', 'delete'] },
      { kind: 'programs', label: 'Programs', area: 'Catalogue', verbs: ['list', 'create', 'update', 'delete'] },
      { kind: 'enrollments', label: 'Enrolments', area: 'Catalogue', verbs: ['list'] },
      { kind: 'program-enrollments', label: 'Program enrolments', area: 'Catalogue', verbs: ['list'] },
      {
        kind: 'course-suggestions',
        label: 'Course suggestions',
        area: 'Catalogue',
        verbs: ['list', 'create', 'delete'],
      },
      {
        kind: 'course-group-suggestions',
        label: 'Group course suggestions',
        area: 'Catalogue',
        verbs: ['list', 'create', 'delete'],
      },
      { kind: 'course-reviews', label: 'Course reviews', area: 'Catalogue', verbs: ['list', 'update', 'delete'] },
      { kind: 'program-reviews', label: 'Program reviews', area: 'Catalogue', verbs: ['list', 'update', 'delete'] },
    ]);
    expect((await run(['kinds'])).stdout).toMatch(/^api-tokens\s+API tokens\s+Tenant settings\s+list,create,delete$/m);
  });

  it('create prints a new token’s key once; get, the data folder and the logs never show it', async () => {
    const created = await cliProcess(['--data-dir', dataDir, 'create', 'api-tokens', '--set', 'name=deploy-bot'], {
      env,
    });
    expect(created.code, created.stderr).toBe(0);
    const key = /key \(shown this once; copy it now\): (\S+)/.exec(created.stdout)?.[1];
    expect(key).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(created.stdout).toContain('Created API token "deploy-bot".');

    const listed = await run(['get', 'api-tokens', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.lines.map((l) => l.name)).toEqual(['sandbox', 'student', 'deploy-bot']);
    const table = await run(['get', 'api-tokens']);
    expect(table.stdout).toMatch(/^NAME\s+CREATED BY\s+CREATED\s+EXPIRES$/m);
    expect(table.stdout).toMatch(/^3 API tokens, as of \d{4}-/m);
    for (const output of [listed.stdout, table.stdout]) expect(output).not.toContain(key);
    expect(filesContaining(dataDir, key!)).toEqual([]);

    const one = await run(['get', 'api-tokens', 'deploy-bot', '--json']);
    expect(one.lines).toEqual([expect.objectContaining({ name: 'deploy-bot', username: server.user })]);
    expect(one.stdout).not.toContain(key);
    expect((await run(['update', 'api-tokens', 'deploy-bot', '--set', 'name=renamed'])).stderr).toContain(
      'API tokens cannot be updated',
    );

    // The vendor SDK reads the token back, and the key works as the platform's own.
    const tokens = await vendorSdk().corePlatformApiTokensList({ platformKey: server.org });
    expect(tokens.map((t) => t.name)).toContain('deploy-bot');
    expect(tokens.find((t) => t.name === 'deploy-bot')).toMatchObject({ username: server.user });
  });

  it('create --json prints the record with its key; a field error names the field; exit codes 0, 1, 2', async () => {
    const created = await run([
      'create',
      'api-tokens',
      '--set',
      'name=json-bot',
      '--set',
      'expires_in=7 00:00:00',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.lines).toHaveLength(1);
    expect(created.lines[0]).toMatchObject({ name: 'json-bot', username: server.user, key: expect.any(String) });

    const duplicate = await run(['create', 'api-tokens', '--set', 'name=json-bot']);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('name: platform api key with this name already exists.');
    const bad = await run(['create', 'api-tokens', '--set', 'name=not valid']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^mentor-admin: name: /m);
    expect((await run(['create', 'api-tokens'])).code).toBe(2);
    expect((await run(['create', 'widgets', '--set', 'a=b'])).stderr).toContain(
      `Unknown kind 'widgets' (kinds: ${RESOURCE_KINDS.join(', ')})`,
    );
    expect((await run(['create', 'api-tokens', '--set', 'name'])).code).toBe(2);
  });

  it('create --file and --csv: the body from a JSON file, the list as injection-safe CSV', async () => {
    const file = join(tempDir(), 'token.json');
    writeFileSync(file, JSON.stringify({ name: '=cmd-bot' }));
    const refused = await run(['create', 'api-tokens', '--file', file]);
    expect(refused.code).toBe(1);
    // A name may start with '-', which a spreadsheet would take for a formula.
    writeFileSync(file, JSON.stringify({ name: '-sum-bot' }));
    expect((await run(['create', 'api-tokens', '--file', file])).code).toBe(0);
    writeFileSync(file, '[1, 2]');
    expect((await run(['create', 'api-tokens', '--file', file])).code).toBe(2);

    const csv = await run(['get', 'api-tokens', '--where', 'name=-sum-bot', '--csv']);
    expect(csv.code, csv.stderr).toBe(0);
    const [header, row, end] = csv.stdout.split('\r\n');
    expect(header).toBe('name,username,created,expires');
    expect(row).toMatch(new RegExp(`^"'-sum-bot",${server.user},\\d{4}-`));
    expect(end).toBe('');
  });

  it('export KIND --out writes every record’s columns as injection-safe CSV; export DATASET is still analytics', async () => {
    expect((await run(['create', 'api-tokens', '--set', 'name=-export-bot'])).code).toBe(0);
    const file = join(tempDir(), 'tokens.csv');
    const exported = await run(['export', 'api-tokens', '--out', file, '--json']);
    expect(exported.code, exported.stderr).toBe(0);
    const rows = readFileSync(file, 'utf8').split('\r\n');
    expect(rows[0]).toBe('\uFEFFname,username,created,expires');
    expect(exported.lines).toEqual([{ kind: 'api-tokens', path: file, rows: rows.length - 2 }]);
    expect(rows.find((row) => row.includes('export-bot'))).toMatch(/^"'-export-bot",/);
    expect(readFileSync(file, 'utf8')).not.toMatch(/key/i);
    expect((await run(['export', 'api-tokens'])).code).toBe(2);
    const analytics = await run(['export', '--list', '--json']);
    expect(analytics.code, analytics.stderr).toBe(0);
    expect(analytics.lines.length).toBeGreaterThan(3);
  });

  it('delete needs --yes; several IDs are one journalled job: gone already counts as done, a refusal fails its own record (exit 1)', async () => {
    for (const name of ['old-1', 'old-2', 'keep-me'])
      expect((await run(['create', 'api-tokens', '--set', `name=${name}`])).code).toBe(0);
    const unconfirmed = await run(['delete', 'api-tokens', 'old-1']);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('needs --yes: it will revoke 1 API token');
    server.setFaults(
      'refusePath=/api/core/platform/api-tokens/keep-me:403:You do not have permission to perform this action.',
    );
    let deleted;
    try {
      deleted = await run(['delete', 'api-tokens', 'old-1', 'old-2', 'never-was', 'keep-me', '--yes', '--json']);
    } finally {
      server.setFaults('');
    }
    expect(deleted.code, deleted.stderr + deleted.stdout).toBe(1);
    const lines = deleted.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.slice(0, 4)).toEqual([
      { kind: 'api-tokens', id: 'old-1', deleted: true },
      { kind: 'api-tokens', id: 'old-2', deleted: true },
      { kind: 'api-tokens', id: 'never-was', deleted: true, already: true },
      {
        kind: 'api-tokens',
        id: 'keep-me',
        deleted: false,
        error: expect.stringContaining('You do not have permission to perform this action.'),
      },
    ]);
    expect(lines[4]).toMatchObject({ deleted: 2, already: 1, failed: 1, state: 'completed' });
    // The same job the screen runs, in the journal with its per-record report.
    const job = await run(['jobs', 'show', String(lines[4]!.job), '--json']);
    expect(job.code, job.stderr).toBe(0);
    expect(job.stdout).toContain('resource-bulk');
    const names = (await vendorSdk().corePlatformApiTokensList({ platformKey: server.org })).map((t) => t.name);
    expect(names).not.toContain('old-1');
    expect(names).not.toContain('old-2');
    expect(names).toContain('keep-me');
    expect((await run(['delete', 'api-tokens', 'keep-me', '--yes'])).code).toBe(0);
  });

  it('domains: create, get by id, the list of those known here, and the SDK checks them on the platform', async () => {
    const created = await run([
      'create',
      'domains',
      '--set',
      'url=courses.northbridge.example',
      '--set',
      'is_active=false',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.lines[0]).toEqual({ url: 'courses.northbridge.example', is_active: false });
    const one = await run(['get', 'domains', 'courses.northbridge.example']);
    expect(one.stdout).toContain('is_active: false');
    const listed = await run(['get', 'domains', '--where', 'is_active=false', '--json']);
    expect(listed.lines).toEqual([{ url: 'courses.northbridge.example', is_active: false }]);
    expect((await run(['get', 'domains'])).stdout).toContain('added or checked from this app');
    expect((await run(['get', 'domains', 'nowhere.example'])).stderr).toContain(
      'No domain "nowhere.example" on this tenant',
    );
    expect((await run(['do', 'domains', 'courses.northbridge.example', 'verify'])).stderr).toContain(
      "Domains have no action 'verify'",
    );
    // The vendor SDK's check answers for the domain the CLI added (and refuses one it did not).
    await expect(vendorSdk().coreDomainsWhitelistRetrieve({ url: 'courses.northbridge.example' })).resolves.toEqual({
      url: 'courses.northbridge.example',
      is_active: false,
    });
    await expect(vendorSdk().coreDomainsWhitelistRetrieve({ url: 'nowhere.example' })).rejects.toThrow('Not Found');
  });
});
