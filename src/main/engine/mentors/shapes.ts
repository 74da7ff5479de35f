/**
 * The platform's answers that feed the mentors and documents cache, checked with zod at the boundary: only the fields
 * the app uses, typed loosely where the spec is loose (nullable strings, ids as numbers or strings). An answer of
 * another shape is logged and surfaced as an error; it is never cast and never reaches the cache.
 */
import { z } from 'zod';
import { describeIssues, issuesFromZod } from '../../../shared/contract';
import { EngineError } from '../errors';
import type { Log } from '../log';

const text = z.string().nullish();
const id = z.union([z.number().int(), z.string().min(1)]);

/** The spec's `Mentor` (and the `MentorCreate` a PATCH answers). */
export const ApiMentor = z.object({
  unique_id: z.string().min(1),
  name: z.string(),
  slug: text,
  is_featured: z.boolean().nullish(),
  created_at: text,
  updated_at: text,
  // Not in the spec's `Mentor`; used when a platform version includes them, saving a settings call per mentor.
  description: text,
  mentor_description: text,
  mentor_visibility: text,
});
export type ApiMentor = z.infer<typeof ApiMentor>;

/** `PaginatedMentorList` (DRF). */
export const ApiMentorPage = z.object({
  count: z.number().int().nonnegative(),
  next: text,
  results: z.array(ApiMentor),
});

/** `MentorSettingsPublic` / `MentorSettings`: where the description and the visibility live. */
export const ApiMentorSettings = z.object({
  mentor_description: text,
  mentor_visibility: text,
  mentor_unique_id: text,
  updated_at: text,
});
export type ApiMentorSettings = z.infer<typeof ApiMentorSettings>;

/**
 * `RetrieverDocumentEmbedding`, with the extras platforms add (hash, size, failure reason, retrain interval, the
 * latest training task).
 */
export const ApiDocument = z.object({
  id,
  pathway: z.string(),
  document_name: text,
  document_type: text,
  url: text,
  training_status: text,
  is_trained: z.boolean().nullish(),
  tokens: z.number().nullish(),
  access: text,
  last_trained_at: text,
  date_created: text,
  created_at: text,
  retrain_interval_days: z.number().int().nullish(),
  content_hash: text,
  failure_reason: text,
  task_id: text,
  file_size: z.number().nullish(),
  custom_metadata: z.unknown().optional(),
  metadata: z.unknown().optional(),
});
export type ApiDocument = z.infer<typeof ApiDocument>;

/** `PaginatedRetrieverDocumentEmbeddingList` (DRF, limit/offset). */
export const ApiDocumentPage = z.object({
  count: z.number().int().nonnegative(),
  next: text,
  results: z.array(ApiDocument),
});

/** `DocumentSettingsResponse`. */
export const ApiDocumentSettings = z.object({ retrain_interval_days: z.number().int().nullish() });

/** `RetrieverResponseSearch`: `page_content` per the spec; platforms add the document, a snippet and a score. */
export const ApiSearch = z.object({
  results: z.array(
    z.object({
      page_content: z.string(),
      snippet: text,
      document_id: id.nullish(),
      document_name: text,
      score: z.number().nullish(),
      metadata: z.unknown().optional(),
    }),
  ),
});

/** Parses an answer of the platform; a different shape is logged and becomes an error that names what was asked. */
export function parseAnswer<S extends z.ZodType>(schema: S, value: unknown, what: string, log: Log): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = issuesFromZod(parsed.error);
  const problems = describeIssues(issues.slice(0, 3)) + (issues.length > 3 ? ` and ${issues.length - 3} more` : '');
  log(`mentors: unexpected shape of ${what}: ${problems}`);
  throw new EngineError(
    'api',
    `The tenant answered ${what} in an unexpected shape (${problems}). Nothing was saved; check that the tenant's base URL points at the platform API.`,
  );
}
