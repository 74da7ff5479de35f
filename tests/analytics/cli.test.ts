/**
 * `mentor-admin export` as people and scripts use it: the dataset list, a JSON summary last, usage errors, a real
 * process killed with SIGKILL mid-export and run again (the file must be byte for byte an uninterrupted export's),
 * and a disk that refuses the file.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { cli, cliProcess } from '../helpers/cli';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { proxy, until } from './setup';

let server: Sandbox;
beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
});

function env(): NodeJS.ProcessEnv {
  return { ...process.env, MENTOR_ADMIN_API_KEY: server.apiKey, MENTOR_ADMIN_SANDBOX: 'off' };
}

/** A data folder with one tenant connection (its key from the environment). */
async function dataDirFor(baseUrl: string): Promise<string> {
  const dir = tempDir();
  const added = await cli(
    [
      '--data-dir',
      dir,
      'profile',
      'add',
      'Sandbox',
      '--url',
      baseUrl,
      '--org',
      server.org,
      '--user',
      server.user,
      '--activate',
    ],
    { env: env() },
  );
  expect(added.code, added.stderr).toBe(0);
  return dir;
}

const sameBytes = (a: string, b: string) => readFileSync(a).equals(readFileSync(b));
const EXPORT = ['export', 'chat-history', '--from', '2026-10-01', '--to', '2026-10-31', '--tz', 'Europe/Paris'];

describe('mentor-admin export', () => {
  it('lists the datasets', async () => {
    const dir = tempDir();
    const human = await cli(['--data-dir', dir, 'export', '--list'], { env: env() });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^chat-history\s+Chat history \(messages\)/m);
    const json = await cli(['--data-dir', dir, 'export', '--list', '--json'], { env: env() });
    const ids = json.lines.map((l) => l.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'chat-history',
        'conversations',
        'topics',
        'sentiment',
        'usage',
        'costs',
        'users',
        'learners',
        'completions',
        'chart.kpis',
      ]),
    );
    expect(json.lines.find((l) => l.id === 'topics')!.columns).toEqual([
      'topic',
      'conversations',
      'messages',
      'avg_sentiment',
      'avg_user_rating',
    ]);
  });

  it('exports with options and ends with one JSON summary line', async () => {
    const dir = await dataDirFor(server.url);
    const out = join(tempDir(), 'topics.csv');
    const result = await cli(
      [
        '--data-dir',
        dir,
        'export',
        'topics',
        '--from',
        '2026-10-01',
        '--to',
        '2026-10-31',
        '--tz',
        'UTC',
        '--no-bom',
        '--delimiter',
        'tab',
        '--columns',
        'conversations,topic',
        '--out',
        out,
        '--json',
      ],
      { env: env() },
    );
    expect(result.code, result.stderr).toBe(0);
    const last = result.lines.at(-1)!;
    expect(last).toEqual({ job: expect.any(String), dataset: 'topics', rows: expect.any(Number), file: out });
    const text = readFileSync(out, 'utf8');
    expect(text.startsWith('Conversations\tTopic\r\n')).toBe(true);
    expect(text.trimEnd().split('\r\n')).toHaveLength((last.rows as number) + 1);
    const folder = tempDir();
    const human = await cli(['--data-dir', dir, 'export', 'users', '--out', folder], { env: env() });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/Wrote [\d,]+ rows to .*northbridge-users-current-/);
  });

  it("exports one learner's time per day with --learner, and asks whose without it", async () => {
    const dir = await dataDirFor(server.url);
    const learner = server.db
      .prepare(
        `SELECT u.username, sum(t.seconds) AS seconds FROM users u JOIN learning_time t ON t.user_id = u.id
         WHERE u.org = 'northbridge' AND t.day BETWEEN '2026-10-01' AND '2026-10-31' GROUP BY u.id ORDER BY u.id LIMIT 1`,
      )
      .get() as { username: string; seconds: number };
    const out = join(tempDir(), 'time.csv');
    const range = ['--from', '2026-10-01', '--to', '2026-10-31', '--tz', 'UTC', '--no-bom', '--out', out];
    const result = await cli(
      ['--data-dir', dir, 'export', 'chart.learner-time', '--learner', learner.username, ...range, '--json'],
      { env: env() },
    );
    expect(result.code, result.stderr).toBe(0);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('Date,Time spent (s)');
    // One line per day of October; together they hold the learner's October time.
    expect(lines).toHaveLength(32);
    expect(lines.slice(1).reduce((sum, line) => sum + Number(line.split(',')[1]), 0)).toBe(learner.seconds);
    const whose = await cli(['--data-dir', dir, 'export', 'chart.learner-time', ...range], { env: env() });
    expect(whose.code).toBe(1);
    expect(whose.stderr).toContain("is one learner's: say whose (learner)");
  });

  it("exports with --mentor ID only that mentor's rows: chat history and topics", async () => {
    const dir = await dataDirFor(server.url);
    const mentor = server.db
      .prepare("SELECT unique_id FROM mentors WHERE org = ? AND name = 'Calculus Coach'")
      .pluck()
      .get(server.org) as string;
    const run = async (dataset: string) => {
      const out = join(tempDir(), `${dataset}.csv`);
      const range = ['--from', '2026-10-01', '--to', '2026-10-31', '--tz', 'UTC'];
      const args = ['--data-dir', dir, 'export', dataset, ...range, '--mentor', mentor, '--no-bom', '--out', out];
      const result = await cli([...args, '--json'], { env: env() });
      expect(result.code, result.stderr).toBe(0);
      const [header, ...rows] = Papa.parse<string[]>(readFileSync(out, 'utf8'), { skipEmptyLines: true }).data;
      expect(result.lines.at(-1)).toMatchObject({ dataset, rows: rows.length, file: out });
      return { header: header!, rows };
    };
    const october =
      "s.org = ? AND s.mentor_unique_id = ? AND s.started_at >= '2026-10-01' AND s.started_at < '2026-11-01'";

    const history = await run('chat-history');
    const messages = server.db
      .prepare(
        `SELECT s.session_id, m.content FROM chat_messages m JOIN chat_sessions s ON s.id = m.session_pk
         WHERE ${october} ORDER BY s.started_at DESC, s.id DESC, m.id`,
      )
      .all(server.org, mentor) as { session_id: string; content: string }[];
    expect(messages.length).toBeGreaterThan(100);
    expect(history.rows.map((r) => [r[0], r[4]])).toEqual(messages.map((m) => [m.session_id, m.content]));
    expect(new Set(history.rows.map((r) => r[5]))).toEqual(new Set([mentor]));

    const topics = await run('topics');
    const perTopic = server.db
      .prepare(
        `SELECT json_extract(t.value, '$.name') AS name, count(*) AS n FROM chat_sessions s, json_each(s.topics) t
         WHERE ${october} GROUP BY name ORDER BY n DESC, name`,
      )
      .all(server.org, mentor) as { name: string; n: number }[];
    expect(topics.rows.map((r) => [r[0], Number(r[1])])).toEqual(perTopic.map((t) => [t.name, t.n]));
  });

  it('answers bad input with exit 2 (usage) or 1 (refused), and the reason', async () => {
    const dir = await dataDirFor(server.url);
    const run = (...args: string[]) => cli(['--data-dir', dir, ...args], { env: env() });
    expect((await run('export')).code).toBe(2);
    expect((await run('export', 'nonsense', '--out', 'x.csv')).stderr).toContain("Unknown dataset 'nonsense'");
    expect((await run('export', 'topics', '--out', 'x.csv')).stderr).toContain('topics needs a range');
    expect((await run('export', 'topics', '--from', '2026-10-01', '--out', 'x.csv')).code).toBe(2);
    const reversed = await run(
      'export',
      'topics',
      '--from',
      '2026-10-31',
      '--to',
      '2026-10-01',
      '--out',
      join(tempDir(), 'x.csv'),
    );
    expect(reversed.code).toBe(1);
    expect(reversed.stderr).toContain('Invalid date range: the start date 2026-10-31 is after the end date 2026-10-01');
    const malformed = await run(
      'export',
      'topics',
      '--from',
      '2026-02-30',
      '--to',
      '2026-03-01',
      '--out',
      join(tempDir(), 'x.csv'),
    );
    expect(malformed.stderr).toContain("Invalid date format: '2026-02-30' is not a date");
    const zone = await run('export', 'topics', '--range', '7d', '--tz', 'Mars/Base', '--out', join(tempDir(), 'x.csv'));
    expect(zone.stderr).toContain("Unknown time zone 'Mars/Base'");
    const folder = await run('export', 'topics', '--range', '7d', '--out', join(tempDir(), 'missing', 'x.csv'));
    expect(folder.code).toBe(1);
    expect(folder.stderr).toMatch(/Cannot write .*missing: the folder does not exist/);
  });

  it('continues after SIGKILL mid-export into a file identical to an uninterrupted one', async () => {
    const slow = await proxy(server, 120);
    const dir = await dataDirFor(slow.url);
    const out = join(tempDir(), 'october.csv');
    const args = ['--data-dir', dir, ...EXPORT, '--page-size', '60', '--out', out, '--json'];

    const child = spawn(process.execPath, ['bin/mentor-admin.mjs', ...args], {
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    await until(
      'three pages written',
      () =>
        stdout
          .split('\n')
          .slice(0, -1)
          .some((line) => {
            const event = JSON.parse(line) as { event?: string; pages?: number };
            return event.event === 'progress' && (event.pages ?? 0) >= 3;
          }),
      120_000,
    );
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(join(out, '..')).some((f) => f.endsWith('.partial'))).toBe(true);

    slow.delayMs = 0;
    const again = await cliProcess(args, { env: env(), timeoutMs: 60_000 });
    expect(again.code, again.stderr).toBe(0);
    const started = again.lines.find((l) => l.event === 'started')!;
    expect(started.resumed).toBe(true);
    const summary = again.lines.at(-1)!;
    expect(summary.file).toBe(out);

    const reference = join(tempDir(), 'reference.csv');
    const fresh = await cli(
      ['--data-dir', await dataDirFor(server.url), ...EXPORT, '--page-size', '60', '--out', reference, '--json'],
      { env: env() },
    );
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(summary.rows).toBe(fresh.lines.at(-1)!.rows);
    expect(sameBytes(out, reference)).toBe(true);
    expect(readdirSync(join(out, '..'))).toEqual(['october.csv']);
  }, 240_000);

  it('fails clearly on a disk that refuses the file, leaving nothing under its name', async () => {
    const dir = await dataDirFor(server.url);
    const folder = tempDir();
    const out = join(folder, 'october.csv');
    // A 1 MB file size limit makes writes fail as a full disk does (EFBIG instead of ENOSPC); the export is ~3 MB,
    // the app's own database stays well below it.
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(
        'bash',
        [
          '-c',
          `trap '' XFSZ; ulimit -f 1024; exec "${process.execPath}" bin/mentor-admin.mjs "$@"`,
          'cli',
          '--data-dir',
          dir,
          ...EXPORT,
          '--out',
          out,
        ],
        { env: env(), stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (c) => (stderr += c));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The disk is full (or will not take a file this large): could not write');
    expect(readdirSync(folder)).toEqual([]);
  }, 60_000);
});
