import type { DocumentRow } from './schema';

const customMetadataOf = (row: DocumentRow): Record<string, unknown> | null =>
  row.custom_metadata === null ? null : (JSON.parse(row.custom_metadata) as Record<string, unknown>);

/**
 * `RetrieverDocumentEmbedding`. The spec's object is open, so the sandbox adds what an admin needs to see: the
 * custom metadata, the SHA-256 of the content, the size, the chunk count, the failure reason and the latest task.
 */
export function presentDocument(row: DocumentRow) {
  const customMetadata = customMetadataOf(row);
  return {
    id: row.id,
    metadata: customMetadata,
    document_name: row.document_name,
    document_type: row.document_type,
    username: row.username,
    training_status: row.training_status,
    pathway: row.pathway,
    url: row.url,
    tokens: row.tokens,
    platform_key: row.org,
    is_trained: row.training_status === 'trained',
    access: row.access,
    crawler_max_depth: null,
    crawler_max_pages_limit: null,
    crawler_max_concurrency: null,
    crawler_match_patterns: [],
    crawler_pattern_type: '',
    last_trained_at: row.last_trained_at,
    custom_metadata: customMetadata ?? {},
    content_hash: row.content_hash,
    file_size: row.file_size,
    chunk_count: row.chunk_count,
    failure_reason: row.failure_reason,
    task_id: row.task_id,
    retrain_interval_days: row.retrain_interval_days,
    date_created: row.created_at,
    last_modified: row.updated_at,
  };
}
