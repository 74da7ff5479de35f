import type { TicketConversation } from '../../../shared/contract';
import { ApiError } from '../platform';
import type { TicketApi } from './api';
import { describeFailure } from './sync';

const unavailable = (session: string | null, reason: string): TicketConversation => ({
  available: false,
  reason,
  session,
  startedAt: null,
  mentor: null,
  messages: [],
});

/**
 * The learner's chat session beside the ticket, from the analytics API (`chat-history/{session}/`). Tenants that do
 * not keep transcripts, keys that may not read them, and sessions that are gone all degrade to a reason.
 */
export async function fetchConversation(api: TicketApi, session: string | null): Promise<TicketConversation> {
  if (!session) return unavailable(null, 'This ticket names no chat session');
  let raw: unknown;
  try {
    raw = await api.conversation(session);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      return unavailable(session, 'The platform has no transcript for this session (it may have been cleared)');
    }
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      return unavailable(session, `This key may not read chat history (${error.status}): ask a platform admin`);
    }
    return unavailable(session, describeFailure(error));
  }
  const body = raw as { messages?: unknown; inserted_at?: unknown; mentor?: unknown };
  let items: unknown = body.messages;
  if (typeof items === 'string') {
    try {
      items = JSON.parse(items) as unknown;
    } catch {
      items = [];
    }
  }
  const messages = (Array.isArray(items) ? items : []).flatMap((m) => {
    const item = m as { type?: unknown; content?: unknown; timestamp?: unknown };
    if (typeof item.content !== 'string') return [];
    return [
      {
        role: item.type === 'human' || item.type === 'user' ? ('learner' as const) : ('mentor' as const),
        content: item.content,
        timestamp: typeof item.timestamp === 'string' ? item.timestamp : '',
      },
    ];
  });
  return {
    available: true,
    reason: messages.length ? null : 'The session has no messages',
    session,
    startedAt: typeof body.inserted_at === 'string' ? body.inserted_at : null,
    mentor: typeof body.mentor === 'string' ? body.mentor : null,
    messages,
  };
}
