/** Reads a whole file into an import's rows: the work a parse worker does (or the engine itself, as a fallback). */
import { threadId } from 'node:worker_threads';
import type { Db } from '../store';
import type { ImportSettings } from './import-store';
import { readNotices, readRows, type BadOwners, type ReadStats } from './parse';
import { ImportRows } from './import-rows-store';

export interface ReadImportInput {
  importId: string;
  path: string;
  settings: ImportSettings;
}

export interface ReadImportResult {
  stats: ReadStats;
  notices: string[];
  badOwners: BadOwners;
  /** The thread that did the reading (tests check it is not the one serving the UI). */
  threadId: number;
}

export async function readImport(
  db: Db,
  input: ReadImportInput,
  onProgress: (rows: number, bytes: number) => void,
  signal?: AbortSignal,
): Promise<ReadImportResult> {
  const rows = new ImportRows(db);
  rows.clear(input.importId);
  let count = 0;
  const stats = await readRows(
    input.path,
    input.settings,
    (batch, bytes) => {
      rows.insertBatch(input.importId, batch);
      count += batch.length;
      onProgress(count, bytes);
    },
    signal ? { signal } : {},
  );
  // The admin's fixes and drops survive reading the file again (with other settings).
  const fixedOwners = rows.applyEdits(input.importId).includes('user_group_owner_email');
  rows.markDuplicates(input.importId);
  const badOwners = fixedOwners
    ? rows.badOwners(input.importId)
    : { count: stats.badOwnerCount, lines: stats.badOwners };
  return { stats, notices: readNotices(stats, input.settings.encoding), badOwners, threadId };
}
