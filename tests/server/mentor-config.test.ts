/**
 * Contract tests of the sandbox's mentor configuration kinds: MCP servers, call configurations and category groups.
 * Every operation's success answer is checked against the vendor spec; errors come in DRF's shape; a learner's key
 * may read what the spec opens to learners and write nothing; one tenant never sees another's records, except the
 * MCP servers another tenant features ("accessible to all other tenants").
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

let server: Sandbox;
let base: string;
let otherBase: string;
/** A learner calls under their own user id. */
let studentBase: string;
type Row = Record<string, unknown>;
const SPEC = '/api/ai-mentor/orgs/{org}/users/{user_id}';

beforeAll(async () => {
  server = await sandbox();
  base = `/api/ai-mentor/orgs/${server.org}/users/${server.user}`;
  otherBase = `/api/ai-mentor/orgs/${server.otherOrg.org}/users/${server.otherOrg.user}`;
  studentBase = `/api/ai-mentor/orgs/${server.org}/users/${server.studentUser}`;
});

describe('sandbox: MCP servers', () => {
  const server1 = { name: 'Catalogue', url: 'https://mcp.example.edu/sse', transport: 'sse', auth_type: 'token' };

  it('creates, pages, reads, patches and deletes a server, with its tenant and times', async () => {
    const made = await call(server, 'POST', `${base}/mcp-servers/`, {
      json: { ...server1, credentials: 'Bearer s3cret', extra_headers: { 'X-Campus': 'north' }, is_enabled: true },
    });
    expect(made.status).toBe(201);
    expectSpecValid('post', `${SPEC}/mcp-servers/`, 201, made.body);
    const record = made.body as Row;
    expect(record).toMatchObject({ ...server1, platform_key: server.org, extra_headers: { 'X-Campus': 'north' } });
    for (const n of [2, 3]) {
      await call(server, 'POST', `${base}/mcp-servers/`, {
        json: { name: `Extra ${n}`, url: `https://x${n}.example` },
      });
    }

    const page = await call(server, 'GET', `${base}/mcp-servers/?page=2&page_size=2`);
    expect(page.status).toBe(200);
    expectSpecValid('get', `${SPEC}/mcp-servers/`, 200, page.body);
    expect(page.body).toMatchObject({ count: 3, next: null, results: [{ name: 'Extra 3' }] });
    expect((await call(server, 'GET', `${base}/mcp-servers/?page=3&page_size=2`)).status).toBe(404);
    const searched = (await call(server, 'GET', `${base}/mcp-servers/?search=CATALOGUE`)).body as { results: Row[] };
    expect(searched.results.map((r) => r.name)).toEqual(['Catalogue']);
    const enabled = (await call(server, 'GET', `${base}/mcp-servers/?is_enabled=true`)).body as { results: Row[] };
    expect(enabled.results.map((r) => r.name)).toEqual(['Catalogue']);

    const path = `${base}/mcp-servers/${String(record.id)}/`;
    const read = await call(server, 'GET', path);
    expectSpecValid('get', `${SPEC}/mcp-servers/{id}/`, 200, read.body);
    const patched = await call(server, 'PATCH', path, { json: { is_enabled: false } });
    expect(patched.status).toBe(200);
    expectSpecValid('patch', `${SPEC}/mcp-servers/{id}/`, 200, patched.body);
    expect(patched.body).toMatchObject({ name: 'Catalogue', is_enabled: false, created_at: record.created_at });
    expect((await call(server, 'DELETE', path)).status).toBe(204);
    expect(await call(server, 'GET', path)).toMatchObject({ status: 404, body: { detail: 'Not found.' } });
  });

  it('refuses what the spec refuses; learners read but do not write; other tenants see only featured servers', async () => {
    expect(await call(server, 'POST', `${base}/mcp-servers/`, { json: { url: 'not a url' } })).toMatchObject({
      status: 400,
      body: { name: ['This field is required.'], url: ['Enter a valid URL.'] },
    });
    expect(
      await call(server, 'POST', `${base}/mcp-servers/`, { json: { ...server1, transport: 'carrier-pigeon' } }),
    ).toMatchObject({ status: 400, body: { transport: ['"carrier-pigeon" is not a valid choice.'] } });
    expect((await call(server, 'GET', `${studentBase}/mcp-servers/`, { key: server.studentKey })).status).toBe(200);
    expect(
      (await call(server, 'POST', `${studentBase}/mcp-servers/`, { json: server1, key: server.studentKey })).status,
    ).toBe(403);

    const own = (await call(server, 'POST', `${base}/mcp-servers/`, { json: { ...server1, name: 'Private' } }))
      .body as Row;
    const featured = (
      await call(server, 'POST', `${base}/mcp-servers/`, { json: { ...server1, name: 'Shared', is_featured: true } })
    ).body as Row;
    const seen = (await call(server, 'GET', `${otherBase}/mcp-servers/`, { key: server.otherOrg.apiKey })).body as {
      results: Row[];
    };
    expect(seen.results.map((r) => r.name)).toEqual(['Shared']);
    expect(
      (await call(server, 'GET', `${otherBase}/mcp-servers/${String(own.id)}/`, { key: server.otherOrg.apiKey }))
        .status,
    ).toBe(404);
    expect(
      (await call(server, 'GET', `${otherBase}/mcp-servers/${String(featured.id)}/`, { key: server.otherOrg.apiKey }))
        .status,
    ).toBe(200);
    // Featured is readable elsewhere, never changed from there.
    expect(
      (
        await call(server, 'PATCH', `${otherBase}/mcp-servers/${String(featured.id)}/`, {
          json: { name: 'Taken over' },
          key: server.otherOrg.apiKey,
        })
      ).status,
    ).toBe(404);
    expect((await call(server, 'GET', `${base}/mcp-servers/`, { key: server.otherOrg.apiKey })).status).toBe(404);
  });
});

describe('sandbox: call configurations', () => {
  it("creates one for a mentor of the tenant, lists by mentor, patches it; a mentor that is not the tenant's is refused", async () => {
    const mentor = (await call(server, 'POST', `${base}/`, { json: { name: 'Voice tutor' } })).body as Row;
    const made = await call(server, 'POST', `${base}/call-configurations/`, {
      json: { mentor: mentor.unique_id, mode: 'realtime', tts_provider: 'openai', stt_provider: 'deepgram' },
    });
    expect(made.status).toBe(201);
    expectSpecValid('post', `${SPEC}/call-configurations/`, 201, made.body);
    const id = String((made.body as Row).id);
    const listed = await call(server, 'GET', `${base}/call-configurations/?mentor=${String(mentor.unique_id)}`);
    expectSpecValid('get', `${SPEC}/call-configurations/`, 200, listed.body);
    expect((listed.body as Row[]).map((r) => String(r.id))).toEqual([id]);
    expect((await call(server, 'GET', `${base}/call-configurations/?mentor=${crypto.randomUUID()}`)).body).toEqual([]);
    const patched = await call(server, 'PATCH', `${base}/call-configurations/${id}/`, { json: { mode: 'inference' } });
    expectSpecValid('patch', `${SPEC}/call-configurations/{id}/`, 200, patched.body);
    expect(patched.body).toMatchObject({ mode: 'inference', tts_provider: 'openai', platform_key: server.org });

    const stranger = crypto.randomUUID();
    expect(await call(server, 'POST', `${base}/call-configurations/`, { json: { mentor: stranger } })).toMatchObject({
      status: 400,
      body: { mentor: [`Invalid pk "${stranger}" - object does not exist.`] },
    });
    expect(await call(server, 'POST', `${base}/call-configurations/`, { json: { mentor: 'x' } })).toMatchObject({
      status: 400,
      body: { mentor: ['Must be a valid UUID.'] },
    });
    // "Accessible only to platform admins"; another tenant's key cannot reach this one's.
    expect((await call(server, 'GET', `${studentBase}/call-configurations/`, { key: server.studentKey })).status).toBe(
      403,
    );
    expect(
      (await call(server, 'GET', `${otherBase}/call-configurations/${id}/`, { key: server.otherOrg.apiKey })).status,
    ).toBe(404);
    expect(
      await call(server, 'POST', `${otherBase}/call-configurations/`, {
        json: { mentor: mentor.unique_id },
        key: server.otherOrg.apiKey,
      }),
    ).toMatchObject({
      status: 400,
      body: { mentor: [`Invalid pk "${String(mentor.unique_id)}" - object does not exist.`] },
    });
  });
});

describe('sandbox: category groups', () => {
  it('answers audiences and categories as objects, a PATCH as ids; a deleted group leaves its categories ungrouped', async () => {
    const audience = (await call(server, 'POST', `${base}/mentor/audience/`, { json: { name: 'Undergraduates' } }))
      .body as Row;
    const made = await call(server, 'POST', `${base}/category-groups/`, {
      json: { name: 'STEM', description: 'Science and engineering', audiences: [audience.id] },
    });
    expect(made.status).toBe(201);
    expectSpecValid('post', `${SPEC}/category-groups/`, 201, made.body);
    const group = made.body as Row;
    expect(group).toMatchObject({
      audience: { name: 'Undergraduates' },
      audiences: [{ id: audience.id }],
      categories: [],
    });

    const category = await call(server, 'POST', `${base}/mentor/categories/`, {
      json: { name: 'Physics', category_group: group.id },
    });
    expect(category.status).toBe(200);
    const read = await call(server, 'GET', `${base}/category-groups/${String(group.id)}/`);
    expectSpecValid('get', `${SPEC}/category-groups/{id}/`, 200, read.body);
    expect((read.body as { categories: Row[] }).categories.map((c) => c.name)).toEqual(['Physics']);
    const listed = await call(server, 'GET', `${base}/category-groups/?audience__name=Undergraduates`);
    expectSpecValid('get', `${SPEC}/category-groups/`, 200, listed.body);
    expect((listed.body as Row[]).map((g) => g.name)).toEqual(['STEM']);
    expect((await call(server, 'GET', `${base}/category-groups/?audience__name=Staff`)).body).toEqual([]);

    const patched = await call(server, 'PATCH', `${base}/category-groups/${String(group.id)}/`, {
      json: { description: 'Science, technology, engineering, maths' },
    });
    expect(patched.status).toBe(200);
    expectSpecValid('patch', `${SPEC}/category-groups/{id}/`, 200, patched.body);
    expect(patched.body).toMatchObject({ audiences: [audience.id], audience: audience.id });

    expect((await call(server, 'DELETE', `${base}/category-groups/${String(group.id)}/`)).status).toBe(204);
    const categories = (await call(server, 'GET', `${base}/mentor/categories/`)).body as Row[];
    expect(categories.find((c) => c.name === 'Physics')).toMatchObject({ category_group: null });
  });

  it('refuses an audience that is not the tenant’s and a group without its description; learners only read', async () => {
    expect(
      await call(server, 'POST', `${base}/category-groups/`, {
        json: { name: 'X', description: 'x', audiences: [987654] },
      }),
    ).toMatchObject({ status: 400, body: { audiences: ['Invalid pk "987654" - object does not exist.'] } });
    expect(await call(server, 'POST', `${base}/category-groups/`, { json: { name: 'X' } })).toMatchObject({
      status: 400,
      body: { description: ['This field is required.'] },
    });
    expect((await call(server, 'GET', `${studentBase}/category-groups/`, { key: server.studentKey })).status).toBe(200);
    expect(
      (
        await call(server, 'POST', `${studentBase}/category-groups/`, {
          json: { name: 'X', description: 'x' },
          key: server.studentKey,
        })
      ).status,
    ).toBe(403);
    const mine = (await call(server, 'POST', `${base}/category-groups/`, { json: { name: 'Mine', description: 'm' } }))
      .body as Row;
    expect(
      (await call(server, 'GET', `${otherBase}/category-groups/${String(mine.id)}/`, { key: server.otherOrg.apiKey }))
        .status,
    ).toBe(404);
  });
});
