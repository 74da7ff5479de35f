/**
 * A mentor's knowledge and tools (issue 16): the user's custom instruction and assumed knowledge (kinds
 * `custom-instruction`, `assumed-knowledge`: per user, as the spec puts them), the tools of the tenant
 * (`mentor-tools`) and of a mentor (`available-tools`), and a mentor's enabled tools saved as its settings'
 * `tool_slugs` (kept in its history). Engine against the real sandbox, the vendor SDK reading back, the sandbox's
 * contract (success, errors, tenants apart) and the CLI.
 */
import { join } from 'node:path';
import { AiMentorService, OpenAPI } from '@iblai/iblai-api';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { cli } from '../helpers/cli';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';
import { requireKeychainSession } from '../helpers/temp';
import { cliTenant } from '../invitations/setup';
import { connect, failure } from './setup';

const USER = '/api/ai-mentor/orgs/{org}/users/{user_id}';
const CI = `${USER}/custom-instruction/`;
const AK = `${USER}/assumed-knowledge/`;
const TOOLS = `${USER}/mentor-tools/`;
const AVAILABLE = `${USER}/mentors/{mentor}/available-tools/`;
const base = (server: Sandbox | Sandbox['otherOrg']) => `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;

let server: Sandbox;
beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox();
});

function sdk(target = server) {
  OpenAPI.BASE = target.url;
  OpenAPI.HEADERS = { Authorization: `Api-Key ${target.apiKey}` };
  // The SDK's typings drop `userId` (a comment swallows it); its code sends it.
  return { org: target.org, userId: target.user } as { org: string };
}

async function newMentor(name: string, target = server) {
  const created = await call(target, 'POST', base(target), { json: { name } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { unique_id: string; slug: string; name: string };
}

describe('custom-instruction and assumed-knowledge: engine', () => {
  it('reads none as empty, makes the custom instruction with its POST, then changes it with its PUT; the SDK reads it', async () => {
    const fresh = await sandbox();
    const c = await connect(fresh);
    const none = await c.engine.invoke('resources.getSingle', { kind: 'custom-instruction' });
    expect(none.record).toEqual({});

    const made = await c.engine.invoke('resources.updateSingle', {
      kind: 'custom-instruction',
      values: { about_user: 'I teach chemistry.', profession: 'Teacher' },
    });
    expect(made.record).toMatchObject({ about_user: 'I teach chemistry.', profession: 'Teacher' });
    const changed = await c.engine.invoke('resources.updateSingle', {
      kind: 'custom-instruction',
      values: { mentor_tone: 'Brief and friendly.', desired_mentor_traits: 'patient, concise' },
    });
    expect(changed.record).toMatchObject({ about_user: 'I teach chemistry.', mentor_tone: 'Brief and friendly.' });

    const read = (await AiMentorService.aiMentorOrgsUsersCustomInstructionRetrieve(sdk(fresh))) as unknown as Record<
      string,
      unknown
    >;
    expect(read).toMatchObject({
      about_user: 'I teach chemistry.',
      profession: 'Teacher',
      mentor_tone: 'Brief and friendly.',
      desired_mentor_traits: 'patient, concise',
    });
    // One record: the second save changed it rather than making another.
    expect(
      fresh.db.prepare("SELECT COUNT(*) FROM resource_store WHERE kind = 'custom-instruction'").pluck().get(),
    ).toBe(1);

    const tooLong = await failure(c.engine, 'resources.updateSingle', {
      kind: 'custom-instruction',
      values: { profession: 'x'.repeat(101) },
    });
    expect(tooLong).toMatchObject({ code: 'validation' });
    expect(JSON.stringify(tooLong)).toMatch(/profession/);
  });

  it('saves assumed knowledge levels whole; the SDK reads them back; a level without its category is refused', async () => {
    const c = await connect(server);
    expect((await c.engine.invoke('resources.getSingle', { kind: 'assumed-knowledge' })).record).toEqual({});
    const levels = [
      { category: 'Programming', level: 'Advanced' },
      { category: 'Statistics', level: 'Intermediate' },
    ];
    const saved = await c.engine.invoke('resources.updateSingle', { kind: 'assumed-knowledge', values: { levels } });
    expect(saved.record).toMatchObject({ levels });
    const read = await AiMentorService.aiMentorOrgsUsersAssumedKnowledgeRetrieve(sdk());
    expect(read).toEqual({ levels });

    const bad = await failure(c.engine, 'resources.updateSingle', {
      kind: 'assumed-knowledge',
      values: { levels: [{ level: 'Advanced' }] },
    });
    expect(bad).toMatchObject({ code: 'validation' });
    expect((await call(server, 'GET', `${base(server)}assumed-knowledge/`)).body).toEqual({ levels });
  });
});

describe('tools: engine', () => {
  it('lists the tenant’s tools and a mentor’s available tools; enabling some saves tool_slugs in the mentor’s history', async () => {
    const c = await connect(server);
    const mentor = await newMentor('Tool User');
    const tenant = await c.engine.invoke('resources.list', { kind: 'mentor-tools', refresh: true, whole: true });
    expect(tenant.records.map((r) => r.slug)).toEqual(expect.arrayContaining(['web-search', 'trained-documents']));

    const available = await c.engine.invoke('resources.getSingle', { kind: 'available-tools', key: mentor.slug });
    const tools = available.record.value as { slug: string; name: string }[];
    expect(tools.map((tool) => tool.slug)).toEqual(expect.arrayContaining(['web-search', 'code-interpreter']));

    await c.engine.invoke('resources.updateSingle', {
      kind: 'mentor-settings',
      key: mentor.unique_id,
      values: { can_use_tools: true, tool_slugs: ['web-search', 'code-interpreter'] },
    });
    const settings = (await AiMentorService.aiMentorOrgsUsersMentorsSettingsRetrieve({
      ...sdk(),
      mentor: mentor.unique_id,
    } as { org: string; mentor: string })) as unknown as { can_use_tools: boolean; mentor_tools: { slug: string }[] };
    expect(settings.can_use_tools).toBe(true);
    expect(settings.mentor_tools.map((tool) => tool.slug)).toEqual(['web-search', 'code-interpreter']);
    const { snapshots } = await c.engine.invoke('resources.history', {
      kind: 'mentor-settings',
      key: mentor.unique_id,
    });
    expect(snapshots[0]).toMatchObject({ reason: 'saved', changed: ['can_use_tools', 'tool_slugs'] });

    expect(
      await failure(c.engine, 'resources.getSingle', { kind: 'available-tools', key: 'no-such-mentor' }),
    ).toMatchObject({ code: 'not_found' });
    expect(
      await failure(c.engine, 'resources.updateSingle', {
        kind: 'available-tools',
        key: mentor.slug,
        values: { value: [] },
      }),
    ).toMatchObject({ code: 'validation', message: expect.stringMatching(/read-only/) });
  });
});

describe('MCP servers linked to a mentor', () => {
  it('links the tenant’s MCP servers through the settings; their credentials are never kept, shown or snapshotted', async () => {
    const c = await connect(server);
    const mentor = await newMentor('Mcp Linked');
    const made = await call(server, 'POST', `${base(server)}mcp-servers/`, {
      json: { name: 'Catalogue', url: 'https://mcp.example.edu/mcp', credentials: 'Bearer sk-mcp-secret-123' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = (made.body as { id: number }).id;

    const saved = await c.engine.invoke('resources.updateSingle', {
      kind: 'mentor-settings',
      key: mentor.unique_id,
      values: { mcp_servers: [id] },
    });
    expect(saved.record.mcp_servers).toEqual([expect.objectContaining({ id, name: 'Catalogue' })]);
    expect(JSON.stringify(saved.record)).not.toContain('sk-mcp-secret');
    const read = await c.engine.invoke('resources.getSingle', { kind: 'mentor-settings', key: mentor.unique_id });
    expect(JSON.stringify(read.record)).not.toContain('sk-mcp-secret');
    const { snapshots } = await c.engine.invoke('resources.history', {
      kind: 'mentor-settings',
      key: mentor.unique_id,
    });
    expect(snapshots[0]).toMatchObject({ changed: ['mcp_servers'] });
    const db = new Database(join(c.dataDir, 'mentor-admin.sqlite'), { readonly: true });
    const kept = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .pluck()
      .all()
      .flatMap((table) => db.prepare(`SELECT * FROM "${String(table)}"`).all())
      .map((row) => JSON.stringify(row))
      .join('\n');
    db.close();
    expect(kept).toContain('Catalogue');
    expect(kept).not.toContain('sk-mcp-secret');

    // What the platform answers: the linked server, whole (the SDK reads it in the settings' answer).
    const full = (await AiMentorService.aiMentorOrgsUsersMentorsSettingsUpdate({
      ...sdk(),
      mentor: mentor.unique_id,
      formData: {},
    } as Parameters<typeof AiMentorService.aiMentorOrgsUsersMentorsSettingsUpdate>[0])) as unknown as {
      mcp_servers: { id: number; url: string }[];
    };
    expect(full.mcp_servers).toEqual([expect.objectContaining({ id, url: 'https://mcp.example.edu/mcp' })]);
  });

  it('sandbox: the PUT answers linked MCPServer objects; an unknown id or another tenant’s server is refused at the field', async () => {
    const mentor = await newMentor('Mcp Contract');
    const path = `${base(server)}mentors/${mentor.unique_id}/settings/`;
    const own = await call(server, 'POST', `${base(server)}mcp-servers/`, {
      json: { name: 'Library', url: 'https://mcp.library.example.edu/sse' },
    });
    const other = server.otherOrg;
    const theirs = await call(server, 'POST', `${base(other)}mcp-servers/`, {
      key: other.apiKey,
      json: { name: 'Riverside only', url: 'https://mcp.riverside.example.edu/sse' },
    });
    const ownId = (own.body as { id: number }).id;
    const theirId = (theirs.body as { id: number }).id;
    const linked = await call(server, 'PUT', path, { json: { mcp_servers: [ownId] } });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expectSpecValid('put', `${USER}/mentors/{mentor}/settings/`, 200, linked.body);
    expect((linked.body as { mcp_servers: { id: number }[] }).mcp_servers.map((s) => s.id)).toEqual([ownId]);
    for (const bad of [999999, theirId]) {
      expect(await call(server, 'PUT', path, { json: { mcp_servers: [bad] } })).toMatchObject({
        status: 400,
        body: { detail: 'Invalid request data', mcp_servers: [`Invalid pk "${bad}" - object does not exist.`] },
      });
    }
    const unlinked = await call(server, 'PUT', path, { json: { mcp_servers: [] } });
    expect((unlinked.body as { mcp_servers: unknown[] }).mcp_servers).toEqual([]);
  });
});

describe('sandbox: knowledge and tools against the spec', () => {
  it('custom-instruction: 404 before any, POST 201 makes it, PUT 200 changes it, DRF errors by field, tenants apart', async () => {
    const fresh = await sandbox();
    const path = `${base(fresh)}custom-instruction/`;
    expect(await call(fresh, 'GET', path)).toMatchObject({
      status: 404,
      body: { detail: 'Custom instruction not found' },
    });
    expect((await call(fresh, 'PUT', path, { json: { about_user: 'x' } })).status).toBe(404);
    const made = await call(fresh, 'POST', path, { json: { about_user: 'Chemist', profession: 'Teacher' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expectSpecValid('post', CI, 201, made.body);
    const changed = await call(fresh, 'PUT', path, { json: { mentor_tone: 'Warm' } });
    expect(changed.status).toBe(200);
    expectSpecValid('put', CI, 200, changed.body);
    const read = await call(fresh, 'GET', path);
    expectSpecValid('get', CI, 200, read.body);
    expect(read.body).toMatchObject({ about_user: 'Chemist', profession: 'Teacher', mentor_tone: 'Warm' });

    const bad = await call(fresh, 'PUT', path, { json: { profession: 'x'.repeat(101) } });
    expect(bad).toMatchObject({
      status: 400,
      body: { profession: ['Ensure this field has no more than 100 characters.'] },
    });

    // Another tenant's key reads nothing of this one, on this org's path or its own.
    const other = fresh.otherOrg;
    expect((await call(fresh, 'GET', path, { key: other.apiKey })).status).toBe(404);
    expect((await call(fresh, 'PUT', path, { key: other.apiKey, json: { about_user: 'Hijacked' } })).status).toBe(404);
    expect(await call(fresh, 'GET', `${base(other)}custom-instruction/`, { key: other.apiKey })).toMatchObject({
      status: 404,
      body: { detail: 'Custom instruction not found' },
    });
    expect((await call(fresh, 'GET', path)).body).toMatchObject({ about_user: 'Chemist' });
  });

  it('assumed-knowledge: 404 before any, POST saves the levels, DRF errors by field, tenants apart', async () => {
    const fresh = await sandbox();
    const path = `${base(fresh)}assumed-knowledge/`;
    expect(await call(fresh, 'GET', path)).toMatchObject({
      status: 404,
      body: { detail: 'Assumed knowledge not found' },
    });
    const levels = [{ category: 'Mathematics', level: 'Advanced' }];
    const saved = await call(fresh, 'POST', path, { json: { levels } });
    expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
    expectSpecValid('post', AK, saved.status, saved.body);
    const read = await call(fresh, 'GET', path);
    expectSpecValid('get', AK, 200, read.body);
    expect(read.body).toEqual({ levels });
    expect(await call(fresh, 'POST', path, { json: {} })).toMatchObject({
      status: 400,
      body: { levels: ['This field is required.'] },
    });
    const other = fresh.otherOrg;
    expect((await call(fresh, 'POST', path, { key: other.apiKey, json: { levels: [] } })).status).toBe(404);
    expect((await call(fresh, 'GET', `${base(other)}assumed-knowledge/`, { key: other.apiKey })).status).toBe(404);
    expect((await call(fresh, 'GET', path)).body).toEqual({ levels });
  });

  it('mentor-tools and available-tools answer ToolResponse lists; search and ordering; another tenant’s mentor is not found', async () => {
    const tools = await call(server, 'GET', `${base(server)}mentor-tools/`);
    expect(tools.status).toBe(200);
    expectSpecValid('get', TOOLS, 200, tools.body);
    const mentor = await newMentor('Tool Contract');
    const path = `${base(server)}mentors/${mentor.unique_id}/available-tools/`;
    const available = await call(server, 'GET', path);
    expectSpecValid('get', AVAILABLE, 200, available.body);
    expect((available.body as unknown[]).length).toBe((tools.body as unknown[]).length);
    const searched = await call(server, 'GET', `${path}?search=web`);
    expect((searched.body as { slug: string }[]).map((tool) => tool.slug)).toEqual(['web-search']);
    const ordered = await call(server, 'GET', `${path}?ordering=-slug`);
    const slugs = (ordered.body as { slug: string }[]).map((tool) => tool.slug);
    expect(slugs).toEqual([...slugs].sort().reverse());

    expect(await call(server, 'GET', `${base(server)}mentors/nobody/available-tools/`)).toMatchObject({
      status: 404,
      body: { detail: 'Mentor not found' },
    });
    const other = server.otherOrg;
    expect(
      (await call(server, 'GET', `${base(other)}mentors/${mentor.unique_id}/available-tools/`, { key: other.apiKey }))
        .status,
    ).toBe(404);
  });
});

describe('mentor-admin: knowledge and tools', () => {
  it('gets and updates the custom instruction, lists tools, gets a mentor’s available tools', async () => {
    const fresh = await sandbox();
    const { dataDir, env } = await cliTenant(fresh);
    const run = (args: string[]) => cli(['--data-dir', dataDir, ...args], { env });
    const mentor = await newMentor('Cli Tools', fresh);

    const updated = await run(['update', 'custom-instruction', '--set', 'about_user=I run the chemistry lab.']);
    expect(updated.code, updated.stderr).toBe(0);
    const got = await run(['get', 'custom-instruction']);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toContain('about_user: I run the chemistry lab.');
    const read = (await AiMentorService.aiMentorOrgsUsersCustomInstructionRetrieve(sdk(fresh))) as unknown as {
      about_user: string;
    };
    expect(read.about_user).toBe('I run the chemistry lab.');

    const levels = await run([
      'update',
      'assumed-knowledge',
      '--set',
      'levels=[{"category":"Chemistry","level":"Expert"}]',
    ]);
    expect(levels.code, levels.stderr).toBe(0);
    expect(await AiMentorService.aiMentorOrgsUsersAssumedKnowledgeRetrieve(sdk(fresh))).toEqual({
      levels: [{ category: 'Chemistry', level: 'Expert' }],
    });

    const listed = await run(['get', 'mentor-tools']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('web-search');
    const available = await run(['get', 'available-tools', mentor.slug]);
    expect(available.code, available.stderr).toBe(0);
    expect(available.stdout).toContain('trained-documents');

    const enabled = await run(['update', 'mentor-settings', mentor.slug, '--set', 'tool_slugs=["web-search"]']);
    expect(enabled.code, enabled.stderr).toBe(0);
    const settings = (await AiMentorService.aiMentorOrgsUsersMentorsSettingsRetrieve({
      ...sdk(fresh),
      mentor: mentor.unique_id,
    } as { org: string; mentor: string })) as unknown as { mentor_tools: { slug: string }[] };
    expect(settings.mentor_tools.map((tool) => tool.slug)).toEqual(['web-search']);
  });
});
