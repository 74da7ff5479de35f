import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { jobCalls } from '../../../shared/contract/jobs';
import { writeCsvAtomically } from '../csv';
import type { HandlersOf } from '../dispatch';
import { EngineError } from '../errors';
import type { ItemReport, JobRunner } from './runner';
import type { JobJournal } from './journal';
import { presentItem } from './present';

/** Where reports go when the admin does not choose: the Downloads folder, else the data folder's exports/. */
export function defaultExportDir(dataDir: string): string {
  const downloads = join(homedir(), 'Downloads');
  return existsSync(downloads) ? downloads : join(dataDir, 'exports');
}

const genericReport: ItemReport = {
  header: ['item', 'label', 'state', 'step', 'error', 'attempts', 'bytes'],
  row: (item) => [item.key, item.label, item.state, item.phase, item.error ?? '', item.attempts, item.bytes],
};

export function jobHandlers(deps: {
  runner: JobRunner;
  journal: JobJournal;
  dataDir: string;
}): HandlersOf<typeof jobCalls> {
  const { runner, journal } = deps;
  return {
    'jobs.list': (input) => {
      const { rows, total } = journal.list({ limit: 100, offset: 0, ...input });
      return { jobs: rows.map((row) => runner.present(row.id)), total };
    },
    'jobs.get': ({ id }) => runner.present(id),
    'jobs.items': ({ id, ...filter }) => {
      runner.present(id);
      const { rows, total } = journal.items(id, filter);
      return { items: rows.map(presentItem), total };
    },
    'jobs.pause': ({ id }) => runner.pause(id),
    'jobs.resume': ({ id, waitLimitMinutes }) =>
      runner.resumeSoon(id, waitLimitMinutes === undefined ? {} : { waitLimitMinutes }),
    'jobs.cancel': ({ id }) => runner.cancel(id),
    'jobs.wake': () => ({ woken: runner.wakeWaiting() }),
    'jobs.retry': ({ id, itemIds }) => runner.retry(id, itemIds),
    'jobs.exportReport': async ({ id, path }) => {
      const job = runner.present(id);
      const report = runner.reportOf(job.kind) ?? genericReport;
      const target =
        path ??
        join(
          defaultExportDir(deps.dataDir),
          `mentor-admin-${job.kind}-report-${id.slice(0, 8)}-${new Date().toISOString().slice(0, 10)}.csv`,
        );
      async function* batches() {
        for (let offset = 0; ; offset += 1000) {
          const { rows } = journal.items(id, { limit: 1000, offset });
          if (!rows.length) return;
          yield rows.map((row) => report.row(row));
        }
      }
      try {
        const { mkdir } = await import('node:fs/promises');
        if (!path) await mkdir(join(target, '..'), { recursive: true });
        return await writeCsvAtomically(target, report.header, batches());
      } catch (error) {
        throw new EngineError('validation', `Could not write the report to ${target}: ${(error as Error).message}`);
      }
    },
  };
}
