/** `mentor-admin tickets …` against the sandbox: list, show, reply (--message, --stdin), close, and clear failures. */
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { serverMessages, serverTicket } from './helpers';

describe('tickets CLI', async () => {
  const server = await sandbox({ seed: 'demo' });
  const dataDir = tempDir('tickets-cli-');
  const env = { ...process.env, MENTOR_ADMIN_API_KEY: server.apiKey, MENTOR_ADMIN_SANDBOX: 'off' };
  const run = (args: string[], stdin?: string) =>
    cli(['--data-dir', dataDir, ...args], { env, ...(stdin === undefined ? {} : { stdin }) });
  const added = await run([
    'profile',
    'add',
    'Sandbox',
    '--url',
    server.url,
    '--org',
    server.org,
    '--user',
    server.user,
    '--activate',
  ]);
  if (added.code !== 0) throw new Error(added.stderr);

  it('lists tickets by status and mentor, as JSON lines', async () => {
    const open = await run(['tickets', 'list', '--status', 'open', '--limit', '0', '--json']);
    expect(open.code).toBe(0);
    const expected = server.db
      .prepare(`SELECT count(*) AS n FROM support_tickets WHERE org = ? AND status = 'open'`)
      .get(server.org) as { n: number };
    expect(open.lines).toHaveLength(expected.n);
    expect(open.lines.every((l) => l.status === 'open')).toBe(true);
    const mentorId = open.lines[0]!.mentorId as string;
    const byMentor = await run(['tickets', 'list', '--mentor', mentorId, '--json', '--cached']);
    expect(byMentor.lines.length).toBeGreaterThan(0);
    expect(byMentor.lines.every((l) => l.mentorId === mentorId)).toBe(true);
    const human = await run(['tickets', 'list', '--limit', '3']);
    expect(human.stdout).toMatch(/^#\d+\t/m);
    expect(human.stdout).toMatch(/3 of 300 tickets/);
  });

  it('shows a ticket with its description as safe text and its thread', async () => {
    const hostile = server.db
      .prepare(`SELECT id FROM support_tickets WHERE description LIKE '%<script>%' LIMIT 1`)
      .get() as { id: number };
    const shown = await run(['tickets', 'show', String(hostile.id)]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Learner pasted this:');
    expect(shown.stdout).not.toContain('alert(');
    expect(shown.stdout).toContain('[removed for safety: script]');
    expect(shown.stdout).toMatch(/Thread \(\d+ messages?\):/);
    const json = await run(['tickets', 'show', String(hostile.id), '--json']);
    const detail = json.lines[0] as { ticket: { id: number }; messages: unknown[] };
    expect(detail.ticket.id).toBe(hostile.id);
    expect(detail.messages.length).toBe(serverMessages(server, hostile.id).length);
  });

  it('replies with --message and --stdin, and closes (resolved_at stamped)', async () => {
    const id = (await run(['tickets', 'list', '--status', 'open', '--limit', '1', '--json', '--cached'])).lines[0]!
      .id as number;
    const reply = await run(['tickets', 'reply', String(id), '--message', 'On it — ✅']);
    expect(reply.code).toBe(0);
    expect(reply.stdout).toContain(`Replied on ticket #${id}`);
    const fromStdin = await run(['tickets', 'reply', String(id), '--stdin'], 'שלום,\nfixed now.\n');
    expect(fromStdin.code).toBe(0);
    expect(
      serverMessages(server, id)
        .slice(-2)
        .map((m) => m.message),
    ).toEqual(['On it — ✅', 'שלום,\nfixed now.']);
    const closed = await run(['tickets', 'close', String(id), '--json']);
    expect(closed.code).toBe(0);
    expect(closed.lines[0]).toMatchObject({ event: 'ticket.closed', id });
    expect(serverTicket(server, id)!.status).toBe('closed');
    expect(serverTicket(server, id)!.resolved_at).not.toBeNull();
  });

  it('answers clearly for a missing ticket and for bad usage', async () => {
    const missing = await run(['tickets', 'show', '999999']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/#999999 was deleted on the server \(or never existed\)/);
    const closeMissing = await run(['tickets', 'close', '999999']);
    expect(closeMissing.code).toBe(1);
    const replyMissing = await run(['tickets', 'reply', '999999', '--message', 'hi']);
    expect(replyMissing.code).toBe(1);
    expect(replyMissing.stderr).toMatch(/deleted on the server/);
    for (const args of [
      ['tickets'],
      ['tickets', 'show'],
      ['tickets', 'show', 'abc'],
      ['tickets', 'reply', '1'],
      ['tickets', 'reply', '1', '--message', 'a', '--stdin'],
      ['tickets', 'list', '--status', 'pending'],
      ['tickets', 'list', '--limit', '-1'],
      ['tickets', 'frobnicate'],
    ]) {
      const result = await run(args);
      expect(result.code, args.join(' ')).toBe(2);
    }
  });
});
