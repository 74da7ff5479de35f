import type {
  TicketDetail,
  TicketMessage,
  TicketPriority,
  TicketSlaClock,
  TicketSlaTargets,
  TicketSummary,
} from '../../../shared/contract';
import { NOT_WAITING, type CachedMessage, type CachedTicket, type TicketView } from './cache';
import { richText } from './markup';

const HOUR = 3_600_000;

/** An SLA clock: due `hours` after the ticket was filed; met if done by then, breached if not (or still open past it). */
export function slaClock(start: string, hours: number | null, doneAt: string | null, now = Date.now()): TicketSlaClock {
  if (hours === null) return { state: 'none', dueAt: null, doneAt };
  const startMs = Date.parse(start);
  if (Number.isNaN(startMs)) return { state: 'none', dueAt: null, doneAt };
  const due = startMs + hours * HOUR;
  const dueAt = new Date(due).toISOString();
  if (doneAt) return { state: Date.parse(doneAt) <= due ? 'met' : 'breached', dueAt, doneAt };
  return { state: now > due ? 'breached' : 'pending', dueAt, doneAt: null };
}

function parseTags(raw: string | null): string[] {
  if (!raw) return [];
  try {
    const value = JSON.parse(raw) as unknown;
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

export function toSummary(row: TicketView, sla: TicketSlaTargets, now = Date.now()): TicketSummary {
  const resolvedAt = row.resolved_at ?? (row.status === 'closed' ? row.updated_at : null);
  return {
    id: row.id,
    subject: row.subject,
    status: row.status,
    requester: { userId: row.user_id, username: row.username, email: row.email, name: row.full_name },
    mentorId: row.mentor_id,
    mentorName: row.mentor_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    resolvedAt: row.resolved_at,
    activityAt: row.activity_at,
    waitingSince: row.waiting_since === NOT_WAITING ? null : row.waiting_since,
    messageCount: row.message_count,
    unread: !!row.unread,
    local: {
      assignee: row.assignee,
      priority: (row.priority as TicketPriority | null) ?? null,
      tags: parseTags(row.tags),
    },
    sla: {
      firstReply: slaClock(row.created_at, sla.firstReplyHours, row.first_staff_reply_at, now),
      resolution: slaClock(row.created_at, sla.resolutionHours, resolvedAt, now),
    },
  };
}

export function toDetail(row: TicketView, sla: TicketSlaTargets): TicketDetail {
  const rich = richText(row.description);
  return {
    ...toSummary(row, sla),
    session: row.session,
    description: row.description,
    descriptionDoc: rich.doc,
    remoteImages: rich.remoteImages,
    removed: rich.removed,
    draft: row.draft,
    readAt: row.read_at,
  };
}

/** Requester, staff or system: `sender` is the requester's user id, a staff id, or null for the platform. */
export function toMessage(
  m: Pick<CachedMessage, 'id' | 'ticket_id' | 'sender' | 'message' | 'timestamp'>,
  ticket: Pick<CachedTicket, 'user_id'> | undefined,
  myUserId: number | null,
): TicketMessage {
  const senderKind =
    m.sender === null
      ? 'system'
      : ticket && ticket.user_id !== null && m.sender === ticket.user_id
        ? 'requester'
        : 'staff';
  return {
    id: m.id,
    ticket: m.ticket_id,
    sender: m.sender,
    senderKind,
    mine: myUserId !== null && m.sender === myUserId,
    message: m.message,
    timestamp: m.timestamp,
  };
}
