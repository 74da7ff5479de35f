/**
 * Suggestions and reviews through the app's engine (the calls its screens and the CLI make: resources.list, create,
 * update, delete on the kinds `course-suggestions`, `course-group-suggestions`, `course-reviews`), read back by the
 * vendor SDK on the same sandbox.
 */
import { CatalogService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { connect } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { requireKeychainSession } from '../helpers/temp';

let server: Sandbox;
beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox({ seed: 'demo' });
  OpenAPI.BASE = server.url;
  OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
}, 120_000);

type Row = Record<string, unknown>;
const course = () =>
  server.db
    .prepare('SELECT course_id FROM courses WHERE org = ? ORDER BY id DESC LIMIT 1')
    .pluck()
    .get(server.org) as string;

describe('suggestions and reviews through the engine, read back by the vendor SDK', () => {
  it('suggests a course to a person (their user id, not the admin’s) and withdraws it', async () => {
    const c = await connect(server);
    const person = server.db
      .prepare(`SELECT id, username FROM users WHERE org = ? AND role = 'student' ORDER BY id LIMIT 1 OFFSET 40`)
      .get(server.org) as { id: number; username: string };
    const made = await c.engine.invoke('resources.create', {
      kind: 'course-suggestions',
      values: { course_id: course(), user_id: String(person.id), visible: true },
    });
    expect(made.record).toMatchObject({ username: person.username, course_id: course() });
    const read = await CatalogService.catalogSuggestionsCourseManageRetrieve({
      platformKey: server.org,
      query: person.username,
    });
    const found = read.results.find((s) => s.course_id === course());
    expect(found).toMatchObject({ user_id: person.id, username: person.username, visible: true });
    await c.engine.invoke('resources.delete', { kind: 'course-suggestions', id: String(found!.id) });
    const after = await CatalogService.catalogSuggestionsCourseManageRetrieve({
      platformKey: server.org,
      query: person.username,
    });
    expect(after.results.some((s) => s.id === found!.id)).toBe(false);
  });

  it('suggests a course to a user group', async () => {
    const c = await connect(server);
    const group = server.db
      .prepare('SELECT id, name FROM user_groups WHERE org = ? ORDER BY id DESC LIMIT 1')
      .get(server.org) as { id: number; name: string };
    await c.engine.invoke('resources.create', {
      kind: 'course-group-suggestions',
      values: { course_id: course(), group_id: group.id },
    });
    const read = await CatalogService.catalogSuggestionsCourseManageGroupRetrieve({ platformKey: server.org });
    expect(read.results.find((s) => s.group_id === group.id && s.course_id === course())).toMatchObject({
      group_name: group.name,
      visible: true,
    });
  });

  it('hides a review by its course and reviewer, keeping its rating and words, then deletes it', async () => {
    const c = await connect(server);
    const listed = await c.engine.invoke('resources.list', {
      kind: 'course-reviews',
      refresh: true,
      whole: true,
      where: { visible: 'true' },
    });
    const review = (listed.records as Row[]).find((r) => r.visible === true)!;
    const id = `${String(review.course_id)} @ ${String(review.username)}`;
    await c.engine.invoke('resources.update', { kind: 'course-reviews', id, values: { visible: false } });
    const read = await CatalogService.catalogReviewsCourseRetrieve({
      platformKey: server.org,
      courseId: String(review.course_id),
    });
    const after = read.results.find((r) => r.username === review.username);
    expect(after).toMatchObject({ visible: false, rating: review.rating, title: review.title });
    await c.engine.invoke('resources.delete', { kind: 'course-reviews', id });
    const gone = await CatalogService.catalogReviewsCourseRetrieve({
      platformKey: server.org,
      courseId: String(review.course_id),
    });
    expect(gone.results.some((r) => r.username === review.username)).toBe(false);
  });
});

describe('a person’s learning profile (people.learning)', () => {
  it('reads their desired and reported skills and roles and skill points, as the platform has them', async () => {
    const c = await connect(server);
    const who = server.db
      .prepare(`SELECT id, username FROM users WHERE org = ? AND role = 'student' ORDER BY id LIMIT 1`)
      .get(server.org) as { id: number; username: string };
    const learning = await c.engine.invoke('people.learning', { username: who.username });
    const desired = server.db
      .prepare(
        `SELECT s.name FROM learning_person_skills p JOIN learning_skills s ON s.id = p.skill_id
         WHERE p.user_id = ? AND p.kind = 'desired' ORDER BY s.name`,
      )
      .pluck()
      .all(who.id);
    expect(learning.desiredSkills.map((s) => s.name)).toEqual(desired);
    expect(learning.reportedSkills.length).toBeGreaterThan(0);
    expect(learning.desiredRoles.length).toBeGreaterThan(0);
    const points = server.db
      .prepare('SELECT sum(points) FROM learning_skill_points WHERE user_id = ?')
      .pluck()
      .get(who.id) as number;
    expect(learning.totalPoints).toBe(points);
    expect(learning.skillPoints.reduce((sum, s) => sum + s.points, 0)).toBe(points);
    await expect(c.engine.invoke('people.learning', { username: 'nobody-here' })).rejects.toThrow(
      /no learning profile of nobody-here/,
    );
  });
});
