/** Starting exports, showing them (progress with rows/s and ETA, history) and finding their files. */
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import {
  chooseColumns,
  describeRange,
  exportFileName,
  findDataset,
  type ExportInfo,
  type ExportRequest,
  type ResolvedRange,
} from '../../../shared/contract';
import type { z } from 'zod';
import type { ExportRequest as ExportRequestSchema } from '../../../shared/contract';
import { EngineError, notFound } from '../errors';
import { defaultExportDir, ProgressMeter, UNFINISHED_STATES, type JobRow } from '../jobs';
import { userScope } from '../tenants';
import { describeFileError, ExportParams, PAGE_PREFIX, type ExportProgressSink } from './export-job';
import { defaultPageSize } from './sources';
import type { AnalyticsDeps, AnalyticsServices } from './services';

type StartInput = z.output<typeof ExportRequestSchema>;

const FINISHED = ['completed', 'failed', 'cancelled'];
/** What history rows hold (a run that could not start has only some of it). */
const PartialParams = ExportParams.partial();

/** Checks a folder before a job is written: it must exist and really take a file (permissions alone can mislead). */
async function checkFolder(folder: string): Promise<void> {
  try {
    const info = await stat(folder);
    if (!info.isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
    const probe = join(folder, `.mentor-admin-write-test-${randomBytes(4).toString('hex')}`);
    const handle = await open(probe, 'wx');
    await handle.close();
    await rm(probe, { force: true });
  } catch (error) {
    const words = describeFileError(error as NodeJS.ErrnoException, folder);
    throw new EngineError('validation', words ?? `Cannot write to ${folder}: ${(error as Error).message}`);
  }
}

export class Exports implements ExportProgressSink {
  private readonly meters = new Map<string, ProgressMeter>();
  private readonly lastEmit = new Map<string, number>();

  constructor(
    private readonly deps: AnalyticsDeps,
    private readonly services: AnalyticsServices,
  ) {}

  /** Writes the export job (nothing is fetched yet beyond the range's start and the mentors' names) and starts it. */
  async start(input: StartInput, options: { scheduleId?: string | null; title?: string } = {}): Promise<ExportInfo> {
    const dataset = findDataset(input.dataset);
    if (!dataset) throw new EngineError('validation', `Unknown dataset '${input.dataset}'`);
    let columns;
    try {
      columns = chooseColumns(dataset, input.columns);
    } catch (error) {
      throw new EngineError('validation', (error as Error).message);
    }
    const resolved = await this.services.resolve({
      ...(input.profileId ? { profileId: input.profileId } : {}),
      range: input.range,
      ...(input.timeZone ? { timeZone: input.timeZone } : {}),
      ...(input.mentor ? { mentor: input.mentor } : {}),
    });
    if (input.mentor && !dataset.mentorFilter)
      throw new EngineError('validation', `${dataset.label} cannot be filtered by mentor (the platform cannot)`);
    if (input.department && !dataset.departmentFilter)
      throw new EngineError('validation', `${dataset.label} cannot be filtered by department (the platform cannot)`);
    if (dataset.perLearner && !input.learner)
      throw new EngineError('validation', `${dataset.label} is one learner's: say whose (learner)`);
    if (input.learner && !dataset.perLearner)
      throw new EngineError('validation', `${dataset.label} is not one learner's: it takes no learner`);
    const scope = await userScope(this.deps.profiles, resolved.profileId);
    const mentorNames = Object.fromEntries(await this.services.mentorNames(resolved.profileId));
    const mentorName = resolved.mentorId ? (mentorNames[resolved.mentorId] ?? resolved.mentorId) : undefined;
    const path = await this.target(input, {
      tenant: scope.org,
      dataset: dataset.id,
      mentor: mentorName,
      department: input.department,
      learner: input.learner,
      range: dataset.ranged ? resolved.range : null,
      timeZone: resolved.timeZone,
    });
    const params: ExportParams = {
      dataset: dataset.id,
      profileId: resolved.profileId,
      scope: { org: scope.org, username: scope.username },
      range: resolved.range,
      timeZone: resolved.timeZone,
      ...(resolved.mentorId ? { mentorId: resolved.mentorId } : {}),
      ...(input.department ? { department: input.department } : {}),
      ...(input.learner ? { learner: input.learner } : {}),
      bom: input.bom,
      delimiter: input.delimiter,
      columns: columns.map((c) => c.key),
      path,
      temp: join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.partial`),
      pageSize: input.pageSize ?? defaultPageSize(dataset.id),
      mentorNames,
      scheduleId: options.scheduleId ?? null,
    };
    if (input.resume) {
      const unfinished = this.unfinishedLike(params);
      if (unfinished) {
        this.deps.runner.start(unfinished.id);
        return this.get(unfinished.id);
      }
    }
    const title =
      options.title ??
      `${dataset.label}${mentorName ? ` · ${mentorName}` : ''}${input.department ? ` · department ${input.department}` : ''}` +
        `${input.learner ? ` · ${input.learner}` : ''}` +
        `${dataset.ranged ? ` · ${describeRange(resolved.range)}` : ''} · ${resolved.timeZone}`;
    const id = this.deps.journal.create({
      kind: 'export',
      profileId: resolved.profileId,
      title,
      params,
      items: [],
    });
    this.deps.runner.start(id);
    return this.get(id);
  }

  /** An unfinished export writing the same data to the same file (a crashed or killed run of the same command). */
  private unfinishedLike(params: ExportParams): JobRow | undefined {
    const identity = (p: ExportParams) =>
      JSON.stringify([
        p.dataset,
        p.profileId,
        p.range.from,
        p.range.to,
        p.timeZone,
        p.mentorId,
        p.department,
        p.learner,
        p.bom,
        p.delimiter,
        p.columns,
        p.pageSize,
      ]);
    const same = (p: ExportParams) => identity(p) === identity(params);
    const rows = this.deps.journal.find({
      kind: 'export',
      states: UNFINISHED_STATES,
      params: { path: params.path },
    });
    return rows.find((row) => {
      const parsed = ExportParams.safeParse(JSON.parse(row.params));
      return parsed.success && same(parsed.data);
    });
  }

  /** The file an export writes: the path given, or a free name in the folder given (Downloads by default). */
  private async target(
    input: Pick<StartInput, 'path' | 'folder'>,
    name: {
      tenant: string;
      dataset: string;
      mentor: string | undefined;
      department: number | undefined;
      learner: string | undefined;
      range: ResolvedRange | null;
      timeZone: string;
    },
  ): Promise<string> {
    if (input.path && !(existsSync(input.path) && statSync(input.path).isDirectory())) {
      const path = resolve(input.path);
      await checkFolder(dirname(path));
      return path;
    }
    let folder = resolve(input.path ?? input.folder ?? this.defaultFolder());
    // The export folder is made when missing (a schedule saved without a folder names it); any other must exist.
    if (folder === this.defaultFolder()) await mkdir(folder, { recursive: true }).catch(() => {});
    await checkFolder(folder);
    folder = resolve(folder);
    const file = exportFileName({
      tenant: name.tenant,
      dataset: name.dataset,
      ...(name.mentor ? { mentor: name.mentor } : {}),
      ...(name.department ? { department: name.department } : {}),
      ...(name.learner ? { learner: name.learner } : {}),
      timeZone: name.timeZone,
      ...(name.range ? { from: name.range.from, to: name.range.to } : {}),
    });
    return this.freeName(folder, file);
  }

  /** MENTOR_ADMIN_EXPORT_DIR when set, else the Downloads folder (else the data folder's exports/): a plain path. */
  defaultFolder(): string {
    return resolve(this.deps.config.exportDir ?? defaultExportDir(this.deps.config.dataDir));
  }

  /** `name.csv`, else `name (2).csv`, …: never over an existing file or one an unfinished export will write. */
  private freeName(folder: string, file: string): string {
    const taken = new Set(
      this.deps.journal
        .find({ kind: 'export', states: UNFINISHED_STATES })
        .map((row) => (JSON.parse(row.params) as { path?: string }).path)
        .filter(Boolean),
    );
    const ext = extname(file);
    const stem = file.slice(0, file.length - ext.length);
    for (let n = 1; ; n++) {
      const candidate = join(folder, n === 1 ? file : `${stem} (${n})${ext}`);
      if (!existsSync(candidate) && !taken.has(candidate)) return candidate;
    }
  }

  get(id: string): ExportInfo {
    const row = this.deps.journal.job(id);
    if (!row || row.kind !== 'export') throw notFound(`No export with id '${id}'`);
    return this.present(row);
  }

  /** Newest first; one tenant's when `profileId` is given (the app's Exports tab), else every tenant's. */
  list(limit: number, scheduleId?: string, profileId?: string): ExportInfo[] {
    const rows = this.deps.journal.find({
      kind: 'export',
      ...(scheduleId && { params: { scheduleId } }),
      ...(profileId && { profileId }),
      limit,
    });
    return rows.map((row) => this.present(row));
  }

  /** Where the file is. Opening its folder is the desktop shell's part (the engine has no windows): `shown` is false. */
  reveal(id: string): { path: string; folder: string; exists: boolean; shown: boolean } {
    const info = this.get(id);
    return {
      path: info.path,
      folder: dirname(info.path),
      exists: info.state === 'completed' && existsSync(info.path),
      shown: false,
    };
  }

  present(row: JobRow): ExportInfo {
    const parsed = PartialParams.safeParse(JSON.parse(row.params));
    const params = parsed.success ? parsed.data : {};
    const totals = this.deps.journal.keyedTotals(row.id, PAGE_PREFIX, { sum: 'rows', max: 'length' });
    const stats = { pages: totals.items, done: totals.done, rows: totals.sum, length: totals.max };
    const running = !FINISHED.includes(row.state);
    const measured = running
      ? this.meter(row.id).measure(
          {
            total: stats.pages,
            done: stats.done,
            failed: 0,
            skipped: 0,
            active: 0,
            bytesTotal: stats.rows,
            bytesDone: stats.rows,
          },
          row.phase,
        )
      : null;
    // The first page tells how many there are; before it, only one page is known.
    const pagesTotal = stats.done > 0 || !running ? stats.pages : null;
    return {
      id: row.id,
      dataset: params.dataset ?? '',
      title: row.title,
      state: row.state,
      reason: row.reason,
      error: row.error,
      rows: stats.rows,
      pagesDone: stats.done,
      pagesTotal,
      rowsPerSecond: Math.round(measured?.bytesPerSecond ?? 0),
      etaSeconds: running ? (pagesTotal === null ? null : (measured?.etaSeconds ?? null)) : 0,
      path: params.path ?? '',
      bytes: row.state === 'completed' ? (stats.length ?? 0) : null,
      timeZone: params.timeZone ?? '',
      from: params.range?.from ?? null,
      to: params.range?.to ?? null,
      scheduleId: params.scheduleId ?? null,
      createdAt: row.created_at,
      finishedAt: row.finished_at,
    };
  }

  private meter(id: string): ProgressMeter {
    let meter = this.meters.get(id);
    if (!meter) this.meters.set(id, (meter = new ProgressMeter(10_000)));
    return meter;
  }

  /** After each page: progress for the screens (at most four times a second, and the last page). */
  page(jobId: string, last = false): void {
    const now = Date.now();
    if (!last && now - (this.lastEmit.get(jobId) ?? 0) < 250) return;
    this.lastEmit.set(jobId, now);
    const row = this.deps.journal.job(jobId);
    if (row) this.deps.emit('analytics.exportProgress', this.present(row));
  }

  /** A job ended: forget its meter; a cancelled or failed one leaves no temporary file behind. */
  async ended(jobId: string): Promise<void> {
    this.meters.delete(jobId);
    this.lastEmit.delete(jobId);
    const row = this.deps.journal.job(jobId);
    if (!row || !['failed', 'cancelled'].includes(row.state)) return;
    const temp = (JSON.parse(row.params) as { temp?: string }).temp;
    if (temp) await rm(temp, { force: true }).catch(() => {});
  }

  /** Temporary files of exports that ended without finishing (cancelled while the app was closed, a crash). */
  async sweep(): Promise<void> {
    const rows = this.deps.journal.find({
      kind: 'export',
      states: ['failed', 'cancelled'],
      order: 'updated',
      limit: 200,
    });
    for (const row of rows) await this.ended(row.id);
  }
}

export type { ExportRequest };
