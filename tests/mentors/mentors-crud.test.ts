/** mentors.get|create|update|delete against the sandbox, and the bad inputs that must change nothing. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { requireKeychainSession } from '../helpers/temp';
import { parseMultipart } from '../platform/test-server';
import { connect, failure, recordingProxy, serverMentors } from './setup';

let server: Sandbox;
beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox({ seed: 'demo' });
});

const byName = async (name: string) => (await serverMentors(server)).find((m) => m.name === name);

describe('mentor writes', () => {
  it('creates a mentor with its description and visibility, shows it in the cached list, reads it back', async () => {
    const c = await connect(server);
    await c.engine.invoke('mentors.list', {});
    const created = await c.engine.invoke('mentors.create', {
      name: 'Thermodynamics Tutor',
      description: 'Heat, work and entropy',
      visibility: 'viewable_by_tenant_admins',
    });
    expect(created).toMatchObject({
      name: 'Thermodynamics Tutor',
      slug: 'thermodynamics-tutor',
      description: 'Heat, work and entropy',
      visibility: 'viewable_by_tenant_admins',
      featured: false,
    });
    expect(created.uniqueId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await byName('Thermodynamics Tutor')).toEqual({
      uniqueId: created.uniqueId,
      name: 'Thermodynamics Tutor',
      description: 'Heat, work and entropy',
      visibility: 'viewable_by_tenant_admins',
    });
    expect(c.events).toContainEqual({ name: 'mentors.changed', payload: { profileId: c.profileId } });

    // The cache took the write: the list shows it first, without a refresh.
    const list = await c.engine.invoke('mentors.list', {});
    expect(list.freshness.source).toBe('cache');
    expect(list.mentors[0]).toEqual(created);
    // The next full refresh agrees with what the write put in the cache.
    const refreshed = await c.engine.invoke('mentors.list', { refresh: true });
    expect(refreshed.mentors.find((m) => m.uniqueId === created.uniqueId)).toEqual(created);

    expect(await c.engine.invoke('mentors.get', { mentor: 'Thermodynamics Tutor' })).toEqual(created);
    expect(await c.engine.invoke('mentors.get', { mentor: created.uniqueId })).toEqual(created);
    expect(await c.engine.invoke('mentors.get', { mentor: 'thermodynamics-tutor' })).toEqual(created);

    // Defaults: no description, visible to the tenant's students.
    const plain = await c.engine.invoke('mentors.create', { name: 'Plain Mentor' });
    expect(plain).toMatchObject({ description: '', visibility: 'viewable_by_tenant_students' });
    expect(await byName('Plain Mentor')).toMatchObject({ description: '', visibility: 'viewable_by_tenant_students' });
  });

  it('creates with a MentorCreate POST, then sets description and visibility through the multipart settings PUT', async () => {
    const proxy = await recordingProxy(server);
    const c = await connect({ ...server, url: proxy.url });
    const created = await c.engine.invoke('mentors.create', {
      name: 'Wire Check',
      description: 'What goes over the wire',
      visibility: 'viewable_by_anyone',
    });
    const base = `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;
    const [post, put] = proxy.requests;
    expect(proxy.requests).toHaveLength(2);
    expect(post).toMatchObject({ method: 'POST', url: base });
    expect(JSON.parse(post!.body.toString())).toEqual({ name: 'Wire Check' });
    expect(put).toMatchObject({ method: 'PUT', url: `${base}mentors/${created.uniqueId}/settings/` });
    expect(Object.fromEntries(await parseMultipart(put!))).toEqual({
      mentor_description: 'What goes over the wire',
      mentor_visibility: 'viewable_by_anyone',
    });

    proxy.requests.length = 0;
    await c.engine.invoke('mentors.update', { mentor: created.uniqueId, name: 'Wire Checked' });
    const patch = proxy.requests.find((r) => r.method === 'PATCH')!;
    expect(patch.url).toBe(`${base}${created.uniqueId}/`);
    expect(JSON.parse(patch.body.toString())).toEqual({ name: 'Wire Checked' });
    expect(proxy.requests.some((r) => r.method === 'PUT')).toBe(false);

    proxy.requests.length = 0;
    await c.engine.invoke('mentors.delete', { mentor: 'Wire Checked' });
    expect(proxy.requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
      `${base}${created.uniqueId}/`,
    ]);
  });

  it('says so when a mentor was created but its description and visibility could not be saved', async () => {
    const proxy = await recordingProxy(server);
    const c = await connect({ ...server, url: proxy.url });
    await c.engine.invoke('mentors.list', {});
    proxy.failWith = { status: 400, match: /^PUT .*\/settings\/$/ };
    const error = await failure(c.engine, 'mentors.create', { name: 'Half Made', description: 'lost' });
    expect(error).toMatchObject({ code: 'api', status: 400 });
    expect(error.message).toMatch(
      /^Mentor 'Half Made' was created, but its description and visibility could not be saved \(Bad Request.*\)\. Edit the mentor to try again\.$/,
    );
    // It exists, and the screen shows it at once.
    const made = await byName('Half Made');
    expect(made).toMatchObject({ description: '' });
    const list = await c.engine.invoke('mentors.list', {});
    expect(list.freshness.source).toBe('cache');
    expect(list.mentors[0]).toMatchObject({ uniqueId: made!.uniqueId, name: 'Half Made' });
    expect(c.events).toContainEqual({ name: 'mentors.changed', payload: { profileId: c.profileId } });
    proxy.failWith = null;
    const fixed = await c.engine.invoke('mentors.update', { mentor: 'Half Made', description: 'found' });
    expect(fixed.description).toBe('found');
  });

  it('changes only the fields given, on the server and in the cache', async () => {
    const c = await connect(server);
    const mentor = await c.engine.invoke('mentors.create', {
      name: 'Geometry Guide',
      description: 'Shapes and proofs',
      visibility: 'viewable_by_anyone',
    });
    await c.engine.invoke('mentors.list', {});
    c.events.length = 0;

    const renamed = await c.engine.invoke('mentors.update', { mentor: 'Geometry Guide', name: 'Geometry Coach' });
    expect(renamed).toMatchObject({
      uniqueId: mentor.uniqueId,
      name: 'Geometry Coach',
      description: 'Shapes and proofs',
      visibility: 'viewable_by_anyone',
    });
    expect(await byName('Geometry Coach')).toEqual({
      uniqueId: mentor.uniqueId,
      name: 'Geometry Coach',
      description: 'Shapes and proofs',
      visibility: 'viewable_by_anyone',
    });
    expect(await byName('Geometry Guide')).toBeUndefined();

    const described = await c.engine.invoke('mentors.update', {
      mentor: mentor.uniqueId,
      description: 'Shapes, proofs and ✏️ constructions',
      visibility: 'viewable_by_tenant_students',
    });
    expect(described).toMatchObject({
      name: 'Geometry Coach',
      description: 'Shapes, proofs and ✏️ constructions',
      visibility: 'viewable_by_tenant_students',
    });
    expect(await byName('Geometry Coach')).toMatchObject({
      description: 'Shapes, proofs and ✏️ constructions',
      visibility: 'viewable_by_tenant_students',
    });
    expect(c.events.filter((e) => e.name === 'mentors.changed')).toHaveLength(2);
    const cached = await c.engine.invoke('mentors.list', { search: 'geometry' });
    expect(cached.freshness.source).toBe('cache');
    expect(cached.mentors).toEqual([described]);
  });

  it('deletes a mentor by name: gone from the server, the cache and get', async () => {
    const c = await connect(server);
    const mentor = await c.engine.invoke('mentors.create', { name: 'Short Lived' });
    await c.engine.invoke('mentors.list', {});
    expect(await c.engine.invoke('mentors.delete', { mentor: 'Short Lived' })).toEqual({ ok: true });
    expect(await byName('Short Lived')).toBeUndefined();
    const list = await c.engine.invoke('mentors.list', {});
    expect(list.freshness.source).toBe('cache');
    expect(list.mentors.map((m) => m.uniqueId)).not.toContain(mentor.uniqueId);
    const error = await failure(c.engine, 'mentors.get', { mentor: mentor.uniqueId });
    expect(error).toMatchObject({ code: 'not_found' });
    expect(error.message).toContain(`No mentor '${mentor.uniqueId}'`);
  });
});

describe('bad mentor input changes nothing', () => {
  it('refuses a name that is taken, on create and on rename', async () => {
    const c = await connect(server);
    const before = await serverMentors(server);
    const taken = await failure(c.engine, 'mentors.create', { name: 'Calculus Coach', description: 'again' });
    expect(taken).toMatchObject({ code: 'conflict' });
    expect(taken.message).toMatch(/already exists/);
    const rename = await failure(c.engine, 'mentors.update', { mentor: 'Study Skills', name: 'Calculus Coach' });
    expect(rename).toMatchObject({ code: 'conflict' });
    expect(await serverMentors(server)).toEqual(before);
  });

  it('answers not_found for an unknown mentor on get, update and delete', async () => {
    const c = await connect(server);
    await c.engine.invoke('mentors.list', {});
    const before = await serverMentors(server);
    for (const [name, input] of [
      ['mentors.get', { mentor: 'No Such Mentor' }],
      ['mentors.update', { mentor: 'No Such Mentor', description: 'x' }],
      ['mentors.delete', { mentor: '00000000-0000-4000-8000-000000000000' }],
    ] as const) {
      const error = await failure(c.engine, name, input);
      expect(error.code, name).toBe('not_found');
      expect(error.message).toMatch(/No mentor '.*' on this tenant/);
    }
    expect(await serverMentors(server)).toEqual(before);
  });

  it('validates names and descriptions before sending anything', async () => {
    const c = await connect(server);
    const before = await serverMentors(server);
    expect(await failure(c.engine, 'mentors.create', { name: '   ' })).toMatchObject({ code: 'validation' });
    // The platform's own limit: a name of at most 255 characters.
    expect(await failure(c.engine, 'mentors.create', { name: 'x'.repeat(256) })).toMatchObject({
      code: 'validation',
      message: expect.stringContaining('Name is at most 255 characters'),
    });
    expect(
      await failure(c.engine, 'mentors.update', { mentor: 'Study Skills', visibility: 'everyone' as never }),
    ).toMatchObject({ code: 'validation' });
    expect(await serverMentors(server)).toEqual(before);
  });

  it("takes names up to the platform's 255 characters and descriptions of any length", async () => {
    const c = await connect(server);
    const name = `Long ${'n'.repeat(250)}`;
    const description = 'A long description. '.repeat(150);
    const created = await c.engine.invoke('mentors.create', { name, description });
    expect(created).toMatchObject({ name, description: description.trim() });
    expect(await byName(name)).toMatchObject({ description: description.trim() });
    await c.engine.invoke('mentors.delete', { mentor: created.uniqueId });
  });

  it("gives a student's key a clear answer and what to do", async () => {
    const before = await serverMentors(server);
    const student = await connect(server, { secret: server.studentKey });
    const list = await failure(student.engine, 'mentors.list', {});
    expect(list).toMatchObject({ code: 'api', status: 403 });
    expect(list.message).toMatch(/^Forbidden.*tenant admin's key .*Settings → Tenants/);
    const create = await failure(student.engine, 'mentors.create', { name: 'Sneaky' });
    expect(create).toMatchObject({ code: 'api', status: 403 });

    // As themselves, students may list mentors but not read their settings.
    const self = await connect(server, { username: server.studentUser, secret: server.studentKey });
    expect(await failure(self.engine, 'mentors.list', {})).toMatchObject({ code: 'api', status: 403 });
    expect(await failure(self.engine, 'mentors.delete', { mentor: 'Study Skills' })).toMatchObject({
      code: 'api',
      status: 403,
    });
    expect(await serverMentors(server)).toEqual(before);
  });

  it('explains a refused key and another organization', async () => {
    const before = await serverMentors(server);
    const wrongKey = await connect(server, { secret: 'not-a-key' });
    const refused = await failure(wrongKey.engine, 'mentors.list', {});
    expect(refused).toMatchObject({ code: 'api', status: 401 });
    expect(refused.message).toMatch(/refused this key.*Settings → Tenants/);

    const otherOrg = await connect(server, { org: server.otherOrg.org });
    const org = await failure(otherOrg.engine, 'mentors.list', {});
    expect(org.code).toBe('not_found');
    expect(org.message).toContain(`no organization '${server.otherOrg.org}'`);
    expect(await failure(otherOrg.engine, 'mentors.delete', { mentor: 'Riverside Tutor' })).toMatchObject({
      code: 'not_found',
    });

    // The other tenant's admin cannot reach this tenant's mentors either.
    const otherKey = await connect(server, { secret: server.otherOrg.apiKey });
    expect(await failure(otherKey.engine, 'mentors.delete', { mentor: 'Study Skills' })).toMatchObject({
      code: 'not_found',
    });
    expect(await serverMentors(server)).toEqual(before);
  });
});
