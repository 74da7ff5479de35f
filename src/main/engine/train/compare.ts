/**
 * New, changed or unchanged: a hashed file against what the mentor already holds — its documents on the platform
 * (matched by relative path; content hash from the platform or from this app's custom metadata) and this app's own
 * upload ledger (for platforms that return neither, and for uploads still under way in another job).
 */
import { formatBytes } from '../../../shared/bytes';
import type { RemoteDocument } from '../mentors';
import type { UploadRow } from './ledger-store';

export interface Comparison {
  class: 'new' | 'changed' | 'unchanged';
  reason: string | null;
  /** Documents the file replaces once it is trained. */
  supersedes: string[];
  /** The access the upload keeps: the replaced document's (null: the platform's default). */
  access: 'public' | 'private' | null;
  /** Something to check first: the new content is much shorter than the document it replaces. */
  warning: string | null;
}

/** The file as the preview read it. */
export interface FileFacts {
  size: number;
  type: string;
}

const LIVE_JOB_STATES = new Set(['queued', 'running', 'waiting', 'paused']);
const short = (id: string) => id.slice(0, 8);
/** A replacement under this share of the old document's content is worth a look before it is trained. */
const SHRINK_WARNING_RATIO = 1 / 3;
/** …unless the old document was tiny anyway. */
const SHRINK_MIN_BYTES = 2048;
const SHRINK_MIN_TOKENS = 400;
/** Types whose bytes are their text, so a size says how many tokens they hold (about 4 bytes a token). */
const PLAIN_TEXT_TYPES = new Set(['txt', 'md', 'csv', 'json', 'html', 'htm']);
const BYTES_PER_TOKEN = 4;

/** `"course/a.md" (document 5)`: the document by name and id. */
export const documentLabel = (doc: RemoteDocument) => `"${doc.name}" (document ${doc.id})`;

function listOf(docs: RemoteDocument[]): string {
  const labels = docs.map(documentLabel);
  return labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}` : labels[0]!;
}

/**
 * A changed file much shorter than the document it replaces: the wrong version, or an export that lost its text?
 * Compared by bytes where the platform gives the old file's size, else by tokens for plain-text types; else silent.
 */
function shrinkWarning(replaced: RemoteDocument, file: FileFacts): string | null {
  if (replaced.size !== null && replaced.size >= SHRINK_MIN_BYTES) {
    if (file.size >= replaced.size * SHRINK_WARNING_RATIO) return null;
    return `Much shorter than ${documentLabel(replaced)}: ${formatBytes(replaced.size)} → ${formatBytes(file.size)}`;
  }
  if (replaced.tokens !== null && replaced.tokens >= SHRINK_MIN_TOKENS && PLAIN_TEXT_TYPES.has(file.type)) {
    const tokens = Math.ceil(file.size / BYTES_PER_TOKEN);
    if (tokens >= replaced.tokens * SHRINK_WARNING_RATIO) return null;
    return `Much shorter than ${documentLabel(replaced)}: ${replaced.tokens} tokens → about ${tokens}`;
  }
  return null;
}

export class MentorHoldings {
  private readonly byPath = new Map<string, RemoteDocument[]>();
  private readonly hashOfDocument = new Map<string, string>();
  private readonly uploadsByPath = new Map<string, (UploadRow & { job_state: string | null })[]>();

  constructor(documents: RemoteDocument[], uploads: (UploadRow & { job_state: string | null })[]) {
    const byId = new Map(documents.map((doc) => [doc.id, doc]));
    for (const upload of uploads) {
      if (upload.document_id) this.hashOfDocument.set(upload.document_id, upload.sha256);
      const list = this.uploadsByPath.get(upload.relative_path) ?? [];
      list.push(upload);
      this.uploadsByPath.set(upload.relative_path, list);
    }
    for (const doc of documents) {
      this.add(doc.relativePath ?? doc.name, doc);
    }
    // A document this app uploaded under a path the platform renamed (e.g. to its base name) is still that path.
    for (const upload of uploads) {
      const doc = upload.document_id ? byId.get(upload.document_id) : undefined;
      if (doc && (doc.relativePath ?? doc.name) !== upload.relative_path) this.add(upload.relative_path, doc);
    }
  }

  private add(path: string, doc: RemoteDocument) {
    const list = this.byPath.get(path) ?? [];
    if (!list.includes(doc)) list.push(doc);
    this.byPath.set(path, list);
  }

  hashOf(doc: RemoteDocument): string | null {
    return doc.contentHash ?? this.hashOfDocument.get(doc.id) ?? null;
  }

  compare(relativePath: string, sha256: string, file: FileFacts): Comparison {
    const documents = this.byPath.get(relativePath) ?? [];
    const same = documents.filter((doc) => this.hashOf(doc) === sha256);
    const kept = same.find((doc) => doc.status === 'trained') ?? same.find((doc) => doc.status === 'pending');
    if (kept) {
      const reason =
        kept.status === 'trained'
          ? `Already trained as document ${kept.id}`
          : `Already uploaded as document ${kept.id}; it is being trained`;
      return { class: 'unchanged', reason, supersedes: [], access: null, warning: null };
    }
    const untrained = same.find((doc) => doc.status === 'untrained');
    if (untrained) {
      return {
        class: 'unchanged',
        reason: `Same content as document ${untrained.id}, which is untrained: train it from the mentor's documents`,
        supersedes: [],
        access: null,
        warning: null,
      };
    }
    const inFlight = (this.uploadsByPath.get(relativePath) ?? []).find(
      (upload) =>
        upload.sha256 === sha256 &&
        upload.status === 'uploading' &&
        upload.job_state !== null &&
        LIVE_JOB_STATES.has(upload.job_state),
    );
    if (inFlight) {
      return {
        class: 'unchanged',
        reason: `Being uploaded by job ${short(inFlight.job_id)}`,
        supersedes: [],
        access: null,
        warning: null,
      };
    }
    if (!documents.length) return { class: 'new', reason: null, supersedes: [], access: null, warning: null };
    const supersedes = documents.map((doc) => doc.id);
    // The document the mentor uses now is the one being replaced: its access and its size are the ones to keep.
    const current =
      documents.find((doc) => doc.status === 'trained') ??
      documents.find((doc) => doc.status === 'pending') ??
      documents[0]!;
    const access = current.access;
    const failed = same.find((doc) => doc.status === 'failed');
    const unknown = documents.filter((doc) => this.hashOf(doc) === null);
    let reason: string;
    if (failed) reason = `Training failed before (document ${failed.id}); sending it again`;
    else if (unknown.length === documents.length) {
      reason = `Replaces ${listOf(documents)}, whose content this app does not know`;
    } else reason = `Content changed: replaces ${listOf(documents)}`;
    if (access) reason += `; stays ${access}`;
    return { class: 'changed', reason, supersedes, access, warning: failed ? null : shrinkWarning(current, file) };
  }
}
