/**
 * The Electron shell's desktop notifications (notifier.ts), driven without Electron: `show` records what would be
 * shown. First with scripted engine answers, then against the real engine and the sandbox's ticket simulator, so a
 * ticket filed on the server really ends up as a notification that opens it.
 */
import { describe, expect, it } from 'vitest';
import { DesktopNotifier, type NotifierDeps } from '../../src/main/electron/notifier';
import type { BridgeResult, EventName, Job } from '../../src/shared/contract';
import { oneLine, type DesktopNote } from '../../src/shared/desktop-notify';
import { rig } from '../tickets/helpers';

interface Shown {
  note: DesktopNote;
  click(): void;
  closed: boolean;
}

function harness(options: { settings?: object; job?: Partial<Job>; looking?: boolean; platform?: string } = {}) {
  const shown: Shown[] = [];
  const opened: string[] = [];
  const calls: string[] = [];
  let looking = options.looking ?? false;
  const settings = {
    theme: 'system',
    notifyNewTickets: true,
    notifyJobEnds: true,
    jobWaitLimitMinutes: 60,
    ...options.settings,
  };
  const deps: NotifierDeps = {
    call: (name, input) => {
      calls.push(name);
      const value =
        name === 'settings.get'
          ? settings
          : {
              id: (input as { id: string }).id,
              kind: 'train',
              title: 'Train Algebra tutor',
              state: 'completed',
              error: null,
              progress: { done: 3, failed: 0, skipped: 0, total: 3 },
              ...options.job,
            };
      return Promise.resolve({ ok: true, value } as BridgeResult);
    },
    show: (note, onClick) => {
      const entry: Shown = { note, click: onClick, closed: false };
      shown.push(entry);
      return { close: () => void (entry.closed = true) };
    },
    looking: () => looking,
    open: (href) => opened.push(href),
    platform: options.platform ?? 'darwin',
  };
  const notifier = new DesktopNotifier(deps);
  notifier.start();
  const emit = async (name: EventName, payload: unknown) => {
    notifier.onEvent(name, payload);
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { notifier, shown, opened, calls, emit, setLooking: (on: boolean) => (looking = on) };
}

const newTickets = (...ids: number[]) => ({
  profileId: 'p',
  tickets: ids.map((id) => ({ id, subject: `<b>Help</b> ${id}`, requester: 'Ana' })),
});

describe('DesktopNotifier', () => {
  it('shows new tickets when opted in and away; a click opens the ticket and the next note starts afresh', async () => {
    const h = harness();
    await h.emit('tickets.new', newTickets(5));
    expect(h.shown.map((s) => [s.note.title, s.note.body, s.note.href])).toEqual([
      ['New support ticket', '<b>Help</b> 5\nfrom Ana', '#/tickets/5'],
    ]);
    await h.emit('tickets.new', newTickets(6, 7));
    // One note for the three, replacing the first.
    expect(h.shown[0]!.closed).toBe(true);
    expect(h.shown[1]!.note).toMatchObject({ title: '3 new support tickets', href: '#/tickets/open', silent: true });
    h.shown[1]!.click();
    expect(h.opened).toEqual(['#/tickets/open']);
    expect(h.shown[1]!.closed).toBe(true);
    await h.emit('tickets.new', newTickets(8));
    expect(h.shown[2]!.note).toMatchObject({ title: 'New support ticket', href: '#/tickets/8' });
  });

  it('says nothing while the admin looks at the window, when not opted in, or for malformed events', async () => {
    const looking = harness({ looking: true });
    await looking.emit('tickets.new', newTickets(1));
    expect(looking.shown).toEqual([]);

    const off = harness({ settings: { notifyNewTickets: false } });
    await off.emit('tickets.new', newTickets(1));
    await off.emit('tickets.new', { profileId: 'p', tickets: [{ id: 'x' }] });
    await off.emit('no.such' as EventName, {});
    expect(off.shown).toEqual([]);
  });

  it('follows the setting as it changes, taking its note off the desktop when turned off', async () => {
    const h = harness({ settings: { notifyNewTickets: false } });
    await h.emit('tickets.new', newTickets(1));
    expect(h.shown).toHaveLength(0);
    await h.emit('settings.changed', {
      theme: 'system',
      notifyNewTickets: true,
      notifyJobEnds: true,
      jobWaitLimitMinutes: 60,
    });
    await h.emit('tickets.new', newTickets(2));
    expect(h.shown).toHaveLength(1);
    await h.emit('settings.changed', {
      theme: 'system',
      notifyNewTickets: false,
      notifyJobEnds: true,
      jobWaitLimitMinutes: 60,
    });
    expect(h.shown[0]!.closed).toBe(true);
    // Reads the settings once; events keep them current.
    expect(h.calls.filter((c) => c === 'settings.get')).toHaveLength(1);
  });

  it('clears its notes when the window gets the focus', async () => {
    const h = harness();
    await h.emit('tickets.new', newTickets(1, 2));
    h.setLooking(true);
    h.notifier.onLooking();
    expect(h.shown[0]!.closed).toBe(true);
    h.setLooking(false);
    await h.emit('tickets.new', newTickets(3));
    expect(h.shown[1]!.note.title).toBe('New support ticket');
  });

  it('escapes the body for Linux notification servers', async () => {
    const h = harness({ platform: 'linux' });
    await h.emit('tickets.new', newTickets(5));
    expect(h.shown[0]!.note.body).toBe('&lt;b&gt;Help&lt;/b&gt; 5\nfrom Ana');
  });

  it('tells a job that ends once, reading the job from the engine; not a sent reply; not when turned off', async () => {
    const h = harness();
    await h.emit('jobs.changed', { id: 'j1', state: 'running', kind: 'train', profileId: 'p1' });
    expect(h.calls).not.toContain('jobs.get');
    await h.emit('jobs.changed', { id: 'j1', state: 'completed', kind: 'train', profileId: 'p1' });
    await h.emit('jobs.changed', { id: 'j1', state: 'completed', kind: 'train', profileId: 'p1' });
    expect(h.calls.filter((c) => c === 'jobs.get')).toHaveLength(1);
    expect(h.shown.map((s) => [s.note.title, s.note.body, s.note.href])).toEqual([
      ['Training finished', 'Train Algebra tutor — 3 done.', '#/jobs/j1'],
    ]);
    h.shown[0]!.click();
    expect(h.opened).toEqual(['#/jobs/j1']);

    await h.emit('jobs.changed', { id: 'r1', state: 'completed', kind: 'ticket-reply', profileId: 'p1' });
    expect(h.calls.filter((c) => c === 'jobs.get')).toHaveLength(1);

    const off = harness({ settings: { notifyJobEnds: false } });
    await off.emit('jobs.changed', { id: 'j2', state: 'failed', kind: 'invite', profileId: 'p1' });
    expect(off.shown).toEqual([]);
  });
});

describe('against the engine and the sandbox simulator', () => {
  it('turns a ticket filed on the server into a notification that opens it', async () => {
    const { engine, server } = await rig({ simulateRate: 120 });
    await engine.invoke('tickets.sync', { wait: true });
    await engine.invoke('settings.set', { notifyNewTickets: true });
    const shown: DesktopNote[] = [];
    const notifier = new DesktopNotifier({
      call: (name, input) => engine.call(name, input),
      show: (note) => {
        shown.push(note);
        return { close() {} };
      },
      looking: () => false,
      open: () => {},
      platform: 'linux',
    });
    notifier.start();
    engine.onEvent((name, payload) => notifier.onEvent(name, payload));
    // The window is shown but the admin is elsewhere: polling runs, the desktop says it.
    await engine.invoke('tickets.watch', { visible: true });
    await expect.poll(() => shown.length, { timeout: 45_000, interval: 250 }).toBeGreaterThan(0);
    const note = shown[0]!;
    expect(note.title).toMatch(/^(New support ticket|\d+ new support tickets)$/);
    if (note.title === 'New support ticket') {
      const id = Number(note.href.replace('#/tickets/', ''));
      const row = server.db.prepare('SELECT subject FROM support_tickets WHERE id = ?').get(id) as
        { subject: string } | undefined;
      expect(row).toBeDefined();
      expect(note.body.split('\n')[0]).toBe(
        oneLine(row!.subject, 80).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
      );
    } else expect(note.href).toBe('#/tickets/open');
  });
});
