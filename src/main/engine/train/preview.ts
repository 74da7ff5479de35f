/**
 * train.preview: scan → classify by name → open each candidate once (size, SHA-256) → compare with what the mentor
 * holds. Rows stream into SQLite as they are found; nothing is sent to the platform except reads.
 */
import { randomUUID } from 'node:crypto';
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { FILE_CLASSES, type FileClass, type Preview, type PreviewInput, type SkipKind } from '../../../shared/contract';
import type { EngineServices } from '../context';
import { EngineError } from '../errors';
import { DocumentApi, resolveMentor, toRemoteDocument } from '../mentors';
import { userScope } from '../tenants';
import {
  NO_SIZE_LIMIT,
  otherTypeWarning,
  TYPICAL_UPLOAD_LIMIT_BYTES,
  classifyByName,
  classifyBySize,
  EMPTY_FILE,
  fileType,
  globFilter,
  type Verdict,
} from './classify';
import { formatBytes } from '../../../shared/bytes';
import { MentorHoldings } from './compare';
import { HASH_BUFFER_BYTES, inspectFile, NotRegularFileError } from './hash';
import type { UploadLedger } from './ledger-store';
import { TaskPool } from './pool';
import { toPreviewFile, type PreviewRow, type PreviewStore } from './preview-store';
import { scanRoots, unreadableReason, type ScanEntry, type ScanRoot } from './scan';

/** Files opened and hashed at once. */
export const HASH_CONCURRENCY = 4;
/** Files returned with the preview itself; the rest are paged with train.previewFiles. */
export const FIRST_PAGE = 500;
/** Assumed when this tenant has no finished upload to learn from. */
const ASSUMED_BYTES_PER_SECOND = 2 * 1024 * 1024;
const ASSUMED_SECONDS_PER_FILE = 0.2;

export type PreviewRequest = Omit<PreviewInput, 'include' | 'exclude'> & { include: string[]; exclude: string[] };

export interface PreviewDeps {
  services: Pick<EngineServices, 'tenant' | 'platform' | 'profiles' | 'log' | 'journal'>;
  previews: PreviewStore;
  ledger: UploadLedger;
}

/** The dropped paths, resolved and checked: a path that does not exist is a validation error naming it. */
export async function resolveRoots(paths: string[]): Promise<ScanRoot[]> {
  const unique = [...new Set(paths.map((path) => resolve(path)))];
  const found = await Promise.all(
    unique.map(async (path, index): Promise<ScanRoot | { path: string; index: number; error: string }> => {
      try {
        return { path, stats: await stat(path) };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        return {
          path,
          index,
          error:
            code === 'ENOENT' || code === 'ENOTDIR'
              ? `No such file or folder: ${path}`
              : `${path}: ${unreadableReason(error)}`,
        };
      }
    }),
  );
  const missing = found.filter((entry): entry is { path: string; index: number; error: string } => 'error' in entry);
  if (missing.length) {
    throw new EngineError('validation', missing.map((entry) => entry.error).join('; '), {
      issues: missing.map((entry) => ({
        path: `paths.${paths.findIndex((p) => resolve(p) === entry.path)}`,
        message: entry.error,
      })),
    });
  }
  return found as ScanRoot[];
}

/** What `record` needs of a row; a changed file's access and warning come from its comparison. */
type RowFields = Omit<PreviewRow, 'seq' | 'path' | 'relativePath' | 'access' | 'warning'> &
  Partial<Pick<PreviewRow, 'access' | 'warning'>>;

class Tally {
  readonly classes = Object.fromEntries(FILE_CLASSES.map((name) => [name, 0])) as Record<FileClass, number>;
  readonly byType = new Map<string, { files: number; bytes: number }>();
  readonly skipped = new Map<SkipKind, number>();
  toSend = { files: 0, bytes: 0 };
  total = 0;
  /** Changed files much shorter than the documents they replace, and files above the typical upload limit. */
  shrinking = 0;
  big = 0;

  add(row: PreviewRow, skip: SkipKind | undefined) {
    this.total++;
    this.classes[row.class]++;
    if (row.class === 'skipped' && skip) this.skipped.set(skip, (this.skipped.get(skip) ?? 0) + 1);
    const type = row.type || '(none)';
    const entry = this.byType.get(type) ?? { files: 0, bytes: 0 };
    entry.files++;
    entry.bytes += row.size;
    this.byType.set(type, entry);
    if (row.class === 'new' || row.class === 'changed') {
      this.toSend.files++;
      this.toSend.bytes += row.size;
    }
  }
}

export async function buildPreview(deps: PreviewDeps, input: PreviewRequest, signal?: AbortSignal): Promise<Preview> {
  const { services, previews, ledger } = deps;
  const profileId = services.tenant(input.profileId);
  const roots = await resolveRoots(input.paths);
  const maxFileBytes = input.maxFileBytes ?? NO_SIZE_LIMIT;
  // Without a limit of the admin's, a file bigger than tenants usually take is sent, with a word of warning.
  const sizeWarning = (size: number) =>
    input.maxFileBytes === undefined && size > TYPICAL_UPLOAD_LIMIT_BYTES
      ? `${formatBytes(size)}: above the ${formatBytes(TYPICAL_UPLOAD_LIMIT_BYTES)} many tenants accept, so the tenant may refuse it (413 File too large)`
      : null;
  const filter = globFilter({ include: input.include, exclude: input.exclude });

  const client = await services.platform(profileId);
  const scope = await userScope(services.profiles, profileId);
  const mentor = await resolveMentor(client, scope, input.mentor, signal);
  // The mentor's documents load while the folders are scanned.
  const documents = new DocumentApi(client, scope, services.log)
    .list(mentor.uniqueId, signal ? { signal } : {})
    .then((listed) => listed.map(toRemoteDocument));
  documents.catch(() => {});
  let holdings: Promise<MentorHoldings> | null = null;
  const mentorHoldings = () =>
    (holdings ??= documents.then((docs) => {
      ledger.forgetMissing(profileId, mentor.uniqueId, new Set(docs.map((doc) => doc.id)));
      return new MentorHoldings(docs, ledger.forMentor(profileId, mentor.uniqueId));
    }));

  previews.sweep();
  const id = randomUUID();
  const createdAt = new Date().toISOString();
  const writer = previews.create({
    id,
    profileId,
    mentor: { uniqueId: mentor.uniqueId, name: mentor.name },
    maxFileBytes,
    createdAt,
  });
  const tally = new Tally();
  const filesPerRoot = new Map<number, number>();
  try {
    const pool = new TaskPool(HASH_CONCURRENCY);
    const buffers: Buffer[] = [];
    const relativePaths = roots.length > 1 ? new Set<string>() : null;
    let seq = 0;
    const record = (entry: ScanEntry, row: RowFields, skip?: SkipKind) => {
      const full: PreviewRow = {
        seq: seq++,
        path: entry.path,
        relativePath: entry.relativePath,
        access: null,
        warning: null,
        ...row,
      };
      tally.add(full, skip);
      writer.add(full);
    };

    const inspect = async (entry: ScanEntry, byName: Verdict | null) => {
      const type = fileType(entry.name);
      if (byName) {
        // Not sent: the size is only for the summary, so a plain stat is enough.
        const size = await stat(entry.path).then(
          (stats: Stats) => stats.size,
          () => 0,
        );
        record(
          entry,
          { type, size, class: byName.class, reason: byName.reason, sha256: null, supersedes: [], mtimeMs: null },
          byName.skip,
        );
        return;
      }
      const buffer = buffers.pop() ?? Buffer.allocUnsafe(HASH_BUFFER_BYTES);
      try {
        const facts = await inspectFile(entry.path, (size) => !classifyBySize(size, maxFileBytes), buffer, signal);
        const bySize = classifyBySize(facts.size, maxFileBytes);
        if (bySize || !facts.sha256) {
          const verdict = bySize ?? { class: 'skipped' as const, reason: EMPTY_FILE, skip: 'empty' as const };
          record(
            entry,
            {
              type,
              size: facts.size,
              class: verdict.class,
              reason: verdict.reason,
              sha256: null,
              supersedes: [],
              mtimeMs: facts.mtimeMs,
            },
            verdict.skip,
          );
          return;
        }
        const comparison = (await mentorHoldings()).compare(entry.relativePath, facts.sha256, {
          size: facts.size,
          type,
        });
        const big = comparison.class === 'unchanged' ? null : sizeWarning(facts.size);
        if (comparison.warning) tally.shrinking++;
        if (big) tally.big++;
        record(entry, {
          type,
          size: facts.size,
          class: comparison.class,
          reason: comparison.reason,
          sha256: facts.sha256,
          supersedes: comparison.supersedes,
          mtimeMs: facts.mtimeMs,
          access: comparison.access,
          warning:
            [comparison.warning, big, comparison.class === 'unchanged' ? null : otherTypeWarning(type)]
              .filter(Boolean)
              .join('; ') || null,
        });
      } catch (error) {
        if (signal?.aborted) throw error;
        const reason = error instanceof NotRegularFileError ? 'Not a regular file' : unreadableReason(error, 'file');
        record(entry, { type, size: 0, class: 'unreadable', reason, sha256: null, supersedes: [], mtimeMs: null });
      } finally {
        buffers.push(buffer);
      }
    };

    await scanRoots(
      roots,
      async (batch, rootIndex) => {
        for (const entry of batch) {
          if (!entry.folder) filesPerRoot.set(rootIndex, (filesPerRoot.get(rootIndex) ?? 0) + 1);
          if (relativePaths) {
            if (relativePaths.has(entry.relativePath)) {
              record(
                entry,
                {
                  type: entry.folder ? 'folder' : fileType(entry.name),
                  size: 0,
                  class: 'skipped',
                  reason: 'Another dropped file or folder has the same name and path',
                  sha256: null,
                  supersedes: [],
                  mtimeMs: null,
                },
                'duplicate',
              );
              continue;
            }
            relativePaths.add(entry.relativePath);
          }
          if (entry.kind !== 'file') {
            record(
              entry,
              {
                type: entry.folder ? 'folder' : fileType(entry.name),
                size: 0,
                class: entry.kind,
                reason: entry.reason,
                sha256: null,
                supersedes: [],
                mtimeMs: null,
              },
              // Skipped by the scan: a folder not walked (version control, dependencies, hidden, a loop).
              entry.kind === 'skipped' ? 'folder' : undefined,
            );
            continue;
          }
          const byName = classifyByName(entry.relativePath, entry.name, filter, input.otherTypes ?? false);
          await pool.add(() => inspect(entry, byName));
        }
      },
      { ...(signal && { signal }) },
    );
    await pool.drain();
    writer.flush();
    // Surface a failure to list the mentor's documents even when no file needed comparing.
    await documents;
  } catch (error) {
    previews.remove(id);
    throw error;
  }

  const warnings: string[] = [];
  roots.forEach((root, index) => {
    if (root.stats.isDirectory() && !filesPerRoot.get(index)) warnings.push(`The folder "${root.path}" has no files`);
  });
  if (tally.total > 0 && tally.toSend.files === 0) {
    warnings.push('Nothing to send: every file is unchanged, skipped, unsupported, too large or unreadable');
  }
  if (tally.classes.too_large) {
    warnings.push(`${tally.classes.too_large} file(s) are larger than the ${formatBytes(maxFileBytes)} limit`);
  }
  if (tally.classes.unreadable) warnings.push(`${tally.classes.unreadable} file(s) or folder(s) could not be read`);
  if (tally.shrinking) {
    warnings.push(
      `${tally.shrinking} changed file(s) are much shorter than the document they replace: check them in the file list before training`,
    );
  }
  if (tally.big) {
    warnings.push(
      `${tally.big} file(s) are larger than ${formatBytes(TYPICAL_UPLOAD_LIMIT_BYTES)}: the tenant may refuse them; the others are trained either way`,
    );
  }

  const summary: Omit<Preview, 'files'> = {
    id,
    mentor: { uniqueId: mentor.uniqueId, name: mentor.name },
    profileId,
    createdAt,
    classes: tally.classes,
    skipped: [...tally.skipped.entries()]
      .map(([kind, files]) => ({ kind, files }))
      .sort((a, b) => b.files - a.files || a.kind.localeCompare(b.kind)),
    byType: [...tally.byType.entries()]
      .map(([type, entry]) => ({ type, ...entry }))
      .sort((a, b) => b.files - a.files || a.type.localeCompare(b.type)),
    toSend: tally.toSend,
    estimateSeconds: estimateSeconds(services.journal, profileId, tally.toSend),
    totalFiles: tally.total,
    warnings,
  };
  previews.finish(id, summary);
  const { rows } = previews.files(id, { offset: 0, limit: FIRST_PAGE });
  return { ...summary, files: rows.map(toPreviewFile) };
}

/**
 * Seconds to upload `toSend`: its bytes at the throughput of this tenant's last finished training job (or an
 * assumed 2 MB/s), plus a little per file. Training time on the platform is not included.
 */
function estimateSeconds(
  journal: EngineServices['journal'],
  profileId: string,
  toSend: { files: number; bytes: number },
): number | null {
  if (toSend.files === 0) return 0;
  const rows = journal.lastFinished('train', profileId, 5);
  let bytes = 0;
  let ms = 0;
  for (const row of rows) {
    const counts = JSON.parse(row.counts) as Record<string, number>;
    if ((counts.uploadMs ?? 0) > 0 && (counts.uploadBytes ?? 0) > 0) {
      bytes += counts.uploadBytes!;
      ms += counts.uploadMs!;
    }
  }
  const bytesPerSecond = ms > 1000 ? (bytes / ms) * 1000 : ASSUMED_BYTES_PER_SECOND;
  const perFile = ms > 1000 ? 0 : ASSUMED_SECONDS_PER_FILE / 4;
  return Math.max(1, Math.round(toSend.bytes / bytesPerSecond + toSend.files * perFile));
}
