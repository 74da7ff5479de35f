/**
 * A registrar's real-world export (fixtures/registrar-export.csv: title lines, odd headers, a "User Group" column and
 * no group owner column, short rows, a trailer, some truly bad rows): every good person is invited, in the wizard
 * (the engine calls it makes) and with `invite --skip-invalid`; the missing owner column is said once, never as
 * row errors, and the sandbox takes a group without an owner as the spec says it may.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { domainToASCII } from 'node:url';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { cli } from '../helpers/cli';
import { tempDir } from '../helpers/temp';
import { allRows, cliTenant, engineFor, sandboxWithInvitations, settledJob } from './setup';

const FIXTURE = resolve('tests/invitations/fixtures/registrar-export.csv');
const expected = JSON.parse(
  readFileSync(resolve('tests/invitations/fixtures/registrar-export.expected.json'), 'utf8'),
) as { good: number; withGroup: number; invalid: number[]; duplicate: number[] };
const HEADER_LINE = 5;
const OWNER_NOTICE =
  'Column "User Group" fills User group, and no column fills Group owner email: the groups are sent without an ' +
  'owner, which the platform allows (the owner is optional).';

/** The good people of the fixture, read with papaparse apart from the app: address as sent (ASCII), and group. */
function goodPeople(): { email: string; group: string }[] {
  const records = Papa.parse<string[]>(readFileSync(FIXTURE, 'utf8').replace(/^\uFEFF/, ''), {
    newline: '\r\n',
  }).data;
  const skip = new Set([...expected.invalid, ...expected.duplicate]);
  const people: { email: string; group: string }[] = [];
  records.forEach((record, index) => {
    const line = index + 1;
    if (line <= HEADER_LINE || skip.has(line) || record.every((cell) => cell.trim() === '')) return;
    const given = record[3]!.trim();
    const at = given.lastIndexOf('@');
    people.push({
      email: `${given.slice(0, at)}@${domainToASCII(given.slice(at + 1))}`.toLowerCase(),
      group: record[7]?.trim() ?? '',
    });
  });
  return people;
}

/** What the sandbox holds for every good person: one platform invitation each, the group as metadata, no owner. */
function expectEveryoneInvited(server: Sandbox, source: string | null): void {
  const people = goodPeople();
  expect(people).toHaveLength(expected.good);
  expect(people.filter((p) => p.group)).toHaveLength(expected.withGroup);
  const stored = server.db
    .prepare(`SELECT lower(email) AS email, metadata, source FROM catalog_invitations WHERE kind = 'platform'`)
    .all() as { email: string | null; metadata: string; source: string | null }[];
  const byEmail = new Map<string, { metadata: Record<string, unknown>; source: string | null }[]>();
  for (const row of stored) {
    if (!row.email) continue;
    const list = byEmail.get(row.email) ?? [];
    list.push({ metadata: JSON.parse(row.metadata) as Record<string, unknown>, source: row.source });
    byEmail.set(row.email, list);
  }
  const missing = people.filter((p) => byEmail.get(p.email)?.length !== 1).map((p) => p.email);
  expect(missing).toEqual([]);
  for (const person of people) {
    const [invitation] = byEmail.get(person.email)!;
    expect(invitation!.metadata.user_group ?? '').toBe(person.group);
    expect(invitation!.metadata).not.toHaveProperty('user_group_owner_email');
    if (source) expect(invitation!.source).toBe(source);
  }
}

describe('a registrar export with a user group column and no owner column', () => {
  it('the wizard invites every good person: one column-level note, no owner errors', async () => {
    const server = await sandboxWithInvitations();
    const { engine } = await engineFor(server);

    const opened = await engine.invoke('invitations.importOpen', { path: FIXTURE });
    expect(opened.headerRow).toBe(HEADER_LINE - 1);
    const fields = Object.fromEntries(opened.columns.map((c) => [c.header, c.field]));
    expect(fields).toMatchObject({
      'Preferred E-mail Address': 'email',
      'Family Name': 'last_name',
      'User Group': 'user_group',
      'Given Name(s)': null,
    });
    // The admin names the one column the app could not guess, as in the wizard's Columns step.
    const mapping = opened.columns.map((c) => (c.header === 'Given Name(s)' ? 'first_name' : c.field));
    await engine.invoke('invitations.importConfigure', { id: opened.id, mapping });
    await engine.invoke('invitations.importParse', { id: opened.id, wait: true });
    const ready = await engine.invoke('invitations.importTarget', {
      id: opened.id,
      target: { kind: 'platform' },
      wait: true,
    });
    expect(ready.state).toBe('ready');
    expect(ready.summary).toMatchObject({
      rows: expected.good + expected.invalid.length + expected.duplicate.length,
      ok: expected.good,
      willEmail: expected.good,
      invalid: expected.invalid.length,
      duplicate: expected.duplicate.length,
    });
    expect(ready.notices.filter((n) => /owner/i.test(n))).toEqual([OWNER_NOTICE]);

    // Only the truly bad rows are invalid, each for a reason about its address.
    const problems = await allRows(engine, ready.id, 'problems');
    expect(problems.filter((r) => r.status === 'invalid').map((r) => r.line)).toEqual(expected.invalid);
    expect(problems.filter((r) => r.status === 'duplicate').map((r) => r.line)).toEqual(expected.duplicate);
    for (const row of problems.filter((r) => r.status === 'invalid')) {
      expect(row.problems.map((p) => p.field)).toEqual(['email']);
    }

    const { jobId } = await engine.invoke('invitations.importStart', { id: ready.id, skipInvalid: true });
    const job = await settledJob(engine, jobId, 60_000);
    expect(job.state).toBe('completed');
    expect(job.counts).toMatchObject({
      invited: expected.good,
      invalid: expected.invalid.length,
      duplicate: expected.duplicate.length,
    });
    expect(job.counts.failed ?? 0).toBe(0);

    // The batch is tagged: its source finds exactly its invitations again.
    const { batches } = await engine.invoke('invitations.batches', {});
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ fileName: 'registrar-export.csv', jobId, invited: expected.good });
    expectEveryoneInvited(server, batches[0]!.source);
    const listed = await engine.invoke('invitations.list', {
      target: { kind: 'platform' },
      source: batches[0]!.source,
      pageSize: 5,
    });
    expect(listed.total).toBe(expected.good);
    expect(listed.invitations[0]!.name).toMatch(/^\S+ \S/);
  }, 120_000);

  it('`invite --skip-invalid` invites every good person; --dry-run says the column-level note once', async () => {
    const server = await sandboxWithInvitations();
    const { env } = await cliTenant(server);
    const map = ['--map', 'Given Name(s)=first_name'];

    const dry = await cli(['invite', FIXTURE, '--platform', '--dry-run', ...map], { env });
    expect(dry.code).toBe(1);
    expect(dry.stdout.split('\n').filter((line) => /owner/i.test(line))).toEqual([`Note: ${OWNER_NOTICE}`]);
    expect(dry.stdout).toContain(
      `${expected.good.toLocaleString('en-US')} will be emailed; not sent: 8 invalid, 3 duplicates`,
    );

    const report = join(tempDir(), 'report.csv');
    const run = await cli(['invite', FIXTURE, '--platform', '--skip-invalid', '--json', '--report', report, ...map], {
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    expect(summary).toMatchObject({
      rows: expected.good + expected.invalid.length + expected.duplicate.length,
      invited: expected.good,
      invalid: expected.invalid.length,
      duplicate: expected.duplicate.length,
      failed: 0,
    });
    expectEveryoneInvited(server, null);
    const results = Papa.parse<string[]>(
      readFileSync(report, 'utf8')
        .replace(/^\uFEFF/, '')
        .trim(),
    )
      .data.slice(1)
      .map((cells) => cells[4]);
    expect(results.filter((r) => r === 'invited')).toHaveLength(expected.good);
  }, 120_000);
});
