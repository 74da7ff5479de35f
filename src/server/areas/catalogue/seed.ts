import { randomUUID } from 'node:crypto';
import type { AreaDeps } from '../../area';
import type { Rng } from '../../rng';
import { MAIN_ORG, OTHER_ORG } from '../core';

const DAY = 86_400_000;

/**
 * Pathways through the demo courses, by course code (the analytics area seeds the courses, the invitations area the
 * programs): codes of the courses the catalogue lists, so that every item is named.
 */
const PATHWAYS = [
  ['data-foundations', 'Data foundations', ['CS101', 'STAT101', 'CS210']],
  ['health-sciences', 'Health sciences start', ['MED101', 'CHEM101', 'MED102']],
  ['business-basics', 'Business basics', ['ECON101', 'BUS110', 'BUS201']],
] as const;

/**
 * Demo catalogue: slugs for the courses, the programs' course lists, three pathways of the main tenant with some of
 * its learners on them (one ended), and one pathway of the other tenant (isolation tests).
 */
export function seedCatalogue(deps: AreaDeps, rng: Rng): void {
  const { db } = deps;
  const anchor = deps.now().getTime();
  const at = (daysAgo: number) => new Date(anchor - daysAgo * DAY).toISOString();
  const courses = db.prepare('SELECT course_id FROM courses WHERE org IN (?, ?)').all(MAIN_ORG, OTHER_ORG) as {
    course_id: string;
  }[];
  const extra = db.prepare(
    'INSERT OR IGNORE INTO catalogue_course_extras (course_id, slug, metadata) VALUES (?, ?, ?)',
  );
  for (const { course_id } of courses) {
    const code = course_id.split('+')[1] ?? course_id;
    extra.run(
      course_id,
      code.toLowerCase(),
      JSON.stringify({ level: code.match(/\d/)?.[0] === '1' ? 'intro' : 'advanced' }),
    );
  }
  // The tenant's course of that code (its run's year is the seeding clock's), or the 2026 run when none is listed.
  const listed = db.prepare('SELECT course_id FROM courses WHERE org = ? AND course_id LIKE ? ORDER BY id LIMIT 1');
  const courseOf = (code: string) =>
    (listed.pluck().get(MAIN_ORG, `course-v1:${MAIN_ORG}+${code}+%`) as string | undefined) ??
    `course-v1:${MAIN_ORG}+${code}+2026`;
  const programs = db.prepare('SELECT program_key FROM programs WHERE org = ?').all(MAIN_ORG) as {
    program_key: string;
  }[];
  const programCourses = [
    ['CS101', 'STAT101', 'CS210', 'CS230'],
    ['MED101', 'MED102', 'MED201', 'MED220'],
    ['BUS101', 'BUS210', 'BUS201'],
  ];
  programs.forEach(({ program_key }, index) => {
    const list = (programCourses[index % programCourses.length] ?? []).map((code, position) => ({
      course_id: courseOf(code),
      position: position + 1,
    }));
    db.prepare(
      'INSERT OR IGNORE INTO catalogue_program_extras (program_key, course_list, metadata) VALUES (?, ?, ?)',
    ).run(program_key, JSON.stringify(list), JSON.stringify({ language: 'en' }));
  });

  const owner = db.prepare(`SELECT id FROM users WHERE org = ? AND role = 'admin' ORDER BY id LIMIT 1`);
  const insert = db.prepare(
    `INSERT OR IGNORE INTO catalogue_pathways (org, pathway_id, pathway_uuid, name, slug, visible, user_id, path)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const mainOwner = (owner.get(MAIN_ORG) as { id: number } | undefined)?.id ?? null;
  for (const [slug, name, codes] of PATHWAYS) {
    const path = codes.map((code, position) => ({ item_id: courseOf(code), position: position + 1 }));
    insert.run(MAIN_ORG, slug, randomUUID(), name, slug, 1, mainOwner, JSON.stringify(path));
  }
  const otherOwner = (owner.get(OTHER_ORG) as { id: number } | undefined)?.id ?? null;
  insert.run(OTHER_ORG, 'orientation', randomUUID(), 'Orientation', 'orientation', 1, otherOwner, '[]');

  const pathways = db.prepare('SELECT id FROM catalogue_pathways WHERE org = ?').all(MAIN_ORG) as { id: number }[];
  const learners = db
    .prepare(`SELECT id FROM users WHERE org = ? AND role = 'student' ORDER BY id LIMIT 60`)
    .all(MAIN_ORG) as { id: number }[];
  const enrol = db.prepare(
    'INSERT OR IGNORE INTO catalogue_pathway_enrollments (pathway_pk, user_id, active, created, ended) VALUES (?, ?, ?, ?, ?)',
  );
  for (const learner of learners) {
    if (!pathways.length || !rng.chance(0.4)) continue;
    const ended = rng.chance(0.1);
    enrol.run(
      rng.pick(pathways).id,
      learner.id,
      ended ? 0 : 1,
      at(rng.int(20, 200)),
      ended ? at(rng.int(1, 19)) : null,
    );
  }
}
