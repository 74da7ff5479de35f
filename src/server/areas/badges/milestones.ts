/**
 * Course completion milestones (`/api/catalog/milestones/completions/course/manage/`), read from the learning
 * analytics' enrolments. The spec describes it for "a specific user and course" and makes `user_id` optional: with
 * it, that person's completion; without it, the course's completers (what issuing a badge to them reads).
 */
import type { AreaDeps } from '../../area';
import { badRequest, notFound } from '../../http/errors';
import type { Router } from '../../http/router';

export const COMPLETIONS = '/api/catalog/milestones/completions/course/manage/';

export function milestoneRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  router.get(
    COMPLETIONS,
    (ctx) => {
      const org = ctx.caller!.org;
      const courseId = ctx.query.get('course_id');
      if (!courseId) throw badRequest('Bad request - missing or invalid parameters');
      const course = db.prepare('SELECT id FROM courses WHERE course_id = ? AND org = ?').pluck().get(courseId, org) as
        number | undefined;
      if (course === undefined) throw notFound('Not found.');
      const user = ctx.query.get('user_id');
      const rows = db
        .prepare(
          `SELECT u.username, u.email, e.completed_at FROM learning_enrollments e JOIN users u ON u.id = e.user_id
           WHERE e.course_pk = ? AND e.org = ? AND e.completed_at IS NOT NULL ${user ? 'AND (u.username = ? OR u.email = ?)' : ''}
           ORDER BY e.completed_at, u.username`,
        )
        .all(course, org, ...(user ? [user, user] : [])) as { username: string; email: string; completed_at: string }[];
      if (user) {
        const row = rows[0];
        return {
          status: 200,
          body: { course_id: courseId, user_id: user, completed: !!row, completed_at: row?.completed_at ?? null },
        };
      }
      return { status: 200, body: { course_id: courseId, count: rows.length, completions: rows } };
    },
    { auth: 'admin' },
  );
}
