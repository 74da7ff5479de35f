import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Area } from '../../src/server/area';
import type { Sandbox } from '../../src/server/app';
import { coreArea } from '../../src/server/areas/core';
import { mentorsArea } from '../../src/server/areas/mentors';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

/**
 * A sandbox for a whole describe block. Its folder is this file's own: tempDir() treats a folder made in a later
 * block's beforeAll as per-test and removes it after that block's first test.
 */
const blockDirs: string[] = [];
const blockServers: Sandbox[] = [];
async function box(options: Parameters<typeof sandbox>[0] = {}): Promise<Sandbox> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-mentors-'));
  blockDirs.push(dataDir);
  const server = await sandbox({ dataDir, log: (line) => console.error(line), ...options });
  blockServers.push(server);
  return server;
}
afterAll(async () => {
  await Promise.all(blockServers.map((server) => server.close()));
  for (const dir of blockDirs) rmSync(dir, { recursive: true, force: true });
});

const T = '/api/ai-mentor/orgs/{org}/users/{user_id}/';
const base = (server: Sandbox, user = server.user) => `/api/ai-mentor/orgs/${server.org}/users/${user}/`;

interface Mentor {
  id: number;
  name: string;
  slug: string;
  unique_id: string;
  is_featured: boolean;
  metadata: unknown;
  categories: { id: number; name: string }[];
}
interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

describe('mentors: list, filters and pages (demo data)', () => {
  let server: Sandbox;
  beforeAll(async () => {
    // Only core and mentors: the other areas' demo data is not needed here.
    server = await box({ seed: 'demo', areas: [coreArea, mentorsArea] });
  });

  it('lists the tenant mentors as a spec-valid DRF page with next/previous links', async () => {
    const first = await call(server, 'GET', `${base(server)}?page_size=5`);
    expect(first.status).toBe(200);
    expectSpecValid('get', T, 200, first.body);
    const page = first.body as Page<Mentor>;
    expect(page.count).toBe(12);
    expect(page.results).toHaveLength(5);
    expect(page.previous).toBeNull();
    expect(new URL(page.next!).searchParams.get('page')).toBe('2');
    const last = (await call(server, 'GET', `${base(server)}?page_size=5&page=3`)).body as Page<Mentor>;
    expect(last.results).toHaveLength(2);
    expect(last.next).toBeNull();
    expect(new URL(last.previous!).searchParams.get('page')).toBe('2');
    // Another tenant's mentor never appears.
    const all = (await call(server, 'GET', `${base(server)}?page_size=100`)).body as Page<Mentor>;
    expect(all.results.map((m) => m.name)).not.toContain('Riverside Tutor');
  });

  it('orders by date (newest first) by default and by name with filter_by=name', async () => {
    const byName = (
      (await call(server, 'GET', `${base(server)}?filter_by=name&page_size=100`)).body as Page<Mentor>
    ).results.map((m) => m.name);
    expect(byName).toEqual([...byName].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    const byDate = (
      (await call(server, 'GET', `${base(server)}?page_size=100`)).body as Page<Mentor & { created_at: string }>
    ).results;
    const dates = byDate.map((m) => m.created_at);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('filters by visibility, is_featured, metadata and accepts department_id and return_session_information', async () => {
    const admins = (await call(server, 'GET', `${base(server)}?visibility=viewable_by_tenant_admins&page_size=100`))
      .body as Page<Mentor>;
    for (const m of admins.results) {
      const settings = (await call(server, 'GET', `${base(server)}mentors/${m.unique_id}/settings/`)).body as {
        mentor_visibility: string;
      };
      expect(settings.mentor_visibility).toBe('viewable_by_tenant_admins');
    }
    const featured = (await call(server, 'GET', `${base(server)}?is_featured=true&page_size=100`)).body as Page<Mentor>;
    const notFeatured = (await call(server, 'GET', `${base(server)}?is_featured=false&page_size=100`))
      .body as Page<Mentor>;
    expect(featured.results.every((m) => m.is_featured)).toBe(true);
    expect(featured.count + notFeatured.count).toBe(12);
    const graduate = (await call(server, 'GET', `${base(server)}?metadata_key=level&metadata_value=graduate`))
      .body as Page<Mentor>;
    expect(graduate.results.map((m) => m.name).sort()).toEqual(['Research Methods', 'Statistics Buddy']);
    const hasLanguage = (await call(server, 'GET', `${base(server)}?metadata_key=language&page_size=100`))
      .body as Page<Mentor>;
    expect(hasLanguage.count).toBe(12);
    const filtered = await call(server, 'GET', `${base(server)}?department_id=1&return_session_information=true`);
    expect(filtered.status).toBe(200);
    expectSpecValid('get', T, 200, filtered.body);
    expect((await call(server, 'GET', `${base(server)}?is_featured=maybe`)).status).toBe(400);
  });

  it('shows students only the mentors meant for students or anyone', async () => {
    const student = await call(server, 'GET', `${base(server, server.studentUser)}?page_size=100`, {
      key: server.studentKey,
    });
    expect(student.status).toBe(200);
    expectSpecValid('get', T, 200, student.body);
    const admin = (await call(server, 'GET', `${base(server)}?visibility=viewable_by_tenant_admins&page_size=100`))
      .body as Page<Mentor>;
    const visible = (student.body as Page<Mentor>).results.map((m) => m.name);
    expect(visible.length).toBe(12 - admin.count);
    for (const hidden of admin.results) {
      expect(visible).not.toContain(hidden.name);
      const direct = await call(server, 'GET', `${base(server, server.studentUser)}${hidden.slug}/`, {
        key: server.studentKey,
      });
      expect(direct).toMatchObject({ status: 404, body: { detail: 'Mentor not found' } });
    }
    // A student may not act as someone else.
    expect((await call(server, 'GET', base(server), { key: server.studentKey })).status).toBe(403);
  });

  it('keeps tenants apart: another tenant in the path is 404 Organization not found', async () => {
    const other = await call(server, 'GET', base(server), { key: server.otherOrg.apiKey });
    expect(other).toMatchObject({ status: 404, body: { detail: 'Organization not found' } });
    const mentor = (
      await call(
        server,
        'GET',
        `/api/ai-mentor/orgs/${server.otherOrg.org}/users/${server.otherOrg.user}/?page_size=10`,
        {
          key: server.otherOrg.apiKey,
        },
      )
    ).body as Page<Mentor>;
    expect(mentor.results.map((m) => m.name)).toEqual(['Riverside Tutor']);
    // Their mentor cannot be read through our tenant, by any identifier.
    for (const key of [mentor.results[0]!.unique_id, 'riverside-tutor', 'Riverside Tutor']) {
      expect(await call(server, 'GET', `${base(server)}mentors/${encodeURIComponent(key)}/`)).toMatchObject({
        status: 404,
      });
      expect(await call(server, 'GET', `${base(server)}mentors/${encodeURIComponent(key)}/settings/`)).toMatchObject({
        status: 404,
        body: { detail: 'Mentor not found' },
      });
    }
  });
});

describe('mentors: create, read, update, delete', () => {
  let server: Sandbox;
  beforeAll(async () => {
    server = await box();
  });

  it('creates a mentor (201 Mentor) with a generated UUID and slug; name is required and unique', async () => {
    const created = await call(server, 'POST', base(server), {
      json: {
        name: 'Linear Algebra Lab',
        metadata: { level: 'undergraduate' },
        enable_moderation: true,
        greeting_method: 'proactive_prompt',
      },
    });
    expect(created.status).toBe(201);
    expectSpecValid('post', T, 201, created.body);
    const mentor = created.body as Mentor & { enable_moderation: boolean; greeting_method: string; created_by: string };
    expect(mentor.unique_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(mentor).toMatchObject({
      name: 'Linear Algebra Lab',
      slug: 'linear-algebra-lab',
      metadata: { level: 'undergraduate' },
      enable_moderation: true,
      greeting_method: 'proactive_prompt',
      created_by: server.user,
    });
    const missing = await call(server, 'POST', base(server), { json: { description: 'no name' } });
    expect(missing.status).toBe(400);
    expect((missing.body as { detail: string }).detail).toMatch(/^Invalid data: name/);
    const duplicate = await call(server, 'POST', base(server), { json: { name: 'Linear Algebra Lab' } });
    expect(duplicate.status).toBe(400);
    expect((duplicate.body as { detail: string }).detail).toContain('already exists');
    expect((await call(server, 'POST', base(server), { json: { name: 'X', slug: 'bad slug!' } })).status).toBe(400);
    expect((await call(server, 'POST', base(server), { json: { name: 'Y', greeting_method: 'shout' } })).status).toBe(
      400,
    );
    expect((await call(server, 'POST', base(server), { json: { name: 'Z', categories: [999] } })).status).toBe(400);
    expect((await call(server, 'POST', base(server), { json: { name: 'W', types: [999] } })).status).toBe(400);
    // A form body works too (the spec accepts any content type).
    const form = new FormData();
    form.set('name', 'Form Mentor');
    form.set('is_featured', 'true');
    const fromForm = await call(server, 'POST', base(server), { form });
    expect(fromForm.status).toBe(201);
    expect((fromForm.body as Mentor).is_featured).toBe(true);
  });

  it('gives the second mentor with the same slug base a numbered slug', async () => {
    const a = (await call(server, 'POST', base(server), { json: { name: 'Physics!' } })).body as Mentor;
    const b = (await call(server, 'POST', base(server), { json: { name: 'Physics?' } })).body as Mentor;
    expect([a.slug, b.slug]).toEqual(['physics', 'physics-2']);
  });

  it('reads a mentor by name, slug or unique_id at {name}/ and mentors/{mentor}/', async () => {
    const mentor = (await call(server, 'POST', base(server), { json: { name: 'Geometry Guide' } })).body as Mentor;
    for (const key of ['Geometry Guide', 'geometry-guide', mentor.unique_id]) {
      const byName = await call(server, 'GET', `${base(server)}${encodeURIComponent(key)}/`);
      expect(byName.status).toBe(200);
      expectSpecValid('get', `${T}{name}/`, 200, byName.body);
      expect((byName.body as Mentor).id).toBe(mentor.id);
      const byMentor = await call(server, 'GET', `${base(server)}mentors/${encodeURIComponent(key)}/`);
      expect(byMentor.status).toBe(200);
      expectSpecValid('get', `${T}mentors/{mentor}/`, 200, byMentor.body);
    }
    expect(await call(server, 'GET', `${base(server)}nobody/`)).toMatchObject({
      status: 404,
      body: { detail: 'Mentor not found' },
    });
    expect(await call(server, 'GET', `${base(server)}mentors/nobody/`)).toMatchObject({
      status: 404,
      body: { detail: 'Mentor not found' },
    });
  });

  it('updates with PUT (Mentor) and PATCH (MentorCreate), and soft-deletes with DELETE (204)', async () => {
    const mentor = (await call(server, 'POST', base(server), { json: { name: 'Biology Basics' } })).body as Mentor;
    const category = (
      await call(server, 'POST', `${base(server)}mentor/categories/`, { json: { name: 'Life sciences' } })
    ).body as { id: number };
    const put = await call(server, 'PUT', `${base(server)}biology-basics/`, {
      json: { name: 'Biology Basics II', categories: [category.id], disclaimer: 'Check with your lecturer.' },
    });
    expect(put.status).toBe(200);
    expectSpecValid('put', `${T}{name}/`, 200, put.body);
    expect(put.body).toMatchObject({
      name: 'Biology Basics II',
      disclaimer: 'Check with your lecturer.',
      categories: [{ id: category.id }],
    });
    expect(
      (await call(server, 'PUT', `${base(server)}${mentor.unique_id}/`, { json: { disclaimer: 'x' } })).status,
    ).toBe(400);

    const patch = await call(server, 'PATCH', `${base(server)}${mentor.unique_id}/`, {
      json: { is_featured: true, metadata: { term: 'spring' } },
    });
    expect(patch.status).toBe(200);
    expectSpecValid('patch', `${T}{name}/`, 200, patch.body);
    expect(patch.body).toMatchObject({
      name: 'Biology Basics II',
      is_featured: true,
      metadata: { term: 'spring' },
      categories: [category.id],
    });
    expect(
      (await call(server, 'PATCH', `${base(server)}${mentor.unique_id}/`, { json: { show_attachment: 'perhaps' } }))
        .status,
    ).toBe(400);
    expect((await call(server, 'PATCH', `${base(server)}nobody/`, { json: {} })).status).toBe(404);

    const removed = await call(server, 'DELETE', `${base(server)}${mentor.unique_id}/`);
    expect(removed.status).toBe(204);
    expectSpecValid('delete', `${T}{name}/`, 204, removed.body);
    expect((await call(server, 'GET', `${base(server)}${mentor.unique_id}/`)).status).toBe(404);
    expect((await call(server, 'DELETE', `${base(server)}${mentor.unique_id}/`)).status).toBe(404);
    const list = (await call(server, 'GET', `${base(server)}?page_size=100`)).body as Page<Mentor>;
    expect(list.results.map((m) => m.id)).not.toContain(mentor.id);
    // The name is free again once the mentor is deleted.
    expect((await call(server, 'POST', base(server), { json: { name: 'Biology Basics II' } })).status).toBe(201);
  });

  it('lets only tenant admins create, update and delete mentors', async () => {
    const student = base(server, server.studentUser);
    expect((await call(server, 'POST', student, { key: server.studentKey, json: { name: 'Mine' } })).status).toBe(403);
    expect((await call(server, 'POST', base(server), { json: { name: 'Shared' } })).status).toBe(201);
    expect(
      (await call(server, 'PATCH', `${student}shared/`, { key: server.studentKey, json: { name: 'Hacked' } })).status,
    ).toBe(403);
    expect((await call(server, 'DELETE', `${student}shared/`, { key: server.studentKey })).status).toBe(403);
    expect((await call(server, 'GET', `${student}shared/`, { key: server.studentKey })).status).toBe(200);
    expect((await call(server, 'GET', base(server), { key: null })).status).toBe(401);
  });
});

describe('mentors: settings and public settings', () => {
  let server: Sandbox;
  let mentor: Mentor;
  beforeAll(async () => {
    server = await box();
    mentor = (await call(server, 'POST', base(server), { json: { name: 'Settings Mentor' } })).body as Mentor;
  });

  it('reads settings (MentorSettingsPublic) for tenant admins only', async () => {
    const settings = await call(server, 'GET', `${base(server)}mentors/${mentor.slug}/settings/?department_id=1`);
    expect(settings.status).toBe(200);
    expectSpecValid('get', `${T}mentors/{mentor}/settings/`, 200, settings.body);
    expect(settings.body).toMatchObject({
      mentor_unique_id: mentor.unique_id,
      mentor_name: 'Settings Mentor',
      platform_key: server.org,
    });
    expect(settings.body).not.toHaveProperty('system_prompt');
    const student = await call(server, 'GET', `${base(server, server.studentUser)}mentors/${mentor.slug}/settings/`, {
      key: server.studentKey,
    });
    expect(student.status).toBe(403);
    const missing = await call(server, 'GET', `${base(server)}mentors/nobody/settings/`);
    expect(missing).toMatchObject({ status: 404, body: { detail: 'Mentor not found' } });
    expectSpecValid('get', `${T}mentors/{mentor}/settings/`, 404, missing.body);
  });

  it('updates settings with a multipart PUT (MentorSettings): description, visibility, prompts, categories', async () => {
    const form = new FormData();
    form.set('mentor_description', 'Helps with every setting.');
    form.set('mentor_visibility', 'viewable_by_anyone');
    form.set('system_prompt', 'Be brief.');
    form.set('llm_temperature', '0.2');
    form.set('theme', 'dark');
    form.set('enable_web_browsing', 'true');
    form.set('featured', 'true');
    form.set('metadata', JSON.stringify({ level: 'all' }));
    form.append('tool_slugs', 'web-search');
    form.append('tool_slugs', 'calculator');
    form.set('department_id', '1');
    const put = await call(server, 'PUT', `${base(server)}mentors/${mentor.unique_id}/settings/`, { form });
    expect(put.status).toBe(200);
    expectSpecValid('put', `${T}mentors/{mentor}/settings/`, 200, put.body);
    expect(put.body).toMatchObject({
      mentor_description: 'Helps with every setting.',
      mentor_visibility: 'viewable_by_anyone',
      system_prompt: 'Be brief.',
      llm_temperature: 0.2,
      theme: 'dark',
      enable_web_browsing: true,
      is_featured: true,
      metadata: { level: 'all' },
      mentor_tools: [{ slug: 'web-search' }, { slug: 'calculator' }],
      department: 'Engineering',
    });
    const read = (await call(server, 'GET', `${base(server)}mentors/${mentor.slug}/settings/`)).body;
    expect(read).toMatchObject({
      mentor_description: 'Helps with every setting.',
      mentor_visibility: 'viewable_by_anyone',
      theme: 'dark',
    });
    const asMentor = (await call(server, 'GET', `${base(server)}${mentor.slug}/`)).body;
    expect(asMentor).toMatchObject({ is_featured: true, metadata: { level: 'all' } });
    // JSON works as well.
    const json = await call(server, 'PUT', `${base(server)}mentors/${mentor.slug}/settings/`, {
      json: { mentor_name: 'Settings Mentor 2' },
    });
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ mentor_name: 'Settings Mentor 2', mentor_slug: mentor.slug });
  });

  it('refuses invalid settings with 400 Invalid request data, and unknown mentors with 404', async () => {
    const path = `${base(server)}mentors/${mentor.slug}/settings/`;
    for (const json of [
      { mentor_visibility: 'everyone' },
      { theme: 'blue' },
      { llm_temperature: 3 },
      { user_message_color: '#12345678' },
      { enable_web_browsing: 'sometimes' },
      { department_id: 9999 },
      { categories: [12345] },
    ]) {
      const bad = await call(server, 'PUT', path, { json });
      expect(bad).toMatchObject({ status: 400, body: { detail: 'Invalid request data' } });
      expectSpecValid('put', `${T}mentors/{mentor}/settings/`, 400, bad.body);
    }
    const missing = await call(server, 'PUT', `${base(server)}mentors/nobody/settings/`, { json: {} });
    expect(missing).toMatchObject({ status: 404, body: { detail: 'Mentor not found' } });
    expectSpecValid('put', `${T}mentors/{mentor}/settings/`, 404, missing.body);
    expect((await call(server, 'PUT', path, { key: server.studentKey, json: {} })).status).toBe(403);
  });

  it('serves public settings without credentials, following the mentor visibility', async () => {
    const publicPath = (key: string) => `${base(server)}mentors/${key}/public-settings/`;
    await call(server, 'PUT', `${base(server)}mentors/${mentor.slug}/settings/`, {
      json: { mentor_visibility: 'viewable_by_anyone' },
    });
    const open = await call(server, 'GET', publicPath(mentor.unique_id), { key: null });
    expect(open.status).toBe(200);
    expectSpecValid('get', `${T}mentors/{mentor}/public-settings/`, 200, open.body);
    expect(open.body).not.toHaveProperty('system_prompt');

    await call(server, 'PUT', `${base(server)}mentors/${mentor.slug}/settings/`, {
      json: { mentor_visibility: 'viewable_by_tenant_students' },
    });
    const hidden = await call(server, 'GET', publicPath(mentor.slug), { key: null });
    expect(hidden).toMatchObject({ status: 404, body: { detail: 'Mentor not found.' } });
    expectSpecValid('get', `${T}mentors/{mentor}/public-settings/`, 404, hidden.body);
    expect((await call(server, 'GET', publicPath(mentor.slug), { key: server.studentKey })).status).toBe(200);
    expect((await call(server, 'GET', publicPath(mentor.slug), { key: server.otherOrg.apiKey })).status).toBe(404);

    await call(server, 'PUT', `${base(server)}mentors/${mentor.slug}/settings/`, {
      json: { mentor_visibility: 'viewable_by_tenant_admins' },
    });
    expect((await call(server, 'GET', publicPath(mentor.slug), { key: server.studentKey })).status).toBe(404);
    expect((await call(server, 'GET', publicPath(mentor.slug))).status).toBe(200);
    expect(await call(server, 'GET', publicPath('nobody'), { key: null })).toMatchObject({
      status: 404,
      body: { detail: 'Mentor not found.' },
    });
    expect(
      await call(server, 'GET', `/api/ai-mentor/orgs/nowhere/users/x/mentors/a/public-settings/`, { key: null }),
    ).toMatchObject({
      status: 404,
      body: { detail: 'Organization not found' },
    });
  });
});

describe('mentors: audiences and categories', () => {
  let server: Sandbox;
  beforeAll(async () => {
    server = await box();
  });
  const audiences = (s: Sandbox, user = s.user) => `${base(s, user)}mentor/audience/`;
  const categories = (s: Sandbox, user = s.user) => `${base(s, user)}mentor/categories/`;

  it('creates (201), lists and deletes audiences; the name comes as a query parameter or a JSON body', async () => {
    const created = await call(server, 'POST', audiences(server), {
      json: { name: 'Alumni', description: 'Former students' },
    });
    expect(created.status).toBe(201);
    expectSpecValid('post', `${T}mentor/audience/`, 201, created.body);
    expect(created.body).toMatchObject({ name: 'Alumni', description: 'Former students' });
    await call(server, 'POST', audiences(server), { json: { name: 'Visitors' } });
    const listed = await call(server, 'GET', audiences(server, server.studentUser), { key: server.studentKey });
    expect(listed.status).toBe(200);
    expectSpecValid('get', `${T}mentor/audience/`, 200, listed.body);
    expect((listed.body as { name: string }[]).map((a) => a.name)).toEqual(['Alumni', 'Visitors']);
    expect((await call(server, 'POST', audiences(server), { json: { name: 'Alumni' } })).status).toBe(400);

    const byQuery = await call(server, 'DELETE', `${audiences(server)}?name=Alumni`);
    expect(byQuery.status).toBe(204);
    expectSpecValid('delete', `${T}mentor/audience/`, 204, byQuery.body);
    const byBody = await call(server, 'DELETE', audiences(server), { json: { name: 'Visitors' } });
    expect(byBody.status).toBe(204);
    expect((await call(server, 'GET', audiences(server))).body).toEqual([]);
  });

  it('answers the catalogue errors: missing name 400, unknown audience 404, students 401', async () => {
    const missing = await call(server, 'DELETE', audiences(server));
    expect(missing).toMatchObject({ status: 400, body: { detail: 'Bad Request - Invalid data.' } });
    expectSpecValid('delete', `${T}mentor/audience/`, 400, missing.body);
    const unknown = await call(server, 'DELETE', `${audiences(server)}?name=Nobody`);
    expect(unknown).toMatchObject({ status: 404, body: { detail: 'Not Found - Audience does not exist.' } });
    expectSpecValid('delete', `${T}mentor/audience/`, 404, unknown.body);
    const create = await call(server, 'POST', audiences(server, server.studentUser), {
      key: server.studentKey,
      json: { name: 'Mine' },
    });
    expect(create).toMatchObject({
      status: 401,
      body: { detail: 'Unauthorized - Only tenant admins can create mentor audiences.' },
    });
    expectSpecValid('post', `${T}mentor/audience/`, 401, create.body);
    const remove = await call(server, 'DELETE', `${audiences(server, server.studentUser)}?name=x`, {
      key: server.studentKey,
    });
    expect(remove).toMatchObject({
      status: 401,
      body: { detail: 'Unauthorized - Only tenant admins can delete mentor audiences.' },
    });
    expectSpecValid('delete', `${T}mentor/audience/`, 401, remove.body);
    expect((await call(server, 'POST', audiences(server), { json: { description: 'no name' } })).status).toBe(400);
  });

  it('creates categories (200 MentorCategory) with audiences, links them to mentors, and deletes them', async () => {
    const staff = (await call(server, 'POST', audiences(server), { json: { name: 'Staff' } })).body as { id: number };
    const created = await call(server, 'POST', categories(server), {
      json: { name: 'Wellbeing', description: 'Health', audiences: [staff.id] },
    });
    expect(created.status).toBe(200);
    expectSpecValid('post', `${T}mentor/categories/`, 200, created.body);
    expect(created.body).toMatchObject({
      name: 'Wellbeing',
      audience: { id: staff.id, name: 'Staff' },
      audiences: [{ id: staff.id }],
    });
    // Without an audience the category gets the default one (the spec requires an audience).
    const plain = (await call(server, 'POST', categories(server), { json: { name: 'Misc' } })).body as {
      id: number;
      audience: { name: string };
    };
    expect(plain.audience.name).toBe('General');
    expect((await call(server, 'POST', categories(server), { json: { name: 'Bad', audiences: [999] } })).status).toBe(
      400,
    );
    expect((await call(server, 'POST', categories(server), { json: { name: 'Misc' } })).status).toBe(400);
    expect(
      (
        await call(server, 'POST', categories(server, server.studentUser), {
          key: server.studentKey,
          json: { name: 'S' },
        })
      ).status,
    ).toBe(403);

    const listed = await call(server, 'GET', categories(server, server.studentUser), { key: server.studentKey });
    expectSpecValid('get', `${T}mentor/categories/`, 200, listed.body);
    expect((listed.body as { name: string }[]).map((c) => c.name)).toEqual(['Wellbeing', 'Misc']);

    const mentor = (await call(server, 'POST', base(server), { json: { name: 'Calm Coach', categories: [plain.id] } }))
      .body as Mentor;
    expect(mentor.categories.map((c) => c.name)).toEqual(['Misc']);
    // Deleting the audience of a category moves the category to the default audience.
    expect((await call(server, 'DELETE', `${audiences(server)}?name=Staff`)).status).toBe(204);
    const after = (await call(server, 'GET', categories(server))).body as {
      name: string;
      audience: { name: string };
    }[];
    expect(after.find((c) => c.name === 'Wellbeing')!.audience.name).toBe('General');
    // …and the default audience cannot go while a category has no other.
    expect(await call(server, 'DELETE', `${audiences(server)}?name=General`)).toMatchObject({ status: 400 });

    const removed = await call(server, 'DELETE', `${categories(server)}?name=Misc`);
    expect(removed.status).toBe(204);
    expectSpecValid('delete', `${T}mentor/categories/`, 204, removed.body);
    expect(((await call(server, 'GET', `${base(server)}${mentor.slug}/`)).body as Mentor).categories).toEqual([]);
    expect(await call(server, 'DELETE', categories(server))).toMatchObject({ status: 400 });
    // The app names a category by its id in the body (the spec declares no parameter; the audience's takes a name).
    const byId = (await call(server, 'POST', categories(server), { json: { name: 'By id' } })).body as { id: number };
    const removedById = await call(server, 'DELETE', categories(server), { json: { id: byId.id } });
    expect(removedById.status).toBe(204);
    expectSpecValid('delete', `${T}mentor/categories/`, 204, removedById.body);
    expect(await call(server, 'DELETE', categories(server), { json: { id: byId.id } })).toMatchObject({ status: 404 });
    expect(await call(server, 'DELETE', `${categories(server)}?name=Misc`)).toMatchObject({ status: 404 });
    expect(
      (
        await call(server, 'DELETE', `${categories(server, server.studentUser)}?name=Wellbeing`, {
          key: server.studentKey,
        })
      ).status,
    ).toBe(403);
  });
});

describe('mentors: route order', () => {
  it('leaves literal users/{user_id}/<segment>/ paths of later areas to them', async () => {
    const tickets: Area = {
      name: 'later-area',
      schema: '',
      routes(router) {
        router.get('/api/ai-mentor/orgs/{org}/users/{user_id}/support-tickets/', () => ({
          status: 200,
          body: { owner: 'later-area' },
        }));
      },
    };
    const server = await box({ areas: [coreArea, mentorsArea, tickets] });
    expect(await call(server, 'GET', `${base(server)}support-tickets/`)).toMatchObject({
      status: 200,
      body: { owner: 'later-area' },
    });
    expect(await call(server, 'GET', `${base(server)}someone/`)).toMatchObject({
      status: 404,
      body: { detail: 'Mentor not found' },
    });
  });
});
