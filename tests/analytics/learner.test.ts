/**
 * One learner's page (`analytics.learner`) against the same figures computed here, independently, from the sandbox's
 * own SQLite: information, average grade, grades and time per course, time per day over the range; and the export
 * of its time-per-day chart.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { connect, failure, proxy, settled } from './setup';

let server: Sandbox;
let learner: { id: number; username: string; email: string; date_joined: string };

beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
  // A learner with graded and ungraded enrollments, completions and study time in October 2026.
  learner = server.db
    .prepare(
      `SELECT u.id, u.username, u.email, u.date_joined FROM users u WHERE u.org = 'northbridge' AND u.role = 'student'
       AND (SELECT count(grade) FROM learning_enrollments e WHERE e.user_id = u.id) >= 2
       AND (SELECT count(completed_at) FROM learning_enrollments e WHERE e.user_id = u.id) >= 1
       AND (SELECT count(*) FROM learning_time t WHERE t.user_id = u.id AND t.day >= '2026-10-01') >= 2
       ORDER BY u.id LIMIT 1`,
    )
    .get() as typeof learner;
});

const all = <T>(sql: string, ...params: unknown[]) => server.db.prepare(sql).all(...params) as T[];
const one = <T = number>(sql: string, ...params: unknown[]) =>
  server.db
    .prepare(sql)
    .pluck()
    .get(...params) as T;
const percent = (grade: number) => Math.round(grade * 1000) / 10;
const october = { range: { preset: 'custom' as const, from: '2026-10-01', to: '2026-10-31' }, timeZone: 'UTC' };

describe('a learner’s page', () => {
  it('matches the sandbox data: information, grades and time per course, time per day', async () => {
    const { engine } = await connect(server);
    const page = await engine.invoke('analytics.learner', { username: learner.username, ...october });

    expect(page.info).toMatchObject({
      username: learner.username,
      enrollments: one('SELECT count(*) FROM learning_enrollments WHERE user_id = ?', learner.id),
      completions: one('SELECT count(completed_at) FROM learning_enrollments WHERE user_id = ?', learner.id),
      timeSpentSeconds: one('SELECT sum(seconds) FROM learning_time WHERE user_id = ?', learner.id),
      lastActive: one('SELECT max(day) FROM learning_activity WHERE user_id = ?', learner.id),
    });
    expect(page.email).toBe(learner.email);
    expect(page.joined).toBe(learner.date_joined);
    expect(page.totalTimeSeconds).toBe(page.info!.timeSpentSeconds);
    expect(page.averageGrade).toBe(
      percent(one('SELECT avg(grade) FROM learning_enrollments WHERE user_id = ? AND grade IS NOT NULL', learner.id)),
    );

    const courses = all<{
      course_id: string;
      name: string;
      grade: number | null;
      average: number;
      seconds: number | null;
      days: number | null;
      last: string | null;
    }>(
      `SELECT c.course_id, c.name, e.grade,
         (SELECT avg(x.grade) FROM learning_enrollments x WHERE x.course_pk = c.id AND x.grade IS NOT NULL) AS average,
         (SELECT sum(seconds) FROM learning_time t WHERE t.course_pk = c.id AND t.user_id = e.user_id) AS seconds,
         (SELECT count(*) FROM learning_time t WHERE t.course_pk = c.id AND t.user_id = e.user_id) AS days,
         (SELECT max(day) FROM learning_time t WHERE t.course_pk = c.id AND t.user_id = e.user_id) AS last
       FROM learning_enrollments e JOIN courses c ON c.id = e.course_pk WHERE e.user_id = ? ORDER BY c.name`,
      learner.id,
    );
    expect(page.grades).toEqual(
      courses.map((c) => ({
        courseId: c.course_id,
        course: c.name,
        // The platform reports 0 for an enrollment not graded yet.
        grade: percent(c.grade ?? 0),
        classAverage: percent(Math.round(c.average * 10_000) / 10_000),
        timeSpentSeconds: c.seconds ?? 0,
        daysAccessed: c.days ?? 0,
        lastAccess: c.last,
      })),
    );

    const perDay = new Map(
      all<{ day: string; seconds: number }>(
        `SELECT day, sum(seconds) AS seconds FROM learning_time WHERE user_id = ? AND day >= '2026-10-01'
         AND day < '2026-11-01' GROUP BY day`,
        learner.id,
      ).map((d) => [d.day, d.seconds]),
    );
    expect(page.time).toHaveLength(31);
    expect(page.time![0]!.date).toBe('2026-10-01');
    for (const point of page.time!) expect(point.seconds, point.date).toBe(perDay.get(point.date) ?? 0);
    expect(page.timeTotalSeconds).toBe([...perDay.values()].reduce((a, b) => a + b, 0));
    expect(page.range).toMatchObject({ from: '2026-10-01', to: '2026-10-31', timeZone: 'UTC' });
    expect(page.notes).toEqual([]);

    // Found by email too; an unknown learner is no learner, not an error.
    const byEmail = await engine.invoke('analytics.learner', { username: learner.email, ...october });
    expect(byEmail.info?.username).toBe(learner.username);
    const nobody = await engine.invoke('analytics.learner', { username: 'nobody', ...october });
    expect(nobody).toMatchObject({ info: null, email: null, averageGrade: null });
  });

  it('says what a tenant without per-learner analytics cannot show, and shows the rest', async () => {
    const tenant = await proxy(server);
    tenant.fail = { match: /\/perlearner\//, status: 404 };
    const { engine } = await connect(server, { baseUrl: tenant.url });
    const page = await engine.invoke('analytics.learner', { username: learner.username, ...october });
    expect(page.info?.username).toBe(learner.username);
    expect(page.averageGrade).not.toBeNull();
    expect(page).toMatchObject({ grades: null, time: null, email: null, timeTotalSeconds: null });
    expect(page.notes).toEqual([
      'Grades per course are not available from this tenant.',
      'Time per course is not available from this tenant.',
      'Time over time is not available from this tenant.',
    ]);
  });
});

describe('exporting a learner’s time per day (the learner page’s chart)', () => {
  const exportTime = async (engine: Awaited<ReturnType<typeof connect>>['engine'], username: string) => {
    const started = await engine.invoke('analytics.exportStart', {
      dataset: 'chart.learner-time',
      learner: username,
      folder: tempDir(),
      ...october,
    });
    return settled(engine, started.id);
  };

  it('writes one line per day of the range with the seconds the sandbox recorded that day', async () => {
    const { engine } = await connect(server);
    const done = await exportTime(engine, learner.username);
    expect(done.state, done.error ?? '').toBe('completed');
    expect(basename(done.path)).toBe(
      `${server.org}-chart.learner-time-${learner.username}-2026-10-01_2026-10-31-UTC.csv`,
    );

    const perDay = new Map(
      all<{ day: string; seconds: number }>(
        `SELECT day, sum(seconds) AS seconds FROM learning_time WHERE user_id = ? AND day >= '2026-10-01'
         AND day <= '2026-10-31' GROUP BY day`,
        learner.id,
      ).map((d) => [d.day, d.seconds]),
    );
    const expected = Array.from({ length: 31 }, (_, i) => {
      const day = `2026-10-${String(i + 1).padStart(2, '0')}`;
      return [day, String(perDay.get(day) ?? 0)];
    });
    const text = readFileSync(done.path, 'utf8');
    expect(text.startsWith('\uFEFFDate,Time spent (s)\r\n')).toBe(true);
    expect(text.split('\r\n').filter(Boolean)).toHaveLength(31 + 1);
    const rows = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data.slice(1);
    expect(rows).toEqual(expected);
    expect(done.rows).toBe(31);
    // The same numbers the page's chart draws.
    const page = await engine.invoke('analytics.learner', { username: learner.username, ...october });
    expect(page.time!.map((p) => [p.date, String(p.seconds)])).toEqual(expected);
  });

  it('writes only the header for a learner with no time in the range, as the chart is empty', async () => {
    const idle = one<string>(
      `SELECT username FROM users u WHERE org = ? AND role = 'student' AND NOT EXISTS
         (SELECT 1 FROM learning_time t WHERE t.user_id = u.id AND t.day >= '2026-10-01' AND t.day <= '2026-10-31')
       ORDER BY id LIMIT 1`,
      server.org,
    );
    const { engine } = await connect(server);
    const page = await engine.invoke('analytics.learner', { username: idle, ...october });
    expect(page.time!.every((p) => p.seconds === 0)).toBe(true);
    const done = await exportTime(engine, idle);
    expect(done.state, done.error ?? '').toBe('completed');
    expect(done.rows).toBe(0);
    expect(readFileSync(done.path, 'utf8')).toBe('\uFEFFDate,Time spent (s)\r\n');
  });

  it('needs a learner, takes one only for a learner’s data, and fails on a learner the tenant does not know', async () => {
    const { engine } = await connect(server);
    const missing = await failure(engine, 'analytics.exportStart', { dataset: 'chart.learner-time', ...october });
    expect(missing.code).toBe('validation');
    expect(missing.message).toBe("Chart: Time spent per day (one learner) is one learner's: say whose (learner)");
    const extra = await failure(engine, 'analytics.exportStart', {
      dataset: 'chart.topics',
      learner: learner.username,
      ...october,
    });
    expect(extra.message).toBe("Chart: Most discussed topics is not one learner's: it takes no learner");
    const nobody = await exportTime(engine, 'nobody');
    expect(nobody.state).toBe('failed');
    expect(nobody.error).toContain('User not found');
  });
});
