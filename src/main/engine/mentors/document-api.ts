/**
 * The one adapter of a mentor's documents (`/api/ai-index/orgs/{org}/users/{user_id}/documents/…`), for the
 * documents screens and for training alike: every answer validated with zod, and one reading of a
 * `RetrieverDocumentEmbedding` (its metadata, content hash and status) whichever of them asks.
 */
import { z } from 'zod';
import { DOCUMENT_STATUSES, type DocumentStatus, type MentorDocument, type Passage } from '../../../shared/contract';
import { multipartBuffer, retryPolicyOf, toMultipart, type CallOptions, type PlatformClient } from '../platform';
import { isMissing } from './explain';
import type { Log } from '../log';
import type { Scope } from './resolve';
import { ApiDocument, ApiDocumentPage, ApiDocumentSettings, ApiSearch, parseAnswer } from './shapes';

const PAGE_SIZE = 100;
/** A guard against a server whose `next` never ends. */
const MAX_PAGES = 10_000;
/** Pages asked for at once once the first has told how many there are (the app's concurrency per tenant). */
const PAGES_AT_ONCE = 4;

/**
 * The upload's retry policy: the platform client sends it once; the train job sends it again by this policy, after
 * looking whether the lost attempt created the document.
 */
export const uploadRetryPolicy = retryPolicyOf('post', '/api/ai-index/orgs/{org}/users/{user_id}/documents/train/');

const flatRecord = (value: unknown): Record<string, unknown> => {
  if (typeof value === 'string') {
    try {
      return flatRecord(JSON.parse(value));
    } catch {
      return {};
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
};

const stringOr = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);
const countOr = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;

/**
 * What this app sent with an upload (`custom_metadata`: content hash, relative path, job) over what the platform
 * reports as the document's `metadata` (the spec's field; platforms differ in which of the two they fill).
 */
export function documentMetadata(api: ApiDocument): Record<string, unknown> {
  return { ...flatRecord(api.metadata), ...flatRecord(api.custom_metadata) };
}

/**
 * SHA-256 of the content: the hash this app stamped on its upload first (exactly the bytes it hashed and sent, so
 * comparable with a local file), else the platform's own `content_hash`.
 */
function contentHashOf(api: ApiDocument, metadata: Record<string, unknown>): string | null {
  return stringOr(metadata.content_hash) ?? stringOr(metadata.sha256) ?? stringOr(api.content_hash);
}

function statusOf(api: ApiDocument): DocumentStatus {
  const status = api.training_status ?? '';
  if ((DOCUMENT_STATUSES as readonly string[]).includes(status)) return status as DocumentStatus;
  // '' and null: the spec allows them; `is_trained` still tells the two states that matter apart.
  return api.is_trained ? 'trained' : 'untrained';
}

const accessOf = (api: ApiDocument) => (api.access === 'public' || api.access === 'private' ? api.access : null);
const nameOf = (api: ApiDocument) => api.document_name || api.url || `Document ${api.id}`;

/** A document as the documents screens show it. */
export function toDocument(api: ApiDocument): MentorDocument {
  return {
    id: String(api.id),
    name: nameOf(api),
    type: api.document_type ?? '',
    status: statusOf(api),
    tokens: countOr(api.tokens),
    access: accessOf(api),
    lastTrainedAt: api.last_trained_at ?? null,
    createdAt: api.date_created ?? api.created_at ?? null,
    retrainIntervalDays: api.retrain_interval_days ?? null,
    contentHash: contentHashOf(api, documentMetadata(api)),
    failureReason: stringOr(api.failure_reason),
    size: countOr(api.file_size),
  };
}

/** A document as training needs it. */
export interface RemoteDocument {
  id: string;
  name: string;
  /** The relative path this app uploaded it as (custom metadata), else null. */
  relativePath: string | null;
  contentHash: string | null;
  jobId: string | null;
  status: DocumentStatus;
  taskId: string | null;
  failureReason: string | null;
  access: 'public' | 'private' | null;
  /** What the platform counted when it trained it (`tokens`), and its file's size where the platform says. */
  tokens: number | null;
  size: number | null;
}

export function toRemoteDocument(api: ApiDocument): RemoteDocument {
  const metadata = documentMetadata(api);
  return {
    id: String(api.id),
    name: nameOf(api),
    relativePath: stringOr(metadata.relative_path),
    contentHash: contentHashOf(api, metadata),
    jobId: stringOr(metadata.job_id),
    status: statusOf(api),
    taskId: stringOr(api.task_id),
    failureReason: stringOr(api.failure_reason),
    access: accessOf(api),
    tokens: countOr(api.tokens),
    size: countOr(api.file_size),
  };
}

/** `TrainDocumentViewResponse`: the spec makes `document_id` a string; platforms also send a number. */
const ApiTrainAnswer = z.object({
  document_id: z.union([z.string(), z.number()]).nullish(),
  task_id: z.string().nullish(),
  message: z.string().nullish(),
  error: z.string().nullish(),
});
export type TrainAnswer = z.infer<typeof ApiTrainAnswer>;

/** `CheckDocumentTrainingStatus`. */
const ApiTask = z.object({ status: z.string().nullish(), message: z.string().nullish() });

export type TaskOutcome = { status: 'pending' } | { status: 'trained' } | { status: 'failed'; message: string };

/**
 * One document to train: the spec's form fields, and the file in memory or as a file-backed Blob; or no file and the
 * document's `url` (the platform fetches it).
 */
export interface Upload {
  fields: { pathway: string; type: string; access?: 'public' | 'private'; custom_metadata: string; url?: string };
  file?: { name: string; content: Buffer } | { name: string; blob: Blob };
}

export interface ListOptions extends CallOptions {
  /** Narrows by name where the platform can. */
  search?: string;
  /** Ends the paging early once the caller has seen what it needs. */
  stopWhen?: (documents: ApiDocument[]) => boolean;
  /** How many documents the caller expects to see at least: that many pages are asked for at once from the start. */
  expected?: number;
}

export class DocumentApi {
  constructor(
    private readonly client: PlatformClient,
    private readonly scope: Scope,
    private readonly log: Log,
  ) {}

  private get user() {
    return { org: this.scope.org, user_id: this.scope.username };
  }

  /**
   * Every page of `pathways/{pathway}/` (limit/offset). A 404 there means "no documents" on some platforms. Pages are
   * asked for a few at once: after the first, which tells how many there are and the page size the server serves, or
   * from the start when the caller expects many (a mentor with 400 documents is listed in one or two round trips, not
   * four).
   */
  async list(pathway: string, options: ListOptions = {}): Promise<ApiDocument[]> {
    const { search, stopWhen, expected, ...call } = options;
    const pageAt = async (offset: number) => {
      try {
        const { data } = await this.client.api.GET(
          '/api/ai-index/orgs/{org}/users/{user_id}/documents/pathways/{pathway}/',
          { params: { path: { ...this.user, pathway }, query: { limit: PAGE_SIZE, offset, search } }, ...call },
        );
        return parseAnswer(ApiDocumentPage, data, "the mentor's documents", this.log);
      } catch (error) {
        // The platform answers 404 'No document embeddings found' for a mentor without documents.
        if (isMissing(error)) return { count: offset, next: null, results: [] };
        throw error;
      }
    };
    const all: ApiDocument[] = [];
    // What the server serves per page, and how many documents there are: assumed until the first page says.
    let size = PAGE_SIZE;
    let count = expected ?? 0;
    let more = true;
    for (let pages = 0; more && pages < MAX_PAGES && !(pages && stopWhen?.(all));) {
      const from = all.length;
      const wave = Math.min(PAGES_AT_ONCE, Math.max(1, Math.ceil((count - from) / size)));
      const offsets = Array.from({ length: wave }, (_, i) => from + i * size);
      const answers = await Promise.all(offsets.map(pageAt));
      for (const [i, answer] of answers.entries()) {
        // After a short page (a server serving smaller pages, documents removed meanwhile) the next ones are asked
        // for again from where it ended.
        if (offsets[i] !== all.length) break;
        if (pages === 0 && i === 0 && answer.results.length) size = answer.results.length;
        all.push(...answer.results);
        count = answer.count;
        more = !!answer.next && answer.results.length > 0 && all.length < count;
        if (!more || answer.results.length < size) break;
      }
      pages += wave;
    }
    return all;
  }

  async get(id: string, options: CallOptions = {}): Promise<ApiDocument> {
    const { data } = await this.client.api.GET('/api/ai-index/orgs/{org}/users/{user_id}/documents/{document_id}/', {
      params: { path: { ...this.user, document_id: id } },
      ...options,
    });
    return parseAnswer(ApiDocument, data, `document ${id}`, this.log);
  }

  /** The document, or null when the platform no longer has it. */
  async find(id: string, options: CallOptions = {}): Promise<ApiDocument | null> {
    try {
      return await this.get(id, options);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /** PUT `{document_id}/` (`RetrieverDocumentEmbeddingRequest`, multipart): `pathway` is required by the spec. */
  async update(
    id: string,
    fields: { pathway: string; train?: boolean; access?: 'public' | 'private' },
  ): Promise<ApiDocument> {
    const { data } = await this.client.api.PUT('/api/ai-index/orgs/{org}/users/{user_id}/documents/{document_id}/', {
      params: { path: { ...this.user, document_id: id } },
      body: fields,
      bodySerializer: toMultipart,
    });
    return parseAnswer(ApiDocument, data, `document ${id}`, this.log);
  }

  /** POST `{document_id}/settings/`; null turns periodic retraining off. */
  async setRetrain(id: string, days: number | null): Promise<number | null> {
    const { data } = await this.client.api.POST(
      '/api/ai-index/orgs/{org}/users/{user_id}/documents/{document_id}/settings/',
      { params: { path: { ...this.user, document_id: id } }, body: { retrain_interval_days: days } },
    );
    return (
      parseAnswer(ApiDocumentSettings, data, `the settings of document ${id}`, this.log).retrain_interval_days ?? null
    );
  }

  /** Deletes (and untrains) a document; with `ifPresent`, one that is already gone is fine. */
  async delete(id: string, options: CallOptions & { ifPresent?: boolean } = {}): Promise<void> {
    const { ifPresent, ...call } = options;
    try {
      await this.client.api.DELETE('/api/ai-index/orgs/{org}/users/{user_id}/documents/{document_id}/', {
        params: { path: { ...this.user, document_id: id } },
        parseAs: 'text',
        ...call,
      });
    } catch (error) {
      if (ifPresent && isMissing(error)) return;
      throw error;
    }
  }

  /** POST `search/` (`RetrieverRequestSearch`): passages of the pathway's trained documents for a question. */
  async search(pathway: string, query: string, limit: number): Promise<Passage[]> {
    const { data } = await this.client.api.POST('/api/ai-index/orgs/{org}/users/{user_id}/documents/search/', {
      params: { path: this.user },
      // `limit` is beyond the spec's `RetrieverRequestSearch`; platforms that know it return fewer passages.
      body: { query, pathway, limit },
    });
    const { results } = parseAnswer(ApiSearch, data, 'the search', this.log);
    return results.slice(0, limit).map((hit) => {
      const metadata = flatRecord(hit.metadata);
      return {
        documentId: hit.document_id == null ? null : String(hit.document_id),
        documentName: hit.document_name ?? stringOr(metadata.document_name) ?? stringOr(metadata.source) ?? '',
        text: hit.page_content || hit.snippet || '',
        score: hit.score ?? null,
      };
    });
  }

  /**
   * POST `train/` with one file (multipart: `file` and the form fields). Sent once: the caller repeats it by
   * `uploadRetryPolicy` after looking whether the lost attempt landed.
   */
  async train(upload: Upload, options: CallOptions): Promise<TrainAnswer> {
    const { file, fields } = upload;
    // In memory: one ready-made body. From disk: a FormData that streams the file-backed Blob.
    const built = file && 'content' in file ? multipartBuffer(fields, { field: 'file', ...file }) : null;
    const blob = file && 'blob' in file ? file.blob : null;
    const { data } = await this.client.api.POST('/api/ai-index/orgs/{org}/users/{user_id}/documents/train/', {
      params: { path: this.user },
      body: fields,
      bodySerializer: (form) => {
        if (built) return built.body;
        const body = new FormData();
        if (blob) body.set('file', blob, file!.name);
        for (const [name, value] of Object.entries(form ?? {})) if (value !== undefined) body.set(name, String(value));
        return body;
      },
      ...(built && { headers: { 'Content-Type': built.contentType } }),
      ...options,
    });
    const answer = ApiTrainAnswer.safeParse(data ?? {});
    if (answer.success) return answer.data;
    // Without a document id the file counts as not accepted (the job says so on its row); the shape is logged.
    this.log(`documents: unexpected shape of an upload's answer: ${JSON.stringify(data).slice(0, 200)}`);
    return { error: 'an answer of an unexpected shape' };
  }

  /** A training task's state; null when the platform no longer knows the task. */
  async task(taskId: string, options: CallOptions = {}): Promise<TaskOutcome | null> {
    let data: unknown;
    try {
      ({ data } = await this.client.api.GET('/api/ai-index/orgs/{org}/users/{user_id}/documents/tasks/{task_id}/', {
        params: { path: { ...this.user, task_id: taskId } },
        ...options,
      }));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    const task = parseAnswer(ApiTask, data, `training task ${taskId}`, this.log);
    const status = (task.status ?? '').toLowerCase();
    if (/fail|error/.test(status)) return { status: 'failed', message: task.message || 'Training failed' };
    if (/complete|success|trained|done/.test(status)) return { status: 'trained' };
    return { status: 'pending' };
  }
}
