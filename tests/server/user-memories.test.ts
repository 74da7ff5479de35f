/**
 * Contract tests of the sandbox's UserMemory records: `memory-filter/` (categories and the users who have memories),
 * `filtered-memories/` (admins only, by user, category, mentor, mode and dates), `memory/{id or name}/` read and
 * delete, and an entry's key and value changed through `memory-entries/{id}/` POST. Every success answer is checked
 * against the vendor spec; a learner reaches only their own; another tenant's admin reaches none of it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { remember } from '../../src/server/areas/mentors/memory';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

let server: Sandbox;
let mentor: string;
const SPEC = '/api/ai-mentor/orgs/{org}/users/{user_id}';
const LEARNER = 'memories-learner';
const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T10:00:00.000Z`;
const path = (user: string, rest: string) => `/api/ai-mentor/orgs/${server.org}/users/${user}/${rest}`;

interface Memory {
  unique_id: string;
  name: string;
  username: string;
  category: string | null;
  entries: { unique_id: string; key: string; value: string | null }[];
}

beforeAll(async () => {
  server = await sandbox();
  const made = await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`, {
    json: { name: 'Memories Mentor' },
  });
  mentor = String((made.body as { unique_id: string }).unique_id);
  server.db
    .prepare(
      `INSERT INTO users (username, email, first_name, last_name, org, role, department_id, date_joined, last_login)
       VALUES (?, 'lea@northbridge.example', 'Lea', 'Lund', ?, 'student', NULL, ?, ?)`,
    )
    .run(LEARNER, server.org, at(1), at(1));
  const learn = (category: string, value: string, day: number, username = LEARNER) =>
    remember(server.db, server.org, { username, mentor, category, value, at: at(day) });
  learn('knowledge_gaps', 'the chain rule', 2);
  learn('knowledge_gaps', 'limits', 3);
  learn('lessons_learned', 'derivatives', 6);
  learn('help_requests', 'own question', 3, server.studentUser);
});

const filtered = async (query: string) => {
  const answer = await call(server, 'GET', `${path(server.user, 'filtered-memories/')}?${query}`);
  expect(answer.status).toBe(200);
  expectSpecValid('get', `${SPEC}/filtered-memories/`, 200, answer.body);
  return answer.body as { count: number; results: Memory[] };
};

describe('sandbox: a learner’s memories', () => {
  it('names the categories and the users who have memories (a learner only themself)', async () => {
    const admin = await call(server, 'GET', path(server.user, 'memory-filter/'));
    expect(admin.status).toBe(200);
    const body = admin.body as { categories: string[]; users: { username: string; email: string }[] };
    expect(body.categories).toEqual(['lessons_learned', 'knowledge_gaps', 'help_requests', 'personal_information']);
    expect(body.users.map((u) => u.username)).toEqual(expect.arrayContaining([LEARNER, server.studentUser]));
    expect(body.users.find((u) => u.username === LEARNER)).toEqual({
      username: LEARNER,
      email: 'lea@northbridge.example',
      lti_email: '',
    });
    const own = await call(server, 'GET', path(server.studentUser, 'memory-filter/'), { key: server.studentKey });
    expect((own.body as typeof body).users.map((u) => u.username)).toEqual([server.studentUser]);
  });

  it('filters an admin’s list by user, category, mentor, mode and dates, in pages', async () => {
    const all = await filtered(`username=${LEARNER}`);
    expect(all.count).toBe(2);
    expect(all.results.map((m) => m.category)).toEqual(['lessons_learned', 'knowledge_gaps']);
    expect(all.results[1]!.entries.map((e) => e.value)).toEqual(['the chain rule', 'limits']);
    expect((await filtered(`username=${LEARNER}&category=knowledge_gaps`)).count).toBe(1);
    expect((await filtered(`username=${LEARNER}&mentor=${mentor}&mode=regular`)).count).toBe(2);
    expect((await filtered(`username=${LEARNER}&mode=guided`)).count).toBe(0);
    expect((await filtered(`username=${LEARNER}&mode=all&start_date=2026-11-04`)).count).toBe(1);
    expect((await filtered(`username=${LEARNER}&end_date=2026-11-03`)).count).toBe(1);
    const paged = await filtered(`username=${LEARNER}&page_size=1`);
    expect(paged.results).toHaveLength(1);
    expect((paged as unknown as { next: string }).next).toContain('page=2');
    // Only tenant admins; another tenant's admin reaches none of this tenant.
    const student = await call(server, 'GET', path(server.studentUser, 'filtered-memories/'), {
      key: server.studentKey,
    });
    expect(student.status).toBe(403);
    const other = `/api/ai-mentor/orgs/${server.org}/users/${server.otherOrg.user}/filtered-memories/`;
    expect((await call(server, 'GET', other, { key: server.otherOrg.apiKey })).status).not.toBe(200);
    const theirs = await call(
      server,
      'GET',
      `/api/ai-mentor/orgs/${server.otherOrg.org}/users/${server.otherOrg.user}/filtered-memories/?username=${LEARNER}`,
      { key: server.otherOrg.apiKey },
    );
    expect((theirs.body as { count: number }).count).toBe(0);
  });

  it('reads one by unique id or name, changes an entry, and deletes it with its entries', async () => {
    const [gaps] = (await filtered(`username=${LEARNER}&category=knowledge_gaps`)).results;
    const url = path(LEARNER, `memory/${gaps!.unique_id}/`);
    const read = await call(server, 'GET', url);
    expect(read.status).toBe(200);
    expectSpecValid('get', `${SPEC}/memory/{memory_unique_id_or_name}/`, 200, read.body);
    const byName = await call(server, 'GET', path(LEARNER, `memory/${encodeURIComponent(gaps!.name)}/`));
    expect((byName.body as Memory).unique_id).toBe(gaps!.unique_id);

    const entry = gaps!.entries[0]!;
    const entryUrl = path(LEARNER, `memory-entries/${entry.unique_id}/`);
    const changed = await call(server, 'POST', entryUrl, { json: { key: 'calculus', value: 'the chain rule, twice' } });
    expect(changed.status).toBe(200);
    expectSpecValid('post', `${SPEC}/memory-entries/{entry_unique_id}/`, 200, changed.body);
    expect(changed.body).toMatchObject({ unique_id: entry.unique_id, key: 'calculus', value: 'the chain rule, twice' });
    expect(((await call(server, 'GET', url)).body as Memory).entries[0]).toMatchObject({ key: 'calculus' });
    const blank = await call(server, 'POST', entryUrl, { json: { key: ' ', value: 'x' } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ key: ['This field may not be blank.'] });
    const missing = await call(server, 'POST', entryUrl, { json: { value: 'x' } });
    expect(missing.body).toEqual({ key: ['This field is required.'] });
    expect((await call(server, 'POST', path(LEARNER, 'memory-entries/nope/'), { json: { key: 'k' } })).status).toBe(
      404,
    );

    // A learner reaches only their own; another tenant's admin none.
    expect((await call(server, 'GET', url, { key: server.studentKey })).status).toBe(403);
    const stranger = `/api/ai-mentor/orgs/${server.otherOrg.org}/users/${LEARNER}/memory/${gaps!.unique_id}/`;
    expect((await call(server, 'GET', stranger, { key: server.otherOrg.apiKey })).status).toBe(404);
    expect((await call(server, 'DELETE', stranger, { key: server.otherOrg.apiKey })).status).toBe(404);

    const gone = await call(server, 'DELETE', url);
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ detail: 'Memory deleted successfully.' });
    expect((await call(server, 'GET', url)).status).toBe(404);
    expect((await call(server, 'DELETE', url)).body).toEqual({ detail: 'Memory not found.' });
    expect((await call(server, 'GET', entryUrl)).status).toBe(404);
    expect((await filtered(`username=${LEARNER}`)).count).toBe(1);
  });
});
