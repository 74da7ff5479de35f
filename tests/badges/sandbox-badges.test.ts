/**
 * Contract tests of the sandbox's badges (`/api/credentials/orgs/{org}/users/{user_id}/…`) and the course completion
 * milestones they are issued from: answers valid against the vendor spec, admin-only calls refused to learners,
 * one tenant's badges never reached from another.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid, responseValidator } from '../helpers/spec';

let server: Sandbox;
beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
}, 120_000);

const T = '/api/credentials/orgs/{org}/users/{user_id}/';
const MILESTONE = '/api/catalog/milestones/completions/course/manage/';
const base = () => `/api/credentials/orgs/${server.org}/users/${server.user}/`;
type Badge = { entityId: string; name: string; course: string | null; assertions_count: number };
type Envelope<T> = { status: { success: boolean }; result: { count: number; data: T[] } };

describe('sandbox: badges', () => {
  it('lists the seeded badges (each a spec Credential) with their course and issued count, searchable', async () => {
    const listed = await call(server, 'GET', `${base()}?page_size=100`);
    expect(listed.status).toBe(200);
    const { result } = listed.body as Envelope<Badge>;
    expect(result.count).toBe(3);
    const validate = responseValidator('get', T, 200)!;
    for (const badge of result.data) expect(validate(badge), JSON.stringify(validate.errors)).toBe(true);
    expect(result.data.some((b) => b.assertions_count > 0)).toBe(true);
    const first = result.data[0]!;
    const found = await call(server, 'GET', `${base()}?search=${encodeURIComponent(first.name.slice(0, 6))}`);
    expect((found.body as Envelope<Badge>).result.data.map((b) => b.entityId)).toContain(first.entityId);
  });

  it("seeded assertions belong to learners who completed the badge's course (its completion milestone says so)", async () => {
    const badges = (await call(server, 'GET', `${base()}?page_size=100`)).body as Envelope<Badge>;
    const issued = badges.result.data.find((b) => b.assertions_count > 0)!;
    const assertions = await call(server, 'GET', `${base()}${issued.entityId}/assertions/?page_size=100`);
    expectSpecValid('get', `${T}{entity_id}/assertions/`, 200, assertions.body);
    const data = (assertions.body as { data: { recipient: { username: string } }[] }).data;
    expect(data.length).toBeGreaterThan(0);
    for (const a of data.slice(0, 10)) {
      const id = server.db
        .prepare('SELECT id FROM users WHERE username = ?')
        .pluck()
        .get(a.recipient.username) as number;
      const milestone = await call(
        server,
        'GET',
        `${MILESTONE}?course_id=${encodeURIComponent(issued.course!)}&user_id=${id}`,
      );
      expect(milestone.status).toBe(200);
      expect(milestone.body).toMatchObject({ username: a.recipient.username, completed: true });
    }
    const missing = await call(server, 'GET', `${MILESTONE}?course_id=${encodeURIComponent(issued.course!)}`);
    expect(missing).toMatchObject({ status: 400, body: { detail: 'Bad request - missing or invalid parameters' } });
  });

  it('defines a badge, issues it (one, then in bulk: issued and skipped), revokes one, and counts issuance per day', async () => {
    const created = await call(server, 'POST', base(), {
      json: { name: 'Lab safety', description: 'Passed the lab induction', issuer: 'issuer-northbridge' },
    });
    expect(created.status).toBe(200);
    const badge = (created.body as { result: Badge }).result;
    expectSpecValid('post', T, 200, badge);
    const one = await call(server, 'POST', `${base()}${badge.entityId}/assertions/`, {
      json: { recipient: { username: 'learner0002' } },
    });
    expect(one.status).toBe(200);
    expectSpecValid('post', `${T}{entity_id}/assertions/`, 200, one.body);
    const bulk = await call(server, 'POST', `${base()}${badge.entityId}/assertions/bulk/`, {
      json: { users: ['learner0002', 'learner0003', 'learner0004@northbridge.example', 'nobody-here'] },
    });
    expect(bulk.status).toBe(200);
    expectSpecValid('post', `${T}{entity_id}/assertions/bulk/`, 200, bulk.body);
    expect(bulk.body).toEqual({
      issued: ['learner0003', 'learner0004@northbridge.example'],
      skipped: ['learner0002', 'nobody-here'],
    });
    const assertion = one.body as { entityId: string };
    const noReason = await call(server, 'PUT', `${base()}assertions/${assertion.entityId}`, {
      json: { revoked: true },
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body).toEqual({ revocationReason: ['This field is required.'] });
    const revoked = await call(server, 'PUT', `${base()}assertions/${assertion.entityId}`, {
      json: { revoked: true, revocationReason: 'Issued by mistake' },
    });
    expect(revoked.status).toBe(200);
    expectSpecValid('put', `${T}assertions/{entity_id}`, 200, revoked.body);
    expect(revoked.body).toMatchObject({ revoked: true, revocationReason: 'Issued by mistake' });

    const today = new Date().toISOString().slice(0, 10);
    const overTime = await call(server, 'GET', `${base()}assertions-over-time/?start_date=${today}&end_date=${today}`);
    expect(overTime.status).toBe(200);
    expectSpecValid('get', `${T}assertions-over-time/`, 200, overTime.body);
    // Two issued today and still standing (the revoked one is not counted).
    expect(overTime.body).toMatchObject({ data: { [today]: 2 }, total: 2 });
  });

  it('edits a badge (PUT: only the fields sent change) and deletes it with its assertions (204, then 404)', async () => {
    const created = await call(server, 'POST', base(), {
      json: { name: 'First aid', description: 'Passed the first aid course', criteria_text: 'Pass the test' },
    });
    const badge = (created.body as { result: Badge }).result;
    const edited = await call(server, 'PUT', `${base()}${badge.entityId}`, {
      json: { name: 'First aid (level 2)', icon_image: 'data:image/png;base64,AAAA' },
    });
    expect(edited.status).toBe(200);
    const result = (edited.body as { status: { description: string }; result: Record<string, unknown> }).result;
    expectSpecValid('put', `${T}{entity_id}`, 200, result);
    expect(result).toMatchObject({
      name: 'First aid (level 2)',
      description: 'Passed the first aid course',
      criteria_text: 'Pass the test',
      icon_image: 'data:image/png;base64,AAAA',
    });
    expect((await call(server, 'GET', `${base()}${badge.entityId}`)).body).toMatchObject({
      result: { name: 'First aid (level 2)' },
    });
    expect(await call(server, 'PUT', `${base()}${badge.entityId}`, { json: { name: '  ' } })).toMatchObject({
      status: 400,
      body: { name: ['This field may not be blank.'] },
    });
    expect(await call(server, 'PUT', `${base()}${badge.entityId}`, { json: { name: 'x'.repeat(256) } })).toMatchObject({
      status: 400,
      body: { name: ['Ensure this field has no more than 255 characters.'] },
    });
    expect(await call(server, 'PUT', `${base()}no-such-badge`, { json: { name: 'x' } })).toMatchObject({
      status: 404,
      body: { detail: 'Not found.' },
    });

    await call(server, 'POST', `${base()}${badge.entityId}/assertions/bulk/`, { json: { users: ['learner0002'] } });
    const gone = await call(server, 'DELETE', `${base()}${badge.entityId}`);
    expect(gone.status).toBe(204);
    expect((await call(server, 'GET', `${base()}${badge.entityId}`)).status).toBe(404);
    expect(
      server.db.prepare('SELECT count(*) FROM credential_assertions WHERE badge = ?').pluck().get(badge.entityId),
    ).toBe(0);
    expect(await call(server, 'DELETE', `${base()}${badge.entityId}`)).toMatchObject({
      status: 404,
      body: { detail: 'Not found.' },
    });
  });

  it('uploads an image (multipart) and refuses a file that is not one with the platform’s message', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
      'base64',
    );
    const form = new FormData();
    form.set('image', new Blob([png], { type: 'image/png' }), 'face.png');
    form.set('name', 'Face');
    const ok = await call(server, 'POST', `${base()}images/`, { form });
    expect(ok.status).toBe(200);
    expectSpecValid('post', `${T}images/`, 200, ok.body);
    expect((ok.body as { image: string }).image).toMatch(/^data:image\/png;base64,/);
    const bad = new FormData();
    bad.set('image', new Blob(['not an image'], { type: 'image/png' }), 'fake.png');
    const refused = await call(server, 'POST', `${base()}images/`, { form: bad });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      image: ['Upload a valid image. The file you uploaded was either not an image or a corrupted image.'],
    });
  });

  it('answers errors in the spec’s words: unknown badge 404, missing name 400, unknown issuer 400', async () => {
    expect(await call(server, 'GET', `${base()}no-such-badge`)).toMatchObject({
      status: 404,
      body: { detail: 'Not found.' },
    });
    expect(await call(server, 'POST', base(), { json: { description: 'x' } })).toMatchObject({
      status: 400,
      body: { name: ['This field is required.'] },
    });
    expect(await call(server, 'POST', base(), { json: { name: 'x', issuer: 'nope' } })).toMatchObject({
      status: 400,
      body: { issuer: ['Invalid pk "nope" - object does not exist.'] },
    });
    expect(
      await call(server, 'GET', `${base()}assertions-over-time/?start_date=2026-02-01&end_date=2026-01-01`),
    ).toMatchObject({
      status: 400,
    });
  });

  it('keeps defining, issuing and revoking to admins; a learner reads only their own assertions', async () => {
    const student = `/api/credentials/orgs/${server.org}/users/${server.studentUser}/`;
    const key = server.studentKey;
    const seeded = ((await call(server, 'GET', base())).body as Envelope<Badge>).result.data[0]!.entityId;
    for (const [method, path] of [
      ['GET', student],
      ['POST', student],
      ['GET', `${student}assertions-over-time/`],
      ['PUT', `${student}assertions/x`],
      ['PUT', `${student}${seeded}`],
      ['DELETE', `${student}${seeded}`],
    ] as const) {
      const answer = await call(server, method, path, { key, ...(method !== 'GET' && { json: { name: 'x' } }) });
      expect(answer.status, `${method} ${path}`).toBe(403);
    }
    // The learner changed and deleted nothing.
    expect((await call(server, 'GET', `${base()}${seeded}`)).status).toBe(200);
    expect((await call(server, 'GET', `${student}assertions/`, { key })).status).toBe(200);
    expect(
      (await call(server, 'GET', `${student.replace(server.studentUser, 'learner0002')}assertions/`, { key })).status,
    ).toBe(403);
    expect((await call(server, 'GET', `${MILESTONE}?course_id=x&user_id=1`, { key })).status).toBe(403);
  });

  it("never reaches another tenant's badges, assertions or courses", async () => {
    const other = server.otherOrg;
    const mine = (await call(server, 'GET', `${base()}?page_size=100`)).body as Envelope<Badge>;
    const theirs = `/api/credentials/orgs/${other.org}/users/${other.user}/`;
    const listed = (await call(server, 'GET', `${theirs}?page_size=100`, { key: other.apiKey }))
      .body as Envelope<Badge>;
    expect(listed.result.data.length).toBeGreaterThan(0);
    expect(listed.result.data.map((b) => b.entityId)).not.toContain(mine.result.data[0]!.entityId);
    const id = mine.result.data[0]!.entityId;
    expect((await call(server, 'GET', `${theirs}${id}`, { key: other.apiKey })).status).toBe(404);
    expect(
      (
        await call(server, 'POST', `${theirs}${id}/assertions/bulk/`, {
          key: other.apiKey,
          json: { users: ['learner0002'] },
        })
      ).status,
    ).toBe(404);
    // Naming the other org in the path with one's own key finds nothing.
    expect((await call(server, 'GET', theirs)).status).toBe(404);
    const course = mine.result.data[0]!.course!;
    const learner = server.db.prepare("SELECT id FROM users WHERE username = 'learner0002'").pluck().get() as number;
    const reach = await call(server, 'GET', `${MILESTONE}?course_id=${encodeURIComponent(course)}&user_id=${learner}`, {
      key: other.apiKey,
    });
    expect(reach.status).toBe(404);
  });
});
