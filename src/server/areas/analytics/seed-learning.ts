import type { AreaDeps, SeedSize } from '../../area';
import type { Rng } from '../../rng';
import { MAIN_ORG, OTHER_ORG } from '../core';
import { COURSES, OTHER_ORG_COURSES } from './content';

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Course code prefix → the seeded department that mostly takes it (GEN courses are for everyone). */
const DEPARTMENT_OF_PREFIX: Record<string, string> = {
  CS: 'Engineering',
  MATH: 'Engineering',
  STAT: 'Engineering',
  ENG: 'Engineering',
  CHEM: 'Engineering',
  BUS: 'Business',
  ECON: 'Business',
  MED: 'Medicine',
  HUM: 'Humanities',
};

// Courses per learner: 0 to 6, about three on average.
const ENROLLMENT_WEIGHTS = [10, 15, 20, 22, 15, 10, 8];

/** Inserts a tenant's courses (if the table has none for it yet) and returns their ids by code. */
function seedCourses(deps: AreaDeps, org: string, list: readonly { code: string; name: string }[], rng: Rng) {
  const { db } = deps;
  const anchor = deps.now().getTime();
  const year = new Date(anchor).getUTCFullYear();
  const insert = db.prepare(
    `INSERT INTO courses (course_id, org, name, created_at, start_date, end_date) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (course_id) DO NOTHING`,
  );
  const starts = [`${year - 1}-09-01`, `${year}-01-12`, `${year}-05-04`];
  for (const course of list) {
    const start = rng.pick(starts);
    const created = new Date(Date.parse(start) - rng.int(30, 90) * DAY_MS).toISOString();
    insert.run(`course-v1:${org}+${course.code}+${year}`, org, course.name, created, start, `${year}-12-18`);
  }
  return db.prepare('SELECT id, course_id, start_date FROM courses WHERE org = ? ORDER BY id').all(org) as {
    id: number;
    course_id: string;
    start_date: string | null;
  }[];
}

/** Each learner's days with a chat session (UTC), in order: the days they may also study. */
function chatDays(deps: AreaDeps, org: string): Map<number, string[]> {
  const days = new Map<number, string[]>();
  const rows = deps.db
    .prepare(
      `SELECT DISTINCT user_id, substr(started_at, 1, 10) AS day FROM chat_sessions
       WHERE org = ? AND user_id IS NOT NULL ORDER BY user_id, day`,
    )
    .raw()
    .iterate(org) as IterableIterator<[number, string]>;
  for (const [user, day] of rows) {
    let list = days.get(user);
    if (!list) days.set(user, (list = []));
    list.push(day);
  }
  return days;
}

/** The days of a sorted list within [from, to] (both `YYYY-MM-DD`). */
function daysWithin(sorted: readonly string[], from: string, to: string): string[] {
  let lo = 0;
  while (lo < sorted.length && sorted[lo]! < from) lo++;
  let hi = lo;
  while (hi < sorted.length && sorted[hi]! <= to) hi++;
  return sorted.slice(lo, hi);
}

/**
 * Courses, enrollments (with completions and grades) and daily time spent for every learner of the main tenant.
 * Learners mostly take their own department's courses. Time is spent on days the learner also chatted with a mentor
 * while enrolled (a learner studies with their mentor at hand), so the platform's active learners of a day are
 * always learners with a session that day: figures add up. Runs after the chats are seeded.
 */
export function seedLearning(deps: AreaDeps, size: Exclude<SeedSize, 'none'>, rng: Rng): void {
  const { db } = deps;
  const anchor = deps.now().getTime();
  const today = Math.floor(anchor / DAY_MS) * DAY_MS;
  const courses = seedCourses(deps, MAIN_ORG, COURSES, rng);
  seedCourses(deps, OTHER_ORG, OTHER_ORG_COURSES, rng);
  if (!courses.length) return;

  const departments = new Map(
    (db.prepare('SELECT id, name FROM departments WHERE org = ?').all(MAIN_ORG) as { id: number; name: string }[]).map(
      (d) => [d.id, d.name],
    ),
  );
  const coursesByDepartment = new Map<string, typeof courses>();
  for (const course of courses) {
    const code = course.course_id.split('+')[1] ?? '';
    const department = DEPARTMENT_OF_PREFIX[code.replace(/\d+$/, '')] ?? '';
    coursesByDepartment.set(department, [...(coursesByDepartment.get(department) ?? []), course]);
  }

  const learners = db
    .prepare("SELECT id, department_id, date_joined FROM users WHERE org = ? AND role = 'student' ORDER BY id")
    .all(MAIN_ORG) as { id: number; department_id: number | null; date_joined: string }[];
  const insertEnrollment = db.prepare(
    `INSERT INTO learning_enrollments (org, course_pk, user_id, enrolled_at, completed_at, grade, passed, is_active)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertTime = db.prepare(
    `INSERT INTO learning_time (org, day, user_id, course_pk, seconds) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (org, day, user_id, course_pk) DO UPDATE SET seconds = seconds + excluded.seconds`,
  );
  // The large data set keeps fewer study days per enrollment so it still generates quickly.
  const studyDays = size === 'large' ? [1, 5] : [2, 12];
  const chatted = chatDays(deps, MAIN_ORG);
  const total = ENROLLMENT_WEIGHTS.reduce((a, b) => a + b, 0);

  for (const learner of learners) {
    let x = rng.next() * total;
    let count = 0;
    while (count < ENROLLMENT_WEIGHTS.length - 1 && x >= ENROLLMENT_WEIGHTS[count]!) x -= ENROLLMENT_WEIGHTS[count++]!;
    const own = coursesByDepartment.get(departments.get(learner.department_id ?? -1) ?? '') ?? courses;
    const chosen = new Set<(typeof courses)[number]>();
    for (let attempt = 0; chosen.size < count && attempt < count * 4; attempt++) {
      chosen.add(rng.chance(0.7) ? rng.pick(own) : rng.pick(courses));
    }
    const joined = Date.parse(learner.date_joined);
    for (const course of chosen) {
      const opens = Math.max(joined, Date.parse(course.start_date ?? learner.date_joined), anchor - 365 * DAY_MS);
      if (opens >= anchor - DAY_MS) continue;
      const enrolled = opens + Math.floor(rng.next() * (anchor - DAY_MS - opens));
      const finishes = enrolled + rng.int(21, 150) * DAY_MS;
      const completed = rng.chance(0.5) && finishes < anchor ? finishes : null;
      let grade: number | null = null;
      if (completed !== null) grade = Math.round((0.35 + 0.65 * Math.sqrt(rng.next())) * 100) / 100;
      else if (rng.chance(0.6)) grade = Math.round((0.1 + 0.8 * rng.next()) * 100) / 100;
      const passed = completed !== null && grade !== null && grade >= 0.5 ? 1 : 0;
      insertEnrollment.run(
        MAIN_ORG,
        course.id,
        learner.id,
        new Date(enrolled).toISOString(),
        completed === null ? null : new Date(completed).toISOString(),
        grade,
        passed,
        rng.chance(0.95) ? 1 : 0,
      );
      const lastDay = Math.min(completed ?? today, today);
      const open = daysWithin(chatted.get(learner.id) ?? [], day(enrolled), day(lastDay));
      // Distinct days (a partial shuffle): at most one sitting per course and day, so a day's time stays a day's.
      const days = Math.min(open.length, rng.int(studyDays[0]!, studyDays[1]!));
      for (let i = 0; i < days; i++) {
        const j = rng.int(i, open.length - 1);
        [open[i], open[j]] = [open[j]!, open[i]!];
        insertTime.run(MAIN_ORG, open[i], learner.id, course.id, rng.int(300, 5_400));
      }
    }
  }
  seedGroupMembers(deps, learners, rng);
}

/** Core creates the main tenant's user groups empty: give them members so group analytics have learners to report. */
function seedGroupMembers(deps: AreaDeps, learners: { id: number }[], rng: Rng): void {
  const { db } = deps;
  const groups = db
    .prepare(
      `SELECT g.id, g.name FROM user_groups g WHERE g.org = ?
       AND NOT EXISTS (SELECT 1 FROM user_group_members m WHERE m.group_id = g.id) ORDER BY g.id`,
    )
    .all(MAIN_ORG) as { id: number; name: string }[];
  const insert = db.prepare('INSERT OR IGNORE INTO user_group_members (group_id, user_id) VALUES (?, ?)');
  for (const group of groups) {
    // A cohort holds about one learner in seven; other groups (teaching assistants…) a couple of dozen.
    const share = /cohort/i.test(group.name) ? 1 / 7 : Math.min(1, 25 / Math.max(1, learners.length));
    for (const learner of learners) if (rng.chance(share)) insert.run(group.id, learner.id);
  }
}
