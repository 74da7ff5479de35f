/**
 * Membership imports (`mentor-admin import department-members|user-group-members FILE.csv`, resources.import on a
 * membership kind) against a real sandbox over HTTP: people matched by email or username, groups by name or id,
 * unknown people and groups reported per row without stopping the job, "already" for people in the group before, a
 * dry run that changes nothing, and a process killed with SIGKILL mid-file that, run again, adds nobody twice.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CoreService, OpenAPI } from '@iblai/iblai-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine';
import { MEMBERS_BATCH } from '../../src/main/engine/resources/members-import';
import type { Sandbox } from '../../src/server/app';
import { cli } from '../helpers/cli';
import { call, sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { connect } from '../helpers/engine';
import { cliTenant, csvFile, settledJob } from '../invitations/setup';

const last = (stdout: string) => JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;

let server: Sandbox;
let env: NodeJS.ProcessEnv;

/** People of this tenant, straight into the sandbox's table: `member{i}` / `member{i}@example.edu`. */
function addPeople(from: number, count: number) {
  const insert = server.db.prepare(
    `INSERT INTO users (username, email, org, role, date_joined) VALUES (?, ?, ?, 'student', '2026-01-01T00:00:00Z')`,
  );
  server.db.transaction(() => {
    for (let i = from; i < from + count; i++) insert.run(`member${i}`, `member${i}@example.edu`, server.org);
  })();
}
const makeDepartment = async (name: string) =>
  ((await call(server, 'POST', '/api/core/departments/', { json: { name } })).body as { id: number }).id;
const departmentOf = (username: string) =>
  server.db.prepare('SELECT department_id FROM users WHERE username = ?').pluck().get(username) as number | null;
const inDepartment = (id: number) =>
  server.db.prepare('SELECT count(*) FROM users WHERE department_id = ?').pluck().get(id) as number;

beforeAll(async () => {
  server = await sandbox();
  addPeople(0, 5_000);
  ({ env } = await cliTenant(server));
});

describe('department members from a CSV (engine job)', () => {
  let engine: Engine;
  beforeAll(async () => {
    ({ engine } = await connect(server, { key: 'env-only', keep: true }));
  });
  afterAll(async () => engine.close());

  it('dry run changes nothing; the import adds by email or username, by name or id, and reports each row', async () => {
    const nursing = await makeDepartment('Nursing');
    const surgery = await makeDepartment('Surgery');
    await call(server, 'POST', '/api/core/departments/members/', {
      json: { department_id: nursing, username: 'member3' },
    });
    const text =
      'E-mail Address,Department Name\n' +
      'member1@example.edu,Nursing\n' + // added, by email and name
      'member2,nursing\n' + // by username, name in another case
      'member3,Nursing\n' + // already there
      'ghost@example.edu,Nursing\n' + // not the tenant's
      `member4@example.edu,${surgery}\n` + // department by id
      'member5,Dentistry\n' + // no such department
      ',Nursing\n'; // invalid: no person
    const start = (dryRun: boolean) =>
      engine.invoke('resources.import', {
        kind: 'department-members',
        text,
        name: 'people.csv',
        start: true,
        ...(dryRun && { dryRun: true }),
      });

    const dry = await start(true);
    expect(dry.mapping).toEqual(['person', 'group']);
    expect(dry.counts).toMatchObject({ rows: 7, valid: 6, invalid: 1 });
    const dryJob = await settledJob(engine, dry.job!.id);
    expect(dryJob.error).toBeNull();
    expect(dryJob.state).toBe('completed');
    expect(dryJob.counts).toMatchObject({ wouldAdd: 3, already: 1, unknown: 2, invalid: 1 });
    expect(departmentOf('member1')).toBeNull();
    expect(departmentOf('member4')).toBeNull();
    expect(inDepartment(nursing)).toBe(1);

    const run = await start(false);
    expect(run.job!.resumed).toBe(false);
    const job = await settledJob(engine, run.job!.id);
    expect(job.state).toBe('completed');
    expect(job.counts).toMatchObject({ added: 3, already: 1, unknown: 2, invalid: 1 });
    expect(job.counts.failed ?? 0).toBe(0);
    expect([departmentOf('member1'), departmentOf('member2'), departmentOf('member3')]).toEqual([
      nursing,
      nursing,
      nursing,
    ]);
    expect(departmentOf('member4')).toBe(surgery);
    expect(departmentOf('member5')).toBeNull();

    const report = join(tempDir(), 'report.csv');
    await engine.invoke('jobs.exportReport', { id: run.job!.id, path: report });
    const lines = readFileSync(report, 'utf8').trim().split(/\r?\n/);
    expect(lines[0]).toBe('row,person,group,result,message');
    // The group column names the department the row was matched to (a row naming it by id or in other case too).
    expect(lines.slice(1)).toEqual([
      '2,member1@example.edu,Nursing,added,',
      '3,member2,Nursing,added,',
      '4,member3,Nursing,already,Already in Nursing',
      '5,ghost@example.edu,Nursing,unknown,No person with the email ghost@example.edu on this tenant',
      '6,member4@example.edu,Surgery,added,',
      '7,member5,Dentistry,unknown,"No department ""Dentistry"" on this tenant"',
      '8,,Nursing,invalid,Give the person’s email or username',
    ]);
  });

  it('a person named twice for one department is warned of, sent once and reported as repeated; the job is named by the department', async () => {
    const radiology = await makeDepartment('Radiology');
    await call(server, 'POST', '/api/core/departments/members/', {
      json: { department_id: radiology, username: 'member70' },
    });
    const text =
      'Email\n' +
      'member71@example.edu\n' + // would be added
      'member70\n' + // already a member
      'MEMBER71@example.edu \n' + // the same person as row 2, another case
      'member72\n' + // would be added
      'member71@example.edu\n' + // row 2 again
      'member70\n'; // row 3 again: a repeat, not "already"
    const start = (dryRun: boolean, rows?: { filter: 'invalid'; offset: number; limit: number }) =>
      engine.invoke('resources.import', {
        kind: 'department-members',
        text,
        name: 'radiology.csv',
        group: String(radiology),
        ...(rows ? { rows } : { start: true, ...(dryRun && { dryRun: true }) }),
      });

    // The preview warns (never refuses): the rows stay valid, each says the row it repeats.
    const preview = await start(false, { filter: 'invalid', offset: 0, limit: 100 });
    expect(preview.counts).toMatchObject({ rows: 6, valid: 6, invalid: 0, repeated: 3 });
    expect(preview.rows.map((row) => [row.line, row.repeatOf, row.problems.length])).toEqual([
      [4, 2, 0],
      [6, 2, 0],
      [7, 3, 0],
    ]);
    expect(preview.notices.join('\n')).toContain(
      '3 rows have the same person and department as an earlier row: each is sent once',
    );

    const dry = await start(true);
    const dryJob = await settledJob(engine, dry.job!.id);
    expect(dryJob.title).toBe('Dry run: put 3 people into Radiology (radiology.csv)');
    expect(dryJob.counts).toMatchObject({ wouldAdd: 2, already: 1, repeated: 3 });
    expect(dryJob.counts.unknown ?? 0).toBe(0);
    expect(dryJob.progress).toMatchObject({ total: 6, done: 3, skipped: 3 });

    const run = await start(false);
    const job = await settledJob(engine, run.job!.id);
    expect(job.title).toBe('Put 3 people into Radiology (radiology.csv)');
    expect(job.counts).toMatchObject({ added: 2, already: 1, repeated: 3 });
    expect(inDepartment(radiology)).toBe(3);
    const report = join(tempDir(), 'repeats.csv');
    await engine.invoke('jobs.exportReport', { id: run.job!.id, path: report });
    expect(readFileSync(report, 'utf8').trim().split(/\r?\n/).slice(1)).toEqual([
      `2,member71@example.edu,Radiology,added,`,
      `3,member70,Radiology,already,Already in Radiology`,
      `4,MEMBER71@example.edu,Radiology,repeated in the file,Repeated in the file (row 2)`,
      `5,member72,Radiology,added,`,
      `6,member71@example.edu,Radiology,repeated in the file,Repeated in the file (row 2)`,
      `7,member70,Radiology,repeated in the file,Repeated in the file (row 3)`,
    ]);
  });

  it('imported from a department’s details: rows that name no department go into that one', async () => {
    const pharmacy = await makeDepartment('Pharmacy');
    const text = 'Email\nmember50@example.edu\nmember51\n';
    const preview = await engine.invoke('resources.import', {
      kind: 'department-members',
      text,
      group: String(pharmacy),
    });
    expect(preview.counts).toMatchObject({ rows: 2, valid: 2, invalid: 0 });
    expect(preview.notices.join(' ')).not.toContain('No column fills Department');
    const run = await engine.invoke('resources.import', {
      kind: 'department-members',
      text,
      group: String(pharmacy),
      start: true,
    });
    const job = await settledJob(engine, run.job!.id);
    expect(job.counts).toMatchObject({ added: 2 });
    expect([departmentOf('member50'), departmentOf('member51')]).toEqual([pharmacy, pharmacy]);
    // Without the group, the same file's rows name no department.
    const bare = await engine.invoke('resources.import', { kind: 'department-members', text });
    expect(bare.counts).toMatchObject({ valid: 0, invalid: 2 });
  });

  it('a name two departments share is refused on its row, with their ids', async () => {
    const one = await makeDepartment('Twins');
    const two = await makeDepartment('Twins');
    const run = await engine.invoke('resources.import', {
      kind: 'department-members',
      text: 'username,department\nmember20,Twins\nmember21,' + one + '\n',
      start: true,
    });
    const job = await settledJob(engine, run.job!.id);
    expect(job.counts).toMatchObject({ added: 1, invalid: 1 });
    expect(departmentOf('member21')).toBe(one);
    expect(departmentOf('member20')).toBeNull();
    const { items } = await engine.invoke('jobs.items', { id: run.job!.id });
    expect(items.find((item) => item.phase === 'invalid')?.detail.message).toBe(
      `2 departments are named "Twins": give the department's id (${one}, ${two})`,
    );
  });
});

describe('mentor-admin import user-group-members FILE.csv', () => {
  it('dry run sends nothing; the import links once, then says already; unknowns reported, exit 1', async () => {
    const group = (
      (await call(server, 'POST', '/api/core/user_groups/', { json: { name: 'Cohort 9' } })).body as {
        id: number;
      }
    ).id;
    const file = csvFile(
      'links.csv',
      'User,Group\nmember30,Cohort 9\nmember31@example.edu,Cohort 9\nnobody,Cohort 9\n',
    );
    const links = () =>
      server.db.prepare('SELECT count(*) FROM user_group_members WHERE group_id = ?').pluck().get(group);

    const dry = await cli(['import', 'user-group-members', file, '--dry-run', '--json'], { env });
    expect(dry.code).toBe(1);
    expect(last(dry.stdout)).toMatchObject({ rows: 3, dryRun: true, wouldAdd: 2, already: 0, unknown: 1 });
    expect(links()).toBe(0);

    const first = await cli(['import', 'user-group-members', file, '--json'], { env });
    expect(last(first.stdout)).toEqual({
      job: expect.any(String),
      rows: 3,
      added: 2,
      already: 0,
      repeated: 0,
      unknown: 1,
      invalid: 0,
      failed: 0,
    });
    expect(links()).toBe(2);
    // The vendor's SDK reads back the links the import wrote.
    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const answer = (await CoreService.coreUserGroupsLinkRetrieve()) as unknown;
    const read = (Array.isArray(answer) ? answer : (answer as { results: unknown[] }).results) as {
      group_id: number;
      group_name: string;
      username: string;
    }[];
    expect(
      read
        .filter((link) => link.group_id === group)
        .map((link) => `${link.username} in ${link.group_name}`)
        .sort(),
    ).toEqual(['member30 in Cohort 9', 'member31 in Cohort 9']);
    const again = await cli(['import', 'user-group-members', file], { env });
    expect(again.stdout).toContain('0 added, 2 already members, 1 unknown');
    expect(links()).toBe(2);
  });
});

/** A proxy that counts the people each bulk POST carries, and calls `after` once each has been answered. */
async function bulkProxy(target: string, after: (posts: number) => void) {
  let posts = 0;
  let people = 0;
  const read = (req: IncomingMessage) =>
    new Promise<Buffer>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => resolve(Buffer.concat(chunks)));
    });
  const proxy = createServer((req, res) => {
    void (async () => {
      const body = await read(req);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
          headers.set(name, value);
      }
      const bulk = req.method === 'POST' && req.url?.startsWith('/api/core/departments/members/bulk/');
      if (bulk) people += (JSON.parse(body.toString()) as { users: unknown[] }).users.length;
      const answer = await fetch(`${target}${req.url}`, {
        method: req.method,
        headers,
        ...(body.length ? { body } : {}),
      });
      const text = await answer.text();
      if (bulk) after(++posts);
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    people: () => people,
    close: () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}

describe('5,000 rows, killed and resumed', () => {
  let proxy: Awaited<ReturnType<typeof bulkProxy>> | undefined;
  afterAll(async () => proxy?.close());

  it('killed with SIGKILL mid-file, then run again: resumes, every row added once, nobody sent again who was settled', async () => {
    const rows = 5_000;
    const departments = [await makeDepartment('North'), await makeDepartment('South')];
    let kill: () => void = () => {};
    proxy = await bulkProxy(server.url, (posts) => {
      if (posts === 4) kill();
    });
    const tenant = await cliTenant(server, proxy.url);
    const file = csvFile(
      'five-thousand.csv',
      `email,department\n${Array.from({ length: rows }, (_, i) => `member${i}@example.edu,${i % 2 ? 'South' : 'North'}`).join('\n')}\n`,
    );
    const run = () =>
      new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          ['bin/mentor-admin.mjs', 'import', 'department-members', file, '--json'],
          {
            env: tenant.env,
          },
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        kill = () => child.kill('SIGKILL');
        child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
      });

    const first = await run();
    expect(first.signal, first.stderr).toBe('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sentBefore = proxy.people();
    expect(sentBefore).toBeGreaterThanOrEqual(4 * MEMBERS_BATCH);
    expect(sentBefore).toBeLessThan(rows);

    kill = () => {};
    const second = await run();
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('"resumed":true');
    // Every row added by this import, none "already": rows the first run settled were not sent again, and those it
    // sent without reading the answer count as added.
    expect(last(second.stdout)).toEqual({
      job: expect.any(String),
      rows,
      added: rows,
      already: 0,
      repeated: 0,
      unknown: 0,
      invalid: 0,
      failed: 0,
    });
    expect(inDepartment(departments[0]!) + inDepartment(departments[1]!)).toBe(rows);
    // Sent again: at most the batches in flight when it died (the tenant's four slots).
    expect(proxy.people() - rows).toBeLessThanOrEqual(4 * MEMBERS_BATCH);
  }, 120_000);
});

describe('deleting a department says how many members it has first', () => {
  it('resources.referrers counts them on the platform; the CLI warns with the figure before it deletes', async () => {
    const { engine } = await connect(server, { key: 'env-only', keep: true });
    try {
      const full = await makeDepartment('Full');
      const empty = await makeDepartment('Empty');
      await call(server, 'POST', '/api/core/departments/members/bulk/', {
        json: {
          department_id: full,
          users: [{ username: 'member40' }, { username: 'member41' }, { username: 'member42' }],
        },
      });
      const found = await engine.invoke('resources.referrers', {
        kind: 'departments',
        ids: [String(full), String(empty)],
      });
      expect(found.counts).toEqual([
        { kind: 'department-members', refersTo: String(full), count: 3, exact: true, asOf: null },
        { kind: 'department-members', refersTo: String(empty), count: 0, exact: true, asOf: null },
      ]);
      // Counted, not named one by one.
      expect(found.referrers.filter((r) => r.kind === 'department-members')).toEqual([]);

      // The platform not answering: the saved list's figure, said as such (none saved here: unknown).
      server.setFaults('error5xx=1');
      try {
        const unanswered = await engine.invoke('resources.referrers', { kind: 'departments', ids: [String(full)] });
        expect(unanswered.counts).toEqual([
          { kind: 'department-members', refersTo: String(full), count: 0, exact: false, asOf: null },
        ]);
      } finally {
        server.setFaults('');
      }

      const deleted = await cli(['delete', 'departments', String(full), '--yes'], { env });
      expect(deleted.code, deleted.stderr).toBe(0);
      expect(deleted.stderr).toContain(`Warning: department ${full} has 3 department members`);
    } finally {
      await engine.close();
    }
  });
});
