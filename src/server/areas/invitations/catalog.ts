import type { AreaDeps, SeedSize } from '../../area';
import type { Db } from '../../db';
import type { Rng } from '../../rng';
import { MAIN_ORG, OTHER_ORG } from '../core';

/** Courses and programs an invitation can point at, and who is already enrolled in them. */
export type TargetKind = 'course' | 'program';

export interface CatalogTarget {
  key: string;
  org: string;
}

const DAY = 86_400_000;

const COURSES = [
  ['CS101', 'Introduction to Programming'],
  ['CS201', 'Data Structures'],
  ['CS240', 'Databases'],
  ['CS310', 'Machine Learning Foundations'],
  ['CS350', 'Web Development'],
  ['MATH101', 'Calculus I'],
  ['MATH102', 'Calculus II'],
  ['MATH210', 'Linear Algebra'],
  ['STAT101', 'Introductory Statistics'],
  ['STAT220', 'Regression Analysis'],
  ['CHEM101', 'General Chemistry'],
  ['CHEM210', 'Organic Chemistry'],
  ['BIO101', 'Cell Biology'],
  ['BIO230', 'Human Anatomy'],
  ['PHYS101', 'Mechanics'],
  ['PHYS102', 'Electricity and Magnetism'],
  ['ECON101', 'Principles of Microeconomics'],
  ['ECON102', 'Principles of Macroeconomics'],
  ['ACCT101', 'Financial Accounting'],
  ['ACCT201', 'Managerial Accounting'],
  ['MGMT210', 'Organisational Behaviour'],
  ['MKTG200', 'Marketing Fundamentals'],
  ['FIN300', 'Corporate Finance'],
  ['HIST110', 'World History'],
  ['PHIL101', 'Introduction to Philosophy'],
  ['ENG101', 'Academic Writing'],
  ['ENG220', 'Technical Communication'],
  ['SPAN101', 'Spanish I'],
  ['SPAN102', 'Spanish II'],
  ['PSY101', 'Introduction to Psychology'],
  ['SOC101', 'Introduction to Sociology'],
  ['NURS110', 'Foundations of Nursing'],
  ['MED200', 'Pharmacology Basics'],
  ['PUBH150', 'Public Health'],
  ['RES300', 'Research Methods'],
  ['DS200', 'Data Visualisation'],
  ['DS310', 'Applied Data Science'],
  ['LAW100', 'Introduction to Law'],
  ['ARCH120', 'Design Studio'],
  ['SKL100', 'Study Skills'],
] as const;

const PROGRAMS = [
  ['data-science', 'Data Science Certificate', 'certificate'],
  ['health-professions', 'Health Professions Pathway', 'diploma'],
  ['business-leadership', 'Business Leadership', 'certificate'],
] as const;

export function findCourse(db: Db, courseId: string): CatalogTarget | null {
  const row = db.prepare('SELECT course_id AS key, org FROM courses WHERE course_id = ?').get(courseId) as
    CatalogTarget | undefined;
  return row ?? null;
}

export function findProgram(db: Db, programKey: string): CatalogTarget | null {
  const row = db.prepare('SELECT program_key AS key, org FROM programs WHERE program_key = ?').get(programKey) as
    CatalogTarget | undefined;
  return row ?? null;
}

/** The tenant owning an invitation target (a platform owns itself), or null when there is no such target. */
export function targetOrg(db: Db, kind: 'platform' | TargetKind, key: string): string | null {
  if (kind === 'platform') return db.prepare('SELECT 1 FROM orgs WHERE key = ?').get(key) ? key : null;
  return (kind === 'course' ? findCourse(db, key) : findProgram(db, key))?.org ?? null;
}

/** The analytics area's course enrolments (course_pk → courses.id), when that area is served. */
export function hasLearningEnrollments(db: Db): boolean {
  return !!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'learning_enrollments'`).get();
}

export function enroll(db: Db, kind: TargetKind, target: string, userId: number, at: string): void {
  db.prepare('INSERT OR IGNORE INTO catalog_enrollments (kind, target, user_id, created_at) VALUES (?, ?, ?, ?)').run(
    kind,
    target,
    userId,
    at,
  );
}

/**
 * Demo catalog: the 40 courses (unless the analytics area already filled the shared table), 3 programs, one of
 * each for the other tenant (isolation tests), and enrolments of the main tenant's learners.
 */
export function seedCatalog(deps: AreaDeps, size: Exclude<SeedSize, 'none'>, rng: Rng): void {
  const { db } = deps;
  const anchor = deps.now().getTime();
  const at = (daysAgo: number) => new Date(anchor - daysAgo * DAY).toISOString();

  // Per tenant, only when it has no courses yet: the analytics area may have filled the shared table.
  const coursesOf = db.prepare('SELECT count(*) AS n FROM courses WHERE org = ?');
  const insertCourse = db.prepare('INSERT INTO courses (course_id, org, name, created_at) VALUES (?, ?, ?, ?)');
  if ((coursesOf.get(MAIN_ORG) as { n: number }).n === 0) {
    for (const [code, name] of COURSES)
      insertCourse.run(`course-v1:${MAIN_ORG}+${code}+2026`, MAIN_ORG, name, at(rng.int(200, 700)));
  }
  if ((coursesOf.get(OTHER_ORG) as { n: number }).n === 0) {
    insertCourse.run(`course-v1:${OTHER_ORG}+FY100+2026`, OTHER_ORG, 'Foundation Year Orientation', at(300));
  }
  const { n: programCount } = db.prepare('SELECT count(*) AS n FROM programs').get() as { n: number };
  if (programCount === 0) {
    const insert = db.prepare(
      'INSERT INTO programs (program_key, org, name, slug, program_type, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const [slug, name, type] of PROGRAMS)
      insert.run(`${MAIN_ORG}+${slug}`, MAIN_ORG, name, slug, type, at(rng.int(200, 500)));
    insert.run(`${OTHER_ORG}+foundation-year`, OTHER_ORG, 'Foundation Year', 'foundation-year', 'diploma', at(300));
  }

  const courses = (
    db.prepare('SELECT course_id FROM courses WHERE org = ? ORDER BY id').all(MAIN_ORG) as { course_id: string }[]
  ).map((c) => c.course_id);
  const programs = (
    db.prepare('SELECT program_key FROM programs WHERE org = ? ORDER BY id').all(MAIN_ORG) as { program_key: string }[]
  ).map((p) => p.program_key);
  const learners = db
    .prepare(`SELECT id, date_joined FROM users WHERE org = ? AND role = 'student' ORDER BY id`)
    .all(MAIN_ORG) as { id: number; date_joined: string }[];
  // Course enrolments belong to the analytics area when it is there (with grades and completions).
  const ownCourseEnrollments = !hasLearningEnrollments(db);
  const insert = db.prepare(
    'INSERT OR IGNORE INTO catalog_enrollments (kind, target, user_id, created_at) VALUES (?, ?, ?, ?)',
  );
  for (const learner of learners) {
    const joined = Date.parse(learner.date_joined);
    const enrolledAt = () =>
      new Date(joined + rng.int(0, Math.max(0, Math.floor((anchor - joined) / DAY))) * DAY).toISOString();
    const courseSlots = ownCourseEnrollments && courses.length ? rng.int(0, size === 'large' ? 2 : 3) : 0;
    for (let k = 0; k < courseSlots; k++) insert.run('course', rng.pick(courses), learner.id, enrolledAt());
    if (programs.length && rng.chance(0.15)) insert.run('program', rng.pick(programs), learner.id, enrolledAt());
  }
}
