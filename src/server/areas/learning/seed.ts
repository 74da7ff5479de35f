import type { AreaDeps } from '../../area';
import type { Rng } from '../../rng';
import { MAIN_ORG, OTHER_ORG } from '../core';

const DAY = 86_400_000;
const REVIEWS = [
  [5, 'Clear and practical', 'The exercises made every idea stick.'],
  [4, 'Good pace', 'A little fast in week three, otherwise great.'],
  [3, 'Useful but dry', 'Solid content; the videos could be shorter.'],
  [2, 'Too basic for me', 'I knew most of this already.'],
  [5, 'Loved it', 'Best course I have taken here.'],
] as const;

/**
 * Demo suggestions and reviews: learners of the main tenant are suggested its courses (one accepted), its first user
 * group a course, and they review the courses they are enrolled in (one review hidden by a moderator); the other
 * tenant has one of each (isolation tests).
 */
export function seedLearning(deps: AreaDeps, rng: Rng): void {
  const { db } = deps;
  const anchor = deps.now().getTime();
  const at = (daysAgo: number) => new Date(anchor - daysAgo * DAY).toISOString();
  const suggest = db.prepare(
    `INSERT OR IGNORE INTO learning_suggestions (org, course_id, user_id, group_id, accepted, visible, created, modified)
     VALUES (?, ?, ?, ?, ?, 1, ?, ?)`,
  );
  const review = db.prepare(
    `INSERT OR IGNORE INTO learning_reviews (item_type, item, org, user_id, rating, title, content, visible, created, modified)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const org of [MAIN_ORG, OTHER_ORG]) {
    const main = org === MAIN_ORG;
    const courses = db.prepare('SELECT course_id FROM courses WHERE org = ? ORDER BY id').pluck().all(org) as string[];
    const learners = db
      .prepare(`SELECT id FROM users WHERE org = ? AND is_active = 1 AND (role = 'student' OR ?) ORDER BY id LIMIT ?`)
      .pluck()
      // The other tenant has its admin only: they stand in as its learner.
      .all(org, main ? 0 : 1, main ? 24 : 1) as number[];
    if (!courses.length) continue;
    learners.forEach((user, index) => {
      const when = at(rng.int(1, 60));
      suggest.run(org, courses[index % courses.length], user, null, index === 0 ? 1 : 0, when, when);
      const [rating, title, content] = REVIEWS[index % REVIEWS.length]!;
      const written = at(rng.int(1, 90));
      // The fourth review was hidden by a moderator.
      review.run(
        'course',
        courses[index % Math.min(3, courses.length)],
        org,
        user,
        rating,
        title,
        content,
        index === 3 ? 0 : 1,
        written,
        written,
      );
    });
    const group = db.prepare('SELECT id FROM user_groups WHERE org = ? ORDER BY id LIMIT 1').pluck().get(org) as
      number | undefined;
    if (group !== undefined) suggest.run(org, courses[0], null, group, 0, at(3), at(3));
    const program = db
      .prepare('SELECT program_key FROM programs WHERE org = ? ORDER BY id LIMIT 1')
      .pluck()
      .get(org) as string | undefined;
    if (program && learners[0] !== undefined)
      review.run(
        'program',
        program,
        org,
        learners[0],
        4,
        'Worth it',
        'The courses fit together well.',
        1,
        at(5),
        at(5),
      );
  }
}
