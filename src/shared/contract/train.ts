/** Training mentors from folders: scan → preview (nothing sent) → confirm → a durable upload-and-train job. */
import { z } from 'zod';
import { Job } from './jobs';
import { call } from './kit';

export const FILE_CLASSES = [
  'new',
  'changed',
  'unchanged',
  'unsupported',
  'too_large',
  'skipped',
  'unreadable',
] as const;
export const FileClass = z.enum(FILE_CLASSES);
export type FileClass = z.infer<typeof FileClass>;

/** Why a file is skipped, in groups the preview can name: each its own words. */
export const SKIP_KINDS = ['hidden', 'system', 'empty', 'excluded', 'duplicate', 'folder'] as const;
export const SkipKind = z.enum(SKIP_KINDS);
export type SkipKind = z.infer<typeof SkipKind>;

export const DocumentAccess = z.enum(['public', 'private']);

export const SUPPORTED_EXTENSIONS = ['txt', 'md', 'html', 'htm', 'csv', 'json', 'pdf', 'docx'] as const;

export const PreviewInput = z
  .object({
    profileId: z.string().min(1).optional(),
    /** The mentor's unique id or name. */
    mentor: z.string().min(1),
    /** Files and folders: real paths from the CLI; from the app's page, handles its shell gave it (kit.ts). */
    paths: z.array(z.string().min(1).max(4096)).min(1, 'Choose at least one file or folder').max(10_000),
    include: z.array(z.string().min(1).max(500)).max(50).default([]),
    /**
     * Send files of other types too (the spec names no list; these eight are the ones known to train). Off: they are
     * classed unsupported and not sent; on: they are sent with a warning, and one the tenant cannot read fails alone.
     */
    otherTypes: z.boolean().optional(),
    exclude: z.array(z.string().min(1).max(500)).max(50).default([]),
    /**
     * Files above this size are classed too_large and not sent. None by default: the spec names no upload size, so
     * files above the 25 MB tenants often accept are sent with a warning (a 413 fails that file alone).
     */
    maxFileBytes: z
      .number()
      .int()
      .min(1)
      .max(1024 ** 4)
      .optional(),
  })
  .strict();
export type PreviewInput = z.input<typeof PreviewInput>;

export const PreviewFile = z.object({
  path: z.string(),
  /** Relative to the dropped folder; the document's name on the platform. */
  relativePath: z.string(),
  type: z.string(),
  size: z.number(),
  class: FileClass,
  /** Why a file is skipped, unsupported, too large, unreadable, or unchanged. */
  reason: z.string().nullable(),
  sha256: z.string().nullable(),
  /** Something to check before training, e.g. a changed file much shorter than the document it replaces. */
  warning: z.string().nullable(),
});
export type PreviewFile = z.infer<typeof PreviewFile>;

export const TypeSummary = z.object({ type: z.string(), files: z.number().int(), bytes: z.number() });

export const Preview = z.object({
  id: z.string(),
  mentor: z.object({ uniqueId: z.string(), name: z.string() }),
  profileId: z.string(),
  createdAt: z.string(),
  /** Files per class. */
  classes: z.record(FileClass, z.number().int()),
  /** The skipped files by why they are skipped (most first). */
  skipped: z.array(z.object({ kind: SkipKind, files: z.number().int() })),
  byType: z.array(TypeSummary),
  /** What would be sent: new + changed. */
  toSend: z.object({ files: z.number().int(), bytes: z.number() }),
  estimateSeconds: z.number().nullable(),
  /** The first files (all when few); page through with train.previewFiles. */
  files: z.array(PreviewFile),
  totalFiles: z.number().int(),
  warnings: z.array(z.string()),
});
export type Preview = z.infer<typeof Preview>;

export const trainCalls = {
  'train.preview': call(
    PreviewInput,
    Preview,
    'Scan files and folders and say what training would send; sends nothing',
    { localPaths: { paths: 'read' } },
  ),
  'train.previewFiles': call(
    z
      .object({
        previewId: z.string().min(1),
        classes: z.array(FileClass).optional(),
        offset: z.number().int().min(0).default(0),
        limit: z.number().int().min(1).max(5000).default(500),
      })
      .strict(),
    z.object({ files: z.array(PreviewFile), total: z.number().int() }),
    'Page through the files of a preview',
  ),
  'train.start': call(
    z
      .object({
        previewId: z.string().min(1),
        concurrency: z.number().int().min(1).max(32).optional(),
        /**
         * The access every uploaded document gets. Without it a changed file keeps the access of the document it
         * replaces, and a new one gets the platform's default (private).
         */
        access: DocumentAccess.optional(),
        /**
         * Only journal the job (queued), without running it in this process: `train --no-wait` hands it to a process
         * of its own. A queued job is also run by the app at its next start.
         */
        queue: z.boolean().optional(),
      })
      .strict(),
    z.object({ jobId: z.string() }),
    'Start the training job for a confirmed preview',
  ),
  'train.jobs': call(
    z.object({ profileId: z.string().min(1).optional(), mentor: z.string().min(1) }).strict(),
    z.object({ jobs: z.array(Job) }),
    "A mentor's training jobs (by its unique id) that are under way or ended within the hour, newest first",
  ),
} as const;
