/**
 * A learner's memories (the spec's UserMemory records, issue 16 "Memory"): filtered (`memory.memories` over
 * `filtered-memories/`, with `memory-filter/`'s categories), one read (`memory/{id}/`), an entry's key and value
 * changed (`memory-entries/{id}/` POST, read back by the vendor SDK), and a memory deleted once the learner's username
 * is typed. Engine and CLI against the real sandbox; another tenant's connection reaches none of it.
 */
import { AiMentorService, ApiError, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { remember } from '../../src/server/areas/mentors/memory';
import { cli } from '../helpers/cli';
import { call, sandbox } from '../helpers/sandbox';
import { requireKeychainSession } from '../helpers/temp';
import { cliTenant } from '../invitations/setup';
import { connect, failure } from './setup';

const LEARNER = 'ada-memories';

async function withMemories() {
  const fresh = await sandbox();
  const made = await call(fresh, 'POST', `/api/ai-mentor/orgs/${fresh.org}/users/${fresh.user}/`, {
    json: { name: 'Physics Coach' },
  });
  const mentor = String((made.body as { unique_id: string }).unique_id);
  fresh.db
    .prepare(
      `INSERT INTO users (username, email, first_name, last_name, org, role, department_id, date_joined, last_login)
       VALUES (?, 'ada@northbridge.example', 'Ada', 'Lind', ?, 'student', NULL, '2026-11-01T08:00:00.000Z', '2026-11-01T08:00:00.000Z')`,
    )
    .run(LEARNER, fresh.org);
  const note = (category: string, value: string, day: string) =>
    remember(fresh.db, fresh.org, { username: LEARNER, mentor, category, value, at: `2026-11-${day}T09:30:00Z` });
  note('knowledge_gaps', 'vectors', '02');
  note('knowledge_gaps', 'torque', '03');
  note('lessons_learned', 'free-body diagrams', '05');
  return { fresh, mentor };
}

function sdk(target: Sandbox) {
  OpenAPI.BASE = target.url;
  OpenAPI.HEADERS = { Authorization: `Api-Key ${target.apiKey}` };
}

beforeAll(() => {
  requireKeychainSession();
});

describe('a learner’s memories', () => {
  it('filters, reads one, changes an entry (the SDK reads it back) and deletes it once the learner is typed', async () => {
    const { fresh, mentor } = await withMemories();
    const c = await connect(fresh);
    const options = await c.engine.invoke('memory.filterOptions', {});
    expect(options.categories).toContain('knowledge_gaps');
    expect(options.users.map((u) => u.username)).toContain(LEARNER);

    const all = await c.engine.invoke('memory.memories', { learner: LEARNER });
    expect(all.memories.map((m) => m.category)).toEqual(['lessons_learned', 'knowledge_gaps']);
    const gaps = await c.engine.invoke('memory.memories', { learner: LEARNER, category: 'knowledge_gaps', mentor });
    expect(gaps.memories).toHaveLength(1);
    expect(gaps.memories[0]!.entries.map((e) => e.value)).toEqual(['vectors', 'torque']);
    expect(
      (await c.engine.invoke('memory.memories', { learner: LEARNER, startDate: '2026-11-04' })).memories,
    ).toHaveLength(1);
    expect((await c.engine.invoke('memory.memories', { learner: LEARNER, mode: 'guided' })).memories).toEqual([]);
    const badDate = await failure(c.engine, 'memory.memories', { learner: LEARNER, startDate: 'last week' });
    expect(badDate.code).toBe('validation');

    const id = gaps.memories[0]!.unique_id!;
    const one = await c.engine.invoke('memory.memory', { learner: LEARNER, memory: id });
    expect(one).toMatchObject({ unique_id: id, username: LEARNER, mentor, category: 'knowledge_gaps' });
    const entry = one.entries[1]!;
    const saved = await c.engine.invoke('memory.entrySave', {
      learner: LEARNER,
      entry: entry.unique_id!,
      key: 'mechanics',
      value: 'torque about a pivot',
    });
    expect(saved).toMatchObject({ key: 'mechanics', value: 'torque about a pivot' });
    sdk(fresh);
    const read = await AiMentorService.aiMentorOrgsUsersMemoryRetrieve({
      org: fresh.org,
      userId: LEARNER,
      memoryUniqueIdOrName: id,
    } as Parameters<typeof AiMentorService.aiMentorOrgsUsersMemoryRetrieve>[0]);
    expect(read.entries.find((e) => e.unique_id === entry.unique_id)).toMatchObject({
      key: 'mechanics',
      value: 'torque about a pivot',
    });
    const blank = await failure(c.engine, 'memory.entrySave', {
      learner: LEARNER,
      entry: entry.unique_id!,
      key: ' ',
      value: 'x',
    });
    expect(blank.code).toBe('validation');
    const gone = await failure(c.engine, 'memory.entrySave', {
      learner: LEARNER,
      entry: 'nope',
      key: 'k',
      value: null,
    });
    expect(gone.code).toBe('not_found');
    expect(gone.message).toContain('Memory not found.');

    const wrong = await failure(c.engine, 'memory.memoryDelete', { learner: LEARNER, memory: id, confirm: 'ada' });
    expect(wrong.code).toBe('validation');
    expect(wrong.issues).toEqual([{ path: 'confirm', message: `Type ${LEARNER} to delete this memory` }]);
    expect(await c.engine.invoke('memory.memory', { learner: LEARNER, memory: id })).toMatchObject({ unique_id: id });
    expect(await c.engine.invoke('memory.memoryDelete', { learner: LEARNER, memory: id, confirm: LEARNER })).toEqual({
      memory: id,
      deleted: true,
    });
    const after = await AiMentorService.aiMentorOrgsUsersMemoryRetrieve({
      org: fresh.org,
      userId: LEARNER,
      memoryUniqueIdOrName: id,
    } as Parameters<typeof AiMentorService.aiMentorOrgsUsersMemoryRetrieve>[0]).catch((error: unknown) => error);
    expect(after).toBeInstanceOf(ApiError);
    expect((after as ApiError).status).toBe(404);
    expect(await c.engine.invoke('memory.memoryDelete', { learner: LEARNER, memory: id, confirm: LEARNER })).toEqual({
      memory: id,
      deleted: false,
    });
  });

  it('never shows one tenant’s learner’s memories under another tenant', async () => {
    const { fresh } = await withMemories();
    const c = await connect(fresh);
    const [memory] = (await c.engine.invoke('memory.memories', { learner: LEARNER })).memories;
    const other = await connect(fresh, {
      org: fresh.otherOrg.org,
      username: fresh.otherOrg.user,
      secret: fresh.otherOrg.apiKey,
    });
    expect((await other.engine.invoke('memory.memories', { learner: LEARNER })).memories).toEqual([]);
    expect((await other.engine.invoke('memory.filterOptions', {})).users.map((u) => u.username)).not.toContain(LEARNER);
    const refused = await failure(other.engine, 'memory.memory', { learner: LEARNER, memory: memory!.unique_id! });
    expect(refused.code).toBe('not_found');
  });

  it('CLI: lists by a mentor’s name, shows one, changes an entry, deletes only with --yes', async () => {
    const { fresh } = await withMemories();
    const { dataDir, env } = await cliTenant(fresh);
    const run = (args: string[]) => cli(['--data-dir', dataDir, ...args], { env });
    const listed = await run([
      'memory',
      'list',
      '--learner',
      LEARNER,
      '--mentor',
      'Physics Coach',
      '--category',
      'knowledge_gaps',
    ]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`1 memory of ${LEARNER}`);
    const json = await run(['--json', 'memory', 'list', '--learner', LEARNER]);
    const memories = json.lines.filter((line) => (line as { unique_id?: string }).unique_id) as {
      unique_id: string;
      category: string;
      entries: { unique_id: string }[];
    }[];
    expect(memories.map((m) => m.category)).toEqual(['lessons_learned', 'knowledge_gaps']);
    const id = memories[1]!.unique_id;

    const shown = await run(['memory', 'get', '--learner', LEARNER, '--id', id]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('Entries (2)');
    expect(shown.stdout).toContain('vectors');
    const set = await run([
      'memory',
      'entry-set',
      '--learner',
      LEARNER,
      '--entry',
      memories[1]!.entries[0]!.unique_id,
      '--key',
      'maths',
      '--value',
      'vector sums',
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain(`Saved maths for ${LEARNER}`);

    const unconfirmed = await run(['memory', 'delete', '--learner', LEARNER, '--id', id]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('needs --yes');
    const deleted = await run(['memory', 'delete', '--learner', LEARNER, '--id', id, '--yes']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain(`Deleted memory ${id} of ${LEARNER}`);
    const filters = await run(['memory', 'filters']);
    expect(filters.stdout).toContain('Categories: lessons_learned, knowledge_gaps');
  });
});
