/**
 * The import wizard's engine side against the real sandbox: files as admins have them (generated here), every
 * row validated, fixed in place, dropped, checked against the platform, and sent exactly once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { runTask } from '../../src/main/engine/invitations/worker-runner';
import { openDatabase } from '../../src/main/engine/store/database';
import { tempDir } from '../helpers/temp';
import { allRows, csvFile, engineFor, invitationsOf, readyImport, sandboxWithInvitations, settledJob } from './setup';

const people = (n: number, prefix = 'person') =>
  Array.from({ length: n }, (_, i) => `${prefix}${i}@example.org,First${i},Last${i}`).join('\n');

describe('a cohort file, end to end', () => {
  it('invites everyone once; the same file again invites nobody', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const path = csvFile('cohort.csv', `Email,First name,Last name\n${people(250)}\n`);

    const first = await readyImport(engine, path);
    expect(first.state).toBe('ready');
    expect(first.summary).toMatchObject({ rows: 250, ok: 250, willEmail: 250 });
    const { jobId } = await engine.invoke('invitations.importStart', { id: first.id });
    const job = await settledJob(engine, jobId);
    expect(job.state).toBe('completed');
    expect(job.counts).toMatchObject({ invited: 250 });
    for (const i of [0, 99, 100, 249]) expect(invitationsOf(server, `person${i}@example.org`)).toBe(1);
    const names = server.db
      .prepare(`SELECT metadata, source, active FROM catalog_invitations WHERE email = 'person7@example.org'`)
      .get() as { metadata: string; source: string; active: number };
    expect(JSON.parse(names.metadata)).toMatchObject({ first_name: 'First7', last_name: 'Last7' });
    // The batch's tag: its invitations can be found again by source.
    expect(names.source).toMatch(/^csv:cohort\.csv@\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const again = await readyImport(engine, path);
    expect(again.summary).toMatchObject({ rows: 250, alreadyInvited: 250, willEmail: 0 });
    const second = await engine.invoke('invitations.importStart', { id: again.id });
    expect(second.resumed).toBe(false);
    const rerun = await settledJob(engine, second.jobId);
    expect(rerun.counts).toMatchObject({ alreadyInvited: 250 });
    expect(rerun.counts.invited ?? 0).toBe(0);
    expect(invitationsOf(server, 'person0@example.org')).toBe(1);
  });

  it('reads a messy Windows-1252 export: title lines, semicolons, decimal commas, quotes, ragged rows', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const text = [
      'Spring intake 2026;;;;',
      'Exported by the registry;;;;',
      'E-Mail;Vorname;Nachname;Score;Notes',
      'zoe@example.org;Zoë;Müller;1,5;"likes; semicolons"',
      'renee@example.org;Renée;"Du Pont;\r\nJr.";2,25;"line one',
      'line two"',
      'short@example.org;Sam',
      'long@example.org;Lou;Ng;3,0;note;extra;cells',
      ';;;;',
      'bad-address;Bad;Row;1,0;',
    ].join('\r\n');
    const draft = await engine.invoke('invitations.importOpen', {
      path: csvFile('export.csv', Buffer.from(text, 'latin1')),
    });
    expect(draft).toMatchObject({ encoding: 'windows-1252', delimiter: ';', headerRow: 2 });
    expect(draft.columns.map((c) => c.field)).toEqual(['email', 'first_name', 'last_name', null, null]);
    expect(draft.notices.join(' ')).toContain('Columns "Score", "Notes" are not used and will be ignored');

    await engine.invoke('invitations.importParse', { id: draft.id, wait: true });
    const ready = await engine.invoke('invitations.importTarget', {
      id: draft.id,
      target: { kind: 'platform' },
      wait: true,
    });
    // The short row is read with its missing cells empty: the platform needs only the address.
    expect(ready.summary).toMatchObject({ rows: 5, invalid: 1, ok: 4 });
    const rows = await allRows(engine, draft.id);
    expect(rows.map((r) => [r.line, r.values.email, r.values.first_name, r.values.last_name])).toEqual([
      [4, 'zoe@example.org', 'Zoë', 'Müller'],
      [5, 'renee@example.org', 'Renée', 'Du Pont;\r\nJr.'],
      [6, 'short@example.org', 'Sam', ''],
      [7, 'long@example.org', 'Lou', 'Ng'],
      [9, 'bad-address', 'Bad', 'Row'],
    ]);
    // Rows are numbered as a spreadsheet shows them: a quoted line break stays inside its row.
    expect(rows.find((r) => r.line === 6)).toMatchObject({ status: 'ok', problems: [] });
    expect(rows.find((r) => r.line === 9)!.status).toBe('invalid');
    expect(ready.notices.join(' ')).toMatch(/1 row has fewer cells than the header \(line 6\)/);
    expect(ready.notices.join(' ')).toMatch(
      /1 row has more cells than the header \(line 7\): the extra cells were ignored/,
    );
  });

  it('reads UTF-16 files with tabs and a byte order mark', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const text = '\uFEFFEmail\tFirst name\nyuki@example.org\t雪\nbjorn@example.org\tBjörn\n';
    const draft = await engine.invoke('invitations.importOpen', {
      path: csvFile('u16.csv', Buffer.from(text, 'utf16le')),
    });
    expect(draft).toMatchObject({ encoding: 'utf-16le', bom: true, delimiter: '\t' });
    await engine.invoke('invitations.importParse', { id: draft.id, wait: true });
    expect((await allRows(engine, draft.id)).map((r) => r.values.first_name)).toEqual(['雪', 'Björn']);
  });

  it('reads the rows off the thread that serves the UI', async () => {
    const db = openDatabase(join(tempDir(), 'app.sqlite'));
    try {
      db.prepare(
        `INSERT INTO profiles (id, name, base_url, org, username, auth_scheme, created_at, updated_at)
         VALUES ('p', 'P', 'http://127.0.0.1:9', 'o', 'u', 'Api-Key', 'now', 'now')`,
      ).run();
      db.prepare(
        `INSERT INTO invite_imports (id, profile_id, name, path, size, settings, state, created_at, updated_at)
         VALUES ('i', 'p', 'f', 'f', 1, '{}', 'parsing', 'now', 'now')`,
      ).run();
      const path = csvFile('w.csv', `Email\n${people(10)}\n`);
      const settings = {
        encoding: 'utf-8',
        bomBytes: 0,
        delimiter: ',',
        newline: '\n',
        headerRow: 0,
        mapping: ['email'],
      } as const;
      const result = await runTask(db, {
        task: 'read',
        input: {
          importId: 'i',
          path,
          settings: { ...settings, mapping: ['email'], headers: [], remembered: [], samples: [], preview: [] },
        },
      }).done;
      expect(result.stats.rows).toBe(10);
      expect(result.threadId).not.toBe(threadId);
    } finally {
      db.close();
    }
  });
});

describe('bad input gets a clear answer', () => {
  it('an empty file', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    await expect(engine.invoke('invitations.importOpen', { path: csvFile('empty.csv', '') })).rejects.toThrow(
      'The file is empty: there is nothing to import.',
    );
    await expect(
      engine.invoke('invitations.importOpen', { path: csvFile('blank.csv', '\uFEFF\r\n \r\n') }),
    ).rejects.toThrow(/The file is empty/);
  });

  it('headers only: read, said so, and nothing to start', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const draft = await readyImport(engine, csvFile('headers.csv', 'Email,First name,Last name\r\n'));
    expect(draft.summary.rows).toBe(0);
    expect(draft.notices).toContain('The file has a header but no rows below it: there is nobody to invite.');
    await expect(engine.invoke('invitations.importStart', { id: draft.id })).rejects.toThrow(/nobody to invite/);
  });

  it('a workbook or binary file', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const xlsx = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]);
    await expect(engine.invoke('invitations.importOpen', { path: csvFile('people.xlsx', xlsx) })).rejects.toThrow(
      /This file is an Excel workbook or a zip archive, not a CSV file/,
    );
    const binary = Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 37) % 256));
    await expect(engine.invoke('invitations.importOpen', { path: csvFile('data.bin', binary) })).rejects.toThrow(
      /binary data/,
    );
  });

  it('text sent by the page is kept as a file of the import, and removed with it', async () => {
    const server = await sandboxWithInvitations();
    const { engine, dataDir } = await engineFor(server);
    const draft = await engine.invoke('invitations.importOpen', {
      name: 'pasted.csv',
      text: 'email\npaste@example.org\n',
    });
    expect(draft.name).toBe('pasted.csv');
    const files = () => readdirSync(join(dataDir, 'imports'));
    expect(files()).toHaveLength(1);
    await engine.invoke('invitations.importDiscard', { id: draft.id });
    expect(files()).toHaveLength(0);
    await expect(engine.invoke('invitations.importGet', { id: draft.id })).rejects.toThrow(/No import with id/);
  });

  it('a file without an email column cannot be read until one is chosen', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const draft = await engine.invoke('invitations.importOpen', {
      path: csvFile('names.csv', 'Name,Phone\nAnn,123\n'),
    });
    expect(draft.notices).toContain('No column is matched to Email: choose the column that holds the email addresses.');
    await expect(engine.invoke('invitations.importParse', { id: draft.id })).rejects.toThrow(/email addresses first/);
  });
});

describe('doubts about a column are said once, never as row errors', () => {
  it('group owners that are not addresses: the people are invited into their group without one', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const text = [
      'Email,Group,Group owner',
      'go1@example.org,Cohort A,Dr Tutor',
      'go2@example.org,Cohort A,tutor@example.org',
      'go3@example.org,Cohort B,',
      'go4@example.org,Cohort B,see office',
    ].join('\n');
    const draft = await readyImport(engine, csvFile('owners.csv', text));
    expect(draft.summary).toMatchObject({ rows: 4, ok: 4, invalid: 0 });
    const note = (n: string, lines: string) =>
      `${n} a group owner that is not an email address (line ${lines}): those people are invited and put in their ` +
      'group without an owner (the owner is optional). Fix the cells to send one.';
    expect(draft.notices).toContain(note('2 rows have', '2, 5'));

    // Fixing a cell changes the note at once.
    await engine.invoke('invitations.importEditRow', {
      id: draft.id,
      line: 2,
      field: 'user_group_owner_email',
      value: 'tutor@example.org',
    });
    const fixed = await engine.invoke('invitations.importGet', { id: draft.id });
    expect(fixed.notices).toContain(note('1 row has', '5'));
    expect(fixed.notices.filter((n) => n.includes('group owner'))).toHaveLength(1);

    const { jobId } = await engine.invoke('invitations.importStart', { id: draft.id });
    expect((await settledJob(engine, jobId)).counts).toMatchObject({ invited: 4 });
    const meta = (email: string) =>
      JSON.parse(
        (
          server.db.prepare('SELECT metadata FROM catalog_invitations WHERE email = ?').get(email) as {
            metadata: string;
          }
        ).metadata,
      ) as Record<string, unknown>;
    expect(meta('go1@example.org')).toEqual({ user_group: 'Cohort A', user_group_owner_email: 'tutor@example.org' });
    expect(meta('go3@example.org')).toEqual({ user_group: 'Cohort B' });
    expect(meta('go4@example.org')).toEqual({ user_group: 'Cohort B' });
  });

  it('characters that could not be read: one note for the file, the rows stay sendable', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    // ASCII for the first megabyte, then Windows-1252 bytes: the file is taken for UTF-8.
    const head = `Email,First name\n${Array.from({ length: 80_000 }, (_, i) => `a${i}@example.org,Ann`).join('\n')}\n`;
    const tail = Buffer.from('zoe@example.org,Zo\xeb\nrene@example.org,Ren\xe9e\n', 'latin1');
    const draft = await readyImport(engine, csvFile('late.csv', Buffer.concat([Buffer.from(head), tail])));
    expect(draft.encoding).toBe('utf-8');
    expect(draft.summary).toMatchObject({ rows: 80_002, ok: 80_002, invalid: 0 });
    expect(draft.notices).toContain(
      '2 rows have characters that could not be read as UTF-8 (line 80002, 80003): they would be sent as “\uFFFD”. ' +
        "Choose the file's encoding under Columns (spreadsheets saved on Windows are often Windows-1252).",
    );
  });
});

describe('reviewing and fixing rows', () => {
  it('finds duplicates case-insensitively; dropping the first makes the next one count', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const draft = await readyImport(
      engine,
      csvFile('dups.csv', 'Email\nann@example.org\nANN@Example.org\nbob@example.org\nann@EXAMPLE.org\n'),
    );
    expect(draft.summary).toMatchObject({ rows: 4, ok: 2, duplicate: 2, willEmail: 2 });
    const problems = await allRows(engine, draft.id, 'problems');
    expect(problems.map((r) => [r.line, r.duplicateOf])).toEqual([
      [3, 2],
      [5, 2],
    ]);
    await engine.invoke('invitations.importDropRows', { id: draft.id, lines: [2], dropped: true });
    const after = await engine.invoke('invitations.importGet', { id: draft.id });
    expect(after.summary).toMatchObject({ ok: 2, duplicate: 1, dropped: 1, willEmail: 2 });
    expect((await allRows(engine, draft.id, 'problems')).map((r) => [r.line, r.duplicateOf])).toEqual([[5, 3]]);
    expect((await allRows(engine, draft.id, 'dropped')).map((r) => r.line)).toEqual([2]);
  });

  it('fixes a bad email in place, asks the platform about the new address, and keeps fixes when going back', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const path = csvFile('fix.csv', 'Title line\nEmail,First name\nann@example,Ann\nbob@example.org,Bob\n');
    const draft = await readyImport(engine, path);
    expect(draft.headerRow).toBe(1);
    expect(draft.summary).toMatchObject({ invalid: 1, ok: 1 });
    const [bad] = await allRows(engine, draft.id, 'problems');
    expect(bad).toMatchObject({
      line: 3,
      status: 'invalid',
      problems: [{ field: 'email', message: 'Not a valid email address' }],
    });

    const fixed = await engine.invoke('invitations.importEditRow', {
      id: draft.id,
      line: 3,
      field: 'email',
      value: ' ann@example.org ',
    });
    expect(fixed).toMatchObject({ status: 'ok', edited: true, problems: [], values: { email: 'ann@example.org' } });
    // An address already invited is found out as soon as it is typed.
    const member = await engine.invoke('invitations.importEditRow', {
      id: draft.id,
      line: 4,
      field: 'email',
      value: 'learner0001@northbridge.example',
    });
    expect(member.status).toBe('already_member');

    // Back to the columns: another header row and mapping, the file read again; the fixes stay.
    await engine.invoke('invitations.importConfigure', { id: draft.id, headerRow: 1, mapping: ['email', null] });
    await engine.invoke('invitations.importParse', { id: draft.id, wait: true });
    const reread = await engine.invoke('invitations.importGet', { id: draft.id });
    expect(reread.state).toBe('ready');
    const rows = await allRows(engine, draft.id);
    expect(rows.map((r) => [r.values.email, r.values.first_name, r.status])).toEqual([
      ['ann@example.org', '', 'ok'],
      ['learner0001@northbridge.example', '', 'already_member'],
    ]);
  });

  it('marks who is already invited or a member, asked of the platform', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const invited = server.db
      .prepare(
        `SELECT email FROM catalog_invitations WHERE kind = 'platform' AND active = 1 AND email IS NOT NULL
                AND (expired IS NULL OR expired > ?) LIMIT 1`,
      )
      .get(new Date().toISOString()) as { email: string };
    const draft = await readyImport(
      engine,
      csvFile('known.csv', `Email\n${invited.email.toUpperCase()}\nlearner0002@northbridge.example\nnew@example.org\n`),
    );
    expect(draft.summary).toMatchObject({ alreadyInvited: 1, alreadyMember: 1, ok: 1, willEmail: 1 });
    const { jobId } = await engine.invoke('invitations.importStart', { id: draft.id });
    const job = await settledJob(engine, jobId);
    expect(job.counts).toMatchObject({ invited: 1, alreadyInvited: 1, alreadyMember: 1 });
  });

  it('pages and filters a large import from SQLite', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const lines = Array.from({ length: 3000 }, (_, i) => (i % 100 === 0 ? `broken${i}` : `p${i}@example.org`));
    const draft = await readyImport(engine, csvFile('big.csv', `Email\n${lines.join('\n')}\n`));
    expect(draft.summary).toMatchObject({ rows: 3000, invalid: 30 });
    const page = await engine.invoke('invitations.importRows', {
      id: draft.id,
      filter: 'problems',
      offset: 10,
      limit: 5,
    });
    expect(page.total).toBe(30);
    expect(page.rows.map((r) => r.line)).toEqual([1002, 1102, 1202, 1302, 1402]);
    const tail = await engine.invoke('invitations.importRows', {
      id: draft.id,
      filter: 'all',
      offset: 2998,
      limit: 10,
    });
    expect(tail.rows.map((r) => r.values.email)).toEqual(['p2998@example.org', 'p2999@example.org']);
  });
});

describe('the invite job', () => {
  it('sends to a course chosen from the catalog, and refuses an unknown one', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const { courses } = await engine.invoke('invitations.courses', {});
    expect(courses).toHaveLength(40);
    const { programs } = await engine.invoke('invitations.programs', {});
    expect(programs).toHaveLength(3);
    const course = courses.find((c) => c.name === 'Databases')!;
    const draft = await engine.invoke('invitations.importOpen', {
      path: csvFile('c.csv', `Email\n${people(3, 'c')}\n`),
    });
    await engine.invoke('invitations.importParse', { id: draft.id, wait: true });
    await expect(
      engine.invoke('invitations.importTarget', { id: draft.id, target: { kind: 'course', id: 'course-v1:nope+X+1' } }),
    ).rejects.toThrow("There is no course 'course-v1:nope+X+1' on this tenant");
    const ready = await engine.invoke('invitations.importTarget', {
      id: draft.id,
      target: { kind: 'course', id: course.id },
      redirectTo: 'https://learn.example.org/welcome',
      wait: true,
    });
    const { jobId } = await engine.invoke('invitations.importStart', { id: ready.id });
    expect((await settledJob(engine, jobId)).counts.invited).toBe(3);
    const row = server.db
      .prepare(`SELECT target, redirect_to FROM catalog_invitations WHERE kind = 'course' AND email = 'c1@example.org'`)
      .get() as { target: string; redirect_to: string };
    expect(row).toEqual({ target: course.id, redirect_to: 'https://learn.example.org/welcome' });
  });

  it('rides out a server failing mid-send: every person invited exactly once', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const draft = await readyImport(engine, csvFile('flaky.csv', `Email\n${people(400, 'f')}\n`));
    server.setFaults('error5xx=0.25,rate429=0.1,retryAfter=0');
    const { jobId } = await engine.invoke('invitations.importStart', { id: draft.id });
    const job = await settledJob(engine, jobId, 60_000);
    server.setFaults('');
    expect(job.error).toBeNull();
    expect(job.state).toBe('completed');
    expect(job.counts.invited).toBe(400);
    const counts = server.db
      .prepare(
        `SELECT count(*) AS n, count(DISTINCT lower(email)) AS d FROM catalog_invitations WHERE email LIKE 'f%@example.org'`,
      )
      .get() as { n: number; d: number };
    expect(counts).toEqual({ n: 400, d: 400 });
  }, 70_000);

  it('never sends twice a chunk whose answer was lost: it asks the platform first', async () => {
    const server = await sandboxWithInvitations();
    const { engine, dataDir } = await engineFor(server);
    const draft = await readyImport(engine, csvFile('lost.csv', `Email\n${people(30, 'l')}\n`));
    // The journal as a crash would leave it: ten rows marked `sending`, and the platform did get them.
    server.setFaults('error5xx=1');
    const { jobId } = await engine.invoke('invitations.importStart', { id: draft.id });
    await expect
      .poll(async () => (await engine.invoke('jobs.get', { id: jobId })).state, { timeout: 20_000, interval: 50 })
      .toBe('waiting');
    await engine.invoke('jobs.pause', { id: jobId });
    server.setFaults('');
    const db = openDatabase(join(dataDir, 'mentor-admin.sqlite'));
    try {
      db.prepare(
        `UPDATE job_items SET phase = 'sending' WHERE id IN (SELECT id FROM job_items WHERE job_id = ? ORDER BY id LIMIT 10)`,
      ).run(jobId);
      db.prepare(
        `UPDATE job_items SET phase = '' WHERE job_id = ? AND id NOT IN (SELECT id FROM job_items WHERE job_id = ? ORDER BY id LIMIT 10)`,
      ).run(jobId, jobId);
    } finally {
      db.close();
    }
    await fetch(`${server.url}/api/catalog/invitations/platform/bulk/`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        platform_key: server.org,
        invitation_data: Array.from({ length: 10 }, (_, i) => ({
          email: `l${i}@example.org`,
          platform_key: server.org,
        })),
      }),
    });
    await engine.invoke('jobs.resume', { id: jobId });
    const job = await settledJob(engine, jobId);
    expect(job.counts.invited).toBe(30);
    for (let i = 0; i < 30; i++) expect(invitationsOf(server, `l${i}@example.org`)).toBe(1);
  }, 40_000);

  it('writes a report with one line per input row, neutralising formulas', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);
    const text = [
      'Email,First name,Last name',
      'ok1@example.org,=HYPERLINK("http://evil"),+1',
      'broken,@SUM(A1),-2',
      'learner0003@northbridge.example,Known,Member',
      'ok1@EXAMPLE.org,Again,Dup',
    ].join('\n');
    const draft = await readyImport(engine, csvFile('report.csv', text));
    const { jobId } = await engine.invoke('invitations.importStart', { id: draft.id });
    await settledJob(engine, jobId);
    const path = join(tempDir(), 'report.csv');
    expect(await engine.invoke('jobs.exportReport', { id: jobId, path })).toEqual({ path, rows: 4 });
    const lines = readFileSync(path, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toEqual([
      'row,email,first_name,last_name,result,message',
      `2,ok1@example.org,"'=HYPERLINK(""http://evil"")","'+1",invited,`,
      `3,broken,"'@SUM(A1)","'-2",invalid,Not a valid email address (no @)`,
      '4,learner0003@northbridge.example,Known,Member,already a member,Already a member',
      '5,ok1@EXAMPLE.org,Again,Dup,duplicate,The same address as line 2',
    ]);
  });
});
