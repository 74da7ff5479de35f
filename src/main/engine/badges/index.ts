/**
 * Badges through the platform's credentials calls (`/api/credentials/orgs/{org}/users/{user_id}/…`): the calls'
 * answers are read as the spec's descriptions give them (a badge list in `{status, result: {data, …}}`, assertions in
 * PaginatedAssertionsResponse), each record checked with zod; refusals come back in the platform's words.
 *
 * A course's completers: the learners the learning analytics count a completion for (the Learning tab's learner
 * list), each asked of the course's completion milestone (`catalog/milestones/completions/course/manage/`, which the
 * spec takes per course and person).
 */
import type { Badge, BadgeAssertion, badgeCalls, CourseCompleter } from '../../../shared/contract';
import { checkImage, decodeDataUrl } from '../../../shared/resources';
import type { EngineServices } from '../context';
import type { HandlersOf } from '../dispatch';
import { EngineError } from '../errors';
import { toMultipart, type PlatformClient } from '../platform';
import type { AnswerCache } from '../store';
import { userScope } from '../tenants';
import { readPeopleFile } from '../people-import';
import { startBadgeImport } from './import';
import { withSavedCopy } from '../saved-copy';
import {
  AssertionAnswer,
  BADGE_PAGE,
  BadgeAnswer,
  BadgePage,
  Bulk,
  INTERACTIVE,
  ISSUE_BATCH,
  learnersWithCompletions,
  MILESTONE_READS,
  OverTime,
  parsed,
  readAssertions,
  readCourseCompletion,
  readUserIds,
  refusal,
  Uploaded,
  wrapped,
} from './read';

export { badgeImportKind } from './import';

/** Usernames and emails (lower-cased) of those holding a badge (assertions not revoked). */
function heldBy(assertions: readonly BadgeAssertion[]): Set<string> {
  const out = new Set<string>();
  for (const a of assertions) if (!a.revoked) out.add(a.username.toLowerCase()).add(a.email.toLowerCase());
  out.delete('');
  return out;
}
export { MILESTONE_READS, readCourseCompletion } from './read';

/** What the badge calls use of the engine: the tenant's client and connection, and the change event. */
export type BadgeServices = Pick<EngineServices, 'tenant' | 'platform' | 'profiles' | 'emit' | 'journal' | 'runner'>;

/** `answers`: where the last badge list and assertions are kept per tenant, the saved copy shown offline. */
export function badgeHandlers(ctx: BadgeServices, answers: AnswerCache): HandlersOf<typeof badgeCalls> {
  async function open(given: string | undefined) {
    const profileId = ctx.tenant(given);
    const client: PlatformClient = await ctx.platform(profileId);
    const { org, username } = await userScope(ctx.profiles, profileId);
    return { client, profileId, path: { org, user_id: username } };
  }
  const guard = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw refusal(error, what);
    }
  };

  /** Checked here, before anything is sent: an upload that is not an image never leaves the app. */
  const checkedImage = (image: string | undefined) => {
    if (image === undefined) return null;
    const check = checkImage(image);
    if (!check.ok) throw new EngineError('validation', check.message);
    return { type: check.type, bytes: decodeDataUrl(image)!.bytes, warning: check.warning };
  };
  const upload = (
    client: PlatformClient,
    path: { org: string; user_id: string },
    name: string,
    file: { type: string; bytes: Uint8Array },
  ) =>
    guard('The platform refused the image', async () => {
      const { data } = await client.api.POST('/api/credentials/orgs/{org}/users/{user_id}/images/', {
        params: { path },
        body: { name } as never,
        bodySerializer: (fields: unknown) => {
          const form = toMultipart(fields as object);
          const extension = file.type.split('/')[1]?.replace('svg+xml', 'svg') ?? 'png';
          form.set(
            'image',
            new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type }),
            `badge.${extension}`,
          );
          return form;
        },
        ...INTERACTIVE,
        maxAttempts: 1,
      });
      return parsed(Uploaded, data, 'the image upload').image;
    });

  return {
    'badges.list': async ({ profileId: given }) => {
      const { client, profileId, path } = await open(given);
      const read = async () => {
        const badges: Badge[] = [];
        for (let page = 1; page <= 1000; page++) {
          const { data } = await client.api.GET('/api/credentials/orgs/{org}/users/{user_id}/', {
            params: { path, query: { page, page_size: BADGE_PAGE } as never },
            ...INTERACTIVE,
          });
          const answer = parsed(BadgePage, data, 'the badge list');
          badges.push(...answer.data);
          if (!answer.next || !answer.data.length || badges.length >= answer.count) break;
        }
        return badges;
      };
      const { value: badges, freshness } = await guard('Could not read the badges', () =>
        withSavedCopy(answers, { profileId, call: 'badges.list', params: path }, read),
      );
      return { badges, freshness };
    },

    'badges.define': async ({ profileId, name, description, criteria, course, image }) => {
      const file = checkedImage(image);
      const { client, path } = await open(profileId);
      const iconImage = file ? await upload(client, path, name, file) : '';
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
        return { badge: parsed(wrapped(BadgeAnswer), data, 'the new badge'), warning: file?.warning ?? null };
      });
    },

    'badges.update': async ({ profileId, badge, name, description, criteria, image }) => {
      const file = checkedImage(image);
      const { client, path } = await open(profileId);
      const iconImage = file ? await upload(client, path, name, file) : '';
      const result = await guard('The platform refused the change', async () => {
        // PUT with the fields the description lists as optional: what is left out stays as it was.
        const { data } = await client.api.PUT('/api/credentials/orgs/{org}/users/{user_id}/{entity_id}', {
          params: { path: { ...path, entity_id: badge } },
          body: { name, description, criteria_text: criteria, ...(iconImage && { icon_image: iconImage }) } as never,
          ...INTERACTIVE,
        });
        return { badge: parsed(wrapped(BadgeAnswer), data, 'the changed badge'), warning: file?.warning ?? null };
      });
      ctx.emit('resources.changed', { profileId: ctx.tenant(profileId), kind: 'badges' as never });
      return result;
    },

    'badges.delete': async ({ profileId, badge }) => {
      const { client, path } = await open(profileId);
      return guard('Could not delete the badge', async () => {
        await client.api.DELETE('/api/credentials/orgs/{org}/users/{user_id}/{entity_id}', {
          params: { path: { ...path, entity_id: badge } },
          ...INTERACTIVE,
          maxAttempts: 1,
        });
        ctx.emit('resources.changed', { profileId: ctx.tenant(profileId), kind: 'badges' as never });
        return { id: badge };
      });
    },

    'badges.assertions': async ({ profileId: given, badge }) => {
      const { client, profileId, path } = await open(given);
      const { value: assertions, freshness } = await guard('Could not read the badge’s assertions', () =>
        withSavedCopy(answers, { profileId, call: 'badges.assertions', params: { ...path, badge } }, () =>
          readAssertions(client, path, badge),
        ),
      );
      return { assertions, freshness };
    },

    'badges.completers': async ({ profileId, course }) => {
      const { client, path } = await open(profileId);
      return guard(`Could not read who completed ${course}`, async () => {
        const candidates = await learnersWithCompletions(client, path.org);
        const ids = await readUserIds(client, path.org);
        const completers: CourseCompleter[] = [];
        let next = 0;
        // A few milestone reads at a time: one per learner who completed anything.
        const worker = async () => {
          while (next < candidates.length) {
            const username = candidates[next++]!;
            const user = ids.get(username);
            if (!user) continue;
            const answer = await readCourseCompletion(client, course, user.id);
            if (answer.completed)
              completers.push({
                username,
                name: user.name,
                userId: user.id,
                email: user.email,
                completedAt: answer.completedAt,
              });
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
      // Who holds it already, read first: the bulk answer's "skipped" does not say why someone was skipped.
      const holders = await guard('Could not read the badge’s holders', async () =>
        heldBy(await readAssertions(client, path, badge)),
      );
      const issued: string[] = [];
      const skipped: string[] = [];
      const refused: { person: string; reason: string }[] = [];
      for (let start = 0; start < people.length; start += ISSUE_BATCH) {
        const users = people.slice(start, start + ISSUE_BATCH);
        try {
          const { data } = await client.api.POST(
            '/api/credentials/orgs/{org}/users/{user_id}/{entity_id}/assertions/bulk/',
            { params: { path: { ...path, entity_id: badge } }, body: { users } as never, ...INTERACTIVE },
          );
          const answer = parsed(Bulk, data, 'the bulk issue');
          issued.push(...answer.issued.map(String));
          skipped.push(...answer.skipped.map(String));
        } catch (error) {
          // A refused batch fails its people with the platform's words; the next batches are still sent.
          const explained = refusal(error, 'The platform refused to issue the badge');
          if (!(explained instanceof EngineError)) throw explained;
          skipped.push(...users);
          refused.push(...users.map((person) => ({ person, reason: explained.message })));
        }
      }
      const already = skipped.filter((person) => holders.has(person.toLowerCase()));
      const unexplained = skipped.filter(
        (person) => !holders.has(person.toLowerCase()) && !refused.some((r) => r.person === person),
      );
      let failed = refused;
      if (unexplained.length) {
        // Skipped without holding it: most often nobody by that name is on the tenant; the directory says which.
        const directory = await readUserIds(client, path.org).catch(() => null);
        const known = new Set<string>();
        for (const [username, person] of directory ?? [])
          known.add(username.toLowerCase()).add(person.email.toLowerCase());
        failed = [
          ...refused,
          ...unexplained.map((person) => ({
            person,
            reason:
              directory && !known.has(person.toLowerCase())
                ? 'No person by this name on this tenant'
                : 'The platform did not issue it and did not say why',
          })),
        ];
      }
      ctx.emit('resources.changed', { profileId: ctx.tenant(profileId), kind: 'badges' as never });
      return { issued, skipped, already, failed };
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
    'badges.import': async ({ profileId: given, badge, path, dryRun }) => {
      const profileId = ctx.tenant(given);
      const file = await readPeopleFile(path);
      const job = startBadgeImport(ctx, profileId, badge, file, dryRun ? 'dry-run' : 'send');
      return { job, rows: file.rows.length, empty: file.rows.filter((row) => row.problems.length).length };
    },
  };
}
