/**
 * The decisions behind desktop notifications (shared by the Electron shell and browser mode): opted in, looking at
 * the window or not, how many, the text (plain, cut, escaped for Linux), gathering several into one, and jobs.
 */
import { describe, expect, it } from 'vitest';
import type { Job } from '../../src/shared/contract';
import { APP_HREF } from '../../src/shared/contract';
import {
  describeEnding,
  endingWorthTelling,
  jobChanged,
  jobEndedNote,
  JOBS_TAG,
  lookedAgain,
  newTicketsNote,
  NO_JOB_NOTES,
  NO_TICKET_NOTES,
  noteForPlatform,
  oneLine,
  QUIET_MS,
  summariseEndings,
  TICKETS_TAG,
  type EndedJob,
} from '../../src/shared/desktop-notify';

const away = { enabled: true, looking: false, now: 1_000_000 };
const ticket = (id: number, subject = `Subject ${id}`, requester = `Learner ${id}`) => ({ id, subject, requester });

describe('new support tickets', () => {
  it('says nothing unless the admin opted in, or while they look at the window', () => {
    expect(newTicketsNote(NO_TICKET_NOTES, [ticket(1)], { ...away, enabled: false }).note).toBeNull();
    const looking = newTicketsNote(NO_TICKET_NOTES, [ticket(1)], { ...away, looking: true });
    expect(looking.note).toBeNull();
    expect(looking.state).toEqual(NO_TICKET_NOTES);
    expect(newTicketsNote(NO_TICKET_NOTES, [], away).note).toBeNull();
  });

  it('names one new ticket and opens it on click', () => {
    const { note } = newTicketsNote(NO_TICKET_NOTES, [ticket(41, 'Cannot log in', 'Ana Souza')], away);
    expect(note).toEqual({
      tag: TICKETS_TAG,
      title: 'New support ticket',
      body: 'Cannot log in\nfrom Ana Souza',
      href: '#/tickets/41',
      silent: false,
    });
    expect(note!.href).toMatch(APP_HREF);
  });

  it('gathers a burst into one note naming the newest three, and opens the queue', () => {
    const batch = [1, 2, 3, 4, 5].map((id) => ticket(id));
    const { note, state } = newTicketsNote(NO_TICKET_NOTES, batch, away);
    expect(note!.title).toBe('5 new support tickets');
    expect(note!.body).toBe('Subject 5 — Learner 5\nSubject 4 — Learner 4\nSubject 3 — Learner 3\nand 2 more');
    expect(note!.href).toBe('#/tickets/open');
    expect(state.count).toBe(5);
  });

  it('adds later batches to the note still unseen, quietly when the last was moments ago, counting each ticket once', () => {
    const first = newTicketsNote(NO_TICKET_NOTES, [ticket(1)], away);
    const second = newTicketsNote(first.state, [ticket(1), ticket(2)], { ...away, now: away.now + 5_000 });
    expect(second.note).toMatchObject({ title: '2 new support tickets', silent: true, tag: TICKETS_TAG });
    // The same tickets again: nothing new to say.
    expect(newTicketsNote(second.state, [ticket(2)], { ...away, now: away.now + 6_000 }).note).toBeNull();
    const later = newTicketsNote(second.state, [ticket(3)], { ...away, now: away.now + 5_000 + QUIET_MS });
    expect(later.note).toMatchObject({ title: '3 new support tickets', silent: false });
    // Once the admin has looked, the next one starts afresh (and may make a sound).
    const fresh = newTicketsNote(lookedAgain(later.state), [ticket(9)], { ...away, now: away.now + 5_001 + QUIET_MS });
    expect(fresh.note).toMatchObject({ title: 'New support ticket', href: '#/tickets/9', silent: false });
  });

  it('keeps hostile or huge text plain and short', () => {
    const subject = `<img src=x onerror=alert(1)>\u0007 line\nbreak\u202e ${'😀'.repeat(200)}`;
    const { note } = newTicketsNote(NO_TICKET_NOTES, [ticket(7, subject, 'Eve\r\n<b>x</b>')], away);
    const [first, second] = note!.body.split('\n');
    expect(first!.startsWith('<img src=x onerror=alert(1)> line break ')).toBe(true);
    expect([...first!].length).toBe(80);
    expect(first!.endsWith('…')).toBe(true);
    // Never half an emoji.
    expect(first).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(second).toBe('from Eve <b>x</b>');
    // Linux notification servers read the body as markup: there it is escaped; elsewhere it stays as written.
    expect(noteForPlatform(note!, 'linux').body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(noteForPlatform(note!, 'linux').body).toContain('from Eve &lt;b&gt;x&lt;/b&gt;');
    expect(noteForPlatform(note!, 'darwin')).toEqual(note);
    expect(noteForPlatform(note!, 'win32').title).toBe(note!.title);
    expect(oneLine('   ', 10)).toBe('');
    expect(newTicketsNote(NO_TICKET_NOTES, [ticket(8, ' ', '')], away).note!.body).toBe('(no subject)\nfrom a learner');
  });

  it('bounds a very long run of tickets and its body', () => {
    const many = Array.from({ length: 1500 }, (_, i) => ticket(i + 1, 'x'.repeat(500)));
    const { note, state } = newTicketsNote(NO_TICKET_NOTES, many, away);
    expect(note!.title).toBe('1,500 new support tickets');
    expect(note!.body.length).toBeLessThanOrEqual(300);
    expect(state.unseen.length).toBe(1000);
    expect(state.count).toBe(1500);
  });
});

const job = (over: Partial<EndedJob> = {}): EndedJob => ({
  id: 'job-1',
  kind: 'train',
  title: 'Train Algebra tutor on 12 files',
  state: 'completed',
  error: null,
  progress: { done: 12, failed: 0, skipped: 0, total: 12 },
  ...over,
});

describe('jobs that end', () => {
  it('tells an ending once per transition', () => {
    let state = NO_JOB_NOTES;
    const step = (s: Job['state']) => {
      const r = jobChanged(state, { id: 'a', state: s, kind: 'train' });
      state = r.state;
      return r.ended;
    };
    expect(step('running')).toBe(false);
    expect(step('completed')).toBe(true);
    expect(step('completed')).toBe(false);
    expect(step('running')).toBe(false); // retried
    expect(step('failed')).toBe(true);
    expect(step('cancelled')).toBe(false);
  });

  it('says how a training, invitation or export job ended, and links to it', () => {
    expect(jobEndedNote(NO_JOB_NOTES, job(), away).note).toEqual({
      tag: JOBS_TAG,
      title: 'Training finished',
      body: 'Train Algebra tutor on 12 files — 12 done.',
      href: '#/jobs/job-1',
      silent: false,
    });
    const invite = job({
      id: 'i/1',
      kind: 'invite',
      title: 'Invite 250 people',
      progress: { done: 240, failed: 10, skipped: 0, total: 250 },
    });
    expect(jobEndedNote(NO_JOB_NOTES, invite, away).note).toMatchObject({
      title: 'Invitations finished with 10 failures',
      body: 'Invite 250 people — 240 done, 10 failed of 250.',
      href: '#/jobs/i%2F1',
    });
    const exported = job({ kind: 'export', title: 'Export learners', state: 'failed', error: 'Forbidden' });
    expect(jobEndedNote(NO_JOB_NOTES, exported, away).note).toMatchObject({
      title: 'Export failed',
      body: 'Export learners: Forbidden',
    });
    expect(describeEnding(exported).ok).toBe(false);
    // A finished export says its rows and the file's size, not the pages it fetched ("2 done").
    const saved = job({
      kind: 'export',
      title: 'Topics · 2026-10-01 → 2026-10-31',
      counts: { rows: 12 },
      progress: { done: 1, failed: 0, skipped: 0, total: 1, bytesDone: 726 },
    });
    expect(describeEnding(saved)).toEqual({
      title: 'Export finished',
      message: 'Topics · 2026-10-01 → 2026-10-31 — 12 rows, 726 B.',
      ok: true,
    });
  });

  it('says what a people file’s rows came to in its import dialog’s words, dry run or sent', () => {
    // Five rows: 2 done (one enrolled, one already), 3 skipped (a repeat, two unknown people).
    const enrol = job({
      kind: 'catalogue-enrol',
      title: 'Dry run: enrol 5 people (prog.csv)',
      dryRun: true,
      counts: { wouldAdd: 1, already: 1, repeated: 1, unknown: 2 },
      progress: { done: 2, failed: 0, skipped: 3, total: 5 },
    });
    expect(jobEndedNote(NO_JOB_NOTES, enrol, away).note).toMatchObject({
      title: 'Enrolments from CSV finished',
      body:
        'Dry run: enrol 5 people (prog.csv) — 5 rows: 1 would be enrolled · 1 already enrolled · ' +
        '1 repeated in the file · 2 with problems.',
    });
    // Sent, in a seat's words; a row the platform refused is a problem and the ending says so.
    const seats = job({
      kind: 'licence-seats',
      title: 'Give 3 seats of Spring cohort (cohort.csv)',
      dryRun: false,
      counts: { added: 2, failed: 1 },
      progress: { done: 2, failed: 1, skipped: 0, total: 3 },
    });
    expect(describeEnding(seats)).toEqual({
      title: 'Licence seat imports finished with 1 failure',
      message: 'Give 3 seats of Spring cohort (cohort.csv) — 3 rows: 2 given a seat · 1 with problems.',
      ok: false,
    });
    // Other kinds keep "done" and "skipped".
    expect(describeEnding(job({ kind: 'invite', title: 'Invite 3', counts: { already: 1 } })).message).toBe(
      'Invite 3 — 12 done.',
    );
  });

  it('stays quiet when not wanted, while looking, and for a ticket reply that was sent', () => {
    expect(jobEndedNote(NO_JOB_NOTES, job(), { ...away, enabled: false }).note).toBeNull();
    expect(jobEndedNote(NO_JOB_NOTES, job(), { ...away, looking: true }).note).toBeNull();
    expect(endingWorthTelling({ kind: 'ticket-reply', state: 'completed' })).toBe(false);
    expect(jobEndedNote(NO_JOB_NOTES, job({ kind: 'ticket-reply' }), away).note).toBeNull();
    expect(
      jobEndedNote(NO_JOB_NOTES, job({ kind: 'ticket-reply', state: 'failed', error: 'Forbidden' }), away).note,
    ).toMatchObject({ title: 'Ticket replies failed' });
    expect(endingWorthTelling({ kind: 'train', state: 'cancelled' })).toBe(false);
  });

  it('gathers jobs that end together into one note for the Jobs screen', () => {
    let state = NO_JOB_NOTES;
    const notes = ['a', 'b', 'c', 'd'].map((id, i) => {
      const r = jobEndedNote(
        state,
        job({ id, title: `Export ${id}`, kind: 'export', ...(id === 'c' ? { state: 'failed', error: 'x' } : {}) }),
        { ...away, now: away.now + i * 1000 },
      );
      state = r.state;
      return r.note!;
    });
    expect(notes[3]).toEqual({
      tag: JOBS_TAG,
      title: '4 jobs ended, 1 with problems',
      body: 'Export d — done\nExport c — failed\nExport b — done\nand 1 more',
      href: '#/jobs',
      silent: true,
    });
    expect(notes.map((n) => n.tag)).toEqual([JOBS_TAG, JOBS_TAG, JOBS_TAG, JOBS_TAG]);
    expect(jobEndedNote(lookedAgain(state), job({ id: 'e' }), away).note).toMatchObject({ href: '#/jobs/e' });
  });

  it('sums up endings folded into one in-app toast', () => {
    const ended = (state: 'completed' | 'failed') => ({ state });
    expect(summariseEndings([ended('completed'), ended('completed'), ended('failed')])).toEqual({
      title: '3 jobs ended',
      message: '2 completed, 1 failed',
      ok: false,
    });
    expect(summariseEndings([ended('completed'), ended('completed'), ended('completed')])).toEqual({
      title: '3 jobs ended',
      message: '3 completed',
      ok: true,
    });
  });
});
