/**
 * The `mentor-copy` job: a mentor copied to a tenant (another one or its own) as journalled items — the mentor itself,
 * its settings (with categories and MCP servers by name), its call configuration, then, with documents, each trained
 * document of the source mentor.
 *
 * Resuming never writes anything twice. The mentor's item is marked `sending` (committed) before the mentor is
 * created: a run that finds it so looks the mentor up by name on the target first. Settings are a PUT (the same again
 * is harmless) and the call configuration is looked for before it is created. Each document is marked `uploading`
 * before it is sent, with the source document's id in its custom metadata: a run that finds it so looks for that
 * document on the target mentor and adopts it.
 *
 * Documents: the platform's API offers no way to read a document's file (the spec's `RetrieverDocumentEmbedding`
 * has no content and no download; `documents/sources/` and `search/` give passages). What it does give is a document's
 * `url`: a document with one is trained on the target from that URL (the same `documents/train/` call, retry policy
 * and per-tenant concurrency as the train job). A document without one, or not trained on the source, is an item
 * skipped with the reason, shown in the preview, the job's report and the CLI.
 */
import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CallInput, CallName, CallOutput, MentorCopyDocuments } from '../../shared/contract';
import { EngineError } from './errors';
import {
  JobFailed,
  JobNeedsAttention,
  type ItemReport,
  type ItemRow,
  type JobContext,
  type JobKindRunner,
  type Slot,
} from './jobs';
import { isThrottle } from './jobs';
import type { Log } from './log';
import type { ApiDocument, DocumentApi } from './mentors';
import {
  ApiError,
  classifyStatus,
  RequestAbortedError,
  retriesStatus,
  retryDelay,
  wasNotTaken,
  type PlatformClient,
} from './platform';
import type { Profiles } from './profiles';
import { userScope } from './tenants';

type Row = Record<string, unknown>;
export type Invoke = <N extends CallName>(name: N, input: CallInput<N>) => Promise<CallOutput<N>>;

export const MENTOR_COPY_KIND = 'mentor-copy';
/** A URL document's request is small; the platform fetches the URL later, when it trains it. */
const URL_UPLOAD_TIMEOUT_MS = 60_000;

/** Why a document of the source cannot be copied, in words the admin reads in the preview and the report. */
export const NO_FILE_READ =
  "The platform's API offers no way to read a document's file, only its URL, and this document has none: train it on the target from a copy on disk";

export interface MentorCopyParams {
  fromProfileId: string;
  source: { uniqueId: string; name: string };
  /** The target mentor's name, and its unique id when one of that name is updated rather than created. */
  name: string;
  target: string | null;
  /** The settings PUT on the target (its ids for categories and MCP servers). */
  values: Row;
  callConfiguration: Row | null;
  withDocuments: boolean;
  /** The copy's source, target and options: an unfinished job with the same one is resumed, never started twice. */
  signature: string;
}

interface DocumentItemData {
  sourceId: string;
  url: string;
  type: string;
  access: 'public' | 'private' | null;
  documentId?: string;
}

/**
 * The engine's own calls (create, settings) answer an unreachable or busy tenant as an EngineError, which the runner
 * does not wait out by itself: the job pauses saying so, and is resumed once the tenant answers.
 */
function untilAnswered(error: unknown): unknown {
  if (!(error instanceof EngineError)) return error;
  const mayAnswerLater = error.code === 'api' && classifyStatus(error.extra.status ?? 0) !== 'final';
  if (error.code !== 'unreachable' && !mayAnswerLater) return error;
  return new JobNeedsAttention(`The tenant did not answer (${error.message}): resume the copy once it does`);
}

export const copySignature = (
  fromProfileId: string,
  mentor: string,
  toProfileId: string,
  name: string,
  docs: boolean,
) =>
  createHash('sha256')
    .update(JSON.stringify([fromProfileId, mentor, toProfileId, name, docs]))
    .digest('hex');

/**
 * The mentors area, loaded when a copy runs: this kind is registered with every engine (a copy resumes wherever it
 * was left), and a command that copies nothing (the CLI's `profile list`) should not load the mentors area for it.
 */
const mentorsArea = () => import('./mentors');

/** The documents API of a tenant, as the tenant's admin user. */
export async function documentsOf(
  deps: { profiles: Profiles; platform(profileId: string): Promise<PlatformClient>; log: Log },
  profileId: string,
) {
  const { DocumentApi } = await mentorsArea();
  return new DocumentApi(await deps.platform(profileId), await userScope(deps.profiles, profileId), deps.log);
}

/** What a copy can carry of a mentor's documents: trained documents with a URL; every other one with its reason. */
export function copyableDocuments(listed: ApiDocument[]) {
  const copied: (DocumentItemData & { name: string })[] = [];
  const notCopied: { id: string; name: string; reason: string }[] = [];
  for (const doc of listed) {
    const id = String(doc.id);
    const name = doc.document_name || doc.url || `Document ${id}`;
    const status = doc.training_status || (doc.is_trained ? 'trained' : 'untrained');
    if (status !== 'trained') notCopied.push({ id, name, reason: `Not trained on the source mentor (${status})` });
    else if (!doc.url) notCopied.push({ id, name, reason: NO_FILE_READ });
    else {
      const access = doc.access === 'public' || doc.access === 'private' ? doc.access : null;
      copied.push({ sourceId: id, name, url: doc.url, type: doc.document_type || 'url', access });
    }
  }
  return { copied, notCopied };
}

/** The preview's summary of the documents. */
export function documentsPreview(sorted: ReturnType<typeof copyableDocuments>): MentorCopyDocuments {
  return {
    copied: sorted.copied.map((d) => ({ id: d.sourceId, name: d.name })),
    notCopied: sorted.notCopied,
  };
}

/** The job's items, in the order they run. */
export function copyItems(params: MentorCopyParams, sorted: ReturnType<typeof copyableDocuments> | null) {
  return [
    { key: 'mentor', label: params.target ? `Mentor '${params.name}' (exists)` : `Create mentor '${params.name}'` },
    ...(Object.keys(params.values).length ? [{ key: 'settings', label: 'Settings, categories and MCP servers' }] : []),
    ...(params.callConfiguration ? [{ key: 'call-configuration', label: 'Call configuration' }] : []),
    ...(sorted?.copied ?? []).map(({ name, ...data }) => ({ key: `document:${data.sourceId}`, label: name, data })),
    ...(sorted?.notCopied ?? []).map((d) => ({
      key: `document:${d.id}`,
      label: d.name,
      state: 'skipped' as const,
      phase: 'not copied',
      error: d.reason,
    })),
  ];
}

/** The per-item report (jobs.exportReport). */
const report: ItemReport = {
  header: ['item', 'name', 'outcome', 'target', 'error', 'attempts'],
  row: (item) => {
    const data = JSON.parse(item.data || '{}') as { mentorId?: string; documentId?: string };
    return [
      item.key,
      item.label,
      item.state === 'done' || item.state === 'skipped' ? item.phase : item.state,
      data.documentId ?? data.mentorId ?? '',
      item.error ?? '',
      item.attempts,
    ];
  },
};

export interface MentorCopyDeps {
  invoke: Invoke;
  profiles: Profiles;
  platform(profileId: string): Promise<PlatformClient>;
  log: Log;
  /** Documents of the mentor were added on the tenant. */
  documentsChanged(profileId: string, mentorId: string): void;
}

export function mentorCopyKind(deps: MentorCopyDeps): JobKindRunner {
  return {
    kind: MENTOR_COPY_KIND,
    report,
    run: (ctx) => new CopyRun(deps, ctx).run(),
    finished: (job) =>
      deps.log(
        `mentor-copy job ${job.id} ${job.state}${job.error ? ` (${job.error})` : ''}: ${JSON.stringify(job.counts)}`,
      ),
  };
}

class CopyRun {
  private readonly params: MentorCopyParams;
  private readonly profileId: string;

  constructor(
    private readonly deps: MentorCopyDeps,
    private readonly ctx: JobContext,
  ) {
    this.params = ctx.params as MentorCopyParams;
    const profileId = ctx.job.profile_id;
    if (!profileId) throw new JobFailed('This job has no tenant connection (it was removed)');
    this.profileId = profileId;
    setMaxListeners(0, ctx.signal);
  }

  private get journal() {
    return this.ctx.journal;
  }

  private item(key: string): ItemRow | undefined {
    return this.journal.itemByKey(this.ctx.job.id, key);
  }

  private done(item: ItemRow, phase: string, data?: Row, count = phase): void {
    this.journal.transaction(() => {
      this.journal.updateItem(item.id, { state: 'done', phase, error: null, ...(data && { data }) });
      this.journal.addCounts(this.ctx.job.id, { [count]: 1 });
    });
    this.ctx.progress();
  }

  async run(): Promise<void> {
    try {
      await this.steps();
    } catch (error) {
      throw untilAnswered(error);
    }
  }

  private async steps(): Promise<void> {
    const mentorId = await this.mentor();
    await this.step('settings', 'Saving settings', async () => {
      const values = { ...this.params.values };
      delete values.mentor_name;
      await this.deps.invoke('resources.updateSingle', {
        profileId: this.profileId,
        kind: 'mentor-settings',
        key: mentorId,
        values,
      });
    });
    await this.step('call-configuration', 'Saving the call configuration', () => this.callConfiguration(mentorId));
    if (this.params.withDocuments) await this.documents(mentorId);
  }

  /** The target mentor: found (an earlier run created it, or one of the name was there), else created. */
  private async mentor(): Promise<string> {
    const item = this.item('mentor')!;
    const known = (JSON.parse(item.data || '{}') as { mentorId?: string }).mentorId;
    if (item.state === 'done' && known) return known;
    if (this.params.target) {
      this.done(item, 'updated', { mentorId: this.params.target });
      return this.params.target;
    }
    this.ctx.progress(`Creating mentor '${this.params.name}'`);
    if (item.phase === 'sending') {
      // Created by a run that ended before it heard back: the platform says whether it took it.
      const { mentors } = await this.deps.invoke('mentors.list', {
        profileId: this.profileId,
        search: this.params.name,
        refresh: true,
      });
      const found = mentors.find((m) => m.name === this.params.name);
      if (found) {
        this.done(item, 'created', { mentorId: found.uniqueId });
        return found.uniqueId;
      }
    }
    this.journal.updateItem(item.id, { state: 'active', phase: 'sending', attempt: true });
    const made = await this.deps.invoke('mentors.create', { profileId: this.profileId, name: this.params.name });
    this.done(item, 'created', { mentorId: made.uniqueId });
    return made.uniqueId;
  }

  /** One of the mentor's own items; a refusal fails it (and the job goes on), saying what the platform said. */
  private async step(key: string, phase: string, work: () => Promise<void>): Promise<void> {
    const item = this.item(key);
    if (!item || item.state !== 'pending') return;
    this.ctx.progress(phase);
    this.journal.updateItem(item.id, { state: 'active', phase: 'sending', attempt: true });
    try {
      await work();
    } catch (error) {
      if (this.ctx.signal.aborted || untilAnswered(error) !== error) throw error;
      const message = error instanceof Error ? error.message : String(error);
      this.journal.updateItem(item.id, { state: 'failed', phase: 'refused', error: message });
      this.journal.addCounts(this.ctx.job.id, { failed: 1 });
      return;
    }
    this.done(item, 'saved');
  }

  /** Updates the target mentor's call configuration, or creates it: looked for first, so never two. */
  private async callConfiguration(mentorId: string): Promise<void> {
    const values = this.params.callConfiguration!;
    const calls: Row[] = [];
    for (let page = 1; ; page++) {
      const answer = await this.deps.invoke('resources.list', {
        profileId: this.profileId,
        kind: 'call-configurations',
        page,
        pageSize: 500,
        refresh: page === 1,
        whole: true,
      });
      calls.push(...answer.records);
      if (calls.length >= answer.total || !answer.records.length) break;
    }
    const current = calls.find((c) => c.mentor === mentorId);
    if (current) {
      await this.deps.invoke('resources.update', {
        profileId: this.profileId,
        kind: 'call-configurations',
        id: String(current.id),
        values,
      });
    } else {
      await this.deps.invoke('resources.create', {
        profileId: this.profileId,
        kind: 'call-configurations',
        values: { ...values, mentor: mentorId },
      });
    }
  }

  // ---- documents ------------------------------------------------------------------------------------------------

  private async documents(mentorId: string): Promise<void> {
    const items = this.journal
      .itemsIn(this.ctx.job.id, ['pending', 'active'])
      .filter((item) => item.key.startsWith('document:'));
    if (!items.length) return;
    const api = await documentsOf(this.deps, this.profileId);
    this.ctx.progress(`Copying ${items.length} ${items.length === 1 ? 'document' : 'documents'}`);
    // Sent by a run that ended before it heard back: what the target mentor has of them, read once.
    const adoptable = items.some((item) => item.phase === 'uploading') ? await this.copiesOn(api, mentorId) : null;
    let next = 0;
    let stopped: { error: unknown } | null = null;
    const worker = async () => {
      while (next < items.length && !stopped && !this.ctx.signal.aborted) {
        const item = items[next++]!;
        try {
          await this.document(api, mentorId, item, adoptable);
        } catch (error) {
          stopped ??= { error };
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.max(1, Math.min(this.ctx.limiter.ceiling, items.length)) }, worker));
    } finally {
      this.journal.flush();
      this.deps.documentsChanged(this.profileId, mentorId);
    }
    if (stopped) throw (stopped as { error: unknown }).error;
  }

  /** The target mentor's documents this job copied, by their source document's id. */
  private async copiesOn(api: DocumentApi, mentorId: string): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const { documentMetadata } = await mentorsArea();
    for (const doc of await api.list(mentorId, { signal: this.ctx.signal })) {
      const metadata = documentMetadata(doc);
      if (metadata.copy_job === this.ctx.job.id && typeof metadata.copied_from === 'string')
        found.set(metadata.copied_from, String(doc.id));
    }
    return found;
  }

  private async document(
    api: DocumentApi,
    mentorId: string,
    item: ItemRow,
    adoptable: Map<string, string> | null,
  ): Promise<void> {
    const data = JSON.parse(item.data) as DocumentItemData;
    if (item.phase === 'uploading') {
      const found = adoptable?.get(data.sourceId);
      if (found) return this.accepted(item, found, true);
    }
    await this.ctx.limiter.run((slot) => this.send(api, mentorId, item, data, slot), this.ctx.signal);
  }

  private async send(api: DocumentApi, mentorId: string, item: ItemRow, data: DocumentItemData, slot: Slot) {
    const { uploadRetryPolicy } = await mentorsArea();
    // Committed before the request: a run after a crash looks on the target before sending it again.
    this.journal.updateItem(item.id, { state: 'active', phase: 'uploading', attempt: true });
    const fields = {
      pathway: mentorId,
      type: data.type,
      url: data.url,
      ...(data.access && { access: data.access }),
      custom_metadata: JSON.stringify({ copied_from: data.sourceId, copy_job: this.ctx.job.id }),
    };
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await api.train({ fields }, { timeoutMs: URL_UPLOAD_TIMEOUT_MS, signal: this.ctx.signal });
        if (answer.document_id === undefined || answer.document_id === null || answer.document_id === '')
          return this.failed(
            item,
            `The platform did not accept it: ${answer.error || answer.message || 'no document id'}`,
          );
        return this.accepted(item, String(answer.document_id), false);
      } catch (error) {
        if (this.ctx.signal.aborted || error instanceof RequestAbortedError) throw error;
        if (error instanceof ApiError) {
          if (error.status === 401) throw error;
          if (error.status === 404)
            throw new JobFailed(
              `The mentor '${this.params.name}' was deleted on the target; documents not sent yet were not copied`,
            );
          if (!retriesStatus(uploadRetryPolicy, error.status)) return this.failed(item, error.detail ?? error.message);
        }
        if (isThrottle(error)) this.ctx.limiter.throttled();
        const delay = retryDelay(uploadRetryPolicy, error, attempt);
        if (delay === null) throw error;
        await slot.outside(() => sleep(delay, undefined, { signal: this.ctx.signal }));
        // Anything but a 429 may have landed: look before sending again.
        if (!wasNotTaken(error)) {
          const found = (await this.copiesOn(api, mentorId)).get(data.sourceId);
          if (found) return this.accepted(item, found, true);
        }
      }
    }
  }

  /**
   * The target has the document. Written with the journal's next commit: should the process die first, the item is
   * still `uploading` and the next run finds the document by its metadata.
   */
  private accepted(item: ItemRow, documentId: string, adopted: boolean): void {
    this.journal.later(() => {
      this.journal.updateItem(item.id, { state: 'done', phase: 'copied', error: null, data: { documentId, adopted } });
      this.journal.addCounts(this.ctx.job.id, { copied: 1 });
    });
    this.ctx.progress();
  }

  private failed(item: ItemRow, reason: string): void {
    this.journal.updateItem(item.id, { state: 'failed', phase: 'refused', error: reason });
    this.journal.addCounts(this.ctx.job.id, { failed: 1 });
    this.ctx.progress();
  }
}
