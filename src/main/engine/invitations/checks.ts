/**
 * Asks the platform who among an import's addresses is already invited to the target, or already a member of it.
 * Each question is asked the cheaper way: reading the platform's whole list when it is short compared to the file,
 * or one filtered query per address when the list is long and the file is small. Nothing is held in memory but the
 * page at hand: matches are written to the import's rows as they come.
 */
import type { InviteTarget } from '../../../shared/contract';
import type { PlatformClient } from '../platform';
import { isLive, readInvitations, readUsers, targetQuery } from './api';

const CONCURRENCY = 8;

/** Runs `task` over `items` with at most `limit` at once. */
export async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await task(items[next++]!);
  });
  await Promise.all(workers);
}

/** One page of a platform list, reduced to the lower-cased addresses that count. */
type ListPage = (query: {
  page: number;
  pageSize: number;
  email?: string;
}) => Promise<{ count: number; size: number; emails: string[] }>;

interface FindInput {
  list: ListPage;
  pageSize: number;
  /** Distinct addresses of the import, in batches. */
  addresses: () => Iterable<string[]>;
  addressCount: number;
  /** Records matches (addresses not in the import are ignored by the caller). */
  mark: (emails: string[]) => void;
  onProgress?: (done: number, total: number) => void;
}

async function findAmong(input: FindInput): Promise<void> {
  const first = await input.list({ page: 1, pageSize: input.pageSize });
  input.mark(first.emails);
  // A server may cap the page size: page on with the size it actually gave.
  const perPage = Math.max(1, first.size || input.pageSize);
  const pages = Math.ceil(first.count / perPage);
  if (pages <= 1) return;
  if (pages - 1 <= input.addressCount) {
    const rest = Array.from({ length: pages - 1 }, (_, i) => i + 2);
    let done = 1;
    await pool(rest, CONCURRENCY, async (page) => {
      input.mark((await input.list({ page, pageSize: perPage })).emails);
      input.onProgress?.(++done, pages);
    });
    return;
  }
  let done = 0;
  for (const batch of input.addresses()) {
    await pool(batch, CONCURRENCY, async (email) => {
      const answer = await input.list({ page: 1, pageSize: 10, email });
      input.mark(answer.emails.filter((e) => e === email));
    });
    done += batch.length;
    input.onProgress?.(done, input.addressCount);
  }
}

/** Marks live (active, unexpired) invitations to the target. */
export async function checkInvited(
  client: PlatformClient,
  org: string,
  target: InviteTarget,
  input: Omit<FindInput, 'list' | 'pageSize'>,
  signal: AbortSignal,
): Promise<void> {
  await findAmong({
    ...input,
    pageSize: 1000,
    list: async ({ page, pageSize, email }) => {
      const query = { ...targetQuery(target, org), active: true, sort: '-id', page, page_size: pageSize, email };
      const answer = await readInvitations(client, target, query, { signal });
      const now = Date.now();
      return {
        count: answer.count,
        size: answer.results.length,
        emails: answer.results
          .filter((invitation) => isLive(invitation, now))
          .map((invitation) => invitation.email?.toLowerCase())
          .filter((e): e is string => !!e),
      };
    },
  });
}

/** Marks users of the platform (only platform invitations can be checked for members this way). */
export async function checkMembers(
  client: PlatformClient,
  org: string,
  input: Omit<FindInput, 'list' | 'pageSize'>,
  signal: AbortSignal,
): Promise<void> {
  await findAmong({
    ...input,
    pageSize: 500,
    list: async ({ page, pageSize, email }) => {
      const query = { platform_key: org, page, page_size: pageSize, query: email };
      const answer = await readUsers(client, query, { signal });
      return {
        count: answer.count,
        size: answer.results.length,
        emails: answer.results.map((user) => user.email?.toLowerCase()).filter((e): e is string => !!e),
      };
    },
  });
}
