/**
 * When the app says something on the desktop, and what: pure decisions shared by the Electron shell (which shows
 * Electron notifications, the window itself being refused every permission) and browser mode (the page's
 * Notification API). Nothing here touches a notification API; callers pass what they know and show what comes back.
 *
 * - New support tickets: only when the admin opted in, and only while they are not looking at the window (the badge
 *   and the queue say it then). Tickets that arrive before the admin looks again are gathered into one notification
 *   that replaces the previous one ("5 new support tickets"), quietly when the last one was moments ago.
 * - Jobs that end (training, invitations, exports; a queued ticket reply only when it failed): same rules, with
 *   their own setting, gathered the same way when several end together.
 *
 * Texts are plain: control characters and line breaks from the data are flattened, long subjects cut, and on Linux
 * (where notification servers read the body as markup) `&`, `<` and `>` are escaped, so a subject like
 * `<b>urgent</b>` or `<a href=…>` is shown as written, never as markup.
 */
import { formatBytes } from './bytes';
import type { Job, JobKind, JobState } from './contract';
import { IMPORT_WORDS_BY_JOB_KIND, importSummary } from './import-summary';

export interface DesktopNote {
  /** Notes with the same tag replace each other. */
  tag: string;
  title: string;
  body: string;
  /** Where a click takes the admin: a hash route of the app (`#/tickets/12`, `#/jobs/…`). */
  href: string;
  /** Replacing a note shown moments ago: update it without a sound. */
  silent: boolean;
}

export interface NotifyContext {
  /** The admin's setting for this kind of note. */
  enabled: boolean;
  /** The window is shown and has the focus: the admin sees the app, so the desktop says nothing. */
  looking: boolean;
  now: number;
}

/** A note replacing another shown less than this ago makes no sound. */
export const QUIET_MS = 30_000;
/** At most this many tickets or jobs are named in one note; the rest are counted. */
export const NAMED_IN_NOTE = 3;
const SUBJECT_MAX = 80;
const NAME_MAX = 40;
const BODY_MAX = 300;
/** Gathered items kept between looks (a count beyond this is still right: ids are not kept past it). */
const GATHER_MAX = 1000;

// ---------------------------------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------------------------------

/** One line of plain text: control characters, line breaks and runs of spaces become one space; cut with "…". */
export function oneLine(text: string, max: number): string {
  const flat = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return cut(flat, max);
}

/** Cuts at a code point boundary (never half an emoji) and marks the cut. */
function cut(text: string, max: number): string {
  const points = [...text];
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? word : many}`;
}

/** What the platform's notification server needs: on Linux the body is read as markup, so it is escaped there. */
export function noteForPlatform(note: DesktopNote, platform: string): DesktopNote {
  if (platform !== 'linux') return note;
  return { ...note, body: note.body.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') };
}

// ---------------------------------------------------------------------------------------------------------------
// New support tickets
// ---------------------------------------------------------------------------------------------------------------

export interface NewTicketInfo {
  id: number;
  subject: string;
  requester: string;
}

export interface TicketNoteState {
  /** Tickets announced since the admin last looked, newest first. */
  unseen: NewTicketInfo[];
  /** How many that is (also past GATHER_MAX). */
  count: number;
  lastShownAt: number | null;
}

export const NO_TICKET_NOTES: TicketNoteState = { unseen: [], count: 0, lastShownAt: null };
export const TICKETS_TAG = 'mentor-admin-tickets';

/** A `tickets.new` batch arrived: the note to show (or none) and what to remember for the next batch. */
export function newTicketsNote(
  state: TicketNoteState,
  tickets: readonly NewTicketInfo[],
  context: NotifyContext,
): { state: TicketNoteState; note: DesktopNote | null } {
  if (!context.enabled || context.looking) return { state: NO_TICKET_NOTES, note: null };
  const known = new Set(state.unseen.map((t) => t.id));
  const fresh: NewTicketInfo[] = [];
  for (const ticket of tickets) {
    if (known.has(ticket.id)) continue;
    known.add(ticket.id);
    fresh.push(ticket);
  }
  if (!fresh.length) return { state, note: null };
  // Newest first (ids grow with time), ahead of those already told.
  const unseen = [...fresh.sort((a, b) => b.id - a.id), ...state.unseen].slice(0, GATHER_MAX);
  const count = state.count + fresh.length;
  const note: DesktopNote = {
    tag: TICKETS_TAG,
    title: count === 1 ? 'New support ticket' : `${count.toLocaleString('en-US')} new support tickets`,
    body: ticketsBody(unseen, count),
    href: count === 1 ? `#/tickets/${unseen[0]!.id}` : '#/tickets/open',
    silent: state.lastShownAt !== null && context.now - state.lastShownAt < QUIET_MS,
  };
  return { state: { unseen, count, lastShownAt: context.now }, note };
}

function ticketLine(ticket: NewTicketInfo): { subject: string; requester: string } {
  return {
    subject: oneLine(ticket.subject, SUBJECT_MAX) || '(no subject)',
    requester: oneLine(ticket.requester, NAME_MAX) || 'a learner',
  };
}

function ticketsBody(unseen: NewTicketInfo[], count: number): string {
  if (count === 1) {
    const { subject, requester } = ticketLine(unseen[0]!);
    return `${subject}\nfrom ${requester}`;
  }
  const named = unseen.slice(0, NAMED_IN_NOTE).map((t) => {
    const { subject, requester } = ticketLine(t);
    return `${subject} — ${requester}`;
  });
  const rest = count - named.length;
  return cut([...named, ...(rest > 0 ? [`and ${rest.toLocaleString('en-US')} more`] : [])].join('\n'), BODY_MAX);
}

// ---------------------------------------------------------------------------------------------------------------
// Jobs that end
// ---------------------------------------------------------------------------------------------------------------

export const JOB_KIND_LABELS: Record<JobKind, string> = {
  train: 'Training',
  invite: 'Invitations',
  export: 'Export',
  'ticket-reply': 'Ticket replies',
  'resource-import': 'CSV imports',
  'resource-bulk': 'Bulk changes',
  'resource-members': 'Membership imports',
  'licence-seats': 'Licence seat imports',
  'mentor-bulk-set': 'Mentor settings changes',
  'mentor-eval': 'Mentor evaluations',
  'mentor-copy': 'Mentor copies',
  'person-export': 'Person exports',
  'person-erase': 'Person erasures',
  'session-export': 'Session exports',
  'badge-assertions': 'Badge issues',
  'catalogue-enrol': 'Enrolments from CSV',
  'catalogue-suggest': 'Course suggestions from CSV',
};

export const JOB_ENDINGS: readonly JobState[] = ['completed', 'failed'];
export const JOBS_TAG = 'mentor-admin-jobs';

export type EndedJob = Pick<Job, 'id' | 'kind' | 'title' | 'state' | 'error'> & {
  progress: Pick<Job['progress'], 'done' | 'failed' | 'skipped' | 'total'> & { bytesDone?: number };
  counts?: Job['counts'];
  /** A people file's dry run: its counts are what would be done. */
  dryRun?: Job['dryRun'];
};

/** How a job ended, in words (the in-app toast and the desktop note say the same). */
export function describeEnding(job: EndedJob): { title: string; message: string; ok: boolean } {
  const kind = JOB_KIND_LABELS[job.kind];
  const { done, failed, skipped, total } = job.progress;
  if (job.state === 'failed') {
    return { title: `${kind} failed`, message: `${job.title}: ${job.error ?? 'it could not go on'}`, ok: false };
  }
  if (job.kind === 'export') {
    // An export's items are the pages it fetched: what the admin gets is rows in a file of some size.
    const rows = job.counts?.rows ?? 0;
    return {
      title: `${kind} finished`,
      message: `${job.title} — ${plural(rows, 'row')}, ${formatBytes(job.progress.bytesDone)}.`,
      ok: true,
    };
  }
  const words = IMPORT_WORDS_BY_JOB_KIND[job.kind];
  if (words && job.counts) {
    // A people file says what its rows came to as its import dialog does (parts that add up), not "done, skipped".
    const summary = importSummary(job.counts, words, job.dryRun ?? false);
    return {
      title: failed ? `${kind} finished with ${plural(failed, 'failure')}` : `${kind} finished`,
      message: `${job.title} — ${plural(summary.rows, 'row')}: ${summary.sentence}.`,
      ok: failed === 0,
    };
  }
  const parts = [`${done} done`];
  if (failed) parts.push(`${failed} failed`);
  if (skipped) parts.push(`${skipped} skipped`);
  return {
    title: failed ? `${kind} finished with ${plural(failed, 'failure')}` : `${kind} finished`,
    message: `${job.title} — ${parts.join(', ')}${failed || skipped ? ` of ${total}` : ''}.`,
    ok: failed === 0,
  };
}

/** Several endings told together ("3 jobs ended", "2 completed, 1 failed"), where one toast each would stack up. */
export function summariseEndings(jobs: readonly Pick<EndedJob, 'state'>[]): {
  title: string;
  message: string;
  ok: boolean;
} {
  const completed = jobs.filter((job) => job.state === 'completed').length;
  const failed = jobs.length - completed;
  const parts = [completed ? `${completed} completed` : '', failed ? `${failed} failed` : ''].filter(Boolean);
  return { title: `${plural(jobs.length, 'job')} ended`, message: parts.join(', '), ok: failed === 0 };
}

export interface JobNoteState {
  /** The last state seen per job, so one ending is told once (a retried job that ends again is told again). */
  seen: Record<string, JobState>;
  /** Jobs that ended since the admin last looked, newest first. */
  ended: EndedJob[];
  lastShownAt: number | null;
}

export const NO_JOB_NOTES: JobNoteState = { seen: {}, ended: [], lastShownAt: null };

/** A `jobs.changed` event: is it an ending not told yet? (Then fetch the job and call `jobEndedNote`.) */
export function jobChanged(
  state: JobNoteState,
  event: { id: string; state: JobState; kind: JobKind },
): { state: JobNoteState; ended: boolean } {
  const previous = state.seen[event.id];
  const seen = { ...state.seen, [event.id]: event.state };
  // Bounded: a long session with thousands of jobs keeps only recent ones.
  const ids = Object.keys(seen);
  if (ids.length > GATHER_MAX) for (const id of ids.slice(0, ids.length - GATHER_MAX)) delete seen[id];
  const ended = JOB_ENDINGS.includes(event.state) && previous !== event.state;
  return { state: { ...state, seen }, ended };
}

/** Whether an ending is worth the desktop: a sent ticket reply is not news, a refused one is. */
export function endingWorthTelling(job: Pick<EndedJob, 'kind' | 'state'>): boolean {
  if (!JOB_ENDINGS.includes(job.state)) return false;
  return job.kind !== 'ticket-reply' || job.state === 'failed';
}

export function jobEndedNote(
  state: JobNoteState,
  job: EndedJob,
  context: NotifyContext,
): { state: JobNoteState; note: DesktopNote | null } {
  if (!context.enabled || context.looking) return { state: { ...state, ended: [] }, note: null };
  if (!endingWorthTelling(job)) return { state, note: null };
  const ended = [job, ...state.ended.filter((j) => j.id !== job.id)].slice(0, GATHER_MAX);
  let note: DesktopNote;
  const silent = state.lastShownAt !== null && context.now - state.lastShownAt < QUIET_MS;
  if (ended.length === 1) {
    const ending = describeEnding(job);
    note = {
      tag: JOBS_TAG,
      title: ending.title,
      body: cut(oneLine(ending.message, BODY_MAX), BODY_MAX),
      href: `#/jobs/${encodeURIComponent(job.id)}`,
      silent,
    };
  } else {
    const failed = ended.filter((j) => j.state === 'failed' || j.progress.failed > 0).length;
    const lines = ended.slice(0, NAMED_IN_NOTE).map((j) => {
      const ending = describeEnding(j);
      return `${oneLine(j.title, SUBJECT_MAX)} — ${ending.ok ? 'done' : j.state === 'failed' ? 'failed' : 'with failures'}`;
    });
    const rest = ended.length - lines.length;
    if (rest > 0) lines.push(`and ${rest.toLocaleString('en-US')} more`);
    note = {
      tag: JOBS_TAG,
      title: `${ended.length.toLocaleString('en-US')} jobs ended${failed ? `, ${failed} with problems` : ''}`,
      body: cut(lines.join('\n'), BODY_MAX),
      href: '#/jobs',
      silent,
    };
  }
  return { state: { ...state, ended, lastShownAt: context.now }, note };
}

/** The admin looks at the window again: what was told is seen; the next note starts afresh. */
export function lookedAgain<S extends TicketNoteState | JobNoteState>(state: S): S {
  return ('unseen' in state ? NO_TICKET_NOTES : { ...state, ended: [], lastShownAt: null }) as S;
}
