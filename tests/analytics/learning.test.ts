/**
 * The Learning tab (`analytics.learning`) against the same figures computed here, independently, from the sandbox's
 * own SQLite: learners, registered users, completions, completion rate, average grade and the most active courses;
 * and the export of its completions-per-day chart.
 */
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { chartTable, datasetFilters, findDataset } from '../../src/shared/contract';
import { sandbox, sandboxQueries } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { connect, settled } from './setup';

let server: Sandbox;
beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
});
const { scalar, rows } = sandboxQueries(() => server);

const october = { range: { preset: 'custom' as const, from: '2026-10-01', to: '2026-10-31' }, timeZone: 'UTC' };
const OCTOBER_DAYS = Array.from({ length: 31 }, (_, i) => `2026-10-${String(i + 1).padStart(2, '0')}`);
/** As the platform rounds: to `digits` decimals. */
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Completions per day in October, of one department's learners or of everyone. */
function completionsPerDay(department?: number): Map<string, number> {
  const perDay = rows<{ day: string; n: number }>(
    `SELECT substr(e.completed_at, 1, 10) AS day, count(*) AS n FROM learning_enrollments e JOIN users u ON u.id = e.user_id
     WHERE e.org = ? AND e.completed_at >= '2026-10-01' AND e.completed_at < '2026-11-01'
     ${department === undefined ? '' : 'AND u.department_id = ?'} GROUP BY day`,
    server.org,
    ...(department === undefined ? [] : [department]),
  );
  return new Map(perDay.map((d) => [d.day, d.n]));
}

describe('the Learning tab', () => {
  it('matches the sandbox data: learners, registrations, completions, completion rate, average grade, courses', async () => {
    const { engine } = await connect(server);
    const answer = await engine.invoke('analytics.learning', october);
    const org = server.org;

    // October against the 31 days before it (2026-08-31 to 2026-09-30).
    const active = (from: string, to: string) =>
      scalar(
        'SELECT count(DISTINCT user_id) FROM learning_activity WHERE org = ? AND day >= ? AND day <= ?',
        org,
        from,
        to,
      );
    expect(active('2026-10-01', '2026-10-31')).toBeGreaterThan(0);
    expect(answer.activeUsers).toMatchObject({
      value: active('2026-10-01', '2026-10-31'),
      previous: active('2026-08-31', '2026-09-30'),
    });
    const joined = (from: string, before: string) =>
      scalar('SELECT count(*) FROM users WHERE org = ? AND date_joined >= ? AND date_joined < ?', org, from, before);
    expect(answer.registeredUsers).toMatchObject({
      value: joined('2026-10-01', '2026-11-01'),
      previous: joined('2026-08-31', '2026-10-01'),
    });

    const completed = scalar(
      "SELECT count(*) FROM learning_enrollments WHERE org = ? AND completed_at >= '2026-10-01' AND completed_at < '2026-11-01'",
      org,
    );
    expect(completed).toBeGreaterThan(0);
    expect(answer.completions.value).toBe(completed);
    // Completions as a share of the enrollments open by the range's end, in percent.
    const enrolled = scalar(
      "SELECT count(*) FROM learning_enrollments WHERE org = ? AND enrolled_at < '2026-11-01'",
      org,
    );
    expect(answer.completionRate).toBe(round((completed / enrolled) * 100, 2));
    // The mean of graded enrollments (the platform answers 0–1 to four decimals), in percent.
    const grade = scalar('SELECT avg(grade) FROM learning_enrollments WHERE org = ? AND grade IS NOT NULL', org);
    expect(answer.averageGrade).toBe(round(round(grade, 4) * 100, 1));

    const perDay = completionsPerDay();
    expect(answer.completionSeries).toEqual(
      OCTOBER_DAYS.map((date) => ({ date, completions: perDay.get(date) ?? 0, partial: false })),
    );
    expect(answer.empty).toBe(false);

    // The ten courses with the most time spent in October, with the time per learner who spent any.
    const courses = rows<{ course_id: string; name: string; seconds: number; learners: number }>(
      `SELECT c.course_id, c.name, coalesce(t.seconds, 0) AS seconds, coalesce(t.learners, 0) AS learners
       FROM courses c LEFT JOIN (
         SELECT course_pk, sum(seconds) AS seconds, count(DISTINCT user_id) AS learners FROM learning_time
         WHERE org = ? AND day >= '2026-10-01' AND day <= '2026-10-31' GROUP BY course_pk
       ) t ON t.course_pk = c.id
       WHERE c.org = ? ORDER BY seconds DESC, c.name LIMIT 10`,
      org,
      org,
    );
    expect(courses[0]!.seconds).toBeGreaterThan(0);
    expect(answer.courses).toEqual(
      courses.map((c) => ({
        courseId: c.course_id,
        name: c.name,
        timeSpentSeconds: c.seconds,
        averageTimeSeconds: c.learners ? round(c.seconds / c.learners, 2) : 0,
      })),
    );
  });
});

describe('exporting the Learning tab’s completions per day', () => {
  it('writes the chart’s table, one line per day, narrowed by the same department', async () => {
    const { engine } = await connect(server);
    const department = scalar('SELECT id FROM departments WHERE org = ? ORDER BY id LIMIT 1', server.org);
    const dataset = findDataset('chart.completions')!;
    for (const filters of [{}, { department }]) {
      const input = { ...october, ...filters };
      const perDay = completionsPerDay(filters.department);
      expect([...perDay.values()].some((n) => n > 0)).toBe(true);
      const expected = OCTOBER_DAYS.map((day) => [day, String(perDay.get(day) ?? 0)]);
      // What "view as table" shows.
      const answer = await engine.invoke('analytics.learning', input);
      expect(chartTable('completions', answer).map((row) => [row.date, String(row.completions)])).toEqual(expected);

      // What "export CSV" writes, asked as the chart card asks.
      const started = await engine.invoke('analytics.exportStart', {
        dataset: dataset.id,
        ...october,
        ...datasetFilters(dataset, input),
        folder: tempDir(),
      });
      const done = await settled(engine, started.id);
      expect(done.state, done.error ?? '').toBe('completed');
      const text = readFileSync(done.path, 'utf8');
      expect(text.startsWith('\uFEFFDate,Completions\r\n')).toBe(true);
      expect(text.split('\r\n').filter(Boolean)).toHaveLength(31 + 1);
      expect(Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data.slice(1)).toEqual(expected);
      expect(done.rows).toBe(31);
    }
  });

  it('writes only the header for a range without completions, as the chart is empty', async () => {
    const { engine } = await connect(server);
    const quiet = { range: { preset: 'custom' as const, from: '2020-01-01', to: '2020-01-07' }, timeZone: 'UTC' };
    const answer = await engine.invoke('analytics.learning', quiet);
    expect(answer.completionSeries).toHaveLength(7);
    // The engine's emptiness rule: the chart shows its empty state, and the export (below) the same decision.
    expect(answer.empty).toBe(true);
    const started = await engine.invoke('analytics.exportStart', {
      dataset: 'chart.completions',
      ...quiet,
      folder: tempDir(),
    });
    const done = await settled(engine, started.id);
    expect(done.state, done.error ?? '').toBe('completed');
    expect(readFileSync(done.path, 'utf8')).toBe('\uFEFFDate,Completions\r\n');
  });
});
