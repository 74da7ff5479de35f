import { z } from 'zod';
import type { TicketStatus } from '../../../shared/contract';
import type { PlatformClient } from '../platform';

/** The support-ticket endpoints (API-MAP §4c) and the chat transcript of a session (§4d). */

export interface Scope {
  org: string;
  username: string;
}

/** `HumanSupportTicket`, checked at the boundary: a row that does not fit is reported, never silently cast. */
export const ApiTicket = z.object({
  id: z.number().int(),
  username: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  email: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  full_name: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  user: z
    .number()
    .int()
    .nullish()
    .transform((v) => v ?? null),
  session: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  subject: z.string(),
  description: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  status: z.enum(['open', 'in_progress', 'closed']),
  mentor_id: z
    .union([z.string(), z.number()])
    .nullish()
    .transform((v) => (v == null ? '' : String(v))),
  created_at: z.string(),
  updated_at: z.string(),
  resolved_at: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
});
export type ApiTicket = z.output<typeof ApiTicket>;

export const ApiMessage = z.object({
  id: z.number().int(),
  ticket: z.number().int(),
  sender: z
    .number()
    .int()
    .nullish()
    .transform((v) => v ?? null),
  message: z.string(),
  timestamp: z.string(),
});
export type ApiMessage = z.output<typeof ApiMessage>;

interface Page<T> {
  count: number;
  next: string | null;
  results: T[];
}

const PageShape = z.object({ count: z.number().int(), next: z.string().nullish(), results: z.array(z.unknown()) });

/** Parses a DRF page row by row; rows that do not fit are counted (and logged by the caller). */
function parsePage<T>(raw: unknown, row: z.ZodType<T>): Page<T> & { invalid: number } {
  const page = PageShape.parse(raw);
  const results: T[] = [];
  let invalid = 0;
  for (const item of page.results) {
    const parsed = row.safeParse(item);
    if (parsed.success) results.push(parsed.data);
    else invalid++;
  }
  return { count: page.count, next: page.next ?? null, results, invalid };
}

export interface ListOptions {
  page: number;
  pageSize: number;
  ordering?: '-created_at' | '-updated_at';
  status?: TicketStatus;
  signal?: AbortSignal;
}

export class TicketApi {
  constructor(
    private readonly client: PlatformClient,
    readonly scope: Scope,
  ) {}

  private get user() {
    return { org: this.scope.org, user_id: this.scope.username };
  }

  async tickets(options: ListOptions) {
    const { data } = await this.client.api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/support-tickets/', {
      params: {
        path: this.user,
        query: {
          page: options.page,
          page_size: options.pageSize,
          // Beyond the spec's parameters: DRF's ordering, which the sandbox and platforms with it honour.
          ordering: options.ordering,
          status: options.status,
        },
      },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return parsePage(data, ApiTicket);
  }

  async ticket(id: number, signal?: AbortSignal): Promise<ApiTicket> {
    const { data } = await this.client.api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/support-tickets/{id}/', {
      params: { path: { ...this.user, id } },
      ...(signal ? { signal } : {}),
    });
    return ApiTicket.parse(data);
  }

  async patch(id: number, fields: { subject?: string; status?: TicketStatus }): Promise<ApiTicket> {
    const { data } = await this.client.api.PATCH('/api/ai-mentor/orgs/{org}/users/{user_id}/support-tickets/{id}/', {
      params: { path: { ...this.user, id } },
      body: fields,
    });
    return ApiTicket.parse(data);
  }

  /** `close/` sets closed and stamps resolved_at; the spec declares no body, so the ticket is read back if absent. */
  async close(id: number): Promise<ApiTicket> {
    const { data: text } = await this.client.api.POST(
      '/api/ai-mentor/orgs/{org}/users/{user_id}/support-tickets/{id}/close/',
      { params: { path: { ...this.user, id } }, parseAs: 'text' },
    );
    try {
      const parsed = ApiTicket.safeParse(JSON.parse(text ?? ''));
      if (parsed.success) return parsed.data;
    } catch {
      // no body, or not a ticket
    }
    return this.ticket(id);
  }

  async remove(id: number): Promise<void> {
    await this.client.api.DELETE('/api/ai-mentor/orgs/{org}/users/{user_id}/support-tickets/{id}/', {
      params: { path: { ...this.user, id } },
      parseAs: 'text',
    });
  }

  /** Messages in time order; with `ticket`, one thread. */
  async messages(options: { ticket?: number; page: number; pageSize: number; signal?: AbortSignal }) {
    const { data } = await this.client.api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/support-ticket-messages/', {
      params: { path: this.user, query: { ticket: options.ticket, page: options.page, page_size: options.pageSize } },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return parsePage(data, ApiMessage);
  }

  /** A whole thread, page by page. */
  async thread(ticket: number, signal?: AbortSignal): Promise<ApiMessage[]> {
    const all: ApiMessage[] = [];
    for (let page = 1; ; page++) {
      const result = await this.messages({ ticket, page, pageSize: 1000, ...(signal ? { signal } : {}) });
      all.push(...result.results);
      if (!result.next || !result.results.length) return all;
    }
  }

  /** Not retried after a lost answer: the POST may have been applied (the reply job checks before resending). */
  async reply(ticket: number, message: string): Promise<ApiMessage> {
    const { data } = await this.client.api.POST('/api/ai-mentor/orgs/{org}/users/{user_id}/support-ticket-messages/', {
      params: { path: this.user },
      body: { ticket, message },
    });
    return ApiMessage.parse(data);
  }

  /** Mentor names for views (unique id → name); the list is DRF-paginated. */
  async mentorNames(signal?: AbortSignal): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    for (let page = 1; page <= 20; page++) {
      const { data } = await this.client.api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/', {
        params: { path: this.user, query: { page, page_size: 200 } },
        ...(signal ? { signal } : {}),
      });
      const answer = MentorNamePage.parse(data);
      for (const item of answer.results) {
        const row = item as { unique_id?: unknown; name?: unknown };
        if (typeof row.unique_id === 'string' && typeof row.name === 'string') names.set(row.unique_id, row.name);
      }
      if (!answer.next) break;
    }
    return names;
  }

  /** The chat session a ticket came from (`Conversations`: `messages` is a JSON string of {type, content, timestamp}). */
  async conversation(session: string): Promise<unknown> {
    const { data } = await this.client.api.GET('/api/ai-analytics/orgs/{org}/users/{user_id}/chat-history/{id}/', {
      params: { path: { ...this.user, id: session } },
    });
    return data;
  }
}

/** `PaginatedMentorList`, only as far as names go: rows without a unique id and a name are passed over. */
const MentorNamePage = z.object({ next: z.string().nullish(), results: z.array(z.unknown()).default([]) });
