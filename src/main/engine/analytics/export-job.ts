/**
 * The export job: pages through the API, streams each page as CSV lines to a temporary file beside the target and
 * renames it into place when complete. The journal records, per page, its rows and the file's length after it; a
 * resumed job (after a quit, kill -9, or the tenant failing mid-export) cuts the file back to the last recorded
 * length and goes on from the next page, so the file is byte for byte what an uninterrupted export writes.
 * Memory stays bounded: one page in hand and the next one in flight.
 */
import { existsSync, statSync } from 'node:fs';
import { z } from 'zod';
import { findDataset, RangeResolved, ZonedFormatter } from '../../../shared/contract';
import { csvHeader, csvLines, ResumableCsvFile } from '../csv';
import { EngineError } from '../errors';
import { JobFailed, type ItemRow, type JobContext, type JobJournal, type JobKindRunner } from '../jobs';
import { ApiError, classifyFailure } from '../platform';
import { AnalyticsApi, UnexpectedShapeError } from './api';
import { collectGarbage } from './memory';
import { pageReader, type Cell, type Page } from './sources';

export const ExportParams = z.object({
  dataset: z.string(),
  profileId: z.string(),
  scope: z.object({ org: z.string(), username: z.string() }),
  range: RangeResolved,
  timeZone: z.string(),
  mentorId: z.string().optional(),
  department: z.number().optional(),
  learner: z.string().optional(),
  bom: z.boolean(),
  delimiter: z.string(),
  /** Column keys, in the file's order. */
  columns: z.array(z.string()),
  path: z.string(),
  temp: z.string(),
  pageSize: z.number().int(),
  mentorNames: z.record(z.string(), z.string()),
  scheduleId: z.string().nullable().default(null),
});
export type ExportParams = z.infer<typeof ExportParams>;

/**
 * The journal's items are the pages (what resuming needs); their bytes add up to the file's length, the header with
 * the first page. Older journals also had an item for the file itself: it is kept up to date where it exists.
 */
export const FILE_ITEM = 'file';
/** How many pages ahead of the one being written are fetched (bounded memory: this many pages in flight). */
const READ_AHEAD = 2;
/** Bytes written between forced collections (see memory.ts). */
const COLLECT_EVERY_BYTES = 16 * 1024 * 1024;
export const PAGE_PREFIX = 'page:';
export const pageKey = (page: number) => `${PAGE_PREFIX}${String(page).padStart(6, '0')}`;
const pageOf = (item: ItemRow) => Number(item.key.slice(PAGE_PREFIX.length));

interface PageData {
  rows?: number;
  length?: number;
}

/** Page items in page order (keys are zero-padded, so they sort as numbers). */
export function pageItems(journal: JobJournal, jobId: string): ItemRow[] {
  return journal.itemsByKeyPrefix(jobId, PAGE_PREFIX);
}

/** An export's pages in the journal: they become items as soon as the first page says how many there are. */
class PageJournal {
  constructor(
    private readonly journal: JobJournal,
    private readonly jobId: string,
  ) {}

  ensure(from: number, to: number): void {
    const pages = (function* () {
      for (let page = from; page <= to; page++) yield { key: pageKey(page), label: `Page ${page}` };
    })();
    this.journal.addItems(this.jobId, pages);
  }

  started(page: number): void {
    this.journal.transaction(() => {
      this.ensure(page, page);
      this.journal.updateItemByKey(this.jobId, pageKey(page), { state: 'active', attempt: true });
    });
  }

  written(page: number, rows: number, length: number, bytes: number): void {
    this.journal.updateItemByKey(this.jobId, pageKey(page), {
      state: 'done',
      error: null,
      bytes,
      data: { rows, length },
    });
  }
}

const DISK_FULL = new Set(['ENOSPC', 'EFBIG', 'EDQUOT']);
const NO_ACCESS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the disk is read-only',
  ENOENT: 'the folder does not exist',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'a folder has that name',
};

/** A file-system failure in words an admin can act on. */
export function describeFileError(error: NodeJS.ErrnoException, path: string): string | null {
  if (error.code && DISK_FULL.has(error.code))
    return `The disk is full (or will not take a file this large): could not write ${path}. Nothing was left under that name.`;
  if (error.code && NO_ACCESS[error.code]) return `Cannot write ${path}: ${NO_ACCESS[error.code]}.`;
  return null;
}

export interface ExportProgressSink {
  /** After each page: rows and pages so far (the area turns them into rows/s and an ETA). */
  page(jobId: string, last?: boolean): void;
  /** The job stopped or ended: a cancelled or failed one must leave no temporary file. */
  ended(jobId: string): Promise<void>;
}

export function exportJobKind(deps: { sink: ExportProgressSink; now?: () => number }): JobKindRunner {
  return {
    kind: 'export',
    run: (jc) => runExport(jc, deps),
  };
}

async function runExport(jc: JobContext, deps: { sink: ExportProgressSink; now?: () => number }): Promise<void> {
  const parsed = ExportParams.safeParse(jc.params);
  if (!parsed.success) throw new JobFailed('This export was written by another version of the app; start it again');
  const params = parsed.data;
  const jobId = jc.job.id;
  const journal = jc.journal;
  const dataset = findDataset(params.dataset);
  if (!dataset) throw new JobFailed(`Unknown dataset '${params.dataset}'`);
  const fileItem = journal.itemByKey(jobId, FILE_ITEM);
  // Finished before (the rows are counted once the file is in place).
  if (fileItem?.state === 'done' || (JSON.parse(jc.job.counts) as { rows?: number }).rows !== undefined) return;

  // Where to continue: after the last page of the unbroken run of written pages.
  const pages = pageItems(journal, jobId);
  let lastPage = 0;
  let length = 0;
  for (const item of pages) {
    const data = JSON.parse(item.data) as PageData;
    if (item.state !== 'done' || data.length === undefined || pageOf(item) !== lastPage + 1) break;
    lastPage = pageOf(item);
    length = data.length;
  }
  const allWritten = pages.length > 0 && lastPage === pages.length;
  // Killed between the rename and the journal: the complete file is already in place.
  if (allWritten && !existsSync(params.temp) && existsSync(params.path) && statSync(params.path).size === length) {
    finishJournal(journal, jobId, fileItem, length);
    return;
  }

  let file: ResumableCsvFile | null;
  try {
    file = await ResumableCsvFile.open(params.temp, length);
    if (!file) {
      // The temporary file is gone or shorter than the journal says: start over.
      for (const item of pages) journal.updateItem(item.id, { state: 'pending', data: { rows: 0, length: null } });
      lastPage = 0;
      length = 0;
      file = await ResumableCsvFile.open(params.temp, 0);
    }
  } catch (error) {
    throw new JobFailed(describeFileError(error as NodeJS.ErrnoException, params.path) ?? (error as Error).message);
  }
  const csv = file!;

  const columnIndexes = params.columns.map((key) => dataset.columns.findIndex((c) => c.key === key));
  const timeIndexes = new Set(dataset.timeColumns.map((key) => params.columns.indexOf(key)).filter((i) => i >= 0));
  const zoned = new ZonedFormatter(params.timeZone);
  const options = { bom: params.bom, delimiter: params.delimiter };
  // All columns in the dataset's order (the usual case): rows are changed in place, no copy per row.
  const identity = columnIndexes.length === dataset.columns.length && columnIndexes.every((source, i) => source === i);
  const project = (rows: Cell[][]) => {
    if (identity) {
      if (timeIndexes.size)
        for (const row of rows)
          for (const i of timeIndexes) if (typeof row[i] === 'string') row[i] = zoned.formatIso(row[i] as string);
      return rows;
    }
    return rows.map((row) =>
      columnIndexes.map((source, i) => {
        const cell = row[source] ?? null;
        return timeIndexes.has(i) && typeof cell === 'string' ? zoned.formatIso(cell) : cell;
      }),
    );
  };

  const api = new AnalyticsApi(await jc.client(), params.scope);
  const read = pageReader(
    api,
    {
      profileId: params.profileId,
      dataset: params.dataset,
      range: params.range,
      timeZone: params.timeZone,
      mentorId: params.mentorId,
      department: params.department,
      learner: params.learner,
      pageSize: params.pageSize,
      mentorNames: params.mentorNames,
    },
    deps.now,
  );
  const fetchPage = (page: number) => jc.limiter.run(() => read(page, jc.signal), jc.signal);

  // Pages asked for ahead of the one being written: they travel while it is formatted and written.
  const ahead = new Map<number, Promise<Page>>();
  const want = (page: number) => {
    if (ahead.has(page)) return;
    const pending = fetchPage(page);
    pending.catch(() => {});
    ahead.set(page, pending);
  };
  try {
    if (length === 0) {
      const header = params.columns.map((key) => dataset.columns.find((c) => c.key === key)!.label);
      length = await csv.append(csvHeader(header, options));
    }
    let page = lastPage + 1;
    let known = pages.length;
    const finished = allWritten || (known > 0 && page > known);
    if (!finished) {
      const pageJournal = new PageJournal(journal, jobId);
      want(page);
      let shown = 0;
      let collectedAt = length;
      for (;;) {
        // The phase in words, a few times a second (each one is a write to the journal).
        if (Date.now() - shown > 250) {
          shown = Date.now();
          jc.progress(known ? `Page ${page} of ${known}` : `Page ${page}`);
        }
        pageJournal.started(page);
        want(page);
        const result: Page = await ahead.get(page)!;
        ahead.delete(page);
        const more = !result.last && (result.totalPages === null || page < result.totalPages);
        if (more) want(page + 1);
        if (more && result.totalPages !== null && page + READ_AHEAD <= result.totalPages) want(page + READ_AHEAD);
        if (result.totalPages !== null && result.totalPages > known) {
          pageJournal.ensure(page + 1, result.totalPages);
          known = result.totalPages;
        }
        // The first page's bytes count the header (and byte order mark): the pages add up to the file.
        const before = page === 1 ? 0 : length;
        length = await csv.append(csvLines(project(result.rows), options));
        pageJournal.written(page, result.rows.length, length, length - before);
        if (length - collectedAt > COLLECT_EVERY_BYTES) {
          collectedAt = length;
          collectGarbage();
        }
        deps.sink.page(jobId, !more);
        if (!more) break;
        page++;
      }
      // The data shrank while exporting: pages the first answer promised but that never came.
      for (const item of pageItems(journal, jobId))
        if (pageOf(item) > page) journal.updateItem(item.id, { state: 'skipped' });
    }
    jc.progress('Saving the file');
    await csv.commit(params.path);
  } catch (error) {
    await csv.close().catch(() => {});
    // Stopped: the runner records why (paused, cancelled, quitting) just after this returns; a cancel then
    // removes the temporary file.
    if (jc.signal.aborted) setTimeout(() => void deps.sink.ended(jobId).catch(() => {}), 0);
    throw await classify(error, csv, params, jc.signal);
  }
  finishJournal(journal, jobId, fileItem, length);
  deps.sink.page(jobId);
}

/** The file is in place: the job counts its rows (once, should a crash make this run twice). */
function finishJournal(journal: JobJournal, jobId: string, fileItem: ItemRow | undefined, length: number): void {
  const rows = pageItems(journal, jobId).reduce(
    (sum, item) => sum + ((JSON.parse(item.data) as PageData).rows ?? 0),
    0,
  );
  if (fileItem) journal.updateItem(fileItem.id, { state: 'done', bytes: 0, data: { rows, length } });
  const counts = JSON.parse(journal.job(jobId)?.counts ?? '{}') as Record<string, number>;
  if (counts.rows === undefined) journal.addCounts(jobId, { rows });
}

/**
 * What a failure means for the file: the tenant being unreachable keeps the temporary file for the resume; anything
 * that cannot get better by waiting (a full disk, a refused range, an unexpected answer) fails the job and removes it.
 */
async function classify(
  error: unknown,
  csv: ResumableCsvFile,
  params: ExportParams,
  signal: AbortSignal,
): Promise<unknown> {
  if (signal.aborted) return error;
  const fileProblem = describeFileError(error as NodeJS.ErrnoException, params.path);
  if (fileProblem) {
    await csv.discard();
    return new JobFailed(fileProblem);
  }
  if (error instanceof UnexpectedShapeError) {
    await csv.discard();
    return new JobFailed(error.message);
  }
  if (error instanceof EngineError) {
    await csv.discard();
    return new JobFailed(error.message);
  }
  // A refusal ends the export; a 401 pauses it for a key and a "not now" or no answer makes it wait (the runner).
  if (error instanceof ApiError && classifyFailure(error) === 'final' && error.status !== 401) {
    await csv.discard();
    return new JobFailed(error.detail ? `${error.message}: ${error.detail}` : error.message);
  }
  return error;
}
