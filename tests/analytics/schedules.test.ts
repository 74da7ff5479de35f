/**
 * Scheduled exports: stored in SQLite, run by the engine's timer while it runs, a missed run caught up (once) at the
 * next start, a history of runs, and clear refusals.
 */
import Database from 'better-sqlite3';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { connect, failure, settled, until } from './setup';

let server: Sandbox;
beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
});

/** Moves a schedule's creation back in time, as if it had been made days ago (the engine's own database file). */
function backdate(dataDir: string, id: string, ms: number): void {
  const db = new Database(join(dataDir, 'mentor-admin.sqlite'));
  db.prepare('UPDATE analytics_schedules SET created_at = ? WHERE id = ?').run(
    new Date(Date.now() - ms).toISOString(),
    id,
  );
  db.close();
}

const DAY = 86_400_000;
const schedule = (folder: string) => ({
  name: 'Weekly report',
  dataset: 'conversations' as const,
  cadence: 'daily' as const,
  time: '00:00',
  timeZone: 'UTC',
  rangeDays: 90 as const,
  folder,
});

describe('scheduled exports', () => {
  it('are saved, listed, changed and removed; bad ones are refused', async () => {
    const { engine } = await connect(server);
    const folder = tempDir();
    const saved = await engine.invoke('analytics.scheduleSave', {
      ...schedule(folder),
      cadence: 'weekly',
      weekday: 1,
      time: '06:30',
    });
    expect(saved).toMatchObject({
      name: 'Weekly report',
      cadence: 'weekly',
      weekday: 1,
      time: '06:30',
      rangeDays: 90,
      enabled: true,
      bom: true,
      lastRunAt: null,
      lastExport: null,
    });
    expect(new Date(saved.nextRunAt!).getUTCDay()).toBe(1);
    const changed = await engine.invoke('analytics.scheduleSave', {
      ...schedule(folder),
      id: saved.id,
      name: 'Daily',
      enabled: false,
    });
    expect(changed).toMatchObject({ id: saved.id, name: 'Daily', cadence: 'daily', weekday: null, nextRunAt: null });
    expect((await engine.invoke('analytics.schedules', {})).schedules.map((s) => s.name)).toEqual(['Daily']);
    expect((await failure(engine, 'analytics.scheduleSave', { ...schedule(folder), cadence: 'weekly' })).message).toBe(
      'A weekly export needs a day of the week',
    );
    expect((await failure(engine, 'analytics.scheduleSave', { ...schedule(folder), time: '25:00' })).message).toContain(
      'Use a time such as 06:30',
    );
    expect(
      (await failure(engine, 'analytics.scheduleSave', { ...schedule(folder), dataset: 'chart.learner-time' })).message,
    ).toBe("One learner's data cannot be scheduled: export it from the learner's page");
    // The folder as the file system names it: a typed trailing slash (or `..`) is not kept to show later.
    const slashed = await engine.invoke('analytics.scheduleSave', {
      ...schedule(`${folder}/sub/../`),
      id: saved.id,
    });
    expect(slashed.folder).toBe(folder);
    await engine.invoke('analytics.scheduleRemove', { id: saved.id });
    expect((await engine.invoke('analytics.schedules', {})).schedules).toEqual([]);
    expect((await failure(engine, 'analytics.scheduleRemove', { id: saved.id })).code).toBe('not_found');
  });

  it('take the export folder when none is given, and keep their own when changed without one', async () => {
    // The app's page names no folder in browser mode, and in the desktop app only when the admin picks another.
    const exportDir = join(tempDir(), 'not made yet');
    const { engine } = await connect(server, { env: { MENTOR_ADMIN_EXPORT_DIR: exportDir } });
    const { folder: _none, ...fields } = schedule('');
    const saved = await engine.invoke('analytics.scheduleSave', fields);
    expect(saved.folder).toBe(exportDir);
    // The export folder is made for the run when it is missing.
    const run = await settled(engine, (await engine.invoke('analytics.scheduleRun', { id: saved.id })).id);
    expect(run).toMatchObject({ state: 'completed' });
    expect(readdirSync(exportDir)).toHaveLength(1);
    const own = tempDir();
    await engine.invoke('analytics.scheduleSave', { ...fields, id: saved.id, folder: own });
    const renamed = await engine.invoke('analytics.scheduleSave', { ...fields, id: saved.id, name: 'Renamed' });
    expect(renamed).toMatchObject({ name: 'Renamed', folder: own });
  });

  it('run now writes the whole days before today, and keeps a history', async () => {
    const { engine } = await connect(server);
    const folder = tempDir();
    const saved = await engine.invoke('analytics.scheduleSave', schedule(folder));
    const run = await settled(engine, (await engine.invoke('analytics.scheduleRun', { id: saved.id })).id);
    expect(run.state).toBe('completed');
    const today = new Date().toISOString().slice(0, 10);
    const dayBefore = (n: number) => new Date(Date.parse(today) - n * DAY).toISOString().slice(0, 10);
    expect(run).toMatchObject({
      from: dayBefore(90),
      to: dayBefore(1),
      scheduleId: saved.id,
      title: expect.stringContaining('Weekly report'),
    });
    expect(readdirSync(folder)).toEqual([`${server.org}-conversations-${dayBefore(90)}_${dayBefore(1)}-UTC.csv`]);
    const listed = (await engine.invoke('analytics.schedules', {})).schedules[0]!;
    expect(listed.lastExport?.id).toBe(run.id);
    expect((await engine.invoke('analytics.exports', { scheduleId: saved.id })).exports.map((e) => e.id)).toEqual([
      run.id,
    ]);

    // A run that cannot start (its folder is gone) is kept in the history as a failed export with the reason.
    rmSync(folder, { recursive: true });
    const failed = await engine.invoke('analytics.scheduleRun', { id: saved.id });
    expect(failed).toMatchObject({ state: 'failed', error: expect.stringMatching(/the folder does not exist/) });
    expect((await engine.invoke('analytics.exports', { scheduleId: saved.id })).exports).toHaveLength(2);
  });

  it('catches up a run missed while the app was closed, once, at the next start', async () => {
    const dataDir = tempDir();
    const folder = tempDir();
    const first = await connect(server, { dataDir, keep: true });
    const saved = await first.engine.invoke('analytics.scheduleSave', schedule(folder));
    await first.engine.close();
    // Made three days ago: three midnights passed while the app was closed.
    backdate(dataDir, saved.id, 3 * DAY);

    const env = { MENTOR_ADMIN_SCHEDULER: 'on', MENTOR_ADMIN_SCHEDULER_TICK_MS: '100' };
    const second = await connect(server, { dataDir, env, keep: true });
    const runs = await until('the missed run', async () => {
      const { exports } = await second.engine.invoke('analytics.exports', { scheduleId: saved.id });
      return exports.length ? exports : null;
    });
    await settled(second.engine, runs[0]!.id);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await second.engine.invoke('analytics.exports', { scheduleId: saved.id })).exports).toHaveLength(1);
    const listed = (await second.engine.invoke('analytics.schedules', {})).schedules[0]!;
    expect(listed.lastRunAt).toBe(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`);
    await second.engine.close();

    // Started again the same day: that run is done, nothing more to catch up.
    const third = await connect(server, { dataDir, env });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await third.engine.invoke('analytics.exports', { scheduleId: saved.id })).exports).toHaveLength(1);
    expect(existsSync(folder)).toBe(true);
  });

  it('runs while the app runs, when its time comes', async () => {
    const dataDir = tempDir();
    const { engine } = await connect(server, {
      dataDir,
      env: { MENTOR_ADMIN_SCHEDULER: 'on', MENTOR_ADMIN_SCHEDULER_TICK_MS: '100' },
    });
    const saved = await engine.invoke('analytics.scheduleSave', { ...schedule(tempDir()), rangeDays: 1 });
    // Just made: today's midnight came before it, so nothing runs.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await engine.invoke('analytics.exports', { scheduleId: saved.id })).exports).toEqual([]);
    // Its time comes (as if it had been made yesterday): the timer runs it.
    backdate(dataDir, saved.id, DAY);
    const runs = await until('the timer to run it', async () => {
      const { exports } = await engine.invoke('analytics.exports', { scheduleId: saved.id });
      return exports.length ? exports : null;
    });
    expect((await settled(engine, runs[0]!.id)).state).toBe('completed');
  });
});
