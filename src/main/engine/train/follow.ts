/**
 * Following training after upload: documents being trained are polled every 2 s (10 s while files are still being
 * sent, as listing competes with the uploads), backing off to 30 s while nothing changes. A few documents are
 * polled task by task, many through the mentor's document list. A trained document's superseded ones are deleted
 * before the item is marked done; the journal writes of one poll are committed together.
 */
import { setImmediate as yieldToEventLoop, setTimeout as sleep } from 'node:timers/promises';
import { toRemoteDocument, type DocumentApi, type RemoteDocument } from '../mentors';
import type { TrainItemData } from './item';
import type { JobJournal } from '../jobs';
import type { UploadKey, UploadLedger } from './ledger-store';

const POLL_FIRST_MS = 2_000;
/** While files are still being sent, training is looked at less often: listing documents competes with uploads. */
const POLL_WHILE_UPLOADING_MS = 10_000;
const POLL_MAX_MS = 30_000;
/** Up to this many documents in training are polled one task at a time; more, through the mentor's list. */
const POLL_TASKS_UP_TO = 20;
const MARKS_PER_TRANSACTION = 200;

export interface FollowerDeps {
  documents: DocumentApi;
  profileId: string;
  mentorId: string;
  signal: AbortSignal;
  journal: JobJournal;
  ledger: UploadLedger;
  key(data: TrainItemData): UploadKey;
  count(delta: Record<string, number>): void;
  progress(): void;
  phase(phase: string): void;
  /** Documents were trained, failed or replaced on the tenant. */
  documentsChanged(): void;
}

export class TrainingFollower {
  private readonly training = new Map<number, TrainItemData>();
  private uploadsDone = false;
  private stopped = false;
  private poke: (() => void) | null = null;
  private uploadsFinished!: () => void;
  private readonly uploadsOver = new Promise<void>((resolve) => (this.uploadsFinished = resolve));

  constructor(private readonly deps: FollowerDeps) {}

  /** An uploaded document to follow. */
  track(itemId: number, data: TrainItemData): void {
    this.training.set(itemId, data);
    this.poke?.();
  }

  /** No more documents will come: follow the rest until trained, then end. */
  noMoreUploads(): void {
    this.uploadsDone = true;
    this.poke?.();
    this.uploadsFinished();
  }

  /** The job stops (an error elsewhere): end at once. */
  stop(): void {
    this.stopped = true;
    this.poke?.();
  }

  /** Polls every 2 s while documents train (10 s while files are still being sent), backing off to 30 s. */
  async follow(): Promise<void> {
    let delay = POLL_FIRST_MS;
    for (;;) {
      if (this.stopped) return;
      if (!this.training.size) {
        if (this.uploadsDone) return;
        await new Promise<void>((resolve) => (this.poke = resolve));
        this.poke = null;
        continue;
      }
      await this.nap(this.uploadsDone ? delay : Math.max(delay, POLL_WHILE_UPLOADING_MS));
      if (this.uploadsDone) this.deps.phase('Waiting for training');
      const changed = await this.pollOnce();
      if (changed) this.deps.documentsChanged();
      delay = changed ? POLL_FIRST_MS : Math.min(POLL_MAX_MS, Math.round(delay * 1.5));
    }
  }

  /** Sleeps, but wakes as soon as the last upload is done (training is then followed every 2 s). */
  private async nap(ms: number): Promise<void> {
    const cut = new AbortController();
    const timer = sleep(ms, undefined, { signal: AbortSignal.any([this.deps.signal, cut.signal]) });
    try {
      await (this.uploadsDone ? timer : Promise.race([timer, this.uploadsOver]));
    } finally {
      cut.abort();
      timer.catch(() => {});
    }
    this.deps.signal.throwIfAborted();
  }

  /** While a poll settles items, their journal writes are gathered and committed together. */
  private marks: (() => void)[] | null = null;

  private mark(work: () => void): void {
    if (this.marks) this.marks.push(work);
    else this.deps.journal.transaction(work);
  }

  private async pollOnce(): Promise<boolean> {
    const marks: (() => void)[] = [];
    this.marks = marks;
    try {
      return await this.pollTraining();
    } finally {
      this.marks = null;
      // A few hundred writes per transaction, yielding between them, so a big batch never stalls the event loop.
      for (let from = 0; from < marks.length; from += MARKS_PER_TRANSACTION) {
        if (from) await yieldToEventLoop();
        this.deps.journal.transaction(() => marks.slice(from, from + MARKS_PER_TRANSACTION).forEach((work) => work()));
      }
    }
  }

  private async pollTraining(): Promise<boolean> {
    const tracked = [...this.training.entries()];
    let changed = false;
    if (tracked.length <= POLL_TASKS_UP_TO) {
      for (const [itemId, data] of tracked) {
        const outcome = data.taskId ? await this.deps.documents.task(data.taskId, { signal: this.deps.signal }) : null;
        if (outcome?.status === 'trained') changed = (await this.trained(itemId, data)) || changed;
        else if (outcome?.status === 'failed') changed = this.trainingFailed(itemId, data, outcome.message) || changed;
        else if (!outcome) changed = (await this.settleFromDocument(itemId, data, undefined)) || changed;
      }
      return changed;
    }
    // The platform lists newest first: the documents being trained are usually all on the first pages.
    const wanted = new Set(tracked.map(([, data]) => data.documentId!));
    let seen = 0;
    const documents = await this.deps.documents.list(this.deps.mentorId, {
      signal: this.deps.signal,
      stopWhen: (listed) => {
        for (; seen < listed.length; seen++) wanted.delete(String(listed[seen]!.id));
        return wanted.size === 0;
      },
    });
    const byId = new Map(documents.map((api) => [String(api.id), toRemoteDocument(api)]));
    for (const [itemId, data] of tracked) {
      changed = (await this.settleFromDocument(itemId, data, byId.get(data.documentId!) ?? null)) || changed;
    }
    return changed;
  }

  /** Settles an item from its document's status (fetched here when `known` is undefined or missing from a list). */
  private async settleFromDocument(
    itemId: number,
    data: TrainItemData,
    known: RemoteDocument | null | undefined,
  ): Promise<boolean> {
    const doc = known ?? (await this.find(data.documentId!));
    if (!doc)
      return this.trainingFailed(itemId, data, 'The document was deleted on the platform before it was trained');
    if (doc.status === 'trained') return this.trained(itemId, data);
    if (doc.status === 'failed') {
      let reason = doc.failureReason;
      if (!reason && data.taskId) {
        const task = await this.deps.documents.task(data.taskId, { signal: this.deps.signal });
        if (task?.status === 'failed') reason = task.message;
      }
      return this.trainingFailed(itemId, data, reason ?? 'The platform gave no reason');
    }
    if (doc.status === 'untrained')
      return this.trainingFailed(itemId, data, 'The document was untrained on the platform');
    return false;
  }

  private async find(id: string): Promise<RemoteDocument | null> {
    const api = await this.deps.documents.find(id, { signal: this.deps.signal });
    return api && toRemoteDocument(api);
  }

  /** Trained: the documents it replaces are deleted, then the item is done. */
  private async trained(itemId: number, data: TrainItemData): Promise<boolean> {
    const replaced: string[] = [];
    for (const old of data.supersedes) {
      if (old === data.documentId) continue;
      await this.deps.documents.delete(old, { signal: this.deps.signal, ifPresent: true });
      this.deps.ledger.forgetDocument(this.deps.profileId, this.deps.mentorId, old);
      replaced.push(old);
    }
    const trainedAt = new Date().toISOString();
    this.mark(() => {
      this.deps.journal.updateItem(itemId, { state: 'done', phase: 'trained', data: { trainedAt, replaced } });
      this.deps.ledger.settle(this.deps.key(data), 'trained');
      this.deps.count({ trained: 1 });
    });
    this.training.delete(itemId);
    this.deps.progress();
    return true;
  }

  private trainingFailed(itemId: number, data: TrainItemData, reason: string): boolean {
    this.mark(() => {
      this.deps.journal.updateItem(itemId, { state: 'failed', phase: 'failed', error: `Training failed: ${reason}` });
      this.deps.ledger.settle(this.deps.key(data), 'failed');
      this.deps.count({ failed: 1 });
    });
    this.training.delete(itemId);
    this.deps.progress();
    return true;
  }
}
