/**
 * Badges through the engine against a real sandbox: define one with an image (checked before upload), find a course's
 * completers from the milestones, issue it to them, revoke one, read issuance over time; and the vendor SDK reads back
 * what the app wrote.
 */
import { CredentialsService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { toDataUrl } from '../../src/shared/resources/images';
import { connect } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { requireKeychainSession } from '../helpers/temp';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let server: Sandbox;
/** The SDK's types leave `userId` out of these calls though their paths hold `{user_id}` (as sdk-readback notes). */
const at = <T>(entityId: string) => ({ org: server.org, userId: server.user, entityId }) as unknown as T;
beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox({ seed: 'demo' });
  OpenAPI.BASE = server.url;
  OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
}, 120_000);

/** The newest demo course's badge has no assertions yet: the course whose completers an admin would award. */
function demoCourse(): string {
  return server.db
    .prepare("SELECT course FROM credential_badges WHERE org = ? AND entity_id LIKE '%-badge-3'")
    .pluck()
    .get(server.org) as string;
}

describe('badges through the engine', () => {
  it("defines a badge with an image, issues it to a course's completers, and the SDK reads back the badge and its assertions", async () => {
    const c = await connect(server);
    const course = demoCourse();
    const { completers } = await c.engine.invoke('badges.completers', { course });
    const expected = server.db
      .prepare(
        `SELECT u.username FROM learning_enrollments e JOIN users u ON u.id = e.user_id JOIN courses k ON k.id = e.course_pk
         WHERE k.course_id = ? AND e.completed_at IS NOT NULL ORDER BY u.username`,
      )
      .pluck()
      .all(course) as string[];
    expect(expected.length).toBeGreaterThan(0);
    expect(completers.map((p) => p.username).sort()).toEqual(expected);
    // Each completer carries the directory's name and id (the preview names people, not usernames).
    const firstCompleter = server.db
      .prepare("SELECT id, first_name || ' ' || last_name AS name FROM users WHERE username = ?")
      .get(expected[0]) as { id: number; name: string };
    expect(completers.find((p) => p.username === expected[0])).toMatchObject({
      userId: firstCompleter.id,
      name: firstCompleter.name,
    });

    const { badge, warning } = await c.engine.invoke('badges.define', {
      name: 'Statistics finisher',
      description: 'Completed the course',
      course,
      image: toDataUrl('image/png', PNG),
    });
    expect(warning).toBeNull();
    expect(badge.image).toMatch(/^data:image\/png;base64,/);
    const issued = await c.engine.invoke('badges.issue', {
      badge: badge.id,
      people: completers.map((p) => p.username),
    });
    expect(issued.issued.sort()).toEqual(expected);
    // Issuing again sends nobody twice.
    const again = await c.engine.invoke('badges.issue', { badge: badge.id, people: expected });
    expect(again).toEqual({ issued: [], skipped: expected, already: expected, failed: [] });

    const sdkBadge = (await CredentialsService.credentialsOrgsUsersRetrieve2(at(badge.id))) as unknown as {
      result: { name: string; course: string };
    };
    expect(sdkBadge.result).toMatchObject({ name: 'Statistics finisher', course });
    const sdkAssertions = await CredentialsService.credentialsOrgsUsersAssertionsRetrieve3(at(badge.id));
    expect(sdkAssertions.count).toBe(expected.length);

    const { assertions } = await c.engine.invoke('badges.assertions', { badge: badge.id });
    const first = assertions[0]!;
    const revoked = await c.engine.invoke('badges.revoke', { assertion: first.id, reason: 'Awarded by mistake' });
    expect(revoked).toMatchObject({ revoked: true, revocationReason: 'Awarded by mistake' });
    const sdkOne = await CredentialsService.credentialsOrgsUsersAssertionsRetrieve2(at(first.id));
    expect(sdkOne).toMatchObject({ revoked: true, revocationReason: 'Awarded by mistake' });

    const today = new Date().toISOString().slice(0, 10);
    const overTime = await c.engine.invoke('badges.overTime', { startDate: today, endDate: today });
    expect(overTime.series).toEqual([{ date: today, issued: expected.length - 1 }]);
  }, 120_000);

  it('edits a badge (a new image checked, then uploaded) and deletes it; the SDK reads back both', async () => {
    const c = await connect(server);
    const { badge } = await c.engine.invoke('badges.define', {
      name: 'Draft badge',
      description: 'Old',
      criteria: 'Old',
    });
    await expect(
      c.engine.invoke('badges.update', {
        badge: badge.id,
        name: 'Draft badge',
        description: 'x',
        criteria: 'x',
        image: toDataUrl('image/png', new TextEncoder().encode('%PDF-1.7 not an image')),
      }),
    ).rejects.toMatchObject({ code: 'validation', message: expect.stringMatching(/^Not an image/) });
    const { badge: edited, warning } = await c.engine.invoke('badges.update', {
      badge: badge.id,
      name: 'Final badge',
      description: 'New description',
      criteria: 'Finish every unit',
      image: toDataUrl('image/png', PNG),
    });
    expect(warning).toBeNull();
    expect(edited).toMatchObject({ id: badge.id, name: 'Final badge', criteria: 'Finish every unit' });
    const sdk = (await CredentialsService.credentialsOrgsUsersRetrieve2(at(badge.id))) as unknown as {
      result: { name: string; description: string; criteria_text: string; icon_image: string };
    };
    expect(sdk.result).toMatchObject({
      name: 'Final badge',
      description: 'New description',
      criteria_text: 'Finish every unit',
      icon_image: expect.stringMatching(/^data:image\/png;base64,/),
    });
    await expect(
      c.engine.invoke('badges.update', { badge: 'no-such', name: 'x', description: '', criteria: '' }),
    ).rejects.toMatchObject({ code: 'not_found', message: 'The platform refused the change: Not found.' });

    await c.engine.invoke('badges.delete', { badge: badge.id });
    await expect(CredentialsService.credentialsOrgsUsersRetrieve2(at(badge.id))).rejects.toMatchObject({ status: 404 });
    await expect(c.engine.invoke('badges.delete', { badge: badge.id })).rejects.toMatchObject({ code: 'not_found' });
  }, 60_000);

  it('issues to a list with one who holds it already and one unknown: a report of issued, already held and failed', async () => {
    const c = await connect(server);
    const { badge } = await c.engine.invoke('badges.define', { name: 'Report badge' });
    await c.engine.invoke('badges.issue', { badge: badge.id, people: ['learner0002'] });
    const report = await c.engine.invoke('badges.issue', {
      badge: badge.id,
      people: ['learner0002', 'learner0003', 'nobody-by-this-name'],
    });
    expect(report).toEqual({
      issued: ['learner0003'],
      skipped: ['learner0002', 'nobody-by-this-name'],
      already: ['learner0002'],
      failed: [{ person: 'nobody-by-this-name', reason: 'No person by this name on this tenant' }],
    });
    const sdkAssertions = await CredentialsService.credentialsOrgsUsersAssertionsRetrieve3(at(badge.id));
    expect(sdkAssertions.count).toBe(2);
  }, 60_000);

  it('refuses a file that is not an image before anything is sent, and shows the platform’s own refusals as they are', async () => {
    const c = await connect(server);
    const before = server.db.prepare('SELECT count(*) FROM credential_images').pluck().get() as number;
    await expect(
      c.engine.invoke('badges.define', {
        name: 'Broken',
        image: toDataUrl('image/png', new TextEncoder().encode('%PDF-1.7 not an image')),
      }),
    ).rejects.toMatchObject({ code: 'validation', message: expect.stringMatching(/^Not an image/) });
    await expect(
      c.engine.invoke('badges.define', { name: 'Empty', image: toDataUrl('image/png', new Uint8Array()) }),
    ).rejects.toMatchObject({ message: 'The file is empty: choose an image.' });
    expect(server.db.prepare('SELECT count(*) FROM credential_images').pluck().get()).toBe(before);
    expect(
      server.db.prepare("SELECT count(*) FROM credential_badges WHERE name IN ('Broken', 'Empty')").pluck().get(),
    ).toBe(0);

    await expect(c.engine.invoke('badges.revoke', { assertion: 'no-such', reason: 'x' })).rejects.toMatchObject({
      code: 'not_found',
      message: 'The platform refused to revoke it: Not found.',
    });
  }, 60_000);
});
