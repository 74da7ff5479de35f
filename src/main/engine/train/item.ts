/** What a training job keeps in its journal: its params and, per file, the item's data. */
import type { FileClass } from '../../../shared/contract';
import type { ItemRow } from '../jobs';

export interface TrainParams {
  previewId: string;
  mentor: { uniqueId: string; name: string };
  concurrency?: number;
  maxFileBytes: number;
  /** The access the admin chose for every upload; otherwise each file's own (`TrainItemData.access`). */
  access?: 'public' | 'private';
}

/** What a journal item of a training job holds (its `data`). */
export interface TrainItemData {
  path: string;
  relativePath: string;
  type: string;
  size: number;
  class: FileClass;
  sha256: string | null;
  supersedes: string[];
  mtimeMs?: number | null;
  /** A changed file keeps the access of the document it replaces; absent: the platform's default. */
  access?: 'public' | 'private' | null;
  /** Set when the file changed between the preview and the upload: the hash the preview saw. */
  previewSha256?: string;
  sentAt?: string;
  documentId?: string;
  taskId?: string | null;
  uploadedAt?: string;
  /** The upload was found on the platform rather than acknowledged. */
  adopted?: boolean;
  trainedAt?: string;
  replaced?: string[];
}

export const parseItemData = (item: ItemRow) => JSON.parse(item.data) as TrainItemData;
