/**
 * A person's course completions through the engine (`people.completions`) against the demo sandbox: every course
 * they are enrolled in, each marked completed (with its date) or not as the course's completion milestone answers it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { connect } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { requireKeychainSession } from '../helpers/temp';

let server: Sandbox;
beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox({ seed: 'demo' });
}, 120_000);

/** A learner with at least one completed and one unfinished course in the demo's learning analytics. */
function learner() {
  return server.db
    .prepare(
      `SELECT u.id, u.username FROM users u JOIN learning_enrollments l ON l.user_id = u.id
       WHERE u.org = ? GROUP BY u.id
       HAVING count(l.completed_at) > 0 AND count(*) > count(l.completed_at) ORDER BY u.id LIMIT 1`,
    )
    .get(server.org) as { id: number; username: string };
}

describe('a person’s course completions through the engine', () => {
  it('lists each enrolled course, completed or not, with the completion date', async () => {
    const c = await connect(server);
    const who = learner();
    const expected = server.db
      .prepare(
        `SELECT c.course_id, c.name, l.completed_at FROM learning_enrollments l JOIN courses c ON c.id = l.course_pk
         WHERE l.user_id = ?`,
      )
      .all(who.id) as { course_id: string; name: string; completed_at: string | null }[];
    const answer = await c.engine.invoke('people.completions', { username: who.username, userId: who.id });
    expect(answer.username).toBe(who.username);
    for (const course of expected) {
      expect(answer.courses).toContainEqual({
        courseId: course.course_id,
        name: course.name,
        completed: course.completed_at !== null,
        completedAt: course.completed_at,
      });
    }
    expect(answer.courses.filter((c) => c.completed)).toHaveLength(expected.filter((c) => c.completed_at).length);
    // Completed first.
    const firstOpen = answer.courses.findIndex((c) => !c.completed);
    expect(answer.courses.slice(firstOpen).every((c) => !c.completed)).toBe(true);
  });

  it('a person with no enrolment has no completions; a bad user id is refused at its field', async () => {
    const c = await connect(server);
    const admin = server.db.prepare('SELECT id, username FROM users WHERE username = ?').get(server.user) as {
      id: number;
      username: string;
    };
    const none = await c.engine.invoke('people.completions', { username: admin.username, userId: admin.id });
    expect(none.courses).toEqual([]);
    await expect(c.engine.invoke('people.completions', { username: admin.username, userId: -1 })).rejects.toThrow(
      /userId/,
    );
  });
});
