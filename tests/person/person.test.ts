/**
 * A learner's data requests against a real sandbox (issue 18): everything about a person exported as one zip (a CSV
 * per dataset, injection-safe, and a manifest), and a person erased — the preview's counts, the typed confirmation,
 * the refusal of a tenant access administrator, every endpoint that served them empty afterwards, anyone else left
 * alone, and the signed-off report kept on this computer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { buildZip } from '../../src/main/engine/resources/person';
import { reportDigest } from '../../src/main/engine/resources/person/erasure-store';
import { PERSON_DATASETS } from '../../src/shared/contract';
import { connect, failure, waitForJob, type Connected } from '../helpers/engine';
import { call, sandbox } from '../helpers/sandbox';
import { requireKeychainSession, tempDir } from '../helpers/temp';
import { mentorOf, personData, seedPerson } from './fixture';

let server: Sandbox;
let c: Connected;
let mentor: string;

beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox();
  mentor = await mentorOf(server);
});
// The helpers close each test's engine after it.
beforeEach(async () => {
  c = await connect(server);
});

async function unzip(path: string) {
  const zip = await JSZip.loadAsync(readFileSync(path));
  const files: Record<string, string> = {};
  for (const name of Object.keys(zip.files)) files[name] = await zip.file(name)!.async('string');
  return { zip, files };
}

describe('person export', () => {
  it('writes one zip: a CSV per dataset with the person’s data only, formulas defused, and a manifest', async () => {
    await seedPerson(server, 'ada-export', mentor, { conversations: 3, messages: 4 });
    await seedPerson(server, 'bob-bystander', mentor, { conversations: 2, messages: 2 });
    // Each enrolled in one of the tenant's courses: the export takes the person's only.
    const course = `course-v1:${server.org}+EXP+2026`;
    server.db
      .prepare(`INSERT INTO courses (course_id, org, name, created_at) VALUES (?, ?, 'Export 101', '2026-01-01')`)
      .run(course, server.org);
    const enrol = server.db.prepare(
      `INSERT INTO catalog_enrollments (kind, target, user_id, created_at)
       SELECT 'course', ?, id, '2026-01-01T00:00:00Z' FROM users WHERE username = ?`,
    );
    for (const username of ['ada-export', 'bob-bystander']) enrol.run(course, username);
    const path = join(tempDir(), 'ada.zip');
    const started = await c.engine.invoke('person.export', { user: 'ada-export', path });
    const job = await waitForJob(c.engine, started.jobId);
    expect(job.state, job.error ?? '').toBe('completed');
    const { files } = await unzip(path);
    expect(Object.keys(files)).toEqual([...PERSON_DATASETS.map((d) => `${d}.csv`), 'manifest.json']);
    const chats = files['chat-history.csv']!;
    expect(chats.split('\r\n').filter(Boolean)).toHaveLength(1 + 12);
    expect(chats).toContain('ada-export says 2.3');
    expect(chats).not.toContain('bob-bystander');
    // The spreadsheet sees text, never a formula.
    expect(chats).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(files['feedback.csv']).toContain(',-1,');
    expect(files['memory.csv']).toContain('ada-export gap');
    expect(files['memory.csv']).not.toContain('bob-bystander');
    expect(files['profile-memory.csv']).toContain('ada-export climbs');
    expect(files['edx-memory.csv']).toContain('course-v1:main+101+01');
    const manifest = JSON.parse(files['manifest.json']!) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      tenant: { name: 'Sandbox', org: server.org },
      person: { username: 'ada-export', email: 'ada-export@example.org' },
      exportedBy: server.user,
    });
    const datasets = manifest.datasets as { name: string; rows: number; warning?: string }[];
    expect(Object.fromEntries(datasets.map((d) => [d.name, d.rows]))).toMatchObject({
      'chat-history': 12,
      feedback: 1,
      memory: 2,
      'profile-memory': 1,
      'edx-memory': 1,
    });
    // The sandbox serves enrolment search since the catalogue area (issue 17) joined it: the person's only, no warning.
    // (A tenant that does not serve a dataset is said, not refused: notServed in export-job.ts.)
    const enrolments = datasets.find((d) => d.name === 'enrolments')!;
    expect(enrolments).toMatchObject({ rows: 1 });
    expect(enrolments.warning).toBeUndefined();
    expect(files['enrolments.csv']).toContain(course);
    expect(files['enrolments.csv']).not.toContain('bob-bystander');
  });

  it('the zip is a function of its parts: built again from its own files it is the same bytes', async () => {
    await seedPerson(server, 'cy-zip', mentor);
    const path = join(tempDir(), 'cy.zip');
    const started = await c.engine.invoke('person.export', { user: 'cy-zip', path });
    expect((await waitForJob(c.engine, started.jobId)).state).toBe('completed');
    const bytes = readFileSync(path);
    const { zip, files } = await unzip(path);
    const parts = tempDir();
    const { writeFileSync } = await import('node:fs');
    for (const dataset of PERSON_DATASETS) writeFileSync(join(parts, `${dataset}.csv`), files[`${dataset}.csv`]!);
    // Every entry carries the job's creation time (DOS time: 2 s steps), not the time the zip was written.
    const exportedAt = Date.parse((JSON.parse(files['manifest.json']!) as { exportedAt: string }).exportedAt);
    for (const entry of Object.values(zip.files))
      expect(Math.abs(entry.date.getTime() - exportedAt)).toBeLessThan(2000);
    // Built again at the export's own time (the entries also keep it to the second, beyond the DOS time's 2 s steps:
    // the DOS time read back would miss an odd second).
    const again = await buildZip(parts, JSON.parse(files['manifest.json']!) as object, new Date(exportedAt));
    expect(again.equals(bytes)).toBe(true);
  });

  it('refuses a target that is not a .zip in a folder that exists', async () => {
    expect((await failure(c.engine, 'person.export', { user: 'ada-export', path: '/tmp/x.csv' })).message).toMatch(
      /FILE\.zip/,
    );
    expect(
      (await failure(c.engine, 'person.export', { user: 'ada-export', path: '/nowhere/at/all/x.zip' })).message,
    ).toMatch(/does not exist/);
  });
});

describe('person erase', () => {
  it('previews the counts, asks for the username, clears every endpoint and removes the person; others stay', async () => {
    await seedPerson(server, 'dana-erase', mentor, { conversations: 2, messages: 4 });
    await seedPerson(server, 'eve-stays', mentor, { conversations: 2, messages: 2 });
    const preview = await c.engine.invoke('person.preview', { user: 'dana-erase' });
    expect(preview.refusal).toBeNull();
    expect(Object.fromEntries(preview.counts.map((s) => [s.step, s.count]))).toEqual({
      'chat-history': 2,
      memory: 2,
      'profile-memory': 1,
      'edx-memory': 1,
      user: 1,
    });
    const wrong = await failure(c.engine, 'person.erase', { user: 'dana-erase', confirm: 'eve-stays' });
    expect(wrong.message).toBe('Type dana-erase to erase this person');
    const started = await c.engine.invoke('person.erase', { user: 'dana-erase', confirm: 'dana-erase' });
    const job = await waitForJob(c.engine, started.jobId);
    expect(job.state, job.error ?? '').toBe('completed');

    const after = await personData(server, 'dana-erase');
    expect((after.chats.body as { count: number }).count).toBe(0);
    // The memory paths no longer know the person at all; the user list does not name them.
    for (const gone of [after.memories, after.profile, after.edx])
      expect(gone.status === 404 || gone.status === 200).toBe(true);
    expect(JSON.stringify(after.memories.body)).not.toContain('dana-erase gap');
    // Not even an empty memory record is left under their name (the tenant admin's memory list).
    const records = await call(
      server,
      'GET',
      `/api/ai-mentor/orgs/${server.org}/users/${server.user}/filtered-memories/?username=dana-erase`,
    );
    expect(records.status).toBe(200);
    expect((records.body as { count: number }).count).toBe(0);
    expect(JSON.stringify(after.profile.body)).not.toContain('climbs');
    expect(JSON.stringify(after.edx.body)).not.toContain('course-v1');
    expect(JSON.stringify(after.users.body)).not.toContain('dana-erase');
    const other = await personData(server, 'eve-stays');
    expect((other.chats.body as { count: number }).count).toBe(2);
    expect(JSON.stringify(other.memories.body)).toContain('eve-stays gap');
    expect(JSON.stringify(other.profile.body)).toContain('eve-stays climbs');
    expect((other.edx.body as { count: number }).count).toBe(1);
    expect(JSON.stringify(other.users.body)).toContain('eve-stays');

    const { reports } = await c.engine.invoke('person.erasures', {});
    const report = reports.find((r) => r.id === started.reportId)!;
    expect(report).toMatchObject({ username: 'dana-erase', state: 'erased', requestedBy: server.user });
    expect(report.steps).toEqual([
      { step: 'chat-history', planned: 2, erased: 2 },
      { step: 'memory', planned: 2, erased: 2 },
      { step: 'profile-memory', planned: 1, erased: 1 },
      { step: 'edx-memory', planned: 1, erased: 1 },
      { step: 'user', planned: 1, erased: 1 },
    ]);
    const { digest, ...signed } = report;
    expect(digest).toBe(reportDigest(signed));
  });

  it('refuses a person who administers the tenant’s access, with that reason, and erases nothing', async () => {
    const seeded = await seedPerson(server, 'fay-admin', mentor);
    const post = async (path: string, json: Record<string, unknown>) => {
      const answer = await call(server, 'POST', `/api/core/rbac/${path}`, {
        json: { platform_key: server.org, ...json },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body as { id: number };
    };
    const role = await post('roles/', {
      name: 'Access admins',
      actions: ['Ibl.Core/Roles/write', 'Ibl.Core/Policies/write'],
    });
    await post('policies/', {
      name: 'Fay administers',
      role_id: role.id,
      resources: ['/'],
      users_to_add: [seeded.userId],
    });
    const preview = await c.engine.invoke('person.preview', { user: 'fay-admin' });
    expect(preview.refusal).toMatch(/^fay-admin administers this tenant's access/);
    const refused = await failure(c.engine, 'person.erase', { user: 'fay-admin', confirm: 'fay-admin' });
    expect(refused.message).toBe(preview.refusal);
    expect(((await personData(server, 'fay-admin')).chats.body as { count: number }).count).toBe(3);
  });
});
