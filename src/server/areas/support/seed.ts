import type { AreaDeps, SeedSize } from '../../area';
import type { Db } from '../../db';
import type { Rng } from '../../rng';
import { MAIN_ORG, STUDENT_USER } from '../core';
import { activeMentors, type MentorRow } from '../mentor-store';
import {
  descriptionFor,
  HOSTILE_DESCRIPTIONS,
  learnerLine,
  pickTopic,
  staffLine,
  subjectFor,
  SYSTEM_CLOSED,
  SYSTEM_OPENED,
  type TicketContext,
} from './content';
import { supportSchema } from './schema';
import { ticketWriter, type Requester, type TicketStatus } from './store';

const MINUTE = 60_000;
const DAY = 86_400_000;
const WINDOW_DAYS = 180;
const STUDENT_STATUSES: readonly TicketStatus[] = ['open', 'in_progress', 'closed'];

export const ticketCount = (size: Exclude<SeedSize, 'none'>) => (size === 'large' ? 100_000 : 300);

interface ChatSession {
  id: string;
  learner: Requester;
  mentor: MentorRow;
  started: number;
}

export function loadLearners(db: Db, org: string): Requester[] {
  return db
    .prepare(
      `SELECT id, username, email, first_name, last_name FROM users WHERE org = ? AND role = 'student' AND is_active = 1 ORDER BY id`,
    )
    .all(org) as Requester[];
}

/**
 * Chat sessions of the analytics area (seeded before this one), so a ticket points at the conversation it came
 * from. Absent or differently shaped table → no sessions, and tickets get fresh session ids.
 */
function loadChatSessions(db: Db, learners: Map<string, Requester>, mentors: Map<string, MentorRow>): ChatSession[] {
  const table = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chat_sessions'`).get();
  if (!table) return [];
  const sessions: ChatSession[] = [];
  try {
    const rows = db
      .prepare('SELECT session_id, username, mentor_unique_id, started_at FROM chat_sessions ORDER BY rowid')
      .raw()
      .iterate() as IterableIterator<[string, string, string, string]>;
    for (const [id, username, mentorId, startedAt] of rows) {
      const learner = learners.get(username);
      const mentor = mentors.get(mentorId);
      const started = Date.parse(startedAt);
      if (learner && mentor && id && Number.isFinite(started))
        sessions.push({ id: String(id).toLowerCase(), learner, mentor, started });
    }
  } catch {
    return [];
  }
  return sessions;
}

function statusForAge(rng: Rng, ageDays: number): TicketStatus {
  const r = rng.next();
  if (ageDays < 3) return r < 0.55 ? 'open' : r < 0.85 ? 'in_progress' : 'closed';
  if (ageDays < 21) return r < 0.25 ? 'open' : r < 0.55 ? 'in_progress' : 'closed';
  return r < 0.1 ? 'open' : r < 0.25 ? 'in_progress' : 'closed';
}

/**
 * Tickets of the main tenant over the last 180 days with their threads (system, requester and staff messages).
 * Runs inside the seeding transaction with prepared statements: 100k tickets take a few seconds.
 */
export function seedSupport(deps: AreaDeps, size: Exclude<SeedSize, 'none'>, rng: Rng): void {
  const { db } = deps;
  const mentors = activeMentors(deps, MAIN_ORG);
  const learners = loadLearners(db, MAIN_ORG);
  const staff = (
    db.prepare(`SELECT id FROM users WHERE org = ? AND role = 'admin' ORDER BY id`).all(MAIN_ORG) as { id: number }[]
  ).map((r) => r.id);
  if (!mentors.length || !learners.length || !staff.length) return;

  const sessions = loadChatSessions(
    db,
    new Map(learners.map((l) => [l.username, l])),
    new Map(mentors.map((m) => [m.unique_id, m])),
  );
  const sessionsByPair = new Map<string, string[]>();
  for (const s of sessions) {
    const key = `${s.learner.id}|${s.mentor.unique_id}`;
    const list = sessionsByPair.get(key);
    if (list) list.push(s.id);
    else sessionsByPair.set(key, [s.id]);
  }

  const student = learners.find((l) => l.username === STUDENT_USER);
  const anchor = deps.now().getTime();
  const earliest = anchor - WINDOW_DAYS * DAY;
  const randomCreated = () => anchor - Math.floor(Math.pow(rng.next(), 1.4) * WINDOW_DAYS * DAY);
  const iso = (ms: number) => new Date(Math.min(ms, anchor)).toISOString();
  const write = ticketWriter(db);
  const count = ticketCount(size);
  // Building the indexes once after a large load is several times faster than updating them row by row.
  const rebuildIndexes = count > 10_000;
  if (rebuildIndexes) {
    const indexes = db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
         AND tbl_name IN ('support_tickets', 'support_ticket_messages')`,
      )
      .all() as { name: string }[];
    for (const { name } of indexes) db.exec(`DROP INDEX "${name}"`);
  }

  for (let i = 0; i < count; i++) {
    let learner: Requester;
    let mentor: MentorRow;
    let session: string;
    let created: number;
    // The sandbox's student key user has one ticket in each state, so the learner's view is never empty.
    const ownTicket = student && i < STUDENT_STATUSES.length;
    if (ownTicket) {
      learner = student;
      mentor = rng.pick(mentors);
      const known = sessionsByPair.get(`${learner.id}|${mentor.unique_id}`);
      session = known ? rng.pick(known) : rng.uuid();
      created = anchor - rng.int(1, 10) * DAY - rng.int(0, 1000) * MINUTE;
    } else if (sessions.length && rng.chance(0.85)) {
      const s = rng.pick(sessions);
      ({ learner, mentor } = s);
      session = s.id;
      created = s.started + rng.int(2, 40) * MINUTE;
      if (created >= anchor || created < earliest) created = randomCreated();
    } else {
      learner = rng.pick(learners);
      mentor = rng.pick(mentors);
      const known = sessionsByPair.get(`${learner.id}|${mentor.unique_id}`);
      session = known ? rng.pick(known) : rng.uuid();
      created = randomCreated();
    }

    const context: TicketContext = {
      mentor: mentor.name,
      learner: learner.first_name || learner.username,
      topic: pickTopic(rng),
    };
    const question = learnerLine(rng, context);
    // A few hostile descriptions at fixed positions, so every demo database has them.
    const description =
      i % 50 === 7
        ? HOSTILE_DESCRIPTIONS[Math.floor(i / 50) % HOSTILE_DESCRIPTIONS.length]!
        : descriptionFor(rng, context, question);
    const status = ownTicket ? STUDENT_STATUSES[i]! : statusForAge(rng, (anchor - created) / DAY);

    // The thread: the mentor's system note, the learner's request, then staff and learner replies.
    const thread: [number | null, string, number][] = [[null, SYSTEM_OPENED(context), created]];
    let t = created + rng.int(1, 10) * MINUTE;
    thread.push([learner.id, question, t]);
    let updated = created;
    let resolved: number | null = null;
    if (status === 'open') {
      if (rng.chance(0.4)) thread.push([learner.id, learnerLine(rng, context), (t += rng.int(30, 60 * 24) * MINUTE)]);
    } else {
      const replies = status === 'in_progress' ? rng.int(1, 3) : rng.int(1, 4);
      for (let k = 0; k < replies; k++) {
        thread.push([rng.pick(staff), staffLine(rng, context), (t += rng.int(10, 60 * 20) * MINUTE)]);
        if (k === 0) updated = t; // the first staff answer moved the ticket to in progress
        if (rng.chance(0.7)) thread.push([learner.id, learnerLine(rng, context), (t += rng.int(5, 60 * 30) * MINUTE)]);
      }
      if (status === 'closed') {
        const closedAt = (t += rng.int(5, 600) * MINUTE);
        updated = closedAt;
        // Most tickets are closed with close/ (stamps resolved_at); some by a PATCH, which does not.
        if (rng.chance(0.85)) {
          resolved = closedAt;
          thread.push([null, SYSTEM_CLOSED, closedAt]);
        }
      }
    }

    const id = write.ticket({
      org: MAIN_ORG,
      requester: learner,
      session,
      subject: subjectFor(rng, context),
      description,
      status,
      mentorId: mentor.unique_id,
      createdAt: iso(created),
      updatedAt: iso(updated),
      resolvedAt: resolved === null ? null : iso(resolved),
    });
    for (const [sender, message, at] of thread) write.message(id, MAIN_ORG, sender, message, iso(at));
  }
  if (rebuildIndexes) db.exec(supportSchema);
}
