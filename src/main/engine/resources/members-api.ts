/**
 * The platform calls of a membership import besides the kit's declared ones: the bulk add (its body and answer are
 * inferred, see shared/resources/membership.ts) and the tenant's people, read page by page for a dry run.
 */
import { z } from 'zod';
import { BULK_STATUSES, type BulkPerson, type MembershipImport } from '../../../shared/resources';
import type { CallOptions, PlatformClient } from '../platform';
import { UnexpectedAnswerError } from './api';

/** People asked for per page of the tenant's users (the platform's largest page). */
const USERS_PAGE_SIZE = 500;

function parseAnswer<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  throw new UnexpectedAnswerError(
    `The platform answered ${what} in an unexpected shape` +
      (first ? ` (${first.path.join('.') || 'the answer'}: ${first.message})` : ''),
  );
}

/**
 * What the import reads of a bulk answer: each person's status, in their order (the shared BulkMembersAnswer describes
 * the whole answer). Checking only that spares copying every other field of 500 results per answer.
 */
const BulkStatuses = z.object({ results: z.array(z.object({ status: z.enum(BULK_STATUSES) })) });
type BulkStatuses = z.infer<typeof BulkStatuses>;

const UserPage = z
  .object({
    count: z.number(),
    results: z.array(
      z.object({ username: z.string().nullish(), email: z.string().nullish(), user_id: z.number().nullish() }).loose(),
    ),
  })
  .loose();

/** POSTs one group's people to the kind's bulk call: one result per person, in their order. */
export async function addMembers(
  client: PlatformClient,
  org: string,
  membership: MembershipImport,
  group: number,
  people: readonly BulkPerson[],
  options: CallOptions = {},
): Promise<BulkStatuses> {
  const body = { [membership.groupField]: group, users: people, platform_key: org } as never;
  const { data } =
    membership.bulk.path === '/api/core/departments/members/bulk/'
      ? await client.api.POST('/api/core/departments/members/bulk/', { body, ...options })
      : await client.api.POST('/api/core/user_groups/link/bulk/', { body, ...options });
  const answer = parseAnswer(BulkStatuses, data, 'the bulk membership answer');
  if (answer.results.length !== people.length) {
    throw new Error(
      `The platform answered ${answer.results.length} results for ${people.length} people: the bulk answer cannot be matched to the rows`,
    );
  }
  return answer;
}

/** Every username and email of the tenant's people (emails lower-cased, as the platform compares them). */
export async function tenantPeople(
  client: PlatformClient,
  org: string,
  options: CallOptions = {},
): Promise<Set<string>> {
  const known = new Set<string>();
  for (let page = 1; ; page++) {
    const { data } = await client.api.GET('/api/core/platform/users/', {
      params: { query: { platform_key: org, page, page_size: USERS_PAGE_SIZE } },
      ...options,
    });
    const answer = parseAnswer(UserPage, data, 'the user list');
    for (const user of answer.results) {
      if (user.username) known.add(user.username);
      if (user.email) known.add(user.email.toLowerCase());
    }
    if (!answer.results.length || page * USERS_PAGE_SIZE >= answer.count) return known;
  }
}
