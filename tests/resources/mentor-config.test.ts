/**
 * Mentor configuration through the engine and the CLI against a real sandbox: MCP servers (DRF pages; their
 * credentials written, never cached, printed or answered), call configurations (for one of the tenant's mentors; no
 * delete, as the spec has none) and category groups (audiences by id); the vendor SDK reads back what they wrote.
 */
import { AiMentorService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { cli } from '../helpers/cli';
import { connect, failure } from '../helpers/engine';
import { call, sandbox } from '../helpers/sandbox';
import { filesContaining, requireKeychainSession } from '../helpers/temp';
import { cliTenant } from '../invitations/setup';

let server: Sandbox;
let dataDir: string;
let env: NodeJS.ProcessEnv;
const run = (args: string[]) => cli(['--data-dir', dataDir, ...args], { env });
type Row = Record<string, unknown>;

beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox();
  ({ dataDir, env } = await cliTenant(server));
});

const sdk = () => {
  OpenAPI.BASE = server.url;
  OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
  return { org: server.org, userId: server.user };
};

describe('MCP servers', () => {
  it('are created with credentials that never come back, read page by page, and read back by the SDK', async () => {
    const c = await connect(server);
    const secret = 'Bearer mcp-secret-7f3a9c';
    const { record } = await c.engine.invoke('resources.create', {
      kind: 'mcp-servers',
      values: {
        name: 'Library search',
        url: 'https://mcp.library.example/sse',
        credentials: secret,
        auth_type: 'token',
      },
    });
    expect(record).toMatchObject({ name: 'Library search', auth_type: 'token' });
    expect(JSON.stringify(record)).not.toContain(secret);
    // More than one DRF page (the engine asks 100 at a time).
    for (let n = 0; n < 105; n++) {
      await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/mcp-servers/`, {
        json: { name: `Server ${n}`, url: `https://s${n}.example` },
      });
    }
    await c.engine.invoke('resources.list', { kind: 'mcp-servers', refresh: true, pageSize: 200 });
    // The first page answers at once; the second is stored as it arrives.
    await expect
      .poll(async () => (await c.engine.invoke('resources.list', { kind: 'mcp-servers', pageSize: 200 })).total)
      .toBe(106);
    const list = await c.engine.invoke('resources.list', { kind: 'mcp-servers', pageSize: 200 });
    expect(JSON.stringify(list)).not.toContain(secret);
    expect(filesContaining(c.dataDir, 'mcp-secret-7f3a9c')).toEqual([]);

    // The platform holds the credentials: the vendor's SDK reads them back there.
    const read = await AiMentorService.aiMentorOrgsUsersMcpServersRetrieve({ ...sdk(), id: Number(record.id) });
    expect(read).toMatchObject({ name: 'Library search', credentials: secret });

    const printed = await run(['get', 'mcp-servers', String(record.id), '--json']);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.lines[0]).toMatchObject({ name: 'Library search' });
    expect(printed.stdout).not.toContain(secret);
  });

  it('a URL that is not one, and a transport the spec does not name, are refused at their fields', async () => {
    const c = await connect(server);
    const bad = await failure(c.engine, 'resources.create', {
      kind: 'mcp-servers',
      values: { name: 'Broken', url: 'mcp.example', transport: 'smoke' },
    });
    expect(bad.issues?.map((issue) => issue.path).sort()).toEqual(['transport', 'url']);
  });
});

describe('call configurations', () => {
  it("are made for one of the tenant's mentors and changed, never deleted; another mentor id is refused at its field", async () => {
    const c = await connect(server);
    const mentor = (
      await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`, {
        json: { name: 'Spanish conversation' },
      })
    ).body as Row;
    const made = await run([
      'create',
      'call-configurations',
      '--set',
      `mentor=${String(mentor.unique_id)}`,
      '--set',
      'mode=realtime',
      '--set',
      'tts_provider=elevenlabs',
      '--json',
    ]);
    expect(made.code, made.stderr).toBe(0);
    const id = String(made.lines[0]!.id);
    const changed = await run(['update', 'call-configurations', id, '--set', 'enable_video=true', '--json']);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.lines[0]).toMatchObject({ mode: 'realtime', enable_video: true });
    const listed = await AiMentorService.aiMentorOrgsUsersCallConfigurationsList({
      ...sdk(),
      mentor: String(mentor.unique_id),
    });
    expect(listed).toEqual([
      expect.objectContaining({ id: Number(id), tts_provider: 'elevenlabs', enable_video: true }),
    ]);

    const deleted = await run(['delete', 'call-configurations', id, '--yes']);
    expect(deleted.code).toBe(1);
    expect(deleted.stderr).toContain('The platform offers no way to delete a call configuration');

    const stranger = '00000000-0000-4000-8000-000000000000';
    const bad = await failure(c.engine, 'resources.create', {
      kind: 'call-configurations',
      values: { mentor: stranger },
    });
    expect(bad.issues).toEqual([{ path: 'mentor', message: `Invalid pk "${stranger}" - object does not exist.` }]);
  });
});

describe('category groups', () => {
  it('are made for audiences by id, listed with them, and deleted', async () => {
    const audience = (
      await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/mentor/audience/`, {
        json: { name: 'Graduate students' },
      })
    ).body as Row;
    const made = await run([
      'create',
      'category-groups',
      '--set',
      'name=Research skills',
      '--set',
      'description=Methods, writing and ethics',
      '--set',
      `audiences=[${String(audience.id)}]`,
      '--json',
    ]);
    expect(made.code, made.stderr).toBe(0);
    const id = Number(made.lines[0]!.id);
    const read = await AiMentorService.aiMentorOrgsUsersCategoryGroupsRetrieve({ ...sdk(), id });
    expect(read.audiences.map((a) => a.name)).toEqual(['Graduate students']);
    const table = await run(['get', 'category-groups']);
    expect(table.stdout).toContain('Research skills');
    const refused = await run([
      'create',
      'category-groups',
      '--set',
      'name=Nowhere',
      '--set',
      'description=x',
      '--set',
      'audiences=[987654]',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('audiences: Invalid pk "987654" - object does not exist.');
    expect((await run(['delete', 'category-groups', String(id), '--yes'])).code).toBe(0);
    expect((await run(['get', 'category-groups', '--json'])).lines.some((g) => g.id === id)).toBe(false);
  });
});

describe('audiences and categories', () => {
  it('are created and deleted by a tenant admin through the kit (categories for audiences by id); the SDK reads them back', async () => {
    const c = await connect(server);
    const { record: audience } = await c.engine.invoke('resources.create', {
      kind: 'mentor-audiences',
      values: { name: 'Night students', description: 'Evening courses' },
    });
    expect(audience).toMatchObject({ name: 'Night students', description: 'Evening courses' });
    const { record: category } = await c.engine.invoke('resources.create', {
      kind: 'mentor-categories',
      values: { name: 'Night sciences', description: 'After dark', audiences: [audience.id as number] },
    });
    const sdkCategories = await AiMentorService.aiMentorOrgsUsersMentorCategoriesList(sdk());
    const read = sdkCategories.find((row) => row.name === 'Night sciences')!;
    expect(read.audiences.map((a) => a.name)).toEqual(['Night students']);
    expect(read.id).toBe(category.id);
    const sdkAudiences = await AiMentorService.aiMentorOrgsUsersMentorAudienceList(sdk());
    expect(sdkAudiences.map((a) => a.name)).toContain('Night students');

    // An audience the tenant does not have is refused at its field.
    const refused = await failure(c.engine, 'resources.create', {
      kind: 'mentor-categories',
      values: { name: 'Nowhere', audiences: [987654] },
    });
    expect(refused.message).toMatch(/audiences|987654/);

    // The category by its id, the audience by its name (in the DELETE's body, as the spec's descriptions say).
    await c.engine.invoke('resources.delete', { kind: 'mentor-categories', id: String(category.id) });
    expect((await AiMentorService.aiMentorOrgsUsersMentorCategoriesList(sdk())).map((row) => row.name)).not.toContain(
      'Night sciences',
    );
    const deleted = await run(['delete', 'mentor-audiences', 'Night students', '--yes']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect((await AiMentorService.aiMentorOrgsUsersMentorAudienceList(sdk())).map((a) => a.name)).not.toContain(
      'Night students',
    );
  });

  it("a learner's key is refused with the platform's tenant-admin-only message", async () => {
    const c = await connect(server, {
      key: 'env-only',
      env: { MENTOR_ADMIN_API_KEY: server.studentKey },
      username: server.studentUser,
    });
    const refused = await failure(c.engine, 'resources.create', {
      kind: 'mentor-audiences',
      values: { name: 'Mine' },
    });
    expect(refused.message).toContain('Only tenant admins can create mentor audiences.');
  });
});
