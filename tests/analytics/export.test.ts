/**
 * CSV exports as durable jobs: every envelope the spec declares, N rows → N data lines that round-trip through
 * papaparse, the options (BOM, delimiter, zone, columns), formula cells neutralised, and the bad cases: the tenant
 * failing mid-export, an unexpected envelope, an unwritable folder, a crash mid-file, a cancelled export.
 */
import { existsSync, readdirSync, readFileSync, appendFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import {
  chartTable,
  CHART_COLUMNS,
  type CallInput,
  datasetFilters,
  findDataset,
  OVERVIEW_CHART_IDS,
  type TableRow,
} from '../../src/shared/contract';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { connect, failure, proxy, settled, until } from './setup';

let server: Sandbox;
beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
});

const OCTOBER = { preset: 'custom' as const, from: '2026-10-01', to: '2026-10-31' };
const all = <T>(sql: string, ...params: unknown[]) => server.db.prepare(sql).all(...params) as T[];
const one = <T = number>(sql: string, ...params: unknown[]) =>
  server.db
    .prepare(sql)
    .pluck()
    .get(...params) as T;

/** Byte-for-byte equality (deep-equal on big buffers is very slow). */
const sameBytes = (a: string, b: string) => readFileSync(a).equals(readFileSync(b));

function parse(path: string, delimiter = ',') {
  const text = readFileSync(path, 'utf8');
  const bom = text.startsWith('\uFEFF');
  const parsed = Papa.parse<string[]>(bom ? text.slice(1) : text, { delimiter, newline: '\r\n', skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  const [header, ...rows] = parsed.data;
  return { bom, header: header!, rows, text };
}

describe('exporting a dataset', () => {
  it('writes N rows as N data lines that round-trip through papaparse, named after tenant, dataset, range and zone', async () => {
    const { engine } = await connect(server);
    const folder = tempDir();
    const started = await engine.invoke('analytics.exportStart', {
      dataset: 'chat-history',
      range: OCTOBER,
      timeZone: 'UTC',
      folder,
      pageSize: 250,
    });
    const done = await settled(engine, started.id);
    expect(done.state).toBe('completed');
    expect(basename(done.path)).toBe(`${server.org}-chat-history-2026-10-01_2026-10-31-UTC.csv`);
    const messages = all<{ session_id: string; content: string; role: string; created_at: string }>(
      `SELECT s.session_id, m.content, m.role, m.created_at FROM chat_messages m JOIN chat_sessions s ON s.id = m.session_pk
       WHERE s.org = ? AND s.started_at >= '2026-10-01' AND s.started_at < '2026-11-01' ORDER BY s.started_at DESC, s.id DESC, m.id`,
      server.org,
    );
    const file = parse(done.path);
    expect(file.bom).toBe(true);
    expect(file.header).toEqual([
      'Conversation id',
      'Message #',
      'Timestamp',
      'Role',
      'Content',
      'Mentor id',
      'Mentor',
      'Learner',
      'Email',
      'Topics',
      'Sentiment',
    ]);
    expect(done.rows).toBe(messages.length);
    expect(file.rows).toHaveLength(messages.length);
    expect(file.text.split('\r\n').filter(Boolean)).toHaveLength(messages.length + 1);
    file.rows.forEach((row, i) => {
      expect(row[0]).toBe(messages[i]!.session_id);
      expect(row[4]).toBe(messages[i]!.content);
      expect(row[3]).toBe(messages[i]!.role === 'user' ? 'human' : 'ai');
      expect(row[2]).toBe(`${messages[i]!.created_at.slice(0, 19)}+00:00`);
    });
    expect(new Set(file.rows.map((r) => r[6]))).toContain('Calculus Coach');
    expect(done.pagesTotal).toBe(done.pagesDone);
    expect(done.pagesTotal).toBeGreaterThan(1);
    expect(readdirSync(folder)).toEqual([basename(done.path)]);
    // Counted honestly: the job's items are its pages and its bytes the file's, header included (not twice).
    const size = statSync(done.path).size;
    expect(done.bytes).toBe(size);
    const job = await engine.invoke('jobs.get', { id: done.id });
    expect(job.progress).toMatchObject({ total: done.pagesTotal, done: done.pagesTotal, bytesDone: size });
    expect(job.counts).toEqual({ rows: messages.length });
    // "Show in folder": where the file is.
    expect(await engine.invoke('analytics.reveal', { id: done.id })).toEqual({
      path: done.path,
      folder,
      exists: true,
      shown: false,
    });
    // The same export again never overwrites the first file.
    const again = await settled(
      engine,
      (
        await engine.invoke('analytics.exportStart', {
          dataset: 'chat-history',
          range: OCTOBER,
          timeZone: 'UTC',
          folder,
        })
      ).id,
    );
    expect(basename(again.path)).toBe(`${server.org}-chat-history-2026-10-01_2026-10-31-UTC (2).csv`);
    expect(sameBytes(again.path, done.path)).toBe(true);
  });

  it('writes times in the chosen zone with their offset, the chosen columns in order, the delimiter, no BOM', async () => {
    const { engine } = await connect(server);
    const path = join(tempDir(), 'october.csv');
    const done = await settled(
      engine,
      (
        await engine.invoke('analytics.exportStart', {
          dataset: 'conversations',
          range: OCTOBER,
          timeZone: 'Europe/Paris',
          path,
          bom: false,
          delimiter: ';',
          columns: ['started_at', 'learner', 'conversation_id', 'messages'],
        })
      ).id,
    );
    expect(done.state).toBe('completed');
    const file = parse(path, ';');
    expect(file.bom).toBe(false);
    expect(file.text.split('\r\n')[0]).toBe('Started at;Learner;Conversation id;Messages');
    // October in Paris: from 2026-09-30T22:00Z to 2026-10-31T23:00Z (summer time ends on the 25th).
    const sessions = all<{ session_id: string; started_at: string; username: string; message_count: number }>(
      `SELECT session_id, started_at, username, message_count FROM chat_sessions WHERE org = ? AND started_at >= ? AND started_at < ?
       ORDER BY started_at DESC, id DESC`,
      server.org,
      '2026-09-30T22:00:00.000Z',
      '2026-10-31T23:00:00.000Z',
    );
    expect(file.rows.map((r) => r[2])).toEqual(sessions.map((s) => s.session_id));
    const local = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Paris',
      dateStyle: 'short',
      timeStyle: 'medium',
    });
    file.rows.forEach((row, i) => {
      const s = sessions[i]!;
      const summer = s.started_at < '2026-10-25T01:00:00Z';
      expect(row[0]).toBe(`${local.format(new Date(s.started_at)).replace(' ', 'T')}${summer ? '+02:00' : '+01:00'}`);
      expect(row[1]).toBe(s.username);
      expect(Number(row[3])).toBe(s.message_count);
    });
  });

  it('neutralises cells that a spreadsheet would run as formulas', async () => {
    const { engine } = await connect(server);
    const mentor = one<string>('SELECT unique_id FROM mentors WHERE org = ? LIMIT 1', server.org);
    const dangerous = ['=HYPERLINK("http://evil.example","x")', '+1+2', '-3+4', '@SUM(A1)', '\tTabbed', '\rReturn'];
    const sessionPk = server.db
      .prepare(
        `INSERT INTO chat_sessions (session_id, org, mentor_unique_id, username, email, started_at, ended_at, model, provider,
           message_count, user_message_count, first_message)
         VALUES ('0a0a0a0a-0000-4000-8000-000000000001', ?, ?, '=cmd|calc', 'x@example.org', '2026-06-15T10:00:00.000Z',
           '2026-06-15T10:05:00.000Z', 'gpt-4o', 'openai', ?, ?, ?)`,
      )
      .run(server.org, mentor, dangerous.length, dangerous.length, dangerous[0]).lastInsertRowid;
    const insert = server.db.prepare(
      "INSERT INTO chat_messages (session_pk, role, content, created_at) VALUES (?, 'user', ?, '2026-06-15T10:00:00.000Z')",
    );
    for (const content of dangerous) insert.run(sessionPk, content);
    const path = join(tempDir(), 'formulas.csv');
    const done = await settled(
      engine,
      (
        await engine.invoke('analytics.exportStart', {
          dataset: 'chat-history',
          range: { preset: 'custom', from: '2026-06-15', to: '2026-06-15' },
          timeZone: 'UTC',
          path,
        })
      ).id,
    );
    const rows = parse(path).rows.filter((r) => r[0] === '0a0a0a0a-0000-4000-8000-000000000001');
    expect(done.state).toBe('completed');
    expect(rows.map((r) => r[4])).toEqual(dangerous.map((d) => `'${d}`));
    expect(rows.every((r) => r[7] === "'=cmd|calc")).toBe(true);
  });

  it('pages through every envelope the spec declares', async () => {
    const { engine } = await connect(server);
    const folder = tempDir();
    const exportOf = async (dataset: string, extra: Record<string, unknown> = {}) => {
      const info = await settled(
        engine,
        (await engine.invoke('analytics.exportStart', { dataset, range: OCTOBER, timeZone: 'UTC', folder, ...extra }))
          .id,
      );
      expect(info.state, `${dataset}: ${info.error}`).toBe('completed');
      return { info, ...parse(info.path) };
    };
    // DRF by page number, several pages.
    const topics = await exportOf('topics', { pageSize: 7 });
    const topicCount = one(
      `SELECT count(DISTINCT topic_id) FROM chat_session_topics st JOIN chat_topics t ON t.id = st.topic_id
       WHERE t.org = ? AND st.started_at >= '2026-10-01' AND st.started_at < '2026-11-01'`,
      server.org,
    );
    expect(topics.rows).toHaveLength(topicCount);
    expect(topics.info.pagesTotal).toBe(Math.ceil(topicCount / 7));
    // DRF by limit and offset.
    const costs = await exportOf('costs', { pageSize: 100 });
    const learners = all<{ username: string; cost: number }>(
      `SELECT username, sum(cost) AS cost FROM chat_sessions WHERE org = ? AND started_at >= '2026-10-01' AND started_at < '2026-11-01'
       GROUP BY username`,
      server.org,
    );
    expect(costs.rows).toHaveLength(learners.length);
    expect(costs.info.pagesTotal).toBeGreaterThan(1);
    const byLearner = new Map(learners.map((l) => [l.username, l.cost]));
    for (const [learner, cost] of costs.rows) expect(Number(cost)).toBeCloseTo(byLearner.get(learner!)!, 5);
    // Legacy {data, pagination}.
    const users = await exportOf('users', { pageSize: 200 });
    expect(users.rows).toHaveLength(one("SELECT count(*) FROM users WHERE org = ? AND role = 'student'", server.org));
    expect(users.info.pagesTotal).toBeGreaterThan(1);
    const active = await exportOf('learners', { pageSize: 500 });
    expect(active.rows).toHaveLength(
      one(
        "SELECT count(DISTINCT user_id) FROM learning_activity WHERE org = ? AND day >= '2026-10-01' AND day <= '2026-10-31'",
        server.org,
      ),
    );
    const courses = await exportOf('courses', { pageSize: 15 });
    expect(courses.rows).toHaveLength(one('SELECT count(*) FROM courses WHERE org = ?', server.org));
    expect((await exportOf('departments')).rows).toHaveLength(
      one('SELECT count(*) FROM departments WHERE org = ?', server.org),
    );
    // Plain arrays and single objects: one page.
    const usage = await exportOf('usage');
    expect(usage.rows).toHaveLength(31);
    expect(usage.rows.reduce((s, r) => s + Number(r[1]), 0)).toBe(
      one(
        "SELECT count(*) FROM chat_sessions WHERE org = ? AND started_at >= '2026-10-01' AND started_at < '2026-11-01'",
        server.org,
      ),
    );
    const models = await exportOf('costs-by-model');
    expect(models.rows.map((r) => r[0]).sort()).toEqual(
      all<{ model: string }>(
        "SELECT DISTINCT model FROM chat_sessions WHERE org = ? AND started_at >= '2026-10-01' AND started_at < '2026-11-01'",
        server.org,
      )
        .map((m) => m.model)
        .sort(),
    );
    const completions = await exportOf('completions');
    expect(completions.rows.reduce((s, r) => s + Number(r[1]), 0)).toBe(
      one(
        "SELECT count(*) FROM learning_enrollments WHERE org = ? AND completed_at >= '2026-10-01' AND completed_at < '2026-11-01'",
        server.org,
      ),
    );
    // The table behind a chart is the chart's own data.
    const chart = await exportOf('chart.topics');
    const shown = await engine.invoke('analytics.topics', { range: OCTOBER, timeZone: 'UTC' });
    expect(chart.header).toEqual(['Topic', 'Conversations']);
    expect(chart.rows).toEqual(shown.rows.map((r) => [r.topic, String(r.conversations)]));
  });

  it("writes each Overview chart's table as the chart shows it, narrowed by the same mentor and department", async () => {
    const { engine } = await connect(server);
    const folder = tempDir();
    const mentor = one<string>("SELECT unique_id FROM mentors WHERE org = ? AND name = 'Calculus Coach'", server.org);
    const department = one('SELECT id FROM departments WHERE org = ? ORDER BY id LIMIT 1', server.org);
    const input = { range: OCTOBER, timeZone: 'Europe/Paris', mentor, department };
    // Each chart's table as the Overview draws it: its panel's own answer, through chartTable.
    const shown: Record<(typeof OVERVIEW_CHART_IDS)[number], () => Promise<TableRow[]>> = {
      kpis: async () => chartTable('kpis', await engine.invoke('analytics.kpis', input)),
      activity: async () => chartTable('activity', await engine.invoke('analytics.activity', input)),
      'top-mentors': async () =>
        chartTable('top-mentors', { mentors: (await engine.invoke('analytics.topMentors', input)).rows }),
      topics: async () => chartTable('topics', { topics: (await engine.invoke('analytics.topics', input)).rows }),
      sentiment: async () =>
        chartTable('sentiment', { sentiment: (await engine.invoke('analytics.sentiment', input)).rows }),
      'costs-by-model': async () => chartTable('costs-by-model', await engine.invoke('analytics.costs', input)),
      'costs-by-mentor': async () => chartTable('costs-by-mentor', await engine.invoke('analytics.costs', input)),
    };
    const exported: Record<string, string[][]> = {};
    for (const chart of OVERVIEW_CHART_IDS) {
      const table = await shown[chart]();
      expect(table.length, chart).toBeGreaterThan(0);
      // Exported as the chart's "Export CSV" asks: with the filters its dataset takes.
      const dataset = findDataset(`chart.${chart}`)!;
      const started = await engine.invoke('analytics.exportStart', {
        dataset: dataset.id,
        range: input.range,
        timeZone: input.timeZone,
        ...datasetFilters(dataset, input),
        folder,
      });
      const done = await settled(engine, started.id);
      expect(done.state, `${chart}: ${done.error}`).toBe('completed');
      const file = parse(done.path);
      expect(file.header, chart).toEqual(CHART_COLUMNS[chart].map((c) => c.label));
      const cells = table.map((row) => CHART_COLUMNS[chart].map((c) => (row[c.key] == null ? '' : String(row[c.key]))));
      expect(file.rows, chart).toEqual(cells);
      exported[chart] = file.rows;
    }
    // The mentor's own cost only, as its chart shows it.
    expect(exported['costs-by-mentor']).toEqual([[mentor, 'Calculus Coach', expect.any(String), expect.any(String)]]);
  });
});

describe('exports narrowed to a mentor', () => {
  const calculus = () =>
    one<string>("SELECT unique_id FROM mentors WHERE org = ? AND name = 'Calculus Coach'", server.org);
  /** Exports October (unless told otherwise) into a new folder, and reads the file back. */
  const exported = async (request: Omit<CallInput<'analytics.exportStart'>, 'range'> & { range?: typeof OCTOBER }) => {
    const { engine } = await connect(server);
    const info = await settled(
      engine,
      (await engine.invoke('analytics.exportStart', { range: OCTOBER, folder: tempDir(), ...request })).id,
    );
    expect(info.state, `${request.dataset}: ${info.error}`).toBe('completed');
    return { info, ...parse(info.path) };
  };

  it("chat history: only that mentor's messages, every one of them, in the zone's range", async () => {
    const mentor = calculus();
    const { info: done, ...file } = await exported({
      dataset: 'chat-history',
      timeZone: 'Europe/Paris',
      mentor: 'Calculus Coach',
      pageSize: 100,
    });
    // October in Paris, from the sandbox's own tables.
    const messages = all<{ session_id: string; content: string }>(
      `SELECT s.session_id, m.content FROM chat_messages m JOIN chat_sessions s ON s.id = m.session_pk
       WHERE s.org = ? AND s.mentor_unique_id = ? AND s.started_at >= '2026-09-30T22:00:00.000Z'
         AND s.started_at < '2026-10-31T23:00:00.000Z'
       ORDER BY s.started_at DESC, s.id DESC, m.id`,
      server.org,
      mentor,
    );
    const everyone = one(
      `SELECT count(*) FROM chat_messages m JOIN chat_sessions s ON s.id = m.session_pk
       WHERE s.org = ? AND s.started_at >= '2026-09-30T22:00:00.000Z' AND s.started_at < '2026-10-31T23:00:00.000Z'`,
      server.org,
    );
    expect(messages.length).toBeGreaterThan(100);
    expect(messages.length).toBeLessThan(everyone);
    expect(done.rows).toBe(messages.length);
    expect(file.rows.map((r) => [r[0], r[4]])).toEqual(messages.map((m) => [m.session_id, m.content]));
    expect(new Set(file.rows.map((r) => `${r[5]} ${r[6]}`))).toEqual(new Set([`${mentor} Calculus Coach`]));
    // The file name says whose rows these are, beside tenant, dataset, range and zone.
    expect(basename(done.path)).toBe(
      `${server.org}-chat-history-mentor-Calculus-Coach-2026-10-01_2026-10-31-Europe-Paris.csv`,
    );
  });

  it("conversations and topics: that mentor's rows only, with its own figures", async () => {
    const mentor = calculus();
    const exportOf = async (dataset: 'conversations' | 'topics') =>
      (await exported({ dataset, timeZone: 'UTC', mentor, pageSize: 7 })).rows;

    const sessions = all<{ session_id: string }>(
      `SELECT session_id FROM chat_sessions WHERE org = ? AND mentor_unique_id = ? AND started_at >= '2026-10-01'
         AND started_at < '2026-11-01' ORDER BY started_at DESC, id DESC`,
      server.org,
      mentor,
    );
    const conversations = await exportOf('conversations');
    expect(conversations.map((r) => r[0])).toEqual(sessions.map((s) => s.session_id));
    expect(new Set(conversations.map((r) => r[2]))).toEqual(new Set([mentor]));

    // Per topic, from each session's own topic list: the mentor's conversations and messages on it.
    const topics = all<{ name: string; conversations: number; messages: number }>(
      `SELECT json_extract(t.value, '$.name') AS name, count(*) AS conversations, sum(s.message_count) AS messages
       FROM chat_sessions s, json_each(s.topics) t
       WHERE s.org = ? AND s.mentor_unique_id = ? AND s.started_at >= '2026-10-01' AND s.started_at < '2026-11-01'
       GROUP BY name ORDER BY conversations DESC, name`,
      server.org,
      mentor,
    );
    const allTopics = one(
      `SELECT count(DISTINCT json_extract(t.value, '$.name')) FROM chat_sessions s, json_each(s.topics) t
       WHERE s.org = ? AND s.started_at >= '2026-10-01' AND s.started_at < '2026-11-01'`,
      server.org,
    );
    expect(topics.length).toBeGreaterThan(3);
    expect(topics.length).toBeLessThan(allTopics);
    const perTopic = await exportOf('topics');
    expect(perTopic.map((r) => [r[0], Number(r[1]), Number(r[2])])).toEqual(
      topics.map((t) => [t.name, t.conversations, t.messages]),
    );
  });
});

describe('export progress', () => {
  it('reports rows/s and an ETA while it runs, plausible and falling to 0 at the end', async () => {
    const slow = await proxy(server, 120);
    const { engine, events } = await connect(server, { baseUrl: slow.url });
    const began = Date.now();
    const started = await engine.invoke('analytics.exportStart', {
      dataset: 'conversations',
      range: { preset: 'custom', from: '2026-09-01', to: '2026-10-31' },
      timeZone: 'UTC',
      folder: tempDir(),
      pageSize: 40,
    });
    // What the Exports tab would read, a few times a second, while the job runs.
    const seen: {
      at: number;
      rows: number;
      rowsPerSecond: number;
      etaSeconds: number | null;
      pagesTotal: number | null;
    }[] = [];
    const done = await until(
      'the export to end',
      async () => {
        const info = await engine.invoke('analytics.export', { id: started.id });
        if (info.state === 'running') seen.push({ at: Date.now(), ...info });
        await new Promise((resolve) => setTimeout(resolve, 100));
        return info.state === 'completed' ? info : null;
      },
      60_000,
    );
    const seconds = (Date.now() - began) / 1000;
    expect(done.pagesTotal).toBeGreaterThan(20);
    expect(seconds).toBeGreaterThan(2);

    // Once the first pages are in, every reading has a rate and an ETA.
    const measured = seen.filter((s) => s.at - began > 1000 && s.pagesTotal !== null);
    expect(measured.length).toBeGreaterThan(5);
    const average = done.rows / seconds;
    for (const s of measured) {
      expect(s.rowsPerSecond).toBeGreaterThan(0);
      // Within a factor of three of the export's overall pace.
      expect(s.rowsPerSecond).toBeGreaterThan(average / 3);
      expect(s.rowsPerSecond).toBeLessThan(average * 3);
      expect(s.etaSeconds).not.toBeNull();
    }
    // The ETA falls as the pages come in, and is near the time the export really still took.
    const etas = measured.map((s) => s.etaSeconds!);
    expect(etas.at(-1)!).toBeLessThan(etas[0]!);
    expect(etas.at(-1)!).toBeLessThanOrEqual(2);
    const ended = began + seconds * 1000;
    for (const s of measured) {
      const left = (ended - s.at) / 1000;
      expect(s.etaSeconds!).toBeLessThanOrEqual(left * 2 + 2);
      expect(s.etaSeconds!).toBeGreaterThanOrEqual(left / 2 - 2);
    }
    expect(done.etaSeconds).toBe(0);
    expect(done.rowsPerSecond).toBe(0);

    // The screens hear the same: analytics.exportProgress while running, and jobs.progress with pages per second.
    const progress = events
      .filter((e) => e.name === 'analytics.exportProgress')
      .map((e) => e.payload as { id: string; state: string; rowsPerSecond: number; etaSeconds: number | null })
      .filter((p) => p.id === started.id && p.state === 'running');
    expect(progress.some((p) => p.rowsPerSecond > 0 && p.etaSeconds !== null && p.etaSeconds > 0)).toBe(true);
    const jobs = events
      .filter((e) => e.name === 'jobs.progress')
      .map(
        (e) =>
          e.payload as { id: string; state: string; progress: { itemsPerSecond: number; etaSeconds: number | null } },
      )
      .filter((p) => p.id === started.id && p.state === 'running');
    expect(jobs.some((p) => p.progress.itemsPerSecond > 0 && p.progress.etaSeconds !== null)).toBe(true);
  });
});

describe('exports that meet trouble', () => {
  it('waits while the tenant fails mid-export and resumes into the same bytes', async () => {
    const slow = await proxy(server);
    const { engine } = await connect(server, { baseUrl: slow.url });
    const reference = join(tempDir(), 'reference.csv');
    const request = { dataset: 'chat-history' as const, range: OCTOBER, timeZone: 'Europe/Paris', pageSize: 500 };
    await settled(engine, (await engine.invoke('analytics.exportStart', { ...request, path: reference })).id);

    const path = join(tempDir(), 'interrupted.csv');
    slow.fail = { match: /chat-history\/\?.*page=4&/, status: 503 };
    const started = await engine.invoke('analytics.exportStart', { ...request, path });
    const waiting = await until('the export to wait for the tenant', async () => {
      const info = await engine.invoke('analytics.export', { id: started.id });
      return info.state === 'waiting' ? info : null;
    });
    expect(waiting.reason).toMatch(/unreachable/);
    expect(waiting.pagesDone).toBe(3);
    expect(existsSync(path)).toBe(false);
    slow.fail = null;
    const done = await settled(engine, started.id);
    expect(done.state).toBe('completed');
    expect(sameBytes(path, reference)).toBe(true);
  });

  it('waits, rather than fails, when the tenant keeps answering 408 (it did not take the request), then completes', async () => {
    const slow = await proxy(server);
    const { engine } = await connect(server, { baseUrl: slow.url });
    const request = { dataset: 'chat-history' as const, range: OCTOBER, timeZone: 'UTC', pageSize: 500 };
    const path = join(tempDir(), 'timed-out.csv');
    slow.fail = { match: /chat-history\/\?.*page=2&/, status: 408 };
    const started = await engine.invoke('analytics.exportStart', { ...request, path });
    await until('the export to wait for the tenant', async () => {
      const info = await engine.invoke('analytics.export', { id: started.id });
      expect(info.state).not.toBe('failed');
      return info.state === 'waiting' ? info : null;
    });
    slow.fail = null;
    expect((await settled(engine, started.id)).state).toBe('completed');
  });

  it('resumes after the app stops mid-file, cutting off what was written after the journal', async () => {
    const slow = await proxy(server, 40);
    const dataDir = tempDir();
    const first = await connect(server, { baseUrl: slow.url, dataDir, keep: true });
    const request = { dataset: 'chat-history' as const, range: OCTOBER, timeZone: 'UTC', pageSize: 100 };
    const reference = join(tempDir(), 'reference.csv');
    const path = join(tempDir(), 'resumed.csv');
    const started = await first.engine.invoke('analytics.exportStart', { ...request, path });
    await until(
      'three pages',
      async () => (await first.engine.invoke('analytics.export', { id: started.id })).pagesDone >= 3,
    );
    await first.engine.close();
    const temp = readdirSync(join(path, '..')).find((f) => f.endsWith('.partial'))!;
    // A killed process may have written part of a page the journal never recorded.
    appendFileSync(join(path, '..', temp), 'half a page of garbage,"unterminated');
    expect(existsSync(path)).toBe(false);

    const second = await connect(server, { baseUrl: slow.url, dataDir });
    slow.delayMs = 0;
    const done = await settled(second.engine, started.id);
    expect(done.state).toBe('completed');
    await settled(
      second.engine,
      (await second.engine.invoke('analytics.exportStart', { ...request, path: reference })).id,
    );
    expect(sameBytes(path, reference)).toBe(true);
    expect(readdirSync(join(path, '..')).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('reports an unexpected envelope and leaves no file', async () => {
    const odd = await proxy(server);
    odd.rewrite = {
      match: /chat-history\/\?.*page=2&/,
      body: (page) => ({ data: (page as { results: unknown[] }).results }),
    };
    const { engine } = await connect(server, { baseUrl: odd.url });
    const folder = tempDir();
    const done = await settled(
      engine,
      (
        await engine.invoke('analytics.exportStart', {
          dataset: 'conversations',
          range: OCTOBER,
          timeZone: 'UTC',
          folder,
          pageSize: 100,
        })
      ).id,
    );
    expect(done.state).toBe('failed');
    expect(done.error).toMatch(/^The platform answered .*chat-history\/ with an unexpected shape: count: /);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('refuses an unwritable or missing folder before anything starts', async () => {
    const { engine } = await connect(server);
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, 'x');
    const underFile = await failure(engine, 'analytics.exportStart', {
      dataset: 'topics',
      range: OCTOBER,
      folder: join(file, 'sub'),
    });
    expect(underFile).toMatchObject({
      code: 'validation',
      message: expect.stringMatching(
        /^Cannot write .*: (a part of the path is not a folder|the folder does not exist)\.$/,
      ),
    });
    const missing = await failure(engine, 'analytics.exportStart', {
      dataset: 'topics',
      range: OCTOBER,
      folder: join(tempDir(), 'nope'),
    });
    expect(missing.message).toMatch(/the folder does not exist/);
    const proc = await failure(engine, 'analytics.exportStart', {
      dataset: 'topics',
      range: OCTOBER,
      path: '/proc/mentor-admin.csv',
    });
    expect(proc.message).toMatch(/^Cannot write \/proc/);
    expect((await engine.invoke('analytics.exports', {})).exports).toEqual([]);
  });

  it('refuses bad ranges, columns and filters with clear words', async () => {
    const { engine } = await connect(server);
    const reversed = await failure(engine, 'analytics.exportStart', {
      dataset: 'topics',
      range: { preset: 'custom', from: '2026-10-31', to: '2026-10-01' },
    });
    expect(reversed.message).toContain(
      'Invalid date range: the start date 2026-10-31 is after the end date 2026-10-01',
    );
    const malformed = await failure(engine, 'analytics.exportStart', {
      dataset: 'topics',
      range: { preset: 'custom', from: '2026-10-01', to: '2026-10-32' },
    });
    expect(malformed.message).toContain("Invalid date format: '2026-10-32' is not a date");
    const columns = await failure(engine, 'analytics.exportStart', {
      dataset: 'topics',
      range: OCTOBER,
      columns: ['topic', 'colour'],
    });
    expect(columns.message).toBe(
      "Unknown column 'colour' for topics (columns: topic, conversations, messages, avg_sentiment, avg_user_rating)",
    );
    const filter = await failure(engine, 'analytics.exportStart', {
      dataset: 'costs',
      range: OCTOBER,
      mentor: 'Calculus Coach',
    });
    expect(filter.message).toBe('Costs per learner cannot be filtered by mentor (the platform cannot)');
    const dataset = await failure(engine, 'analytics.exportStart', { dataset: 'secrets' as 'topics', range: OCTOBER });
    expect(dataset.code).toBe('validation');
  });

  it('cancels an export without leaving a file behind', async () => {
    const slow = await proxy(server, 60);
    const { engine } = await connect(server, { baseUrl: slow.url });
    const folder = tempDir();
    mkdirSync(folder, { recursive: true });
    const started = await engine.invoke('analytics.exportStart', {
      dataset: 'chat-history',
      range: OCTOBER,
      timeZone: 'UTC',
      folder,
      pageSize: 50,
    });
    await until('a page', async () => (await engine.invoke('analytics.export', { id: started.id })).pagesDone >= 1);
    await engine.invoke('jobs.cancel', { id: started.id });
    await until('the temporary file to go', () => readdirSync(folder).length === 0);
    expect((await engine.invoke('analytics.export', { id: started.id })).state).toBe('cancelled');
  });
});

describe('the default export folder', () => {
  it('is told as the file system names it, so the form can say where files go', async () => {
    const folder = tempDir();
    const { engine } = await connect(server, { env: { MENTOR_ADMIN_EXPORT_DIR: `${folder}/` } });
    expect(await engine.invoke('analytics.exportFolder', {})).toEqual({ folder });
    const started = await engine.invoke('analytics.exportStart', { dataset: 'costs-by-model', range: OCTOBER });
    expect((await settled(engine, started.id)).path.startsWith(`${folder}/${server.org}-costs-by-model-`)).toBe(true);
  });
});
