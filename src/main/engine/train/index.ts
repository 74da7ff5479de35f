/** Training mentors from files and folders: preview (nothing sent) → confirm → the durable `train` job. */
import type { trainCalls } from '../../../shared/contract/train';
import type { EngineArea, EngineServices } from '../context';
import type { HandlersOf } from '../dispatch';
import { notFound } from '../errors';
import type { ItemReport, JobJournal, NewItem } from '../jobs';
import type { Db } from '../store';
import { parseItemData, type TrainItemData, type TrainParams } from './item';
import { trainJobKind } from './job';
import { UploadLedger } from './ledger-store';
import { buildPreview } from './preview';
import { PreviewStore, toPreviewFile, type PreviewRow } from './preview-store';

export { trainSummary, type TrainSummary } from './summary';

/** train.jobs: ended jobs stay on the mentor's page this long, so the admin sees how the last one went. */
const RECENT_JOBS_MS = 60 * 60 * 1000;
/** …among the newest training jobs of every tenant and mentor. */
const MENTOR_JOBS_LOOKED_AT = 200;

/** The item report of a training job, one row per file (CSV export). */
export const trainReport: ItemReport = {
  header: [
    'file',
    'path',
    'class',
    'state',
    'step',
    'reason',
    'document_id',
    'replaced',
    'sha256',
    'bytes',
    'attempts',
  ],
  row: (item) => {
    const data = parseItemData(item);
    return [
      item.label,
      data.path ?? '',
      data.class ?? '',
      item.state,
      item.phase,
      item.error ?? '',
      data.documentId ?? '',
      (data.replaced ?? []).join(' '),
      data.sha256 ?? '',
      item.bytes,
      item.attempts,
    ];
  },
};

function journalItem(row: PreviewRow, keys: Set<string>): NewItem {
  // Relative paths are unique except for a name a second dropped folder repeats (skipped): keep keys unique.
  let key = row.relativePath;
  for (let n = 2; keys.has(key); n++) key = `${row.relativePath} (${n})`;
  keys.add(key);
  const data: TrainItemData = {
    path: row.path,
    relativePath: row.relativePath,
    type: row.type,
    size: row.size,
    class: row.class,
    sha256: row.sha256,
    supersedes: row.supersedes,
    mtimeMs: row.mtimeMs,
    access: row.access,
  };
  const sendable = row.class === 'new' || row.class === 'changed';
  return {
    key,
    label: row.relativePath,
    state: sendable ? 'pending' : 'skipped',
    phase: row.class,
    bytes: row.size,
    error: sendable ? null : row.reason,
    data: data as unknown as Record<string, unknown>,
  };
}

/** What training uses of the engine. */
export type TrainServices = Pick<EngineServices, 'tenant' | 'platform' | 'profiles' | 'log' | 'journal' | 'runner'>;

export interface TrainStores {
  previews: PreviewStore;
  ledger: UploadLedger;
}

/** Training's tables, opened by the engine on its database (the ledger commits with the journal). */
export function trainStores(db: Db, journal: JobJournal): TrainStores {
  return { previews: new PreviewStore(db), ledger: new UploadLedger(db, journal) };
}

export function trainArea(
  services: TrainServices,
  { previews, ledger }: TrainStores,
  mentors: { documentsChanged(profileId: string, mentor: string): void },
): EngineArea<HandlersOf<typeof trainCalls>> {
  const { journal, runner } = services;
  runner.register({
    ...trainJobKind({
      profiles: services.profiles,
      ledger,
      log: services.log,
      // The mentor's cached document list is old: the next read goes to the tenant, and open screens read again.
      documentsChanged: (profileId, mentor) => mentors.documentsChanged(profileId, mentor),
    }),
    report: trainReport,
  });

  return {
    handlers: {
      'train.preview': (input) => buildPreview({ services, previews, ledger }, input),

      'train.previewFiles': ({ previewId, classes, offset, limit }) => {
        if (!previews.get(previewId)) throw notFound('That preview has expired or does not exist: scan again');
        const { rows, total } = previews.files(previewId, { ...(classes && { classes }), offset, limit });
        return { files: rows.map(toPreviewFile), total };
      },

      'train.jobs': ({ profileId, mentor }) => {
        const tenant = services.tenant(profileId);
        const since = new Date(Date.now() - RECENT_JOBS_MS).toISOString();
        const rows = journal.find({ kind: 'train', limit: MENTOR_JOBS_LOOKED_AT });
        const jobs = rows
          .filter(
            (row) =>
              row.profile_id === tenant &&
              (row.finished_at === null || row.finished_at >= since) &&
              (JSON.parse(row.params) as TrainParams).mentor.uniqueId === mentor,
          )
          .map((row) => runner.present(row.id));
        return { jobs };
      },

      'train.start': ({ previewId, concurrency, queue, access }) => {
        const preview = previews.get(previewId);
        if (!preview) throw notFound('That preview has expired or does not exist: scan again');
        if (preview.jobId) return { jobId: preview.jobId };
        const { summary } = preview;
        const params: TrainParams = {
          previewId,
          mentor: preview.mentor,
          maxFileBytes: preview.maxFileBytes,
          ...(concurrency && { concurrency }),
          ...(access && { access }),
        };
        const keys = new Set<string>();
        // Journal first: the job and one item per file, in one transaction, before anything is sent.
        const journalled = () => {
          const id = journal.create({
            kind: 'train',
            profileId: preview.profileId,
            title: `Train ${preview.mentor.name}: ${summary.toSend.files} of ${summary.totalFiles} files`,
            params,
            items: (function* () {
              for (const row of previews.allFiles(previewId)) yield journalItem(row, keys);
            })(),
          });
          const owner = previews.attachJob(previewId, id);
          if (owner !== id) throw new JobAlreadyStarted(owner);
          journal.addCounts(id, {
            uploaded: 0,
            skipped: summary.totalFiles - summary.toSend.files,
            trained: 0,
            failed: 0,
          });
          return id;
        };
        let id: string;
        try {
          id = journal.transaction(journalled, { immediate: true });
        } catch (error) {
          if (error instanceof JobAlreadyStarted) return { jobId: error.jobId };
          throw error;
        }
        if (!queue) runner.start(id);
        return { jobId: id };
      },
    },
  };
}

/** Another call started the same preview first (a double click): its job is the answer. */
class JobAlreadyStarted extends Error {
  constructor(readonly jobId: string) {
    super('The preview was started already');
  }
}
