/**
 * What the platform holds about one person, read and cleared through the calls' owners: the analytics client for
 * chat history, the memory handlers for profile and edX memory, the ticket and invitation clients. The calls only a
 * data request makes (`memories/`, `clear-chathistory`, course enrolments) live here. Memory paths take the person
 * as `{user_id}`; analytics and tickets are read as the admin, filtered to the person.
 */
import { z } from 'zod';
import { AnalyticsApi, type ApiConversation } from '../../analytics';
import { listInvitations, type ApiInvitation } from '../../invitations';
import { ApiError, type CallOptions, type PlatformClient } from '../../platform';
import { TicketApi, type ApiTicket } from '../../tickets';
import { deleteMemoryCategory, memoryHandlers } from '../memory';
import type { ResourceServices } from '../handlers';
import { ResourceApi } from '../api';

export interface Person {
  userId: string;
  username: string;
  email: string | null;
}

const PAGE = 100;
/** A guard against a platform whose `next` never ends. */
const MAX_PAGES = 100_000;

const UserMemoryEntry = z
  .object({
    unique_id: z.string().optional(),
    key: z.string().optional(),
    value: z.string().nullish(),
    inserted_at: z.string().optional(),
    updated_at: z.string().optional(),
  })
  .loose();
export const UserMemory = z
  .object({
    unique_id: z.string().optional(),
    name: z.string().optional(),
    mentor: z.string().nullish(),
    category: z.string().nullish(),
    mode: z.string().optional(),
    entries: z.array(UserMemoryEntry),
    inserted_at: z.string().optional(),
  })
  .loose();
export type UserMemory = z.infer<typeof UserMemory>;
const MemoryPage = z.object({ count: z.number(), next: z.string().nullish(), results: z.array(UserMemory) });
const EnrolmentPage = z
  .object({ count: z.number(), next_page: z.number().nullish(), results: z.array(z.record(z.string(), z.unknown())) })
  .loose();

/** A person's course enrolments (`enrollment/courses/search/`, catalog paging): a data request's and their page's. */
export async function readEnrolments(
  client: PlatformClient,
  org: string,
  username: string,
  options: CallOptions = {},
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { data } = await client.api.GET('/api/catalog/enrollment/courses/search/', {
      params: { query: { org, username, page, page_size: PAGE } },
      ...options,
    });
    const answer = EnrolmentPage.parse(data);
    out.push(...answer.results);
    if (!answer.next_page || answer.results.length === 0) break;
  }
  return out;
}

export class PersonPlatform {
  private readonly analytics: AnalyticsApi;
  private readonly memory: ReturnType<typeof memoryHandlers>;

  constructor(
    private readonly client: PlatformClient,
    private readonly scope: { org: string; username: string },
    private readonly profileId: string,
    readonly person: Person,
    services: ResourceServices,
    private readonly signal?: AbortSignal,
  ) {
    this.analytics = new AnalyticsApi(client, scope);
    this.memory = memoryHandlers(services);
  }

  private get options(): CallOptions {
    return this.signal ? { signal: this.signal } : {};
  }

  /** The person's conversations, a page at a time (chat-history, filtered to them). */
  async *conversations(): AsyncGenerator<{ count: number; results: ApiConversation[] }> {
    for (let page = 1; page <= MAX_PAGES; page++) {
      const answer = await this.analytics.conversationsPage(
        { filter_user_id: this.person.username, page, page_size: PAGE },
        { signal: this.signal },
      );
      yield answer;
      if (!answer.next || answer.results.length === 0) return;
    }
  }

  async conversationCount(): Promise<number> {
    const answer = await this.analytics.conversationsPage(
      { filter_user_id: this.person.username, page: 1, page_size: 1 },
      { signal: this.signal },
    );
    return answer.count;
  }

  /** Every memory the person has, across mentors (`memories/`). */
  async memories(): Promise<UserMemory[]> {
    const out: UserMemory[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const { data } = await this.client.api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/memories/', {
        params: { path: { org: this.scope.org, user_id: this.person.username }, query: { page, page_size: PAGE } },
        ...this.options,
      });
      const answer = MemoryPage.parse(data);
      out.push(...answer.results);
      if (!answer.next || answer.results.length === 0) break;
    }
    return out;
  }

  /** A mentor's recorded memory snapshots of the person (through the memory calls' owner). */
  async history(mentor: string) {
    const read = await this.memory['memory.learner']({
      profileId: this.profileId,
      mentor,
      learner: this.person.username,
    });
    return read.history;
  }

  async profileMemory() {
    return (await this.memory['memory.profile']({ profileId: this.profileId, learner: this.person.username })).entries;
  }

  async edxMemory() {
    return (await this.memory['memory.edx']({ profileId: this.profileId, learner: this.person.username })).records;
  }

  /** The tickets the person opened (the tenant's queue, read to its end, kept to their username). */
  async tickets(): Promise<ApiTicket[]> {
    const api = new TicketApi(this.client, this.scope);
    const out: ApiTicket[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const answer = await api.tickets({ page, pageSize: PAGE, ordering: '-created_at', signal: this.signal });
      out.push(...answer.results.filter((ticket) => ticket.username === this.person.username));
      if (!answer.next || answer.results.length === 0) break;
    }
    return out;
  }

  /** The platform invitations sent to the person's email (none to read without one). */
  async invitations(): Promise<ApiInvitation[]> {
    if (!this.person.email) return [];
    const out: ApiInvitation[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const answer = await listInvitations(
        this.client,
        this.scope.org,
        { target: { kind: 'platform' }, email: this.person.email, page, pageSize: PAGE },
        this.signal,
      );
      out.push(...answer.results);
      if (out.length >= answer.count || answer.results.length === 0) break;
    }
    return out;
  }

  /** The person's course enrolments (`enrollment/courses/search/`, catalog paging). */
  async enrolments(): Promise<Record<string, unknown>[]> {
    return readEnrolments(this.client, this.scope.org, this.person.username, this.options);
  }

  async clearChatHistory(): Promise<void> {
    await this.client.api.DELETE('/api/ai-mentor/orgs/{org}/users/{user_id}/clear-chathistory', {
      params: { path: { org: this.scope.org, user_id: this.person.username } },
      ...this.options,
    });
  }

  deleteMemoryCategory(category: string): Promise<boolean> {
    return deleteMemoryCategory(this.client, this.scope.org, this.person.username, category, this.options);
  }

  /** A memory record itself, once its entries are gone (through the memory calls' owner; the erase is confirmed). */
  async deleteMemory(memory: string): Promise<boolean> {
    const { deleted } = await this.memory['memory.memoryDelete']({
      profileId: this.profileId,
      learner: this.person.username,
      memory,
      confirm: this.person.username,
    });
    return deleted;
  }

  async deleteProfileMemory(tag: string): Promise<boolean> {
    const done = await this.memory['memory.profileDelete']({
      profileId: this.profileId,
      learner: this.person.username,
      tag,
    });
    return done.deleted;
  }

  async deleteEdxMemory(id: number): Promise<boolean> {
    const done = await this.memory['memory.edxDelete']({
      profileId: this.profileId,
      learner: this.person.username,
      id,
    });
    return done.deleted;
  }

  /**
   * Takes the person off the tenant (`users/delete/`, through its owner). A person the platform no longer has
   * ("User … not found") was removed already (by this erasure before it was interrupted): false.
   */
  async removeUser(): Promise<boolean> {
    const api = new ResourceApi(this.client, this.scope);
    try {
      await api.removeUser(this.person.username, this.options);
      return true;
    } catch (error) {
      const said = error instanceof ApiError ? (error.body as { error?: unknown } | null)?.error : undefined;
      if (error instanceof ApiError && error.status === 400 && typeof said === 'string' && /not found/i.test(said))
        return false;
      throw error;
    }
  }
}
