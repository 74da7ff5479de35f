import { randomUUID } from 'node:crypto';
import type { AreaDeps } from '../../area';
import { Rng } from '../../rng';
import { MAIN_ORG } from '../core';
import { activeMentors } from '../mentor-store';
import { descriptionFor, learnerLine, pickTopic, subjectFor, SYSTEM_OPENED, type TicketContext } from './content';
import { ticketWriter, type Requester } from './store';

/**
 * `--simulate RATE`: about RATE events a minute (with jitter), each either a new ticket filed by a mentor's
 * human-support tool or a learner reply on an open ticket, so queues change while the app watches.
 * Returns the function that stops it.
 */
export function startSimulator(deps: AreaDeps): () => void {
  const rate = deps.config.simulateRate;
  if (!(rate > 0)) return () => {};
  const { db } = deps;
  const rng = new Rng(Date.now());
  const write = ticketWriter(db);
  const openTickets = db.prepare(
    `SELECT t.id, t.user_id, coalesce(m.name, 'the mentor') AS mentor FROM support_tickets t
     LEFT JOIN mentors m ON m.unique_id = t.mentor_id
     WHERE t.org = ? AND t.status IN ('open', 'in_progress') ORDER BY t.created_at DESC LIMIT 50`,
  );
  const learnerCount = db.prepare(
    `SELECT count(*) AS n FROM users WHERE org = ? AND role = 'student' AND is_active = 1`,
  );
  const learnerAt = db.prepare(
    `SELECT id, username, email, first_name, last_name FROM users WHERE org = ? AND role = 'student' AND is_active = 1
     ORDER BY id LIMIT 1 OFFSET ?`,
  );
  const meanDelay = 60_000 / rate;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let first = true;

  function fileTicket(): boolean {
    const mentors = activeMentors(deps, MAIN_ORG);
    const { n } = learnerCount.get(MAIN_ORG) as { n: number };
    if (!mentors.length || !n) return false;
    const learner = learnerAt.get(MAIN_ORG, rng.int(0, n - 1)) as Requester;
    const mentor = rng.pick(mentors);
    const context: TicketContext = {
      mentor: mentor.name,
      learner: learner.first_name || learner.username,
      topic: pickTopic(rng),
    };
    const question = learnerLine(rng, context);
    const now = deps.now().toISOString();
    db.transaction(() => {
      const id = write.ticket({
        org: MAIN_ORG,
        requester: learner,
        session: randomUUID(),
        subject: subjectFor(rng, context),
        description: descriptionFor(rng, context, question),
        status: 'open',
        mentorId: mentor.unique_id,
        createdAt: now,
        updatedAt: now,
        resolvedAt: null,
      });
      write.message(id, MAIN_ORG, null, SYSTEM_OPENED(context), now);
      write.message(id, MAIN_ORG, learner.id, question, now);
    })();
    return true;
  }

  function learnerReply(): boolean {
    const open = openTickets.all(MAIN_ORG) as { id: number; user_id: number; mentor: string }[];
    if (!open.length) return false;
    const ticket = rng.pick(open);
    const context: TicketContext = { mentor: ticket.mentor, learner: '', topic: pickTopic(rng) };
    write.message(ticket.id, MAIN_ORG, ticket.user_id, learnerLine(rng, context), deps.now().toISOString());
    return true;
  }

  function tick(): void {
    if (stopped) return;
    try {
      // The first event always files a ticket, so a watcher sees a new one promptly.
      if (first || rng.chance(0.5) || !learnerReply()) fileTicket();
      first = false;
    } catch {
      // The database may be closing; the next tick (if any) tries again.
    }
    schedule();
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(tick, meanDelay * (0.5 + rng.next()));
    timer.unref();
  }

  schedule();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
