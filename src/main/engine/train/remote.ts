/**
 * The platform's document endpoints as training uses them: a mentor's documents (all pages), one upload, a
 * training task's status, and deleting a superseded document.
 */
import { DOCUMENT_STATUSES, type DocumentStatus } from '../../../shared/contract';
import { ApiError, type PlatformClient } from '../platform';
import type { Scope } from '../mentors/resolve';

const PAGE_SIZE = 100;

export const documentsPath = (scope: Scope) =>
  `/api/ai-index/orgs/${encodeURIComponent(scope.org)}/users/${encodeURIComponent(scope.username)}/documents/`;

/** A document as training needs it. */
export interface RemoteDocument {
  id: string;
  name: string;
  /** The relative path this app uploaded it as (custom metadata), else null. */
  relativePath: string | null;
  /** SHA-256 of its content: the platform's own field or the custom metadata this app sent. */
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

interface ApiDocument {
  id: number | string;
  document_name?: string | null;
  url?: string | null;
  training_status?: string | null;
  is_trained?: boolean;
  metadata?: unknown;
  custom_metadata?: unknown;
  content_hash?: string | null;
  task_id?: string | null;
  failure_reason?: string | null;
  access?: string | null;
  tokens?: number | null;
  file_size?: number | null;
}

interface ApiPage {
  count?: number;
  next?: string | null;
  results?: ApiDocument[];
}

function flatRecord(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') {
    try {
      return flatRecord(JSON.parse(value));
    } catch {
      return {};
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null);

export function toRemoteDocument(api: ApiDocument): RemoteDocument {
  const custom = { ...flatRecord(api.metadata), ...flatRecord(api.custom_metadata) };
  const raw = api.training_status ?? '';
  const status = (DOCUMENT_STATUSES as readonly string[]).includes(raw)
    ? (raw as DocumentStatus)
    : api.is_trained
      ? 'trained'
      : 'untrained';
  return {
    id: String(api.id),
    name: api.document_name || api.url || `Document ${api.id}`,
    relativePath: text(custom.relative_path),
    contentHash: text(custom.content_hash) ?? text(api.content_hash),
    jobId: text(custom.job_id),
    status,
    taskId: text(api.task_id),
    failureReason: text(api.failure_reason),
    access: api.access === 'public' || api.access === 'private' ? api.access : null,
    tokens: count(api.tokens),
    size: count(api.file_size),
  };
}

/**
 * Every document of a mentor (its pathway), page after page; `search` narrows by name where the platform can, and
 * `stopWhen` ends the paging early once the caller has seen what it needs.
 */
export async function listDocuments(
  client: PlatformClient,
  scope: Scope,
  pathway: string,
  options: { search?: string; signal?: AbortSignal; stopWhen?: (documents: RemoteDocument[]) => boolean } = {},
): Promise<RemoteDocument[]> {
  const documents: RemoteDocument[] = [];
  for (let offset = 0; ; offset += PAGE_SIZE) {
    let page: ApiPage;
    try {
      page = await client.request<ApiPage>(`${documentsPath(scope)}pathways/${encodeURIComponent(pathway)}/`, {
        query: { limit: PAGE_SIZE, offset, search: options.search },
        ...(options.signal && { signal: options.signal }),
      });
    } catch (error) {
      // The platform answers 404 'No document embeddings found' for a mentor without documents.
      if (error instanceof ApiError && error.status === 404 && offset === 0) return [];
      throw error;
    }
    const results = page.results ?? [];
    documents.push(...results.map(toRemoteDocument));
    if (!page.next || results.length === 0 || options.stopWhen?.(documents)) return documents;
  }
}

export interface TrainAnswer {
  document_id?: string | number;
  task_id?: string;
  message?: string;
  error?: string;
}

export async function getDocument(
  client: PlatformClient,
  scope: Scope,
  id: string,
  signal?: AbortSignal,
): Promise<RemoteDocument | null> {
  try {
    const api = await client.request<ApiDocument>(`${documentsPath(scope)}${encodeURIComponent(id)}/`, {
      ...(signal && { signal }),
    });
    return toRemoteDocument(api);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** Deletes (and untrains) a document; one that is already gone is fine. */
export async function deleteDocument(client: PlatformClient, scope: Scope, id: string, signal?: AbortSignal) {
  try {
    await client.request(`${documentsPath(scope)}${encodeURIComponent(id)}/`, {
      method: 'DELETE',
      ...(signal && { signal }),
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return;
    throw error;
  }
}

export type TaskOutcome = { status: 'pending' } | { status: 'trained' } | { status: 'failed'; message: string };

/** A training task's state; null when the platform no longer knows the task. */
export async function taskStatus(
  client: PlatformClient,
  scope: Scope,
  taskId: string,
  signal?: AbortSignal,
): Promise<TaskOutcome | null> {
  try {
    const task = await client.request<{ status?: string; message?: string }>(
      `${documentsPath(scope)}tasks/${encodeURIComponent(taskId)}/`,
      { ...(signal && { signal }) },
    );
    const status = (task.status ?? '').toLowerCase();
    if (/fail|error/.test(status)) return { status: 'failed', message: task.message || 'Training failed' };
    if (/complete|success|trained|done/.test(status)) return { status: 'trained' };
    return { status: 'pending' };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
