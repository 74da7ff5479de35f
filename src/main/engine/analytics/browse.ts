/** The conversations browser: chat history filtered like the platform allows, and one conversation's transcript. */
import type { ConversationRow } from '../../../shared/contract';
import { EngineError } from '../errors';
import { ApiError } from '../platform';
import { parseTranscript, type AnalyticsApi, type ApiConversation } from './api';
import type { Resolved } from './services';

export function toConversationRow(
  c: ApiConversation,
  mentorNames: Map<string, string>,
  messages?: number,
): ConversationRow {
  return {
    id: c.id,
    startedAt: c.inserted_at,
    mentorId: c.mentor,
    mentor: mentorNames.get(c.mentor) ?? '',
    learner: c.student,
    email: c.email,
    topics: c.topics.map((t) => t.name),
    sentiment: c.sentiment,
    // The spec's rating is an integer: 1 up, -1 down, 0 when the learner did not rate.
    rating: c.rating === 0 ? null : c.rating,
    model: c.model,
    messages: messages ?? c.metadata?.message_count ?? 0,
  };
}

export interface ConversationFilters {
  sentiment?: string | undefined;
  topics?: string[] | undefined;
  learner?: string | undefined;
  page: number;
  pageSize: number;
}

export async function browseConversations(r: Resolved, filters: ConversationFilters, mentorNames: Map<string, string>) {
  const query = {
    start_date: r.range.from,
    end_date: r.range.to,
    mentor: r.mentorId,
    sentiment: filters.sentiment,
    topics: filters.topics?.length ? filters.topics.join(',') : undefined,
    filter_user_id: filters.learner,
  };
  const notes: string[] = [];
  if (r.timeZone !== 'UTC') notes.push('Dates are whole UTC days, as the platform filters conversations by date.');
  // The chat-history endpoint takes no department (see the spec): the Overview's department must not look applied.
  if (r.department) notes.push('Not filtered by department: the platform cannot filter conversations by department.');
  try {
    const page = await r.api.conversationsPage(
      { ...query, page: filters.page, page_size: filters.pageSize },
      { quick: true },
    );
    return { count: page.count, rows: page.results.map((c) => toConversationRow(c, mentorNames)), notes };
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404 && filters.page > 1)) throw error;
    // DRF answers a page past the end with 404 'Invalid page.': no rows there, but the count still stands (the
    // screen shows it and pages back), so it is asked for with the smallest page.
    const first = await r.api.conversationsPage({ ...query, page: 1, page_size: 1 }, { quick: true });
    return { count: first.count, rows: [], notes };
  }
}

export async function readConversation(api: AnalyticsApi, id: string, mentorNames: Map<string, string>) {
  let conversation: ApiConversation;
  try {
    conversation = await api.conversation(id, { quick: true });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404)
      throw new EngineError('not_found', `No conversation '${id}'`);
    throw error;
  }
  const transcript = parseTranscript(conversation, 'chat-history/{id}/').map((m) => ({
    role:
      m.type === 'human' || m.type === 'user'
        ? ('human' as const)
        : m.type === 'ai' || m.type === 'assistant'
          ? ('ai' as const)
          : ('other' as const),
    content: m.content,
    at: m.timestamp,
  }));
  return { conversation: toConversationRow(conversation, mentorNames, transcript.length), transcript };
}
