/**
 * Scheduled exports: daily or weekly at a time in a zone, a dataset over the whole days before the run ("last 7
 * days"), written to a folder. A timer in the engine runs them while the app runs; at start, a run missed while the
 * app was closed catches up once (the latest missed one). Each run is an export job, so the history is the jobs.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { z } from 'zod';
import {
  addDays,
  findDataset,
  localDate,
  localTimeZone,
  weekday,
  zonedInstant,
  type ExportInfo,
  type Schedule,
  type ScheduleFields,
} from '../../../shared/contract';
import type { EngineServices } from '../context';
import { EngineError, notFound } from '../errors';
import type { Exports } from './exports';
import type { ScheduleRow, ScheduleStore, ScheduleValues } from './schedule-store';

type ScheduleInput = z.output<typeof ScheduleFields> & { id?: string | undefined };

interface Options {
  bom: boolean;
  delimiter: string;
  columns: string[] | null;
}

type Timing = Pick<ScheduleRow, 'cadence' | 'weekday' | 'time' | 'time_zone'>;

function slotOn(date: string, s: Timing): number {
  const [hour, minute] = s.time.split(':').map(Number) as [number, number];
  return zonedInstant(date, s.time_zone, hour, minute);
}

const runsOn = (date: string, s: Timing) => s.cadence === 'daily' || weekday(date) === (s.weekday ?? 1);

/** The latest scheduled instant at or before `now`. */
export function latestSlot(s: Timing, now: number): number {
  let date = localDate(now, s.time_zone);
  for (let i = 0; i < 9; i++, date = addDays(date, -1)) {
    if (!runsOn(date, s)) continue;
    const slot = slotOn(date, s);
    if (slot <= now) return slot;
  }
  throw new Error('No slot in the last week');
}

/** The first scheduled instant after `now`. */
export function nextSlot(s: Timing, now: number): number {
  let date = localDate(now, s.time_zone);
  for (let i = 0; i < 9; i++, date = addDays(date, 1)) {
    if (!runsOn(date, s)) continue;
    const slot = slotOn(date, s);
    if (slot > now) return slot;
  }
  throw new Error('No slot in the next week');
}

/** The whole days before a run's day: 1 = yesterday, 7 = the seven days before. */
export function runRange(slot: number, timeZone: string, days: number): { from: string; to: string } {
  const day = localDate(slot, timeZone);
  return { from: addDays(day, -days), to: addDays(day, -1) };
}

export class Schedules {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;

  constructor(
    private readonly services: Pick<EngineServices, 'tenant' | 'journal' | 'emit' | 'log'>,
    private readonly store: ScheduleStore,
    private readonly exports: Exports,
    private readonly clock: () => number = Date.now,
  ) {}

  private row(id: string): ScheduleRow {
    const row = this.store.get(id);
    if (!row) throw notFound(`No scheduled export with id '${id}'`);
    return row;
  }

  present(row: ScheduleRow): Schedule {
    const options = JSON.parse(row.options) as Options;
    const last = this.exports.list(1, row.id)[0] ?? null;
    return {
      id: row.id,
      profileId: row.profile_id,
      name: row.name,
      dataset: row.dataset,
      cadence: row.cadence,
      weekday: row.weekday,
      time: row.time,
      timeZone: row.time_zone,
      rangeDays: row.range_days,
      folder: row.folder,
      mentor: row.mentor,
      bom: options.bom,
      delimiter: options.delimiter,
      columns: options.columns,
      enabled: row.enabled === 1,
      lastRunAt: row.last_slot,
      nextRunAt: row.enabled ? new Date(nextSlot(row, this.clock())).toISOString() : null,
      lastExport: last,
      createdAt: row.created_at,
    };
  }

  list(profileId?: string): Schedule[] {
    return this.store.list(profileId).map((row) => this.present(row));
  }

  save(input: ScheduleInput): Schedule {
    const profileId = this.services.tenant(input.profileId);
    if (input.cadence === 'weekly' && input.weekday === undefined)
      throw new EngineError('validation', 'A weekly export needs a day of the week', {
        issues: [{ path: 'weekday', message: 'Choose a day' }],
      });
    // A schedule has no learner to name: each run of a per-learner dataset would fail.
    if (findDataset(input.dataset)?.perLearner)
      throw new EngineError('validation', "One learner's data cannot be scheduled: export it from the learner's page", {
        issues: [{ path: 'dataset', message: 'Choose a dataset that is not one learner’s' }],
      });
    const at = new Date(this.clock()).toISOString();
    const existing = input.id ? this.row(input.id) : undefined;
    // No folder given: a changed schedule keeps its own, a new one takes the export folder (where the app's page
    // cannot choose one: browser mode).
    const folder = input.folder ?? existing?.folder ?? this.exports.defaultFolder();
    const options: Options = { bom: input.bom, delimiter: input.delimiter, columns: input.columns ?? null };
    const values: ScheduleValues = {
      profile_id: profileId,
      name: input.name,
      dataset: input.dataset,
      cadence: input.cadence,
      weekday: input.cadence === 'weekly' ? (input.weekday ?? 1) : null,
      time: input.time,
      time_zone: input.timeZone ?? localTimeZone(),
      range_days: input.rangeDays,
      // As the file system names it: no trailing slash, no `..` (an export's path is shown from it).
      folder: resolve(folder),
      mentor: input.mentor ?? null,
      options: JSON.stringify(options),
      enabled: input.enabled ? 1 : 0,
      at,
    };
    let id = input.id;
    if (id) this.store.update(id, values);
    else this.store.insert((id = randomUUID()), values);
    this.services.emit('analytics.schedulesChanged', { id });
    return this.present(this.row(id));
  }

  remove(id: string): void {
    this.row(id);
    this.store.delete(id);
    this.services.emit('analytics.schedulesChanged', { id });
  }

  /** Runs one schedule for the given slot (now for "Run now"). A run that cannot start is kept as a failed export. */
  async run(id: string, slot = this.clock()): Promise<ExportInfo> {
    const s = this.row(id);
    const options = JSON.parse(s.options) as Options;
    const range = runRange(slot, s.time_zone, s.range_days);
    const title = `${s.name} · ${range.from === range.to ? range.from : `${range.from} → ${range.to}`}`;
    try {
      return await this.exports.start(
        {
          profileId: s.profile_id,
          dataset: s.dataset,
          range: { preset: 'custom', ...range },
          timeZone: s.time_zone,
          ...(s.mentor ? { mentor: s.mentor } : {}),
          bom: options.bom,
          delimiter: options.delimiter as ',',
          ...(options.columns ? { columns: options.columns } : {}),
          folder: s.folder,
        },
        { scheduleId: s.id, title },
      );
    } catch (error) {
      const jobId = this.services.journal.create({
        kind: 'export',
        profileId: s.profile_id,
        title,
        params: { dataset: s.dataset, scheduleId: s.id, path: s.folder, timeZone: s.time_zone },
        items: [],
        state: 'failed',
      });
      this.services.journal.setState(jobId, 'failed', { error: (error as Error).message });
      this.services.emit('jobs.changed', { id: jobId, state: 'failed', kind: 'export', profileId: s.profile_id });
      return this.exports.get(jobId);
    }
  }

  /** Runs every schedule whose latest slot has not run yet (and came after it was created). */
  tick(): Promise<void> {
    if (this.ticking) return this.ticking;
    this.ticking = (async () => {
      const now = this.clock();
      for (const s of this.store.enabled()) {
        const slot = latestSlot(s, now);
        if (slot < Date.parse(s.created_at)) continue;
        if (s.last_slot && slot <= Date.parse(s.last_slot)) continue;
        // Recorded first: a crash during the run must not run the same slot twice.
        this.store.markRun(s.id, new Date(slot).toISOString());
        await this.run(s.id, slot).catch((error: unknown) =>
          this.services.log(`scheduled export ${s.name} could not run: ${String(error)}`),
        );
        this.services.emit('analytics.schedulesChanged', { id: s.id });
      }
    })().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  /** Checks now (catching up on missed runs) and then every `everyMs`. */
  startTimer(everyMs: number): void {
    void this.tick().catch(() => {});
    this.timer = setInterval(() => void this.tick().catch(() => {}), everyMs);
    this.timer.unref?.();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking?.catch(() => {});
  }
}
