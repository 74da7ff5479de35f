/** `mentor-admin review list/mark` against the sandbox. */
import { describe, expect, it } from 'vitest';
import { analyticsArea } from '../../src/server/areas/analytics';
import { mentorsArea } from '../../src/server/areas/mentors';
import { reviewArea } from '../../src/server/areas/review';
import { cli } from '../helpers/cli';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { FEEDBACK_DAYS } from '../../src/main/engine/review/feedback';

describe('review CLI', async () => {
  const server = await sandbox({ seed: 'demo', areas: [mentorsArea, analyticsArea, reviewArea] });
  const dataDir = tempDir('review-cli-');
  const env = { ...process.env, MENTOR_ADMIN_API_KEY: server.apiKey, MENTOR_ADMIN_SANDBOX: 'off' };
  const run = (args: string[]) => cli(['--data-dir', dataDir, ...args], { env });
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
  const count = (kind: string) =>
    server.db
      .prepare('SELECT count(*) FROM review_logs WHERE org = ? AND kind = ?')
      .pluck()
      .get(server.org, kind) as number;
  const ratedDown = () =>
    server.db
      .prepare('SELECT count(*) FROM chat_sessions WHERE org = ? AND rating = -1 AND started_at >= ?')
      .pluck()
      .get(server.org, new Date(Date.now() - FEEDBACK_DAYS * 86_400_000).toISOString().slice(0, 10)) as number;

  it('lists the open queue by source as JSON lines, and marks items reviewed', async () => {
    const safety = await run(['review', 'list', '--source', 'safety', '--limit', '0', '--json']);
    expect(safety.code, safety.stderr).toBe(0);
    expect(safety.lines).toHaveLength(count('safety'));
    expect(safety.lines.every((l) => l.source === 'Safety System' && String(l.id).startsWith('safety:'))).toBe(true);
    const both = await run(['review', 'list', '--limit', '0', '--json', '--cached']);
    expect(both.lines).toHaveLength(count('safety') + count('moderation') + ratedDown());

    const ids = safety.lines.slice(0, 2).map((l) => String(l.id));
    const marked = await run(['review', 'mark', ...ids]);
    expect(marked.code, marked.stderr).toBe(0);
    expect(marked.stdout).toContain('Marked reviewed: 2');
    const open = await run(['review', 'list', '--source', 'Safety System', '--limit', '0', '--json', '--cached']);
    expect(open.lines).toHaveLength(count('safety') - 2);
    const reviewed = await run(['review', 'list', '--state', 'reviewed', '--json', '--cached']);
    expect(reviewed.lines.map((l) => l.id).sort()).toEqual([...ids].sort());
    expect(reviewed.lines.every((l) => l.reviewedBy === server.user)).toBe(true);
    const human = await run(['review', 'list', '--limit', '2', '--cached']);
    expect(human.stdout).toMatch(/^(moderation|safety):\d+\t/m);
    expect(human.stdout).toContain(`2 of ${count('safety') + count('moderation') + ratedDown() - 2} items`);
  });

  it('lists negative feedback by --source and marks it by its feedback: id', async () => {
    const feedback = await run(['review', 'list', '--source', 'feedback', '--limit', '0', '--json', '--cached']);
    expect(feedback.code, feedback.stderr).toBe(0);
    expect(ratedDown()).toBeGreaterThan(0);
    expect(feedback.lines).toHaveLength(ratedDown());
    expect(feedback.lines.every((l) => l.source === 'Negative feedback' && l.id === `feedback:${l.session}`)).toBe(
      true,
    );
    const same = await run(['review', 'list', '--source', 'Negative feedback', '--limit', '0', '--json', '--cached']);
    expect(same.lines).toEqual(feedback.lines);
    const id = String(feedback.lines[0]!.id);
    const marked = await run(['review', 'mark', id]);
    expect(marked.code, marked.stderr).toBe(0);
    const reviewed = await run(['review', 'list', '--source', 'feedback', '--state', 'reviewed', '--json', '--cached']);
    expect(reviewed.lines.map((l) => l.id)).toEqual([id]);
    const text = String(feedback.lines[1]!.prompt).slice(5, 25);
    const searched = await run(['review', 'list', '--search', text, '--state', 'all', '--json', '--cached']);
    expect(searched.lines.map((l) => l.id)).toContain(feedback.lines[1]!.id);
  });

  it('refuses bad input with a clear message', async () => {
    const badSource = await run(['review', 'list', '--source', 'spam']);
    expect(badSource.code).toBe(2);
    expect(badSource.stderr).toContain('--source must be moderation, safety or feedback');
    const badId = await run(['review', 'mark', '12']);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toContain('Not review item IDs: 12');
    const unknown = await run(['review', 'mark', 'safety:999999']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('not in the review queue');
  });
});
