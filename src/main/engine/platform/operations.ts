/**
 * Every platform operation the app calls, each with its retry rule: the one place that says whether an operation may
 * be sent again, after which answers and how patiently. The typed API (`PlatformApi`) accepts only the operations
 * declared here, so a new platform call starts with a line in this table; its paths and methods are checked against
 * the generated spec types. The resource kit's operations (src/shared/resources/) are the exception: one takes its
 * method's rule (`ruleOf`: GET, PUT and DELETE are sent again, any other method once) and has a line here only where
 * it deviates from that, so a new simple kind is its declaration alone.
 */
import type { Client } from 'openapi-fetch';
import type { paths } from './generated/schema';
import { IDEMPOTENT, ONCE, REPEATABLE, resolvePolicy, ruleForMethod, type RetryPolicy, type RetryRule } from './retry';

type HttpMethod = 'get' | 'put' | 'post' | 'patch' | 'delete';
type MethodsOf<P extends keyof paths> = { [M in HttpMethod]: undefined extends paths[P][M] ? never : M }[HttpMethod];
type OperationTable = { [P in keyof paths]?: { [M in MethodsOf<P>]?: RetryRule } };

/** Reads. */
const READ = IDEMPOTENT;
/** PUT and DELETE: the same state however often they are applied. */
const REPLACE = IDEMPOTENT;
/** Lists that a big tenant may take a while to page through. */
const SLOW_READ: RetryRule = { ...IDEMPOTENT, timeoutMs: 60_000 };
/** A report being written: read again by its caller (the eval job) while it is not ready, a second or more apart. */
const REPORT_POLL: RetryRule = { ...IDEMPOTENT, baseDelayMs: 1_000, maxDelayMs: 15_000 };
/**
 * A file upload creates a document, so the transport sends it once; the train job sends it again after looking
 * whether the lost attempt created the document (its custom metadata carries the content hash and the job).
 */
const UPLOAD: RetryRule = {
  by: 'caller',
  statuses: [408, 425, 429, '5xx'],
  afterNoAnswer: true,
  maxAttempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
};

export const OPERATIONS = {
  // Mentors (`{name}` takes a unique id, name or slug).
  '/api/ai-mentor/orgs/{org}/users/{user_id}/': { get: READ, post: ONCE },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/{name}/': { get: READ, patch: ONCE, delete: REPLACE },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/settings/': { get: READ, put: REPLACE },
  // A mentor's knowledge (issue 16): assumed knowledge is set whole by its POST, so it is sent again after a lost
  // answer, not after a server error.
  '/api/ai-mentor/orgs/{org}/users/{user_id}/assumed-knowledge/': { get: READ, post: REPEATABLE },
  // Sharing and new mentors from others (issue 16). A fork or a wizard's create makes a mentor: sent once. The
  // sharable link's POST makes the link (a second one is refused), its PUT sets `enabled`, its DELETE revokes it.
  '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/sharable-link': {
    get: READ,
    post: ONCE,
    put: REPLACE,
    delete: REPLACE,
  },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/public-sharable-link/': { get: READ },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/fork/': { post: ONCE },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/available-template-mentors/': { get: READ },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/create-mentor-wizard/': { post: ONCE },
  // A mentor's evaluation (issue 16): a POST without an id creates one, so it is sent once; a run starts a report
  // (no way to look whether a lost one started), so it is sent once too.
  '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/mentor-eval/': { get: READ, post: ONCE },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/mentor-eval-execution/': { post: ONCE },
  // The report: 400 'Report not found or still being generated' until it is written. The eval job reads it again
  // after each such answer with this rule's backoff (slower than a read's), until its waiting limit.
  '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/reports/{report_id}/mentor-eval-report/': {
    get: REPORT_POLL,
  },
  // Voice (issue 16). A custom voice's POST sets the whole state; speech and transcripts change nothing, so they are
  // asked again like reads; a new ElevenLabs voice is sent once (a second one with its name is refused).
  '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/custom-voice/': { get: READ, post: REPEATABLE },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/custom-voice-tts/': { post: READ },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/elevenlabs-voice/': { get: READ, post: ONCE },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/elevenlabs-voice/{voice_name}/': { delete: REPLACE },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/audio-to-text/': { post: READ },
  // A mentor's memory: its settings (POST sets the fields sent, the same however often); a learner's memory read
  // with the learner's username as `{user_id}`; a category of memories deleted (DELETE: the same state again).
  '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/memory-settings/': { get: READ, post: REPEATABLE },
  // Linking a mentor to a course and setting its auto memory prompt: the same state however often they are posted.
  '/api/ai-mentor/orgs/{org}/mentors/{mentor}/link-course/': { get: READ, post: REPEATABLE },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/auto-memory-prompt/': { get: READ, post: REPEATABLE },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/current-memory/': { get: READ },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/historical-memory/': { get: READ },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/memory-progress/': { get: READ },
  // An entry's key and value set by POST: the same state however often it is sent.
  '/api/ai-mentor/orgs/{org}/users/{user_id}/memory-entries/{entry_unique_id}/': { delete: REPLACE, post: REPEATABLE },
  // Call credentials: each POST issues a new participant token, so a lost answer is asked for again (nothing is
  // created that a second token would duplicate).
  '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/create-call-credentials/': { post: REPEATABLE },
  // A learner's memories: the filters, the admins' filtered list, one memory read or deleted.
  '/api/ai-mentor/orgs/{org}/users/{user_id}/memory-filter/': { get: READ },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/filtered-memories/': { get: READ },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/memory/{memory_unique_id_or_name}/': { get: READ, delete: REPLACE },
  // A learner's profile memory: POST sets one tag's detail (the same state again), DELETE takes a tag away.
  '/api/ai-mentor/orgs/{org}/users/{user_id}/ai-user-profile-memory/': { get: READ, post: REPEATABLE },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/ai-user-profile-memory/{tag}/': { delete: REPLACE },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/edx-memory/': { get: READ },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/edx-memory/{id}/': { get: READ, delete: REPLACE },
  // A learner's data requests (issue 18): their memories across mentors, clearing their chat history (the same
  // state again when repeated), their course enrolments.
  '/api/ai-mentor/orgs/{org}/users/{user_id}/memories/': { get: READ },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/clear-chathistory': { delete: REPLACE },
  // A learner's sessions (issue 18): one read, pinned (POST makes the pin; a second one keeps it), an export task
  // asked for once and read again while it is not ready.
  '/api/ai-mentor/orgs/{org}/users/{user_id}/sessions/{session_id}/': { get: READ },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/pin-message/': { get: READ, post: REPEATABLE, delete: REPLACE },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/tasks/sessions/{session_id}/': { post: ONCE },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/downloads/tasks/{task_id}/': { get: REPORT_POLL },
  '/api/catalog/enrollment/courses/search/': { get: READ },

  // A mentor's documents (its unique id is the pathway).
  '/api/ai-index/orgs/{org}/users/{user_id}/documents/pathways/{pathway}/': { get: READ },
  '/api/ai-index/orgs/{org}/users/{user_id}/documents/{document_id}/': { get: READ, put: REPLACE, delete: REPLACE },
  '/api/ai-index/orgs/{org}/users/{user_id}/documents/{document_id}/settings/': { post: REPEATABLE },
  '/api/ai-index/orgs/{org}/users/{user_id}/documents/search/': { post: REPEATABLE },
  '/api/ai-index/orgs/{org}/users/{user_id}/documents/train/': { post: UPLOAD },
  '/api/ai-index/orgs/{org}/users/{user_id}/documents/tasks/{task_id}/': { get: READ },

  // Support tickets and their threads.
  '/api/ai-mentor/orgs/{org}/users/{user_id}/support-tickets/': { get: SLOW_READ },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/support-tickets/{id}/': { get: READ, patch: ONCE, delete: REPLACE },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/support-tickets/{id}/close/': { post: REPEATABLE },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/support-ticket-messages/': { get: SLOW_READ, post: ONCE },

  // Invitations (the bulk posts are checked by the invite job before any row is sent again) and the catalog.
  '/api/catalog/invitations/platform/': { get: READ, post: ONCE, delete: REPLACE },
  '/api/catalog/invitations/course/': { get: READ, post: ONCE, delete: REPLACE },
  '/api/catalog/invitations/program/': { get: READ, post: ONCE, delete: REPLACE },
  '/api/catalog/invitations/platform/bulk/': { post: ONCE },
  '/api/catalog/invitations/course/bulk/': { post: ONCE },
  '/api/catalog/invitations/program/bulk/': { post: ONCE },
  '/api/catalog/courses/': { get: READ },
  '/api/catalog/programs/': { get: READ },
  // Catalogue enrolments (engine/catalogue/): enrolling someone already enrolled answers their enrolment again.
  '/api/catalog/pathways/': { get: READ },
  '/api/catalog/enrollment/programs/': { get: READ, post: REPEATABLE, delete: REPLACE },
  '/api/catalog/enrollment/programs/search/': { get: READ },
  '/api/catalog/enrollment/pathways/': { get: READ, post: REPEATABLE, delete: REPLACE },
  '/api/core/platform/users/': { get: READ },
  // Course and program metadata: a field set to a value is the same state however often it is sent.
  '/api/catalog/metadata/course/': { get: READ },
  '/api/catalog/metadata/program/': { get: READ },
  '/api/catalog/metadata/course/{field}/': { get: READ, post: REPEATABLE },
  '/api/catalog/metadata/program/{field}/': { get: READ, post: REPEATABLE },
  '/api/core/users/delete/': { post: ONCE },
  // Course suggestions (engine/catalogue/suggest-import.ts): "create or update", one per person and course, so a
  // batch sent again suggests nothing twice.
  '/api/catalog/suggestions/course/manage/': { get: READ, post: REPEATABLE, delete: REPLACE },
  '/api/catalog/suggestions/course/manage/bulk/': { post: REPEATABLE },
  // A person's learning profile (people.learning), read-only.
  '/api/catalog/skills/desired/': { get: READ },
  '/api/catalog/skills/reported/': { get: READ },
  '/api/catalog/roles/desired/': { get: READ },
  '/api/catalog/roles/reported/': { get: READ },
  '/api/catalog/milestones/skill_points/user/': { get: READ },

  // Resource kit kinds (src/shared/resources/) take their method's rule (`ruleOf`); the lines below are the kit's
  // operations that deviate from it, or that other code also calls through the typed API.
  // Departments and user groups: adding a person who is already a member answers the membership again ("or update
  // status").
  '/api/core/departments/members/': { get: READ, post: REPEATABLE, delete: REPLACE },
  '/api/core/user_groups/link/': { get: READ, post: REPEATABLE, delete: REPLACE },
  // Adding someone already in the group answers "already": sent again, nobody is added twice.
  '/api/core/departments/members/bulk/': { post: REPEATABLE },
  '/api/core/user_groups/link/bulk/': { post: REPEATABLE },
  // RBAC roles, policies and groups: a PATCH sets the fields it names and adds or removes members, which leaves the
  // same state however often it is applied.
  '/api/core/rbac/roles/{id}/': { get: READ, patch: REPEATABLE, delete: REPLACE },
  '/api/core/rbac/policies/{id}/': { get: READ, patch: REPEATABLE, delete: REPLACE },
  '/api/core/rbac/groups/{id}/': { get: READ, patch: REPEATABLE, delete: REPLACE },
  // Mentor configuration: a PATCH sets the fields it names.
  '/api/ai-mentor/orgs/{org}/users/{user_id}/mcp-servers/{id}/': { get: READ, patch: REPEATABLE, delete: REPLACE },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/call-configurations/{id}/': { get: READ, patch: REPEATABLE },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/category-groups/{id}/': {
    get: READ,
    patch: REPEATABLE,
    delete: REPLACE,
  },
  // Single-record kinds: a save sets the tenant's one record (or one image) to what it names, so sending it again
  // after an answer that says it was not taken, or after no answer, changes nothing more.
  '/api/core/orgs/{org}/metadata/': { get: READ, patch: REPEATABLE },
  '/api/core/platform/config/site/': { get: READ, post: REPEATABLE },
  '/api/core/orgs/{org}/logo/create/': { post: REPEATABLE },
  '/api/core/orgs/{org}/dark-mode-logo/create/': { post: REPEATABLE },
  '/api/core/orgs/{org}/favicon/create/': { post: REPEATABLE },
  '/api/core/orgs/{org}/thumbnail/create/': { post: REPEATABLE },
  // Credentials: the list is the masked view; a PATCH or DELETE names the credential in its body. A PATCH sets the
  // stored value to what it names, so it is sent again after an answer that says it was not taken, or no answer.
  '/api/ai-account/orgs/{org}/credential/': { post: ONCE, patch: REPEATABLE, delete: REPLACE },
  '/api/ai-account/orgs/{org}/integration-credential/': { post: ONCE, patch: REPEATABLE, delete: REPLACE },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/settings/tenant-llm/': { get: READ, post: REPEATABLE },
  // The default LLM key and the free trial: switched on or off (the same state however often it is sent).
  '/api/ai-account/orgs/{org}/use-default-llm-key/': { post: REPEATABLE },
  '/api/ai-account/orgs/{org}/use-free-trial/': { post: REPEATABLE },
  '/api/ai-account/orgs/{org}/users/{user_id}/default-llm-key-usage': { get: READ },
  '/api/ai-account/orgs/{org}/users/{user_id}/free-trial': { get: READ },

  // Licences: a seat is given once per request (the seats job reads who holds one before it sends a row again);
  // releasing one is the same however often it is sent. Access requests are reviewed once (the queue looks first).
  '/api/catalog/licenses/user/': { get: READ },
  '/api/catalog/licenses/user/assignment/': { get: READ, post: ONCE, delete: REPLACE },
  '/api/catalog/licenses/user/assignment/group/': { get: READ, post: ONCE, delete: REPLACE },
  '/api/catalog/licenses/course/assignment/group/': { get: READ, post: ONCE, delete: REPLACE },
  '/api/catalog/licenses/program/assignment/group/': { get: READ, post: ONCE, delete: REPLACE },
  '/api/catalog/access_requests/course/manage/': { get: READ, post: ONCE },

  // Conversation analytics.
  '/api/ai-analytics/orgs/{org}/users/{user_id}/chat-history/': { get: READ },
  '/api/ai-analytics/orgs/{org}/users/{user_id}/chat-history/{id}/': { get: READ },
  '/api/ai-analytics/orgs/{org}/users/{user_id}/topic-statistics/': { get: READ },
  '/api/ai-analytics/orgs/{org}/users/{user_id}/sentiment-count/': { get: READ },
  '/api/ai-analytics/orgs/{org}/users/{user_id}/average-messages-per-session/': { get: READ },
  '/api/ai-analytics/orgs/{org}/users/{user_id}/usage-summary/': { get: READ },
  '/api/ai-analytics/orgs/{org}/users/{user_id}/rating-summary/': { get: READ },
  '/api/ai-analytics/orgs/{org}/users/{user_id}/most-discussed-topics/': { get: READ },
  '/api/ai-analytics/orgs/{org}/users/{user_id}/costs/model/': { get: READ },
  '/api/ai-analytics/orgs/{org}/users/{user_id}/costs/permentor/': { get: READ },
  '/api/ai-analytics/orgs/{org}/users/{user_id}/costs/peruser/': { get: READ },

  // The review queue and traces (issue 18).
  '/api/ai-mentor/orgs/{org}/users/{user_id}/moderation-logs/': { get: SLOW_READ },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/moderation-logs/{id}/': { get: READ, delete: REPLACE },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/safety-logs/': { get: SLOW_READ },
  '/api/ai-mentor/orgs/{org}/users/{user_id}/safety-logs/{id}/': { get: READ, delete: REPLACE },
  '/api/ai-analytics/orgs/{org}/users/{user_id}/traces/': { get: READ },
  '/api/ai-analytics/orgs/{org}/users/{user_id}/traces/{id}/': { get: READ },
  '/api/ai-analytics/orgs/{org}/users/{user_id}/observations/': { get: SLOW_READ },

  // Learning analytics (the spec's paths, some without a trailing slash).
  '/api/ai-analytics/overview/orgs/{org}/active-users': { get: READ },
  '/api/ai-analytics/overview/orgs/{org}/registered-users': { get: READ },
  '/api/ai-analytics/overview/orgs/{org}/courses/completions': { get: READ },
  '/api/ai-analytics/overview/orgs/{org}/average-grade': { get: READ },
  '/api/ai-analytics/overview/orgs/{org}/learners': { get: READ },
  '/api/ai-analytics/overview/orgs/{org}/most-active-courses': { get: READ },
  '/api/ai-analytics/audience/orgs/{org}/registered-users/': { get: READ },
  '/api/ai-analytics/audience/orgs/{org}/active-users/users': { get: READ },
  '/api/ai-analytics/departments/orgs/{org}/': { get: READ },
  '/api/ai-analytics/perlearner/orgs/{org}/users/{user_id}/grades/per-course': { get: READ },
  '/api/ai-analytics/perlearner/orgs/{org}/users/{user_id}/info': { get: READ },
  '/api/ai-analytics/perlearner/orgs/{org}/users/{user_id}/activity/': { get: READ },
  '/api/ai-analytics/perlearner/orgs/{org}/users/{user_id}/overview/time/over-time': { get: READ },

  // Badges (issue 17). A badge's create and an image's upload make a record: sent once. The bulk issue skips people
  // who have the badge already, so it is sent again after a lost answer.
  '/api/credentials/orgs/{org}/users/{user_id}/': { get: READ, post: ONCE },
  '/api/credentials/orgs/{org}/users/{user_id}/{entity_id}': { get: READ, put: REPLACE, delete: REPLACE },
  '/api/credentials/orgs/{org}/users/{user_id}/images/': { post: ONCE },
  '/api/credentials/orgs/{org}/users/{user_id}/{entity_id}/assertions/': { get: READ },
  '/api/credentials/orgs/{org}/users/{user_id}/{entity_id}/assertions/bulk/': { post: REPEATABLE },
  '/api/credentials/orgs/{org}/users/{user_id}/assertions/{entity_id}': { put: REPLACE },
  '/api/credentials/orgs/{org}/users/{user_id}/assertions-over-time/': { get: READ },
  '/api/catalog/milestones/completions/course/manage/': { get: READ },
  '/api/catalog/reviews/course/info/': { get: READ },
  '/api/catalog/reviews/program/info/': { get: READ },
} as const satisfies OperationTable;

type Operations = typeof OPERATIONS;
export type DeclaredPath = keyof Operations & keyof paths;
type Undeclared<P extends DeclaredPath> = Exclude<HttpMethod, keyof Operations[P]>;

/** The spec's paths narrowed to the declared operations: an undeclared path or method does not compile. */
export type DeclaredPaths = {
  [P in DeclaredPath]: Omit<paths[P], Undeclared<P>> & { [M in Undeclared<P>]?: never };
};

/** One tenant's typed API: `api.GET('/api/…', { params })`, checked against the spec by the compiler. */
export type PlatformApi = Client<DeclaredPaths>;

/** The rule declared for a request, found by the spec path openapi-fetch called (undefined when undeclared). */
export function declaredRule(method: string, schemaPath: string): RetryRule | undefined {
  const operation = (OPERATIONS as Record<string, Partial<Record<string, RetryRule>>>)[schemaPath];
  return operation?.[method.toLowerCase()];
}

/**
 * The rule a request is sent with: its line in the table, else its method's (what the transport applies to a request
 * with no declared rule — the resource kit's operations without a line).
 */
export function ruleOf(method: string, schemaPath: string): RetryRule {
  return declaredRule(method, schemaPath) ?? ruleForMethod(method);
}

/** The retry policy of one operation, for callers that send it again themselves (rules with `by: 'caller'`). */
export function retryPolicyOf<P extends DeclaredPath>(method: keyof Operations[P] & string, path: P): RetryPolicy {
  return resolvePolicy(declaredRule(method, path)!);
}
