/**
 * The `train` job: every file of a confirmed preview is one journal item. Sendable items are re-hashed right before
 * sending, claimed in the upload ledger, marked 'uploading' in the journal, then posted; the document id is stored
 * with the journal's next commit after the platform answers. An item found 'uploading' without an answer (a crash,
 * kill -9, a dropped connection) is first looked for on the platform (custom metadata: content hash + relative path +
 * job id) and adopted when found, so no document is ever created twice. Training is then followed until every document is
 * trained or failed; a changed file's old document is deleted once the new one is trained.
 */
import { setMaxListeners } from 'node:events';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Job } from '../../../shared/contract';
import { ApiError, RequestAbortedError, retriesStatus, retryDelay, wasNotTaken } from '../platform';
import {
  JobFailed,
  JobNeedsAttention,
  isThrottle,
  type ItemRow,
  type JobContext,
  type JobKindRunner,
  type Slot,
} from '../jobs';
import type { Log } from '../log';
import { DocumentApi, toRemoteDocument, uploadRetryPolicy, type RemoteDocument, type Upload } from '../mentors';
import type { Profiles } from '../profiles';
import { userScope } from '../tenants';
import { classifyBySize } from './classify';
import { FileChangedError, HASH_BUFFER_BYTES, loadForUpload, type FileFacts, type Payload } from './hash';
import type { UploadKey, UploadLedger } from './ledger-store';
import { TrainingFollower } from './follow';
import { parseItemData, type TrainItemData, type TrainParams } from './item';
import { unreadableReason } from './scan';
import { reconcileCounts } from './summary';

export interface TrainDeps {
  profiles: Profiles;
  ledger: UploadLedger;
  log: Log;
  /** Documents of the mentor were added, trained or removed on the tenant. */
  documentsChanged(profileId: string, mentorId: string): void;
}

/** An upload interrupted this recently may still be landing on the platform: wait this long before looking. */
const LANDING_GRACE_MS = 3_000;
/** Counts shown to the admin are written at most this often (the items themselves are written at once). */
const COUNTS_EVERY_MS = 500;
const FILE_CHANGE_ROUNDS = 3;
/** New uploads are announced at most this often; documents that end training are announced at once. */
const UPLOADS_ANNOUNCED_EVERY_MS = 2_000;

export function trainJobKind(deps: TrainDeps): JobKindRunner {
  return {
    kind: 'train',
    bulkWrites: true,
    run: (ctx) => new TrainRun(deps, ctx).run(),
    finished(job: Job) {
      const counts = Object.entries(job.counts)
        .filter(([key]) => ['uploaded', 'skipped', 'trained', 'failed'].includes(key))
        .map(([key, value]) => `${key}=${value}`)
        .join(' ');
      deps.log(`train job ${job.id} ${job.state}${job.error ? ` (${job.error})` : ''}: ${counts}`);
    },
  };
}

type Prepared = Payload | 'settled' | 'changing';

class TrainRun {
  private readonly params: TrainParams;
  private readonly stop = new AbortController();
  private readonly signal: AbortSignal;
  private fatal: { error: unknown } | null = null;
  private follower!: TrainingFollower;
  private documents!: DocumentApi;
  private readonly buffers: Buffer[] = [];

  constructor(
    private readonly deps: TrainDeps,
    private readonly ctx: JobContext,
  ) {
    this.params = ctx.params as TrainParams;
    this.signal = AbortSignal.any([ctx.signal, this.stop.signal]);
    // Every upload, wait and poll listens to it at once.
    setMaxListeners(0, this.signal);
  }

  private get journal() {
    return this.ctx.journal;
  }

  private pendingCounts: Record<string, number> = {};
  private countsTimer: NodeJS.Timeout | null = null;

  /** Counts are batched; the journal items are the truth and the counts are reconciled with them at the end. */
  private count(delta: Record<string, number>): void {
    for (const [key, value] of Object.entries(delta)) this.pendingCounts[key] = (this.pendingCounts[key] ?? 0) + value;
    if (!this.countsTimer) {
      this.countsTimer = setTimeout(() => this.flushCounts(), COUNTS_EVERY_MS);
      this.countsTimer.unref();
    }
  }

  private flushCounts(): void {
    if (this.countsTimer) clearTimeout(this.countsTimer);
    this.countsTimer = null;
    const delta = this.pendingCounts;
    this.pendingCounts = {};
    this.journal.addCounts(this.jobId, delta);
  }

  private uploadsTimer: NodeJS.Timeout | null = null;

  /** Files were uploaded (pending documents appeared): said every few seconds while uploads go on. */
  private documentsUploaded(): void {
    if (this.uploadsTimer) return;
    this.uploadsTimer = setTimeout(() => this.documentsChanged(), UPLOADS_ANNOUNCED_EVERY_MS);
    this.uploadsTimer.unref();
  }

  /** Said at once: documents ended training (trained, failed, replaced), and the mentor's screens show it. */
  private documentsChanged(): void {
    if (this.uploadsTimer) clearTimeout(this.uploadsTimer);
    this.uploadsTimer = null;
    this.deps.documentsChanged(this.ctx.job.profile_id!, this.params.mentor.uniqueId);
  }

  /** At the end of a run, what is still to be said. */
  private flushDocumentsChanged(): void {
    if (this.uploadsTimer) this.documentsChanged();
  }

  private currentPhase = '';
  /** The phase shown to the admin; written only when it changes (progress itself is throttled by the runner). */
  private phase(phase: string): void {
    if (phase === this.currentPhase) return this.ctx.progress();
    this.currentPhase = phase;
    this.ctx.progress(phase);
  }

  private get jobId() {
    return this.ctx.job.id;
  }

  /** One process at a time runs it: the runner claimed the job in the journal before calling this. */
  async run(): Promise<void> {
    try {
      const client = await this.ctx.client();
      const scope = await userScope(this.deps.profiles, this.ctx.job.profile_id!);
      this.documents = new DocumentApi(client, scope, this.deps.log);
      this.follower = new TrainingFollower({
        documents: this.documents,
        profileId: this.ctx.job.profile_id!,
        mentorId: this.params.mentor.uniqueId,
        signal: this.signal,
        journal: this.journal,
        ledger: this.deps.ledger,
        key: (data) => this.key(data),
        count: (delta) => this.count(delta),
        progress: () => this.ctx.progress(),
        phase: (phase) => this.phase(phase),
        documentsChanged: () => this.documentsChanged(),
      });
      const uploads: ItemRow[] = [];
      for (const item of this.journal.itemsIn(this.jobId, ['pending'])) {
        const data = parseItemData(item);
        if (item.phase === 'failed') this.prepareRetry(item, data);
        if (data.documentId) this.follower.track(item.id, data);
        else uploads.push(this.journal.item(item.id)!);
      }
      this.phase(uploads.length ? 'Uploading' : 'Waiting for training');
      const uploading = this.uploadAll(uploads).finally(() => this.follower.noMoreUploads());
      const following = this.follower.follow().catch((error: unknown) => this.fail(error));
      await Promise.all([uploading, following]);
      if (this.fatal) throw this.fatal.error;
    } finally {
      this.flushCounts();
      this.flushDocumentsChanged();
      reconcileCounts(this.journal, this.jobId);
      this.ctx.progress();
    }
  }

  /** The first error that stops the job; every other piece of work is stopped with it. */
  private fail(error: unknown): void {
    if (this.fatal) return;
    this.fatal = { error };
    this.stop.abort(error);
    this.follower?.stop();
  }

  /** A failed item the admin retries: its failed document (if any) is replaced by a new upload. */
  private prepareRetry(item: ItemRow, data: TrainItemData): void {
    const supersedes = data.documentId ? [...new Set([...data.supersedes, data.documentId])] : data.supersedes;
    this.journal.updateItem(item.id, {
      phase: data.class,
      data: { supersedes, documentId: null, taskId: null, uploadedAt: null, sentAt: null },
    });
    delete data.documentId;
    data.supersedes = supersedes;
  }

  // ---- uploading ------------------------------------------------------------------------------------------------

  private async uploadAll(items: ItemRow[]): Promise<void> {
    if (!items.length) return;
    const started = Date.now();
    let bytes = 0;
    let next = 0;
    // Twice as many workers as upload slots can grow to: while some re-hash a file, the others keep every slot busy.
    const workers = Math.max(2, this.ctx.limiter.ceiling * 2);
    await Promise.all(
      Array.from({ length: Math.min(workers, items.length) }, async () => {
        while (next < items.length && !this.fatal) {
          const item = items[next++]!;
          try {
            const sent = await this.uploadItem(item);
            bytes += sent;
          } catch (error) {
            this.fail(error);
          }
        }
      }),
    );
    // How fast this tenant takes files, for the next preview's estimate (complete upload phases only).
    this.flushCounts();
    if (bytes > 0 && !this.fatal)
      this.journal.addCounts(this.jobId, { uploadBytes: bytes, uploadMs: Date.now() - started });
  }

  private key(data: TrainItemData): UploadKey {
    return {
      profileId: this.ctx.job.profile_id!,
      mentorId: this.params.mentor.uniqueId,
      relativePath: data.relativePath,
      sha256: data.sha256!,
    };
  }

  /** Sends one file (or finds it already sent); answers the bytes sent. */
  private async uploadItem(item: ItemRow): Promise<number> {
    const data = parseItemData(item);
    if (item.phase === 'uploading' && data.sha256) {
      // Sent before, never acknowledged: it may be on the platform already.
      const found = await this.lookAfterInterruption(data);
      if (found) {
        this.accept(item.id, data, found.id, found.taskId, true);
        return 0;
      }
    }
    for (let round = 0; ; round++) {
      const prepared = await this.prepare(item.id, data, round);
      if (prepared === 'settled') return 0;
      if (prepared === 'changing') continue;
      const outcome = await this.ctx.limiter.run(
        (slot) => this.claimAndSend(item.id, data, prepared, slot),
        this.signal,
      );
      if (outcome === 'file-changed') {
        if (round + 1 < FILE_CHANGE_ROUNDS) continue;
        this.failItem(item.id, 'The file kept changing while it was being sent');
        this.deps.ledger.release(this.key(data), this.jobId);
        return 0;
      }
      return outcome === 'sent' ? prepared.facts.size : 0;
    }
  }

  /**
   * Holding an upload slot: claims the content in the ledger and marks the item 'uploading' (one transaction, just
   * before the request, which also commits the answers acknowledged since the last one), then sends it.
   */
  private async claimAndSend(
    itemId: number,
    data: TrainItemData,
    prepared: Payload,
    slot: Slot,
  ): Promise<'sent' | 'settled' | 'file-changed'> {
    const claim = this.journal.transaction(
      () =>
        this.deps.ledger.claim(this.key(data), this.jobId, itemId, () =>
          this.journal.updateItem(itemId, {
            state: 'active',
            phase: 'uploading',
            attempt: true,
            data: {
              sentAt: new Date().toISOString(),
              sha256: data.sha256,
              size: data.size,
              mtimeMs: data.mtimeMs ?? null,
              ...(data.previewSha256 && { previewSha256: data.previewSha256 }),
            },
          }),
        ),
      { immediate: true },
    );
    if (!claim.mine) {
      this.skip(itemId, claim.reason, claim.documentId ? { documentId: claim.documentId } : {});
      return 'settled';
    }
    if (claim.takenOver) {
      // An earlier claim of this content never got an answer: it may have landed.
      const found = await this.lookup(data);
      if (found) {
        this.accept(itemId, data, found.id, found.taskId, true);
        return 'settled';
      }
    }
    this.phase('Uploading');
    return this.send(itemId, data, prepared, slot);
  }

  /** Re-hashes the file right before sending, holding exactly the bytes hashed for every attempt. */
  private async prepare(itemId: number, data: TrainItemData, round: number): Promise<Prepared> {
    const buffer = this.buffers.pop() ?? Buffer.allocUnsafe(HASH_BUFFER_BYTES);
    let loaded: Payload;
    try {
      loaded = await loadForUpload(data.path, data.size, buffer, this.signal);
    } catch (error) {
      if (this.signal.aborted) throw error;
      if (error instanceof FileChangedError)
        return round + 1 < FILE_CHANGE_ROUNDS ? 'changing' : this.settleChanging(itemId);
      const code = (error as NodeJS.ErrnoException).code;
      this.failItem(itemId, code === 'ENOENT' ? 'File vanished since the preview' : unreadableReason(error));
      return 'settled';
    } finally {
      this.buffers.push(buffer);
    }
    const { facts } = loaded;
    const bySize = classifyBySize(facts.size, this.params.maxFileBytes);
    if (bySize?.class === 'too_large') {
      this.failItem(itemId, `${bySize.reason}: it grew since the preview`);
      return 'settled';
    }
    if (bySize) {
      this.skip(itemId, `${bySize.reason}: it was emptied since the preview`);
      return 'settled';
    }
    if (facts.sha256 !== data.sha256) {
      this.deps.log(`train ${this.jobId}: ${data.relativePath} changed since the preview; sending its new content`);
      data.previewSha256 ??= data.sha256 ?? undefined;
      data.sha256 = facts.sha256;
    }
    data.size = facts.size;
    data.mtimeMs = facts.mtimeMs;
    return loaded;
  }

  private settleChanging(itemId: number): 'settled' {
    this.failItem(itemId, 'The file kept changing while it was being read');
    return 'settled';
  }

  private async send(
    itemId: number,
    data: TrainItemData,
    prepared: Payload,
    slot: Slot,
  ): Promise<'sent' | 'settled' | 'file-changed'> {
    // The admin's choice for the job, else the access of the document this file replaces, else the platform's default.
    const access = this.params.access ?? data.access;
    const upload: Upload = {
      fields: {
        pathway: this.params.mentor.uniqueId,
        // The spec's `type` is required ("Type of document e.g file"): the extension, or `file` when there is none.
        type: data.type || 'file',
        ...(access && { access }),
        custom_metadata: JSON.stringify({
          content_hash: data.sha256,
          job_id: this.jobId,
          relative_path: data.relativePath,
        }),
      },
      // In memory: one ready-made body. Large: streamed from disk.
      file: prepared.blob
        ? { name: data.relativePath, blob: prepared.blob }
        : { name: data.relativePath, content: prepared.content },
    };
    // A slow link must not time out a big file: a minute, plus a second per 100 KB.
    const timeoutMs = 60_000 + Math.ceil(prepared.facts.size / 100_000) * 1000;
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await this.documents.train(upload, { timeoutMs, signal: this.signal });
        if (answer.document_id === undefined || answer.document_id === null || answer.document_id === '') {
          this.failItem(
            itemId,
            `The platform did not accept the file: ${answer.error || answer.message || 'no document id'}`,
          );
          this.deps.ledger.release(this.key(data), this.jobId);
          return 'settled';
        }
        this.accept(itemId, data, String(answer.document_id), answer.task_id ?? null, false);
        return 'sent';
      } catch (error) {
        if (this.signal.aborted || error instanceof RequestAbortedError) throw error;
        if (error instanceof ApiError) {
          const refused = this.refused(error);
          if (refused) {
            this.failItem(itemId, refused);
            this.deps.ledger.release(this.key(data), this.jobId);
            return 'settled';
          }
        } else if (prepared.blob && (await this.fileChanged(data, prepared.facts))) return 'file-changed';
        // The tenant said it has too much: the job sends fewer at once while it recovers.
        if (isThrottle(error)) this.ctx.limiter.throttled();
        // Sent again as the upload's retry policy says (which answers, lost answers, attempts, Retry-After).
        const delay = retryDelay(uploadRetryPolicy, error, attempt);
        if (delay === null) throw error;
        // The slot is given back meanwhile: the retry queues again, within what the tenant takes now.
        await slot.outside(() => sleep(delay, undefined, { signal: this.signal }));
        // A 408 or 429 was refused before it was read; anything else may have landed: look before sending again.
        if (!wasNotTaken(error)) {
          const found = await this.lookup(data);
          if (found) {
            this.accept(itemId, data, found.id, found.taskId, true);
            return 'sent';
          }
        }
      }
    }
  }

  /**
   * What an error answer means for one file: a message when the file is refused (the job goes on, the file is not
   * sent again), nothing when it is worth retrying. Errors about the whole job are thrown: every file goes to the same
   * tenant, user and mentor, so a 401, 403 (not an admin of the tenant) or 404 (mentor or tenant gone) would be the
   * answer to each of them.
   */
  private refused(error: ApiError): string | null {
    if (error.status === 413) return 'File too large';
    if (error.status === 401) throw error;
    if (error.status === 403) {
      throw new JobNeedsAttention(
        `The tenant refused the upload (403 ${error.detail ?? 'Forbidden'}): the account must be an admin of the tenant`,
      );
    }
    if (error.status === 404) {
      const detail = error.detail ?? '';
      if (/mentor|pathway/i.test(detail) || !detail) {
        throw new JobFailed(
          `The mentor "${this.params.mentor.name}" was deleted on the tenant; files not sent yet were not trained`,
        );
      }
      throw new JobFailed(`The tenant answered 404 (${detail})`);
    }
    if (retriesStatus(uploadRetryPolicy, error.status)) return null;
    return error.detail ?? error.message;
  }

  /** Did a file sent from disk change under the request (its Blob then fails to read)? */
  private async fileChanged(data: TrainItemData, facts: FileFacts): Promise<boolean> {
    try {
      const now = await stat(data.path);
      return now.mtimeMs !== facts.mtimeMs || now.size !== facts.size;
    } catch {
      return true;
    }
  }

  /** After an interruption the request may still be landing: give it a moment, then look. */
  private async lookAfterInterruption(data: TrainItemData): Promise<RemoteDocument | null> {
    const sentAt = data.sentAt ? Date.parse(data.sentAt) : 0;
    const wait = sentAt + LANDING_GRACE_MS - Date.now();
    if (wait > 0) await sleep(Math.min(wait, LANDING_GRACE_MS), undefined, { signal: this.signal });
    return this.lookup(data);
  }

  /** This content at this path on the mentor, other than the documents it replaces (ours first). */
  private async lookup(data: TrainItemData): Promise<RemoteDocument | null> {
    const listed = await this.documents.list(this.params.mentor.uniqueId, {
      search: basename(data.relativePath),
      signal: this.signal,
    });
    const matches = listed
      .map(toRemoteDocument)
      .filter(
        (doc) =>
          doc.contentHash === data.sha256 &&
          (doc.relativePath ?? doc.name) === data.relativePath &&
          !data.supersedes.includes(doc.id),
      );
    return matches.find((doc) => doc.jobId === this.jobId) ?? matches[0] ?? null;
  }

  /**
   * The platform has the file. Written with the next commit rather than one of its own: should the process die first,
   * the item is still 'uploading' and a resumed run looks for the file on the tenant before sending it again.
   */
  private accept(itemId: number, data: TrainItemData, documentId: string, taskId: string | null, adopted: boolean) {
    const key = this.key(data);
    const change = { documentId, taskId, uploadedAt: new Date().toISOString(), adopted, sha256: data.sha256 };
    this.journal.later(() => {
      this.journal.updateItem(itemId, { state: 'active', phase: 'training', data: change });
      this.deps.ledger.acknowledge(key, documentId, taskId);
    });
    this.count({ uploaded: 1 });
    data.documentId = documentId;
    data.taskId = taskId;
    this.follower.track(itemId, data);
    this.documentsUploaded();
    this.ctx.progress();
  }

  private failItem(itemId: number, reason: string): void {
    this.journal.updateItem(itemId, { state: 'failed', phase: 'failed', error: reason });
    this.count({ failed: 1 });
    this.ctx.progress();
  }

  private skip(itemId: number, reason: string, data: Partial<TrainItemData> = {}): void {
    this.journal.updateItem(itemId, { state: 'skipped', phase: 'unchanged', error: reason, data });
    this.count({ skipped: 1 });
    this.ctx.progress();
  }
}
