/**
 * New, changed or unchanged: a hashed file against what the mentor already holds — its documents on the platform
 * (matched by relative path; content hash from the platform or from this app's custom metadata) and this app's own
 * upload ledger (for platforms that return neither, and for uploads still under way in another job).
 */
import type { RemoteDocument } from './remote';
import type { UploadRow } from './ledger';

export interface Comparison {
  class: 'new' | 'changed' | 'unchanged';
  reason: string | null;
  /** Documents the file replaces once it is trained. */
  supersedes: string[];
}

const LIVE_JOB_STATES = new Set(['queued', 'running', 'waiting', 'paused']);
const short = (id: string) => id.slice(0, 8);

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

  compare(relativePath: string, sha256: string): Comparison {
    const documents = this.byPath.get(relativePath) ?? [];
    const same = documents.filter((doc) => this.hashOf(doc) === sha256);
    const kept = same.find((doc) => doc.status === 'trained') ?? same.find((doc) => doc.status === 'pending');
    if (kept) {
      const reason =
        kept.status === 'trained'
          ? `Already trained as document ${kept.id}`
          : `Already uploaded as document ${kept.id}; it is being trained`;
      return { class: 'unchanged', reason, supersedes: [] };
    }
    const untrained = same.find((doc) => doc.status === 'untrained');
    if (untrained) {
      return {
        class: 'unchanged',
        reason: `Same content as document ${untrained.id}, which is untrained: train it from the mentor's documents`,
        supersedes: [],
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
      return { class: 'unchanged', reason: `Being uploaded by job ${short(inFlight.job_id)}`, supersedes: [] };
    }
    if (!documents.length) return { class: 'new', reason: null, supersedes: [] };
    const supersedes = documents.map((doc) => doc.id);
    const failed = same.find((doc) => doc.status === 'failed');
    const unknown = documents.filter((doc) => this.hashOf(doc) === null);
    let reason: string;
    if (failed) reason = `Training failed before (document ${failed.id}); sending it again`;
    else if (unknown.length === documents.length) {
      reason = `Replaces document ${supersedes.join(', ')} (its content is unknown to this app)`;
    } else reason = `Content changed: replaces document ${supersedes.join(', ')}`;
    return { class: 'changed', reason, supersedes };
  }
}
