/**
 * The platform call of a membership import besides the kit's declared ones: the bulk add (its body and answer are
 * inferred, see shared/resources/membership.ts). The tenant's people are read by people-import/.
 */
import { z } from 'zod';
import { BULK_STATUSES, type BulkPerson, type MembershipImport } from '../../../shared/resources';
import type { CallOptions, PlatformClient } from '../platform';
import { UnexpectedAnswerError } from './api';

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
