/**
 * `mentor-admin mentors eval define|show|run|runs|report|compare` against a real sandbox (a real CLI process), and the
 * vendor SDK reading back the evaluation and the report the app wrote and ran.
 */
import { AiMentorService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { cli } from '../helpers/cli';
import { call, sandbox } from '../helpers/sandbox';
import { cliTenant } from '../invitations/setup';

let server: Sandbox;
beforeAll(async () => {
  server = await sandbox();
});

async function makeMentor(name: string): Promise<string> {
  const made = await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`, {
    json: { name },
  });
  expect(made.status).toBe(201);
  return (made.body as { unique_id: string }).unique_id;
}

describe('mentors eval (CLI)', () => {
  it('defines by name, runs (waiting for the report), lists, reports and compares; the SDK reads it back', async () => {
    const mentor = await makeMentor('Cli Eval Mentor');
    const { env } = await cliTenant(server);
    const run = (...args: string[]) => cli(['mentors', 'eval', ...args], { env });

    const defined = await run(
      'define',
      'Cli Eval Mentor',
      '--name',
      'Basics',
      '--passing-score',
      '70',
      '--question',
      'What is a mentor?',
      '--answer',
      'Someone who guides.',
      '--question',
      'What is evaluation?',
    );
    expect(defined.code, defined.stderr).toBe(0);
    expect(defined.stdout).toMatch(/^Defined evaluation \d+ of .+: 2 questions, passing score 70$/m);

    // The vendor SDK reads back what the app wrote.
    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    // The SDK's typings leave out the userId its request fills {user_id} with.
    const read = (await AiMentorService.aiMentorOrgsUsersMentorsMentorEvalRetrieve({
      org: server.org,
      userId: server.user,
      mentor,
    } as { org: string; mentor: string })) as unknown as {
      id: number;
      name: string;
      passing_score: number;
      questions: unknown[];
    };
    expect(read).toMatchObject({
      name: 'Basics',
      passing_score: 70,
      questions: [
        { content: 'What is a mentor?', sample_answer: 'Someone who guides.' },
        { content: 'What is evaluation?', sample_answer: null },
      ],
    });

    // Only what is given changes.
    const changed = await run('define', mentor, '--passing-score', '40');
    expect(changed.stdout).toContain(`Changed evaluation ${read.id} of ${mentor}: 2 questions, passing score 40`);
    const shown = await run('show', mentor);
    expect(shown.stdout).toContain('1. What is a mentor?\n     expected: Someone who guides.');

    const first = await run('run', mentor);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^Run 1 \(report (\d+), .+\): 0 — not passed$/m);
    const reportId = Number(/report (\d+)/.exec(first.stdout)![1]);
    const second = await run('run', mentor);
    expect(second.code, second.stderr).toBe(0);

    // The SDK reads the report the app's run waited for.
    const report = (await AiMentorService.aiMentorOrgsUsersMentorsReportsMentorEvalReportRetrieve({
      org: server.org,
      userId: server.user,
      mentor,
      reportId,
    } as { org: string; mentor: string; reportId: number })) as unknown as {
      id: number;
      conversation_ratings: unknown[];
      is_passed: boolean;
    };
    expect(report).toMatchObject({ id: reportId, is_passed: false });
    expect(report.conversation_ratings).toHaveLength(2);

    const runs = await run('runs', mentor, '--json');
    const rows = runs.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; state: string; startedAt: string });
    expect(rows.map((r) => [r.id, r.state])).toEqual([
      [2, 'ready'],
      [1, 'ready'],
    ]);
    expect(Date.parse(rows[0]!.startedAt)).toBeGreaterThanOrEqual(Date.parse(rows[1]!.startedAt));

    const shownReport = await run('report', mentor, '1');
    expect(shownReport.stdout).toContain('1. [0] What is a mentor?');
    const compared = await run('compare', mentor, '1', '2');
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stdout).toContain('[0 → 0] (=) What is a mentor?');

    // Bad input: a report of a run that is not there; a run of a mentor without an evaluation.
    expect((await run('report', mentor, '99')).stderr).toContain(`No run 99 of ${mentor} here`);
    const bare = await makeMentor('Cli Eval Bare');
    const none = await run('run', bare);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`${bare} has no evaluation yet`);
  });
});
