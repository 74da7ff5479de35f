/**
 * The platform's document endpoints under `/api/ai-index/orgs/{org}/users/{user_id}/documents/`, answers validated,
 * and the mapping of its `RetrieverDocumentEmbedding` to the contract's MentorDocument.
 */
import { DOCUMENT_STATUSES, type DocumentStatus, type MentorDocument, type Passage } from '../../../shared/contract';
import { toMultipart, type PlatformClient } from '../platform';
import { isMissing } from './explain';
import type { Log } from '../log';
import type { CallOptions } from './mentor-api';
import type { Scope } from './resolve';
import { ApiDocument, ApiDocumentPage, ApiDocumentSettings, ApiSearch, parseAnswer } from './shapes';

const PAGE_SIZE = 100;
const MAX_PAGES = 10_000;

export const documentsPath = (scope: Scope) =>
  `/api/ai-index/orgs/${encodeURIComponent(scope.org)}/users/${encodeURIComponent(scope.username)}/documents/`;

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

function statusOf(api: ApiDocument): DocumentStatus {
  const status = api.training_status ?? '';
  if ((DOCUMENT_STATUSES as readonly string[]).includes(status)) return status as DocumentStatus;
  // '' and null: the spec allows them; `is_trained` still tells the two states that matter apart.
  return api.is_trained ? 'trained' : 'untrained';
}

export function toDocument(api: ApiDocument): MentorDocument {
  const custom = flatRecord(api.custom_metadata ?? api.metadata);
  const type = api.document_type ?? '';
  return {
    id: String(api.id),
    name: api.document_name || api.url || `Document ${api.id}`,
    type,
    status: statusOf(api),
    tokens: api.tokens ?? null,
    access: api.access === 'public' || api.access === 'private' ? api.access : null,
    lastTrainedAt: api.last_trained_at ?? null,
    createdAt: api.date_created ?? api.created_at ?? null,
    retrainIntervalDays: api.retrain_interval_days ?? null,
    // Uploads by this app also carry the hash in their custom metadata.
    contentHash: api.content_hash ?? stringOr(custom.content_hash) ?? stringOr(custom.sha256),
    failureReason: api.failure_reason ?? null,
    size: api.file_size ?? null,
  };
}

export class DocumentApi {
  constructor(
    private readonly client: PlatformClient,
    private readonly scope: Scope,
    private readonly log: Log,
  ) {}

  private path(rest: string): string {
    return `${documentsPath(this.scope)}${rest}`;
  }

  /** Every page of `pathways/{pathway}/` (limit/offset). A 404 there means "no documents" on some platforms. */
  async list(pathway: string, options: CallOptions = {}): Promise<ApiDocument[]> {
    const all: ApiDocument[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      let answer: unknown;
      try {
        answer = await this.client.request(this.path(`pathways/${encodeURIComponent(pathway)}/`), {
          ...options,
          query: { limit: PAGE_SIZE, offset: all.length },
        });
      } catch (error) {
        if (isMissing(error) && all.length === 0) return [];
        throw error;
      }
      const { results, next, count } = parseAnswer(ApiDocumentPage, answer, "the mentor's documents", this.log);
      all.push(...results);
      if (!next || results.length === 0 || all.length >= count) break;
    }
    return all;
  }

  async get(id: string, options: CallOptions = {}): Promise<ApiDocument> {
    const answer = await this.client.request(this.path(`${encodeURIComponent(id)}/`), options);
    return parseAnswer(ApiDocument, answer, `document ${id}`, this.log);
  }

  /** PUT `{document_id}/` (`RetrieverDocumentEmbeddingRequest`, multipart): `pathway` is required by the spec. */
  async update(
    id: string,
    fields: { pathway: string; train?: boolean; access?: 'public' | 'private' },
  ): Promise<ApiDocument> {
    const answer = await this.client.request(this.path(`${encodeURIComponent(id)}/`), {
      method: 'PUT',
      body: toMultipart(fields),
    });
    return parseAnswer(ApiDocument, answer, `document ${id}`, this.log);
  }

  /** POST `{document_id}/settings/`; null turns periodic retraining off. */
  async setRetrain(id: string, days: number | null): Promise<number | null> {
    const answer = await this.client.request(this.path(`${encodeURIComponent(id)}/settings/`), {
      method: 'POST',
      json: { retrain_interval_days: days },
      // Setting a value twice is harmless, so a POST lost on the way may be sent again.
      retryUnsafe: true,
    });
    return (
      parseAnswer(ApiDocumentSettings, answer, `the settings of document ${id}`, this.log).retrain_interval_days ?? null
    );
  }

  async delete(id: string): Promise<void> {
    await this.client.request(this.path(`${encodeURIComponent(id)}/`), { method: 'DELETE' });
  }

  /** POST `search/` (`RetrieverRequestSearch`): passages of the pathway's trained documents for a question. */
  async search(pathway: string, query: string, limit: number): Promise<Passage[]> {
    const answer = await this.client.request(this.path('search/'), {
      method: 'POST',
      json: { query, pathway, limit },
      // A search changes nothing on the server.
      retryUnsafe: true,
    });
    const { results } = parseAnswer(ApiSearch, answer, 'the search', this.log);
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
}
