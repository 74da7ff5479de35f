/** What the badge calls and the badge import read from the platform, each answer checked with zod. */
import { z } from 'zod';
import type { Badge, BadgeAssertion } from '../../../shared/contract';
import { EngineError } from '../errors';
import { ApiError, drfIssues, type CallOptions, type PlatformClient } from '../platform';

export const INTERACTIVE: CallOptions = { maxAttempts: 2, timeoutMs: 20_000 };
/** People per bulk issue request. */
export const ISSUE_BATCH = 500;
export const BADGE_PAGE = 100;

const text = z
  .string()
  .nullish()
  .transform((v) => v ?? '');
export const BadgeAnswer = z
  .object({
    entityId: z.string().optional(),
    credential_id: z.string().optional(),
    name: z.string(),
    description: text,
    icon_image: text,
    criteria_text: text,
    issuer: z.string().nullish(),
    course: z.string().nullish(),
    assertions_count: z.number().int().nullish(),
  })
  .loose()
  .transform((b): Badge => ({
    id: b.entityId ?? b.credential_id ?? '',
    name: b.name,
    description: b.description,
    image: b.icon_image,
    criteria: b.criteria_text,
    issuer: b.issuer ?? null,
    course: b.course ?? null,
    issued: b.assertions_count ?? null,
  }));
/** The description's envelope, or the record alone (the spec's schema): both are read. */
export function wrapped<T extends z.ZodType>(inner: T): z.ZodType<z.output<T>> {
  const envelope = z.object({ result: inner }).transform((answer) => (answer as { result: z.output<T> }).result);
  return z.union([envelope, inner]) as unknown as z.ZodType<z.output<T>>;
}
export const BadgePage = wrapped(
  z.object({ data: z.array(BadgeAnswer), next: z.string().nullish(), count: z.number().int() }).loose(),
);
export const AssertionAnswer = z
  .object({
    entityId: z.string(),
    issuedOn: z.string(),
    recipient: z.record(z.string(), z.string().nullish()),
    revoked: z.boolean().optional(),
    revocationReason: z.string().nullish(),
  })
  .loose()
  .transform((a): BadgeAssertion => ({
    id: a.entityId,
    username: a.recipient.username ?? a.recipient.identity ?? '',
    email: a.recipient.email ?? '',
    issuedOn: a.issuedOn,
    revoked: a.revoked ?? false,
    revocationReason: a.revocationReason ?? '',
  }));
export const AssertionPage = z.object({ data: z.array(AssertionAnswer), next: z.string().nullish() }).loose();
/** One learner's completion of a course (the spec answers an open object: `completed` is what is read). */
export const Completion = z.object({ completed: z.boolean().optional(), completed_at: z.string().nullish() }).loose();
const LearnersPage = z.object({
  data: z.array(z.object({ username: z.string(), completions: z.number() }).loose()),
  pagination: z.object({ totalPages: z.number().int() }).loose(),
});
const UsersPage = z.object({
  count: z.number().int(),
  results: z.array(
    z
      .object({
        user_id: z.number().int().nullish(),
        username: z.string().nullish(),
        email: z.string().nullish(),
        name: z.string().nullish(),
      })
      .loose(),
  ),
});
/** Milestone reads in flight at once. */
export const MILESTONE_READS = 8;

/**
 * One person's completion of one course: the course's completion milestone (`milestones/completions/course/manage/`,
 * which the spec takes per course and integer `user_id`). The one reader of that call (badges' completers, a person's
 * page).
 */
export async function readCourseCompletion(
  client: PlatformClient,
  course: string,
  userId: number,
  options: CallOptions = INTERACTIVE,
): Promise<{ completed: boolean; completedAt: string | null }> {
  const { data } = await client.api.GET('/api/catalog/milestones/completions/course/manage/', {
    params: { query: { course_id: course, user_id: userId } },
    ...options,
  });
  const answer = parsed(Completion, data, 'a course completion');
  return { completed: answer.completed === true, completedAt: answer.completed_at ?? null };
}

/** The learners the learning analytics count a completion for (the Learning tab's learner list), by username. */
export async function learnersWithCompletions(client: PlatformClient, org: string): Promise<string[]> {
  const out: string[] = [];
  for (let page = 1; page <= 10_000; page++) {
    const { data } = await client.api.GET('/api/ai-analytics/overview/orgs/{org}/learners', {
      params: { path: { org }, query: { page, length: 1000 } },
      ...INTERACTIVE,
    });
    const answer = parsed(LearnersPage, data, 'the learner list');
    for (const learner of answer.data) if (learner.completions > 0) out.push(learner.username);
    if (page >= answer.pagination.totalPages || !answer.data.length) return out;
  }
  return out;
}

export interface DirectoryPerson {
  id: number;
  email: string;
  name: string | null;
}

/** The tenant's people by username: the milestone call names a person by their numeric id. */
export async function readUserIds(
  client: PlatformClient,
  org: string,
  options: CallOptions = INTERACTIVE,
): Promise<Map<string, DirectoryPerson>> {
  const out = new Map<string, DirectoryPerson>();
  for (let page = 1; page <= 10_000; page++) {
    const { data } = await client.api.GET('/api/core/platform/users/', {
      params: { query: { platform_key: org, page, page_size: 500 } },
      ...options,
    });
    const answer = parsed(UsersPage, data, 'the user list');
    for (const user of answer.results)
      if (user.username && typeof user.user_id === 'number')
        out.set(user.username, { id: user.user_id, email: user.email ?? '', name: user.name?.trim() || null });
    if (!answer.results.length || page * 500 >= answer.count) return out;
  }
  return out;
}
export const OverTime = z.object({ data: z.record(z.string(), z.number()), total: z.number().optional() }).loose();
export const Bulk = z.object({ issued: z.array(z.unknown()), skipped: z.array(z.unknown()) });
export const Uploaded = z.object({ id: z.number(), image: z.string() }).loose();

/** A refusal in the platform's words: field errors by field, else its detail, else its status's message. */
export function refusal(error: unknown, what: string): unknown {
  if (!(error instanceof ApiError)) return error;
  const issues = drfIssues(error.body);
  const said = issues.length
    ? issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')
    : (error.detail ?? error.message);
  if (error.status === 404) return new EngineError('not_found', `${what}: ${said}`);
  if (error.status === 400) return new EngineError('validation', `${what}: ${said}`);
  return new EngineError('api', `${what}: ${said}`, { status: error.status });
}

export function parsed<T extends z.ZodType>(schema: T, data: unknown, what: string): z.output<T> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  throw new EngineError('api', `The platform's answer to ${what} does not match its spec`);
}

/** Every assertion of a badge, revoked ones included. */
export async function readAssertions(
  client: PlatformClient,
  path: { org: string; user_id: string },
  badge: string,
  options: CallOptions = INTERACTIVE,
): Promise<BadgeAssertion[]> {
  const assertions: BadgeAssertion[] = [];
  for (let page = 1; page <= 1000; page++) {
    const { data } = await client.api.GET('/api/credentials/orgs/{org}/users/{user_id}/{entity_id}/assertions/', {
      params: {
        path: { ...path, entity_id: badge },
        query: { page, page_size: BADGE_PAGE, include_revoked: true } as never,
      },
      ...options,
    });
    const answer = parsed(AssertionPage, data, 'the assertion list');
    assertions.push(...answer.data);
    if (!answer.next || !answer.data.length) break;
  }
  return assertions;
}
