/**
 * Negative feedback in the review queue: the conversations learners rated down. The spec lists no feedback entries
 * (`mentor-feedback/` has only `{id}/` and `create/`; `user-feedback/` answers counts per period), but chat-history
 * gives each conversation its `rating` (-1 a thumbs down). A rating is the conversation's, not a message's: the item
 * points at the mentor's last answer, the one the learner had just read when rating.
 */
import type { ReviewConversation } from '../../../shared/contract';
import type { ApiConversation, ReviewApi } from './api';
import type { CachedItem } from './store';

/** How far back the queue reads conversations for their ratings (every page holds whole transcripts). */
export const FEEDBACK_DAYS = 30;
const PAGE = 100;
/** The rated answer kept as the item's text (the whole conversation is read when the item is opened). */
const ANSWER_CHARS = 2000;
export const RATED_DOWN = 'Rated down by the learner';

/** Chat history items as the tickets area reads them: `messages` is a JSON string or a list of {type, content, timestamp}. */
export function messagesOf(raw: unknown): ReviewConversation['messages'] {
  let items = raw;
  if (typeof items === 'string') {
    try {
      items = JSON.parse(items) as unknown;
    } catch {
      items = [];
    }
  }
  return (Array.isArray(items) ? items : []).flatMap((m) => {
    const item = m as { type?: unknown; content?: unknown; timestamp?: unknown };
    if (typeof item.content !== 'string') return [];
    const role = item.type === 'human' || item.type === 'user' ? ('learner' as const) : ('mentor' as const);
    return [{ role, content: item.content, timestamp: typeof item.timestamp === 'string' ? item.timestamp : '' }];
  });
}

/** The index of the rated message: the mentor's last answer (null when the mentor never answered). */
export function ratedIndex(messages: ReviewConversation['messages']): number | null {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'mentor') return i;
  return null;
}

/** A conversation rated down as a queue item; `mentors` maps a mentor's unique id to the integer id logs use. */
export function toFeedbackItem(c: ApiConversation, mentors: Map<string, number>): CachedItem {
  const messages = messagesOf(c.messages);
  const index = ratedIndex(messages);
  const answer = index === null ? null : messages[index]!;
  const at = Date.parse(answer?.timestamp ?? '') || Date.parse(c.inserted_at) || 0;
  return {
    id: `feedback:${c.id}`,
    source: 'Negative feedback',
    logId: null,
    session: c.id,
    messageIndex: index,
    learner: c.student,
    email: c.email,
    // 0 when the mentor is not in the tenant's list any more (shown as an unknown mentor, counted apart).
    mentorId: (c.mentor ? mentors.get(c.mentor.toLowerCase()) : undefined) ?? 0,
    prompt: (answer?.content ?? '').slice(0, ANSWER_CHARS),
    reason: RATED_DOWN,
    createdAt: new Date(at).toISOString(),
  };
}

/** The conversations of the last FEEDBACK_DAYS days rated down, as queue items. */
export async function readRatedDown(
  api: ReviewApi,
  mentors: Map<string, number>,
  now = new Date(),
): Promise<CachedItem[]> {
  const from = new Date(now.getTime() - FEEDBACK_DAYS * 86_400_000).toISOString().slice(0, 10);
  const out: CachedItem[] = [];
  for (let page = 1; ; page++) {
    const answer = await api.conversationsSince(from, page, PAGE);
    for (const c of answer.results) if (c.rating === -1) out.push(toFeedbackItem(c, mentors));
    if (!answer.next || !answer.results.length) return out;
  }
}
