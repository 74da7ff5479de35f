/**
 * Badges through the platform's credentials calls (`/api/credentials/orgs/{org}/users/{user_id}/…`): the calls'
 * answers are read as the spec's descriptions give them (a badge list in `{status, result: {data, …}}`, assertions in
 * PaginatedAssertionsResponse), each record checked with zod; refusals come back in the platform's words.
 *
 * A course's completers: the learners the learning analytics count a completion for (the Learning tab's learner
 * list), each asked of the course's completion milestone (`catalog/milestones/completions/course/manage/`, which the
 * spec takes per course and person).
 */
import { z } from 'zod';
import type { Badge, BadgeAssertion, badgeCalls, CourseCompleter } from '../../../shared/contract';
import { checkImage, decodeDataUrl } from '../../../shared/resources';
import type { HandlersOf } from '../dispatch';
import { EngineError } from '../errors';
import type { EngineServices } from '../context';
import { ApiError, drfIssues, toMultipart, type CallOptions, type PlatformClient } from '../platform';
import { userScope } from '../tenants';

const INTERACTIVE: CallOptions = { maxAttempts: 2, timeoutMs: 20_000 };
/** People per bulk issue request. */
export const ISSUE_BATCH = 500;
const PAGE = 100;

const text = z
  .string()
  .nullish()
  .transform((v) => v ?? '');
const BadgeAnswer = z
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
function wrapped<T extends z.ZodType>(inner: T): z.ZodType<z.output<T>> {
  const envelope = z.object({ result: inner }).transform((answer) => (answer as { result: z.output<T> }).result);
  return z.union([envelope, inner]) as unknown as z.ZodType<z.output<T>>;
}
const BadgePage = wrapped(
  z.object({ data: z.array(BadgeAnswer), next: z.string().nullish(), count: z.number().int() }).loose(),
);
const AssertionAnswer = z
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
const AssertionPage = z.object({ data: z.array(AssertionAnswer), next: z.string().nullish() }).loose();
/** One learner's completion of a course (the spec answers an open object: `completed` is what is read). */
const Completion = z.object({ completed: z.boolean().optional(), completed_at: z.string().nullish() }).loose();
const LearnersPage = z.object({
  data: z.array(z.object({ username: z.string(), completions: z.number() }).loose()),
  pagination: z.object({ totalPages: z.number().int() }).loose(),
});
const UsersPage = z.object({
  count: z.number().int(),
  results: z.array(
    z
      .object({ user_id: z.number().int().nullish(), username: z.string().nullish(), email: z.string().nullish() })
      .loose(),
  ),
});
/** Milestone reads in flight at once. */
const MILESTONE_READS = 8;

/** The learners the learning analytics count a completion for (the Learning tab's learner list), by username. */
async function learnersWithCompletions(client: PlatformClient, org: string): Promise<string[]> {
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

/** The tenant's people by username: the milestone call names a person by their numeric id. */
async function userIds(client: PlatformClient, org: string): Promise<Map<string, { id: number; email: string }>> {
  const out = new Map<string, { id: number; email: string }>();
  for (let page = 1; page <= 10_000; page++) {
    const { data } = await client.api.GET('/api/core/platform/users/', {
      params: { query: { platform_key: org, page, page_size: 500 } },
      ...INTERACTIVE,
    });
    const answer = parsed(UsersPage, data, 'the user list');
    for (const user of answer.results)
      if (user.username && typeof user.user_id === 'number')
        out.set(user.username, { id: user.user_id, email: user.email ?? '' });
    if (!answer.results.length || page * 500 >= answer.count) return out;
  }
  return out;
}
const OverTime = z.object({ data: z.record(z.string(), z.number()), total: z.number().optional() }).loose();
const Bulk = z.object({ issued: z.array(z.unknown()), skipped: z.array(z.unknown()) });
const Uploaded = z.object({ id: z.number(), image: z.string() }).loose();

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

function parsed<T extends z.ZodType>(schema: T, data: unknown, what: string): z.output<T> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  throw new EngineError('api', `The platform's answer to ${what} does not match its spec`);
}

/** What the badge calls use of the engine: the tenant's client and connection, and the change event. */
export type BadgeServices = Pick<EngineServices, 'tenant' | 'platform' | 'profiles' | 'emit'>;

export function badgeHandlers(ctx: BadgeServices): HandlersOf<typeof badgeCalls> {
  async function open(given: string | undefined) {
    const profileId = ctx.tenant(given);
    const client: PlatformClient = await ctx.platform(profileId);
    const { org, username } = await userScope(ctx.profiles, profileId);
    return { client, path: { org, user_id: username } };
  }
  const guard = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw refusal(error, what);
    }
  };

  return {
    'badges.list': async ({ profileId }) => {
      const { client, path } = await open(profileId);
      return guard('Could not read the badges', async () => {
        const badges: Badge[] = [];
        for (let page = 1; page <= 1000; page++) {
          const { data } = await client.api.GET('/api/credentials/orgs/{org}/users/{user_id}/', {
            params: { path, query: { page, page_size: PAGE } as never },
            ...INTERACTIVE,
          });
          const answer = parsed(BadgePage, data, 'the badge list');
          badges.push(...answer.data);
          if (!answer.next || !answer.data.length || badges.length >= answer.count) break;
        }
        return { badges };
      });
    },

    'badges.define': async ({ profileId, name, description, criteria, course, image }) => {
      let warning: string | null = null;
      let file: { type: string; bytes: Uint8Array } | null = null;
      if (image !== undefined) {
        // Checked here, before anything is sent: an upload that is not an image never leaves the app.
        const check = checkImage(image);
        if (!check.ok) throw new EngineError('validation', check.message);
        warning = check.warning;
        file = { type: check.type, bytes: decodeDataUrl(image)!.bytes };
      }
      const { client, path } = await open(profileId);
      let iconImage = '';
      if (file) {
        const upload = file;
        iconImage = await guard('The platform refused the image', async () => {
          const { data } = await client.api.POST('/api/credentials/orgs/{org}/users/{user_id}/images/', {
            params: { path },
            body: { name } as never,
            bodySerializer: (fields: unknown) => {
              const form = toMultipart(fields as object);
              const extension = upload.type.split('/')[1]?.replace('svg+xml', 'svg') ?? 'png';
              form.set(
                'image',
                new Blob([upload.bytes as Uint8Array<ArrayBuffer>], { type: upload.type }),
                `badge.${extension}`,
              );
              return form;
            },
            ...INTERACTIVE,
            maxAttempts: 1,
          });
          return parsed(Uploaded, data, 'the image upload').image;
        });
      }
      return guard('The platform refused the badge', async () => {
        const { data } = await client.api.POST('/api/credentials/orgs/{org}/users/{user_id}/', {
          params: { path },
          body: {
            name,
            description,
            criteria_text: criteria,
            credential_type: 'badge',
            ...(iconImage && { icon_image: iconImage }),
            ...(course && { course }),
          } as never,
          ...INTERACTIVE,
          maxAttempts: 1,
        });
        return { badge: parsed(wrapped(BadgeAnswer), data, 'the new badge'), warning };
      });
    },

    'badges.delete': async ({ profileId, badge }) => {
      const { client, path } = await open(profileId);
      return guard('Could not delete the badge', async () => {
        await client.api.DELETE('/api/credentials/orgs/{org}/users/{user_id}/{entity_id}', {
          params: { path: { ...path, entity_id: badge } },
          ...INTERACTIVE,
        });
        return { id: badge };
      });
    },

    'badges.assertions': async ({ profileId, badge }) => {
      const { client, path } = await open(profileId);
      return guard('Could not read the badge’s assertions', async () => {
        const assertions: BadgeAssertion[] = [];
        for (let page = 1; page <= 1000; page++) {
          const { data } = await client.api.GET('/api/credentials/orgs/{org}/users/{user_id}/{entity_id}/assertions/', {
            params: {
              path: { ...path, entity_id: badge },
              query: { page, page_size: PAGE, include_revoked: true } as never,
            },
            ...INTERACTIVE,
          });
          const answer = parsed(AssertionPage, data, 'the assertion list');
          assertions.push(...answer.data);
          if (!answer.next || !answer.data.length) break;
        }
        return { assertions };
      });
    },

    'badges.completers': async ({ profileId, course }) => {
      const { client, path } = await open(profileId);
      return guard(`Could not read who completed ${course}`, async () => {
        const candidates = await learnersWithCompletions(client, path.org);
        const ids = await userIds(client, path.org);
        const completers: CourseCompleter[] = [];
        let next = 0;
        // A few milestone reads at a time: one per learner who completed anything.
        const worker = async () => {
          while (next < candidates.length) {
            const username = candidates[next++]!;
            const user = ids.get(username);
            if (!user) continue;
            const { data } = await client.api.GET('/api/catalog/milestones/completions/course/manage/', {
              params: { query: { course_id: course, user_id: user.id } },
              ...INTERACTIVE,
            });
            const answer = parsed(Completion, data, 'a course completion');
            if (answer.completed)
              completers.push({ username, email: user.email, completedAt: answer.completed_at ?? null });
          }
        };
        await Promise.all(Array.from({ length: MILESTONE_READS }, worker));
        completers.sort(
          (a, b) => (a.completedAt ?? '').localeCompare(b.completedAt ?? '') || a.username.localeCompare(b.username),
        );
        return { course, completers };
      });
    },

    'badges.issue': async ({ profileId, badge, people }) => {
      const { client, path } = await open(profileId);
      const issued: string[] = [];
      const skipped: string[] = [];
      for (let start = 0; start < people.length; start += ISSUE_BATCH) {
        const users = people.slice(start, start + ISSUE_BATCH);
        const answer = await guard('The platform refused to issue the badge', async () => {
          const { data } = await client.api.POST(
            '/api/credentials/orgs/{org}/users/{user_id}/{entity_id}/assertions/bulk/',
            { params: { path: { ...path, entity_id: badge } }, body: { users } as never, ...INTERACTIVE },
          );
          return parsed(Bulk, data, 'the bulk issue');
        });
        issued.push(...answer.issued.map(String));
        skipped.push(...answer.skipped.map(String));
      }
      ctx.emit('resources.changed', { profileId: ctx.tenant(profileId), kind: 'badges' as never });
      return { issued, skipped };
    },

    'badges.revoke': async ({ profileId, assertion, reason }) => {
      const { client, path } = await open(profileId);
      return guard('The platform refused to revoke it', async () => {
        const { data } = await client.api.PUT('/api/credentials/orgs/{org}/users/{user_id}/assertions/{entity_id}', {
          params: { path: { ...path, entity_id: assertion } },
          body: { revoked: true, revocationReason: reason } as never,
          ...INTERACTIVE,
        });
        return parsed(AssertionAnswer, data, 'the revocation');
      });
    },

    'badges.overTime': async ({ profileId, startDate, endDate }) => {
      const { client, path } = await open(profileId);
      return guard('Could not read the issuance over time', async () => {
        const { data } = await client.api.GET('/api/credentials/orgs/{org}/users/{user_id}/assertions-over-time/', {
          params: { path, query: { start_date: startDate, end_date: endDate } },
          ...INTERACTIVE,
        });
        const answer = parsed(OverTime, data, 'the issuance over time');
        const series = Object.entries(answer.data)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([date, issued]) => ({ date, issued }));
        return { series, total: answer.total ?? series.reduce((sum, p) => sum + p.issued, 0) };
      });
    },
  };
}
