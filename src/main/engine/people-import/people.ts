/**
 * The tenant's people as a people file names them: by email (compared without case, as the platform compares them),
 * by username, or (a seat file) by user id. Read once per run, every page of the platform's user list.
 */
import { z } from 'zod';
import type { CallOptions, PlatformClient } from '../platform';

/** People asked for per page of the tenant's users (the platform's largest page). */
const PAGE_SIZE = 500;

const UserPage = z
  .object({
    count: z.number(),
    results: z.array(
      z.object({ username: z.string().nullish(), email: z.string().nullish(), user_id: z.number().nullish() }).loose(),
    ),
  })
  .loose();

export interface TenantPerson {
  /** '' where the platform gives none. */
  username: string;
  userId: number | null;
  email: string;
}

export class TenantPeople {
  private readonly byName = new Map<string, TenantPerson>();
  private readonly byId = new Map<string, TenantPerson>();

  add(person: TenantPerson): void {
    if (person.username) this.byName.set(person.username, person);
    if (person.email) this.byName.set(person.email.toLowerCase(), person);
    if (person.userId !== null) this.byId.set(String(person.userId), person);
  }

  /** The person a cell names by email or username. */
  find(cell: string): TenantPerson | undefined {
    return this.byName.get(personKey(cell));
  }

  /** The person a cell names by email or user id (what the platform's seat calls take). */
  findByEmailOrId(cell: string): TenantPerson | undefined {
    const text = cell.trim();
    return text.includes('@') ? this.byName.get(text.toLowerCase()) : this.byId.get(text);
  }
}

/** A person cell as the platform compares it: an email without case, a username as it is. */
export const personKey = (cell: string) => (cell.includes('@') ? cell.trim().toLowerCase() : cell.trim());

/** The words of a row whose person is not the tenant's. */
export const noSuchPerson = (cell: string) =>
  cell.includes('@')
    ? `No person with the email ${cell.trim()} on this tenant`
    : `No person "${cell.trim()}" on this tenant`;

export async function readTenantPeople(
  client: PlatformClient,
  org: string,
  options: CallOptions,
): Promise<TenantPeople> {
  const people = new TenantPeople();
  for (let page = 1; ; page++) {
    const { data } = await client.api.GET('/api/core/platform/users/', {
      params: { query: { platform_key: org, page, page_size: PAGE_SIZE } },
      ...options,
    });
    const parsed = UserPage.safeParse(data);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new Error(
        `The platform answered the user list in an unexpected shape (${first?.path.join('.') || 'the answer'}: ${first?.message ?? 'not a page of users'})`,
      );
    }
    const answer = parsed.data;
    for (const user of answer.results) {
      people.add({ username: user.username ?? '', userId: user.user_id ?? null, email: user.email ?? '' });
    }
    if (!answer.results.length || page * PAGE_SIZE >= answer.count) return people;
  }
}
