import type { AreaDeps } from '../../area';
import type { Rng } from '../../rng';
import { MAIN_ORG, OTHER_ORG } from '../core';

/** A round PNG badge face (32×32), so demo badges show an image. */
const DEMO_ICON =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAAmklEQVR4nO3WvRHAIAgFYMfJEJkpI6bOTGmwzp2Bh8hPYUEp79M7lUZELbPUC87rIa5cAFKoBeMWjiLcglFISDiHmAp/72NYMwgV4C9YA2EB1mAUMgSsDkcRtQHWcA7xAXjtHjkF991Lp7ABG1AXEHoN0x+isk9xKCD9Oy4xkJQYydKH0hJj+UqI1F8EWBBIbwigwWj7qQGrqwNQ1vTPD2/gWgAAAABJRU5ErkJggg==';

/**
 * Each tenant's issuer, and demo badges tied to demo courses whose assertions belong to learners who completed those
 * courses (the learning analytics' enrolments), issued on the day they completed.
 */
export function seedBadges(deps: AreaDeps, rng: Rng): void {
  const { db } = deps;
  const insertIssuer = db.prepare(
    'INSERT INTO credential_issuers (entity_id, org, name, email, url) VALUES (?, ?, ?, ?, ?)',
  );
  insertIssuer.run(
    'issuer-northbridge',
    MAIN_ORG,
    'Northbridge University',
    'badges@northbridge.example',
    'https://northbridge.example',
  );
  insertIssuer.run(
    'issuer-riverside',
    OTHER_ORG,
    'Riverside College',
    'badges@riverside.example',
    'https://riverside.example',
  );
  const insertBadge = db.prepare(
    `INSERT INTO credential_badges (entity_id, org, name, description, issuer, credential_type, icon_image, criteria_text, course, created_at)
     VALUES (?, ?, ?, ?, ?, 'badge', ?, ?, ?, ?)`,
  );
  const insertAssertion = db.prepare(
    `INSERT OR IGNORE INTO credential_assertions (entity_id, org, badge, username, email, issued_on) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const created = new Date(deps.now().getTime() - 120 * 86_400_000).toISOString();
  for (const org of [MAIN_ORG, OTHER_ORG]) {
    const courses = db
      .prepare('SELECT id, course_id, name FROM courses WHERE org = ? ORDER BY id LIMIT ?')
      .all(org, org === MAIN_ORG ? 3 : 1) as { id: number; course_id: string; name: string }[];
    courses.forEach((course, index) => {
      const id = `${org}-badge-${index + 1}`;
      insertBadge.run(
        id,
        org,
        `${course.name} completer`,
        `Awarded for completing ${course.name}.`,
        `issuer-${org}`,
        DEMO_ICON,
        `Complete every unit of ${course.name}.`,
        course.course_id,
        created,
      );
      const completers = db
        .prepare(
          `SELECT u.username, u.email, e.completed_at FROM learning_enrollments e JOIN users u ON u.id = e.user_id
           WHERE e.course_pk = ? AND e.completed_at IS NOT NULL ORDER BY e.completed_at`,
        )
        .all(course.id) as { username: string; email: string; completed_at: string }[];
      // The newest course's badge is left for the admin to hand out; the others went to most completers.
      if (index === courses.length - 1 && org === MAIN_ORG) return;
      for (const c of completers) {
        if (!rng.chance(0.8)) continue;
        insertAssertion.run(`${id}-${c.username}`, org, id, c.username, c.email, c.completed_at);
      }
    });
  }
}
