import { randomUUID } from 'node:crypto';
import type { AreaDeps } from '../../area';
import type { Rng } from '../../rng';
import { MAIN_ORG, OTHER_ORG } from '../core';

const DAY = 86_400_000;

/** Pathways through the demo courses, by course code (the invitations area seeds the courses and programs). */
const PATHWAYS = [
  ['data-foundations', 'Data foundations', ['CS101', 'STAT101', 'DS200']],
  ['health-sciences', 'Health sciences start', ['BIO101', 'CHEM101', 'NURS110']],
  ['business-basics', 'Business basics', ['ECON101', 'ACCT101', 'MKTG200']],
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
  const courseOf = (code: string) => `course-v1:${MAIN_ORG}+${code}+2026`;
  const programs = db.prepare('SELECT program_key FROM programs WHERE org = ?').all(MAIN_ORG) as {
    program_key: string;
  }[];
  const programCourses = [
    ['CS101', 'STAT101', 'DS200', 'DS310'],
    ['BIO101', 'BIO230', 'NURS110', 'MED200'],
    ['MGMT210', 'FIN300', 'MKTG200'],
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
