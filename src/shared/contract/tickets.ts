/**
 * The support ticket queue: a local SQLite cache of the tenant's tickets and threads (full-text searchable), views
 * with counts, local-only triage fields, replies through the job journal, and live updates by adaptive polling.
 */
import { z } from 'zod';
import { CalendarDate } from './analytics';
import { call, event, Ok } from './kit';

const Tenant = { profileId: z.string().min(1).optional() };
const TicketId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const TICKET_STATUSES = ['open', 'in_progress', 'closed'] as const;
export const TicketStatus = z.enum(TICKET_STATUSES);
export type TicketStatus = z.infer<typeof TicketStatus>;

export const TICKET_SORTS = ['newest', 'oldest', 'activity', 'waiting'] as const;
export const TicketSort = z.enum(TICKET_SORTS);
export type TicketSort = z.infer<typeof TicketSort>;

export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const TicketPriority = z.enum(TICKET_PRIORITIES);
export type TicketPriority = z.infer<typeof TicketPriority>;

// ---------------------------------------------------------------------------------------------------------------
// Safe rich text: descriptions arrive as HTML or Markdown; the engine turns them into this tree of whitelisted
// nodes and the renderer draws only these (never raw HTML).
// ---------------------------------------------------------------------------------------------------------------

export const RICH_TAGS = [
  'p',
  'div',
  'span',
  'br',
  'hr',
  'strong',
  'em',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'a',
  'img',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
] as const;
export type RichTag = (typeof RICH_TAGS)[number];

export type RichNode =
  { t: 'text'; v: string } | { t: 'el'; tag: RichTag; href?: string; src?: string; alt?: string; children: RichNode[] };

/** http(s) and mailto only: anything else (javascript:, data:, vbscript:, relative) is not a link. */
export const SAFE_LINK_URL = /^(https?:\/\/[^\s]+|mailto:[^\s]+)$/i;

export const RichNode: z.ZodType<RichNode> = z.lazy(() =>
  z.union([
    z.object({ t: z.literal('text'), v: z.string() }),
    z.object({
      t: z.literal('el'),
      tag: z.enum(RICH_TAGS),
      href: z.string().regex(SAFE_LINK_URL).optional(),
      src: z
        .string()
        .regex(/^https?:\/\/[^\s]+$/i)
        .optional(),
      alt: z.string().optional(),
      children: z.array(RichNode),
    }),
  ]),
);

// ---------------------------------------------------------------------------------------------------------------
// Tickets
// ---------------------------------------------------------------------------------------------------------------

export const TicketSlaClock = z.object({
  /** 'none' when the view sets no target. */
  state: z.enum(['none', 'pending', 'met', 'breached']),
  dueAt: z.string().nullable(),
  /** When it was met (first staff reply / resolution), if it was. */
  doneAt: z.string().nullable(),
});
export type TicketSlaClock = z.infer<typeof TicketSlaClock>;

/** Fields kept only in this app (the platform has no assignee, priority, tags or SLA). */
export const TicketLocalFields = z.object({
  assignee: z.string().nullable(),
  priority: TicketPriority.nullable(),
  tags: z.array(z.string()),
});
export type TicketLocalFields = z.infer<typeof TicketLocalFields>;

export const TicketRequester = z.object({
  userId: z.number().nullable(),
  username: z.string(),
  email: z.string(),
  name: z.string(),
});

export const TicketSummary = z.object({
  id: z.number().int(),
  subject: z.string(),
  status: TicketStatus,
  requester: TicketRequester,
  mentorId: z.string(),
  mentorName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  resolvedAt: z.string().nullable(),
  /** The latest of updated_at and the newest message. */
  activityAt: z.string(),
  /** Since when the requester has been waiting for staff (null when not waiting). */
  waitingSince: z.string().nullable(),
  messageCount: z.number().int(),
  unread: z.boolean(),
  local: TicketLocalFields,
  sla: z.object({ firstReply: TicketSlaClock, resolution: TicketSlaClock }),
});
export type TicketSummary = z.infer<typeof TicketSummary>;

export const SENDER_KINDS = ['requester', 'staff', 'system'] as const;
export const TicketMessage = z.object({
  id: z.number().int(),
  ticket: z.number().int(),
  sender: z.number().nullable(),
  senderKind: z.enum(SENDER_KINDS),
  /** Sent by this app's user (the tenant connection). */
  mine: z.boolean(),
  message: z.string(),
  timestamp: z.string(),
});
export type TicketMessage = z.infer<typeof TicketMessage>;

export const TicketDetail = TicketSummary.extend({
  session: z.string().nullable(),
  description: z.string(),
  /** The description as safe rich text (script, handlers, frames and javascript: links removed). */
  descriptionDoc: z.array(RichNode),
  /** Remote images the description asks for (not loaded unless the admin asks). */
  remoteImages: z.number().int(),
  /** What was taken out of the description for safety (script, iframe, event handlers, unsafe links, …). */
  removed: z.array(z.string()),
  draft: z.string().nullable(),
  readAt: z.string().nullable(),
});
export type TicketDetail = z.infer<typeof TicketDetail>;

export const TicketSyncState = z.object({
  /** When the cache last matched the server (null before the first sync). */
  asOf: z.string().nullable(),
  state: z.enum(['idle', 'syncing', 'offline', 'error']),
  phase: z.string(),
  /** Tickets fetched / expected during a sync. */
  done: z.number().int(),
  total: z.number().int(),
  /** Share of the server's messages in the cache (threads are fetched in the background after tickets). */
  threadsCached: z.number().min(0).max(1),
  message: z.string().nullable(),
  /** Poll interval now in use (0 = paused, window hidden). */
  pollMs: z.number().int(),
});
export type TicketSyncState = z.infer<typeof TicketSyncState>;

// ---------------------------------------------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------------------------------------------

export const TicketSlaTargets = z.object({
  firstReplyHours: z
    .number()
    .positive()
    .max(24 * 365)
    .nullable(),
  resolutionHours: z
    .number()
    .positive()
    .max(24 * 365)
    .nullable(),
});
export type TicketSlaTargets = z.infer<typeof TicketSlaTargets>;

/** A calendar day (YYYY-MM-DD) that exists: 2026-02-30 is refused, as analytics refuses it. */
export const TicketDate = CalendarDate;

/** What a saved view selects. Every field narrows; absent fields do not. */
export const TicketFilter = z
  .object({
    statuses: z.array(TicketStatus).max(3).optional(),
    mentorId: z.string().min(1).max(200).optional(),
    /** Requester username, email or name (contains). */
    requester: z.string().trim().min(1).max(200).optional(),
    createdFrom: TicketDate.optional(),
    createdTo: TicketDate.optional(),
    text: z.string().trim().min(1).max(200).optional(),
    mine: z.boolean().optional(),
    unreadOnly: z.boolean().optional(),
    priority: TicketPriority.optional(),
    tag: z.string().trim().min(1).max(50).optional(),
  })
  .strict()
  .superRefine((filter, ctx) => {
    // No ticket is created after its 'to' day and before its 'from' day: such a view could only ever be empty.
    if (filter.createdFrom && filter.createdTo && filter.createdFrom > filter.createdTo) {
      ctx.addIssue({
        code: 'custom',
        path: ['createdTo'],
        message: `Invalid date range: the start date ${filter.createdFrom} is after the end date ${filter.createdTo}`,
      });
    }
  });
export type TicketFilter = z.infer<typeof TicketFilter>;

export const TicketView = z.object({
  /** 'open' | 'in_progress' | 'closed' | 'all' | 'mine' | 'mentor:<id>' | 'saved:<n>'. */
  id: z.string(),
  label: z.string(),
  kind: z.enum(['builtin', 'mentor', 'saved']),
  count: z.number().int(),
  unread: z.number().int(),
  filter: TicketFilter,
  sort: TicketSort.nullable(),
  /** The view's own targets; a null target follows the tenant's (tickets.slaDefaults). */
  sla: TicketSlaTargets,
});
export type TicketView = z.infer<typeof TicketView>;

export const TicketViewId = z
  .string()
  .regex(/^(open|in_progress|closed|all|mine|mentor:.{1,200}|saved:\d{1,12})$/, 'Unknown view');

export const CannedReply = z.object({
  id: z.number().int(),
  title: z.string(),
  body: z.string(),
});
export type CannedReply = z.infer<typeof CannedReply>;

/** Replaces {first_name} and {mentor} (and {name}, {username}) in a canned reply; unknown variables stay. */
export function expandCannedReply(
  body: string,
  ticket: { requester: { name: string; username: string }; mentorName: string | null; mentorId: string },
): string {
  const name = ticket.requester.name.trim();
  const values: Record<string, string> = {
    first_name: name.split(/\s+/)[0] || ticket.requester.username,
    name: name || ticket.requester.username,
    username: ticket.requester.username,
    mentor: ticket.mentorName ?? ticket.mentorId,
  };
  return body.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

// ---------------------------------------------------------------------------------------------------------------
// Calls
// ---------------------------------------------------------------------------------------------------------------

export const TicketReplyOutcome = z.object({
  /**
   * sent: on the server. queued: the tenant is unreachable; the reply waits in the job journal and is sent on
   * reconnect. changed: the ticket changed on the server since it was opened; nothing was sent (send again with
   * force). failed: refused (see message); the draft is kept.
   */
  state: z.enum(['sent', 'queued', 'changed', 'failed']),
  jobId: z.string(),
  message: z.string().nullable(),
  sent: TicketMessage.nullable(),
});
export type TicketReplyOutcome = z.infer<typeof TicketReplyOutcome>;

export const TicketBulkResult = z.object({
  results: z.array(
    z.object({
      id: z.number().int(),
      ok: z.boolean(),
      error: z.string().nullable(),
      ticket: TicketSummary.nullable(),
    }),
  ),
});
export type TicketBulkResult = z.infer<typeof TicketBulkResult>;

export const TicketConversation = z.object({
  /** false when the platform has no transcript for the session (or refuses it); `reason` says why. */
  available: z.boolean(),
  reason: z.string().nullable(),
  session: z.string().nullable(),
  startedAt: z.string().nullable(),
  mentor: z.string().nullable(),
  messages: z.array(z.object({ role: z.enum(['learner', 'mentor']), content: z.string(), timestamp: z.string() })),
});
export type TicketConversation = z.infer<typeof TicketConversation>;

export const QueuedReply = z.object({
  jobId: z.string(),
  message: z.string(),
  state: z.enum(['queued', 'running', 'paused', 'waiting', 'failed']),
  reason: z.string().nullable(),
  /** Paused because the ticket changed on the server after it was written: it may be sent anyway (tickets.sendQueued). */
  changed: z.boolean(),
  createdAt: z.string(),
});
export type QueuedReply = z.infer<typeof QueuedReply>;

export const TicketListInput = z
  .object({
    ...Tenant,
    view: TicketViewId.default('open'),
    /** Narrows the view further (ad hoc, e.g. from the CLI). */
    filter: TicketFilter.optional(),
    sort: TicketSort.optional(),
    search: z.string().trim().max(200).optional(),
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(1000).default(100),
    /** Sync with the server first (incremental; the first sync of a tenant fetches everything). */
    refresh: z.boolean().optional(),
  })
  .strict();
export type TicketListInput = z.input<typeof TicketListInput>;

const Ref = z.object({ ...Tenant, id: TicketId }).strict();
/** The platform's subject: at most 255 characters as it counts them (code points: an emoji is one, not two). */
const TicketSubject = z
  .string()
  .trim()
  .min(1, 'Subject is required')
  .refine((subject) => [...subject].length <= 255, 'Invalid request data: subject must have at most 255 characters');
/** How long a reply call waits for the server before answering 'queued' (the job goes on). */
const ReplyWaitMs = z.number().int().min(0).max(120_000).default(15_000);
const Ids = z.array(TicketId).min(1, 'Select at least one ticket').max(1000);

export const ticketCalls = {
  'tickets.sync': call(
    z
      .object({ ...Tenant, full: z.boolean().optional(), wait: z.boolean().optional() })
      .strict()
      .optional(),
    TicketSyncState,
    'Bring the local ticket cache up to date (incremental; full re-reads everything)',
  ),
  'tickets.status': call(z.object(Tenant).strict().optional(), TicketSyncState, 'Where the ticket cache stands'),
  'tickets.views': call(
    z.object(Tenant).strict().optional(),
    z.object({ views: z.array(TicketView), newCount: z.number().int(), me: z.string() }),
    'Built-in, per-mentor and saved views with counts and unread counts',
  ),
  'tickets.list': call(
    TicketListInput,
    z.object({ total: z.number().int(), rows: z.array(TicketSummary), sync: TicketSyncState }),
    'A window of a view, sorted, optionally searched (full text over subject, description and messages)',
  ),
  'tickets.get': call(
    z.object({ ...Tenant, id: TicketId, refresh: z.boolean().optional(), markRead: z.boolean().optional() }).strict(),
    z.object({
      ticket: TicketDetail,
      messages: z.array(TicketMessage),
      messageTotal: z.number().int(),
      /** Replies in the job journal not yet on the server (offline, waiting for a decision, or refused). */
      queued: z.array(QueuedReply),
      /** Set when the server could not be asked (the cache is shown). */
      offline: z.string().nullable(),
    }),
    'A ticket from the cache (refreshed from the server when asked) with the newest part of its thread',
  ),
  'tickets.image': call(
    z
      .object({
        ...Tenant,
        id: TicketId,
        src: z
          .string()
          .max(8192)
          .regex(/^https?:\/\/[^\s]+$/i, 'Only http(s) images'),
      })
      .strict(),
    z.object({ dataUrl: z.string(), type: z.string(), bytes: z.number().int() }),
    "One remote image of a ticket's description, fetched by the engine when the admin asks (the window itself never loads remote images)",
  ),
  'tickets.messages': call(
    z
      .object({
        ...Tenant,
        id: TicketId,
        /** Messages before this position in the thread (oldest = 0); default: the newest. */
        before: z.number().int().min(0).optional(),
        limit: z.number().int().min(1).max(1000).default(200),
      })
      .strict(),
    z.object({ messages: z.array(TicketMessage), total: z.number().int(), start: z.number().int() }),
    'A slice of a thread in time order (long threads are read in slices)',
  ),
  'tickets.conversation': call(
    Ref,
    TicketConversation,
    "The learner's chat session the ticket came from (analytics API; empty when unavailable)",
  ),
  'tickets.reply': call(
    z
      .object({
        ...Tenant,
        id: TicketId,
        // The platform sets no length on a message (nor on its draft here): the bridge's frame size is the only bound.
        message: z.string().trim().min(1, 'Write a reply first'),
        /** What the admin saw when writing: the ticket's updated_at and message count. */
        seen: z.object({ updatedAt: z.string(), messageCount: z.number().int().min(0) }).optional(),
        /** Send even though the ticket changed on the server. */
        force: z.boolean().optional(),
        waitMs: ReplyWaitMs,
      })
      .strict(),
    TicketReplyOutcome,
    'Reply on a ticket: written to the job journal first, sent after a change check',
  ),
  'tickets.sendQueued': call(
    z
      .object({
        ...Tenant,
        /** The queued reply's job (QueuedReply.jobId). */
        jobId: z.string().min(1).max(100),
        waitMs: ReplyWaitMs,
      })
      .strict(),
    TicketReplyOutcome,
    'Send anyway: a queued reply paused because the ticket changed on the server goes out as written, in the same job',
  ),
  'tickets.setStatus': call(
    z.object({ ...Tenant, ids: Ids, status: TicketStatus }).strict(),
    TicketBulkResult,
    'Set in progress, close (through close/, which stamps resolved_at) or reopen one or more tickets',
  ),
  'tickets.update': call(
    z.object({ ...Tenant, id: TicketId, subject: TicketSubject }).strict(),
    TicketSummary,
    "Edit a ticket's subject",
  ),
  'tickets.delete': call(Ref, Ok, 'Delete a ticket on the server'),
  'tickets.setLocal': call(
    z
      .object({
        ...Tenant,
        ids: Ids,
        /** A name, 'me' for the tenant connection's user, or null to unclaim. */
        assignee: z.string().trim().min(1).max(100).nullable().optional(),
        priority: TicketPriority.nullable().optional(),
        tags: z.array(z.string().trim().min(1).max(50)).max(20).optional(),
      })
      .strict(),
    z.object({ updated: z.number().int() }),
    'Set local-only fields (claim, priority, tags); never sent to the platform',
  ),
  'tickets.markRead': call(
    z.object({ ...Tenant, ids: Ids, read: z.boolean() }).strict(),
    z.object({ updated: z.number().int() }),
    'Mark tickets read or unread (kept locally)',
  ),
  'tickets.saveDraft': call(
    z.object({ ...Tenant, id: TicketId, text: z.string() }).strict(),
    Ok,
    'Keep a reply draft for a ticket (empty text removes it)',
  ),
  'tickets.saveView': call(
    z
      .object({
        ...Tenant,
        /** A saved view's id to change it, a built-in or mentor view id to set its SLA targets; absent to add. */
        id: z.string().max(220).optional(),
        name: z.string().trim().min(1, 'Name the view').max(80).optional(),
        filter: TicketFilter.optional(),
        sort: TicketSort.nullable().optional(),
        sla: TicketSlaTargets.optional(),
      })
      .strict(),
    TicketView,
    'Save a custom view (status, mentor, requester, dates, text) or set the SLA targets of a view',
  ),
  'tickets.slaDefaults': call(
    z.object(Tenant).strict().optional(),
    TicketSlaTargets,
    "The tenant's SLA targets, for every view that sets none of its own (none until the admin sets them)",
  ),
  'tickets.setSlaDefaults': call(
    z.object({ ...Tenant, ...TicketSlaTargets.shape }).strict(),
    TicketSlaTargets,
    "Set the tenant's SLA targets (local only: the platform has no SLA); null turns a clock off",
  ),
  'tickets.deleteView': call(
    z.object({ ...Tenant, id: z.string().min(1).max(40) }).strict(),
    Ok,
    'Remove a saved view',
  ),
  'tickets.cannedReplies': call(
    z.object({}).strict().optional(),
    z.object({ replies: z.array(CannedReply) }),
    'Canned replies kept locally',
  ),
  'tickets.saveCannedReply': call(
    z
      .object({
        id: z.number().int().optional(),
        title: z.string().trim().min(1, 'Give it a title').max(100),
        body: z.string().trim().min(1, 'Write the reply').max(20_000),
      })
      .strict(),
    CannedReply,
    'Add or change a canned reply ({first_name} and {mentor} are filled in)',
  ),
  'tickets.deleteCannedReply': call(z.object({ id: z.number().int() }).strict(), Ok, 'Remove a canned reply'),
  'tickets.watch': call(
    z.object({ ...Tenant, visible: z.boolean() }).strict(),
    TicketSyncState,
    'The window is shown or hidden: polling runs while shown and pauses while hidden',
  ),
} as const;

export const ticketEvents = {
  /**
   * The cache changed (ids when known): the tenant's lists, counts and tickets are read again. A chat transcript,
   * the canned replies and fetched images do not change with it.
   */
  'tickets.changed': event(
    z.object({
      profileId: z.string(),
      ids: z.array(z.number().int()).nullable(),
      reason: z.enum(['sync', 'update', 'reply', 'deleted', 'local']),
    }),
    {
      invalidates: [
        { call: 'tickets.views', by: ['profileId'] },
        { call: 'tickets.list', by: ['profileId'] },
        { call: 'tickets.get', by: ['profileId'] },
        { call: 'tickets.messages', by: ['profileId'] },
        { call: 'tickets.status', by: ['profileId'] },
        { call: 'tickets.slaDefaults', by: ['profileId'] },
      ],
    },
  ),
  /** Tickets that appeared since the last poll (for the badge and the desktop notification). */
  'tickets.new': event(
    z.object({
      profileId: z.string(),
      tickets: z.array(z.object({ id: z.number().int(), subject: z.string(), requester: z.string() })),
    }),
  ),
  /** Where the ticket cache stands: the new answer of `tickets.status`. */
  'tickets.sync': event(z.object({ profileId: z.string(), sync: TicketSyncState }), {
    updates: [{ call: 'tickets.status', by: ['profileId'], answer: ({ sync }) => sync }],
  }),
} as const;
