/**
 * Sharing a mentor and making new mentors from others (issue 16): the sharable link and its public check, fork, the
 * template mentors and the create-mentor wizard. The sandbox's contract (success, errors, tenants apart), the engine
 * against it, the vendor SDK reading back what the engine wrote, and the CLI.
 */
import { AiMentorService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { cli } from '../helpers/cli';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid, responseValidator } from '../helpers/spec';
import { requireKeychainSession } from '../helpers/temp';
import { cliTenant } from '../invitations/setup';
import { connect, failure } from './setup';

const USER = '/api/ai-mentor/orgs/{org}/users/{user_id}';
const LINK = `${USER}/mentors/{mentor}/sharable-link`;
const PUBLIC = `${USER}/mentors/{mentor}/public-sharable-link/`;
const FORK = `${USER}/mentors/{mentor}/fork/`;
const TEMPLATES = `${USER}/available-template-mentors/`;
const WIZARD = `${USER}/create-mentor-wizard/`;
const base = (server: Sandbox | Sandbox['otherOrg']) => `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;
const DESCRIPTION = 'Helps first-year students with statistics.';

let server: Sandbox;
beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox();
});

function sdk(target: Sandbox = server) {
  OpenAPI.BASE = target.url;
  OpenAPI.HEADERS = { Authorization: `Api-Key ${target.apiKey}` };
  // The SDK's typings drop `userId` (a comment swallows it); its code sends it.
  return { org: target.org, userId: target.user } as { org: string };
}

async function newMentor(name: string, target: Sandbox | Sandbox['otherOrg'] = server) {
  const created = await call(server, 'POST', base(target), { key: target.apiKey, json: { name } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { unique_id: string; slug: string; name: string };
}

describe('sandbox: sharable-link and public-sharable-link against the spec', () => {
  it('404 before any; POST 201 makes it; a second POST is refused; PUT turns it off; DELETE 204 revokes it', async () => {
    const mentor = await newMentor('Link Contract');
    const path = `${base(server)}mentors/${mentor.unique_id}/sharable-link`;
    const publicPath = `${base(server)}mentors/${mentor.unique_id}/public-sharable-link/`;
    expect((await call(server, 'GET', path)).status).toBe(404);
    expect((await call(server, 'GET', publicPath, { key: null })).status).toBe(404);

    const made = await call(server, 'POST', path, { json: {} });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expectSpecValid('post', LINK, 201, made.body);
    const link = made.body as { token: string; enabled: boolean };
    expect(link.enabled).toBe(true);
    expect(link.token.length).toBeGreaterThanOrEqual(20);

    expect(await call(server, 'POST', path, { json: {} })).toMatchObject({
      status: 400,
      body: { mentor: ['shareable mentor link with this mentor already exists.'] },
    });
    const read = await call(server, 'GET', path);
    expectSpecValid('get', LINK, 200, read.body);
    expect(read.body).toMatchObject({ token: link.token, enabled: true });

    // The public check needs no credentials.
    const open = await call(server, 'GET', publicPath, { key: null });
    expect(open.status).toBe(200);
    expectSpecValid('get', PUBLIC, 200, open.body);
    expect(open.body).toMatchObject({ enabled: true });

    expect(await call(server, 'PUT', path, { json: { enabled: 'maybe' } })).toMatchObject({
      status: 400,
      body: { enabled: ['Must be a valid boolean.'] },
    });
    const off = await call(server, 'PUT', path, { json: { enabled: false } });
    expect(off.status).toBe(200);
    expectSpecValid('put', LINK, 200, off.body);
    expect((await call(server, 'GET', publicPath, { key: null })).body).toMatchObject({ enabled: false });

    expect((await call(server, 'DELETE', path)).status).toBe(204);
    expect((await call(server, 'GET', path)).status).toBe(404);
    expect((await call(server, 'DELETE', path)).status).toBe(404);
    expect((await call(server, 'GET', publicPath, { key: null })).status).toBe(404);
    expect(await call(server, 'GET', `${base(server)}mentors/no-such-mentor/sharable-link`)).toMatchObject({
      status: 404,
      body: { detail: 'Mentor not found' },
    });
  });

  it('tenant admins only, and tenants apart: a student is refused, another tenant’s mentor is not found', async () => {
    const mentor = await newMentor('Link Roles');
    const path = `${base(server)}mentors/${mentor.unique_id}/sharable-link`;
    expect((await call(server, 'POST', path, { key: server.studentKey, json: {} })).status).toBe(403);
    expect((await call(server, 'GET', path, { key: null })).status).toBe(401);
    const other = server.otherOrg;
    // The other tenant's key on this tenant's path, and this tenant's mentor under the other tenant's path.
    expect((await call(server, 'POST', path, { key: other.apiKey, json: {} })).status).toBe(404);
    const theirs = `${base(other)}mentors/${mentor.unique_id}/sharable-link`;
    expect(await call(server, 'POST', theirs, { key: other.apiKey, json: {} })).toMatchObject({ status: 404 });
    expect((await call(server, 'GET', path)).status).toBe(404);
  });
});

describe('sandbox: fork, available-template-mentors and create-mentor-wizard against the spec', () => {
  it('fork: 200 Mentor with the source’s settings and categories; refusals by field under the catalogue’s detail', async () => {
    const source = await newMentor('Fork Source');
    const settings = `${base(server)}mentors/${source.unique_id}/settings/`;
    expect(
      (
        await call(server, 'PUT', settings, {
          json: { mentor_description: DESCRIPTION, mentor_visibility: 'viewable_by_anyone', system_prompt: 'Be kind.' },
        })
      ).status,
    ).toBe(200);
    const path = `${base(server)}mentors/${source.unique_id}/fork/`;
    const forked = await call(server, 'POST', path, {
      json: { new_mentor_name: 'Fork Copy', destination_platform_key: server.org },
    });
    expect(forked.status, JSON.stringify(forked.body)).toBe(200);
    expectSpecValid('post', FORK, 200, forked.body);
    const copy = forked.body as { unique_id: string; name: string; created_by: string };
    expect(copy).toMatchObject({ name: 'Fork Copy', created_by: server.user });
    expect(copy.unique_id).not.toBe(source.unique_id);
    const copied = await call(server, 'GET', `${base(server)}mentors/${copy.unique_id}/settings/`);
    expect(copied.body).toMatchObject({
      mentor_description: DESCRIPTION,
      mentor_visibility: 'viewable_by_anyone',
    });
    const stored = server.db.prepare('SELECT settings FROM mentors WHERE unique_id = ?').pluck().get(copy.unique_id);
    expect(JSON.parse(stored as string)).toMatchObject({ system_prompt: 'Be kind.' });

    const FAILED = 'Invalid data or fork failed';
    for (const [body, field] of [
      [{ new_mentor_name: 'Fork Copy', destination_platform_key: server.org }, 'new_mentor_name'],
      [{ destination_platform_key: server.org }, 'new_mentor_name'],
      [{ new_mentor_name: 'Fork Other' }, 'destination_platform_key'],
      [{ new_mentor_name: 'Fork Other', destination_platform_key: server.otherOrg.org }, 'destination_platform_key'],
      [
        { new_mentor_name: 'Fork Other', destination_platform_key: server.org, clone_documents: 'x' },
        'clone_documents',
      ],
    ] as const) {
      const refused = await call(server, 'POST', path, { json: body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body).toMatchObject({ detail: FAILED, [field]: [expect.any(String)] });
    }
    expect(
      await call(server, 'POST', `${base(server)}mentors/no-such-mentor/fork/`, {
        json: { new_mentor_name: 'X', destination_platform_key: server.org },
      }),
    ).toMatchObject({ status: 404, body: { detail: 'Mentor not found' } });
    expect(
      (
        await call(server, 'POST', path, {
          key: server.studentKey,
          json: { new_mentor_name: 'Student Fork', destination_platform_key: server.org },
        })
      ).status,
    ).toBe(403);
    // Another tenant cannot fork this tenant's mentor through its own path.
    const other = server.otherOrg;
    expect(
      (
        await call(server, 'POST', `${base(other)}mentors/${source.unique_id}/fork/`, {
          key: other.apiKey,
          json: { new_mentor_name: 'Stolen', destination_platform_key: other.org },
        })
      ).status,
    ).toBe(404);
  });

  it('fork with clone_documents: the new mentor has its own copy of each document, searchable', async () => {
    const fresh = await sandbox();
    const source = await newMentorOn(fresh, 'Docs Source');
    const docs = `/api/ai-index/orgs/${fresh.org}/users/${fresh.user}/documents/`;
    const form = new FormData();
    form.set('file', new Blob(['Photosynthesis turns light into chemical energy in chloroplasts.']), 'plants.txt');
    form.set('pathway', source.unique_id);
    form.set('type', 'file');
    const trained = await call(fresh, 'POST', `${docs}train/`, { form });
    expect(trained.status, JSON.stringify(trained.body)).toBe(200);
    await waitTrained(fresh, docs, source.unique_id);

    const forked = await call(fresh, 'POST', `${base(fresh)}mentors/${source.unique_id}/fork/`, {
      json: { new_mentor_name: 'Docs Copy', destination_platform_key: fresh.org, clone_documents: true },
    });
    expect(forked.status, JSON.stringify(forked.body)).toBe(200);
    const copy = forked.body as { unique_id: string };
    const list = await call(fresh, 'GET', `${docs}pathways/${copy.unique_id}/`);
    expect((list.body as { results: { document_name: string; training_status: string }[] }).results).toMatchObject([
      { document_name: 'plants.txt', training_status: 'trained' },
    ]);
    const found = await call(fresh, 'POST', `${docs}search/`, {
      json: { query: 'chloroplasts', pathway: copy.unique_id },
    });
    expect(JSON.stringify(found.body)).toContain('chloroplasts');
    // Without clone_documents the fork starts with none.
    const bare = await call(fresh, 'POST', `${base(fresh)}mentors/${source.unique_id}/fork/`, {
      json: { new_mentor_name: 'Bare Copy', destination_platform_key: fresh.org },
    });
    const none = await call(fresh, 'GET', `${docs}pathways/${(bare.body as { unique_id: string }).unique_id}/`);
    expect((none.body as { results: unknown[] }).results).toEqual([]);
  });

  it('available-template-mentors: each a TemplateMentor (the spec’s example is a list); any caller of the tenant', async () => {
    const answer = await call(server, 'GET', `${base(server)}available-template-mentors/`);
    expect(answer.status).toBe(200);
    const templates = answer.body as { slug: string }[];
    expect(templates.length).toBeGreaterThan(0);
    const validate = responseValidator('get', TEMPLATES, 200)!;
    for (const template of templates) expect(validate(template), JSON.stringify(validate.errors)).toBe(true);
    expect(templates.map((t) => t.slug)).toContain('ai-mentor');
    const student = `/api/ai-mentor/orgs/${server.org}/users/${server.studentUser}/available-template-mentors/`;
    expect((await call(server, 'GET', student, { key: server.studentKey })).status).toBe(200);
    expect((await call(server, 'GET', `${base(server)}available-template-mentors/`, { key: null })).status).toBe(401);
  });

  it('create-mentor-wizard: 201 Mentor; the MentorWizard limits refused by field under "Invalid data"', async () => {
    const made = await call(server, 'POST', `${base(server)}create-mentor-wizard/`, {
      json: { name: 'Wizard Mentor', description: DESCRIPTION },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expectSpecValid('post', WIZARD, 201, made.body);
    for (const [body, field] of [
      [{ name: 'Short', description: 'Too short.' }, 'description'],
      [{ name: 'Long', description: 'x'.repeat(1001) }, 'description'],
      [{ name: 'n'.repeat(101), description: DESCRIPTION }, 'name'],
      [{ description: DESCRIPTION }, 'name'],
      [{ name: 'Wizard Mentor', description: DESCRIPTION }, 'name'],
    ] as const) {
      const refused = await call(server, 'POST', `${base(server)}create-mentor-wizard/`, { json: body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body).toMatchObject({ detail: 'Invalid data', [field]: [expect.any(String)] });
    }
    expect(
      (
        await call(server, 'POST', `${base(server)}create-mentor-wizard/`, {
          key: server.studentKey,
          json: { name: 'Student Wizard', description: DESCRIPTION },
        })
      ).status,
    ).toBe(403);
    // The other tenant's wizard makes its mentor there, not here.
    const other = server.otherOrg;
    const theirs = await call(server, 'POST', `${base(other)}create-mentor-wizard/`, {
      key: other.apiKey,
      json: { name: 'Wizard Mentor', description: DESCRIPTION },
    });
    expect(theirs.status).toBe(201);
    expect((await call(server, 'GET', `${base(server)}Wizard%20Mentor/`)).body).toMatchObject({
      unique_id: (made.body as { unique_id: string }).unique_id,
    });
  });
});

describe('engine: sharing, fork, templates and the wizard', () => {
  it('shares a mentor, keeps the link on a second share, revokes it; the SDK reads the link back', async () => {
    const fresh = await sandbox();
    const c = await connect(fresh);
    const mentor = await c.engine.invoke('mentors.create', { name: 'Shared Mentor' });
    const before = await c.engine.invoke('mentors.sharing', { mentor: mentor.uniqueId });
    expect(before).toEqual({ link: null, publicCheck: { enabled: null, error: null } });

    const link = await c.engine.invoke('mentors.share', { mentor: mentor.uniqueId });
    expect(link.enabled).toBe(true);
    expect(c.events).toContainEqual({
      name: 'mentors.sharingChanged',
      payload: { profileId: c.profileId, mentor: mentor.uniqueId },
    });
    const read = (await AiMentorService.aiMentorOrgsUsersMentorsSharableLinkRetrieve({
      ...sdk(fresh),
      mentor: mentor.uniqueId,
    })) as unknown as { token: string; enabled: boolean };
    expect(read).toMatchObject({ token: link.token, enabled: true });
    expect(await c.engine.invoke('mentors.share', { mentor: 'Shared Mentor' })).toMatchObject({ token: link.token });
    expect(await c.engine.invoke('mentors.sharing', { mentor: mentor.uniqueId })).toMatchObject({
      link: { token: link.token, enabled: true },
      publicCheck: { enabled: true, error: null },
    });

    // A link turned off elsewhere is turned back on by a share.
    await AiMentorService.aiMentorOrgsUsersMentorsSharableLinkUpdate({
      ...sdk(fresh),
      mentor: mentor.uniqueId,
      requestBody: { enabled: false } as never,
    });
    expect((await c.engine.invoke('mentors.sharing', { mentor: mentor.uniqueId })).publicCheck.enabled).toBe(false);
    expect(await c.engine.invoke('mentors.share', { mentor: mentor.uniqueId })).toMatchObject({
      token: link.token,
      enabled: true,
    });

    await c.engine.invoke('mentors.unshare', { mentor: mentor.uniqueId });
    await expect(
      AiMentorService.aiMentorOrgsUsersMentorsSharableLinkRetrieve({ ...sdk(fresh), mentor: mentor.uniqueId }),
    ).rejects.toMatchObject({ status: 404 });
    expect((await c.engine.invoke('mentors.sharing', { mentor: mentor.uniqueId })).link).toBeNull();
    // Revoking a link that is gone already is done.
    await c.engine.invoke('mentors.unshare', { mentor: mentor.uniqueId });
    expect((await failure(c.engine, 'mentors.share', { mentor: 'No Such Mentor' })).code).toBe('not_found');
  });

  it('forks a mentor: it is listed and the SDK reads it back; a name the platform refuses is an issue at `name`', async () => {
    const fresh = await sandbox();
    const c = await connect(fresh);
    const source = await c.engine.invoke('mentors.create', { name: 'Original', description: DESCRIPTION });
    const forked = await c.engine.invoke('mentors.fork', { mentor: source.uniqueId, name: 'Original fork' });
    expect(forked).toMatchObject({ name: 'Original fork', description: DESCRIPTION });
    expect(c.events.map((e) => e.name)).toContain('mentors.changed');
    const listed = await c.engine.invoke('mentors.list', {});
    expect(listed.mentors.map((m) => m.name)).toContain('Original fork');
    const read = (await AiMentorService.aiMentorOrgsUsersMentorsSettingsRetrieve({
      ...sdk(fresh),
      mentor: forked.uniqueId,
    })) as unknown as { mentor_name?: string; mentor_description: string };
    expect(read.mentor_description).toBe(DESCRIPTION);

    const taken = await failure(c.engine, 'mentors.fork', { mentor: source.uniqueId, name: 'Original' });
    expect(taken.code).toBe('validation');
    expect(taken.issues).toEqual([{ path: 'name', message: 'a mentor with this name already exists' }]);
    expect(taken.message).toContain('Invalid data or fork failed');
    const blank = await failure(c.engine, 'mentors.fork', { mentor: source.uniqueId, name: '  ' });
    expect(blank.issues?.[0]).toMatchObject({ path: 'name', message: 'Name is required' });
  });

  it('lists the templates and creates a mentor through the wizard from one; refusals at their fields', async () => {
    const fresh = await sandbox();
    const c = await connect(fresh);
    const { templates } = await c.engine.invoke('mentors.templates', {});
    expect(templates[0]).toMatchObject({ name: 'mentorAI', slug: 'ai-mentor', platform: 'main' });
    const template = templates.find((t) => t.slug === 'socratic-tutor')!;

    const made = await c.engine.invoke('mentors.createWithWizard', {
      name: 'Wizard Tutor',
      description: DESCRIPTION,
      template: template.slug!,
    });
    expect(made).toMatchObject({ name: 'Wizard Tutor', description: DESCRIPTION });
    expect((await c.engine.invoke('mentors.list', {})).mentors.map((m) => m.name)).toContain('Wizard Tutor');
    const read = (await AiMentorService.aiMentorOrgsUsersMentorsSettingsRetrieve({
      ...sdk(fresh),
      mentor: made.uniqueId,
    })) as unknown as { mentor_description: string };
    expect(read.mentor_description).toBe(DESCRIPTION);
    // The template is a setting the platform keeps (its GET does not show it; its PUT answers it).
    const settings = fresh.db.prepare('SELECT settings FROM mentors WHERE unique_id = ?').pluck().get(made.uniqueId);
    expect(JSON.parse(settings as string)).toMatchObject({ template_name: 'socratic-tutor' });

    const short = await failure(c.engine, 'mentors.createWithWizard', { name: 'Short', description: 'Too short.' });
    expect(short.issues?.[0]).toMatchObject({ path: 'description' });
    const taken = await failure(c.engine, 'mentors.createWithWizard', {
      name: 'Wizard Tutor',
      description: DESCRIPTION,
    });
    expect(taken.issues).toEqual([{ path: 'name', message: 'a mentor with this name already exists' }]);
  });
});

describe('CLI: mentors share, fork, templates and create', () => {
  it('shares, shows, refuses a revoke without --yes, revokes; forks; lists templates; creates from one', async () => {
    const fresh = await sandbox();
    const { env } = await cliTenant(fresh);
    await newMentorOn(fresh, 'Cli Mentor');
    const shared = await cli(['--json', 'mentors', 'share', 'Cli Mentor'], { env });
    expect(shared.code, shared.stderr).toBe(0);
    const token = (shared.lines[0]!.link as { token: string }).token;
    const shown = await cli(['mentors', 'share', 'Cli Mentor', '--show'], { env });
    expect(shown.stdout).toContain(`on, token ${token}`);
    expect(shown.stdout).toContain('Public check: the link works');
    const unsure = await cli(['mentors', 'share', 'Cli Mentor', '--revoke'], { env });
    expect(unsure.code).toBe(2);
    expect(unsure.stderr).toContain('--yes');
    const revoked = await cli(['mentors', 'share', 'Cli Mentor', '--revoke', '--yes'], { env });
    expect(revoked.code, revoked.stderr).toBe(0);
    expect((await cli(['mentors', 'share', 'Cli Mentor', '--show'], { env })).stdout).toContain('none');

    const forked = await cli(['mentors', 'fork', 'Cli Mentor', '--name', 'Cli Fork'], { env });
    expect(forked.code, forked.stderr).toBe(0);
    expect(forked.stdout).toMatch(/Forked 'Cli Mentor' as 'Cli Fork'/);
    const again = await cli(['mentors', 'fork', 'Cli Mentor', '--name', 'Cli Fork'], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('name: a mentor with this name already exists');

    const templates = await cli(['mentors', 'templates'], { env });
    expect(templates.stdout).toMatch(/ai-mentor\s+mentorAI/);
    const created = await cli(
      ['mentors', 'create', '--name', 'Cli Wizard', '--description', DESCRIPTION, '--template', 'ai-mentor'],
      { env },
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain("from template 'ai-mentor'");
    const list = await call(fresh, 'GET', `${base(fresh)}?page_size=100`);
    expect((list.body as { results: { name: string }[] }).results.map((m) => m.name).sort()).toEqual([
      'Cli Fork',
      'Cli Mentor',
      'Cli Wizard',
    ]);
  });
});

async function newMentorOn(target: Sandbox, name: string) {
  const created = await call(target, 'POST', base(target), { json: { name } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { unique_id: string };
}

async function waitTrained(target: Sandbox, docs: string, pathway: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const list = await call(target, 'GET', `${docs}pathways/${pathway}/`);
    const results = (list.body as { results: { training_status: string }[] }).results;
    if (results.length && results.every((d) => d.training_status === 'trained')) return;
    if (Date.now() > deadline) throw new Error('training did not finish');
    await new Promise((r) => setTimeout(r, 50));
  }
}
