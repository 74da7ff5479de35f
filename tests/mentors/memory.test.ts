/**
 * A mentor's memory (issue 16, "Memory"): its memory settings (kind `mentor-memory-settings`, one record per
 * mentor) and a learner's memory read and cleared with the learner as `{user_id}` (`memory.learner`,
 * `memory.clear`). Engine and CLI against the real sandbox; the vendor SDK reads back what the app wrote.
 */
import { AiMentorService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { remember } from '../../src/server/areas/mentors/memory';
import { cli } from '../helpers/cli';
import { call, sandbox } from '../helpers/sandbox';
import { requireKeychainSession } from '../helpers/temp';
import { cliTenant } from '../invitations/setup';
import { connect, failure } from './setup';

const LEARNER = 'mia-memory';
let server: Sandbox;

function sdk(target: Sandbox) {
  OpenAPI.BASE = target.url;
  OpenAPI.HEADERS = { Authorization: `Api-Key ${target.apiKey}` };
}

/** A fresh sandbox with a mentor and a learner who has memory with it. */
async function withMemory() {
  const fresh = await sandbox();
  const made = await call(fresh, 'POST', `/api/ai-mentor/orgs/${fresh.org}/users/${fresh.user}/`, {
    json: { name: 'Calculus Coach' },
  });
  const mentor = String((made.body as { unique_id: string }).unique_id);
  fresh.db
    .prepare(
      `INSERT INTO users (username, email, first_name, last_name, org, role, department_id, date_joined, last_login)
       VALUES (?, 'mia@northbridge.example', 'Mia', 'Moreau', ?, 'student', NULL, '2026-11-01T08:00:00.000Z', '2026-11-01T08:00:00.000Z')`,
    )
    .run(LEARNER, fresh.org);
  const note = (category: string, value: string, day: string) =>
    remember(fresh.db, fresh.org, { username: LEARNER, mentor, category, value, at: `2026-11-${day}T09:30:00Z` });
  note('knowledge_gaps', 'the chain rule', '02');
  note('lessons_learned', 'limits', '02');
  note('help_requests', 'explain integrals', '04');
  return { fresh, mentor };
}

beforeAll(() => {
  requireKeychainSession();
});

describe('mentor memory settings', () => {
  it('saves a mentor’s memory settings through its POST, the vendor SDK reads them back', async () => {
    server = await sandbox();
    const made = await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`, {
      json: { name: 'Writing Tutor' },
    });
    const mentor = String((made.body as { unique_id: string }).unique_id);
    const c = await connect(server);
    const empty = await c.engine.invoke('resources.getSingle', { kind: 'mentor-memory-settings', key: mentor });
    expect(empty.record).toMatchObject({ item_type: null, item_identifier: null });

    const saved = await c.engine.invoke('resources.updateSingle', {
      kind: 'mentor-memory-settings',
      key: mentor,
      values: { item_type: 'program', item_identifier: 'program-v1:main+WRITE', learner_advance_question_count: 8 },
    });
    expect(saved.record).toMatchObject({ item_type: 'program', learner_advance_question_count: 8 });

    sdk(server);
    const read = await AiMentorService.aiMentorOrgsUsersMentorsMemorySettingsRetrieve({
      mentor,
      org: server.org,
      userId: server.user,
    } as Parameters<typeof AiMentorService.aiMentorOrgsUsersMentorsMemorySettingsRetrieve>[0]);
    expect(read).toEqual({
      item_type: 'program',
      item_identifier: 'program-v1:main+WRITE',
      learner_advance_correct_rate: null,
      learner_advance_question_count: 8,
    });

    const bad = await failure(c.engine, 'resources.updateSingle', {
      kind: 'mentor-memory-settings',
      key: mentor,
      values: { learner_advance_question_count: 2.5 },
    });
    expect(bad.code).toBe('validation');
    expect(bad.issues?.[0]?.path).toBe('learner_advance_question_count');
  });
});

describe('a learner’s memory', () => {
  it('reads a learner’s current memory, history and progress as the admin, naming the learner', async () => {
    const { fresh, mentor } = await withMemory();
    const c = await connect(fresh);
    const memory = await c.engine.invoke('memory.learner', { mentor, learner: LEARNER });
    expect(memory.current).toEqual({
      knowledge_gaps: ['the chain rule'],
      lessons_learned: ['limits'],
      help_requests: ['explain integrals'],
    });
    expect(memory.history.map((h) => h.insertedAt)).toEqual(['2026-11-04 09:30:00', '2026-11-02 09:30:00']);
    expect(memory.history[1]!.items).toEqual([
      { kind: 'KnowledgeGap', content: 'the chain rule' },
      { kind: 'LessonsLearned', content: 'limits' },
    ]);
    expect(memory.progress).toMatchObject({ memory_type: 'none', item_name: null });
    expect(memory.warnings).toEqual([]);

    const unknown = await failure(c.engine, 'memory.learner', { mentor, learner: 'nobody-at-all' });
    expect(unknown.code).toBe('not_found');
    expect(unknown.message).toContain('Mentor or memory not found');
  });

  it('never shows one tenant’s learner under another tenant', async () => {
    const { fresh, mentor } = await withMemory();
    const other = await connect(fresh, {
      org: fresh.otherOrg.org,
      username: fresh.otherOrg.user,
      secret: fresh.otherOrg.apiKey,
    });
    const refused = await failure(other.engine, 'memory.learner', { mentor, learner: LEARNER });
    expect(refused.code).toBe('not_found');
  });

  it('clears only once the learner’s username is typed; then the SDK reads no memory; again is nothing to clear', async () => {
    const { fresh, mentor } = await withMemory();
    const c = await connect(fresh);
    const wrong = await failure(c.engine, 'memory.clear', { mentor, learner: LEARNER, confirm: 'mia' });
    expect(wrong.code).toBe('validation');
    expect(wrong.issues).toEqual([{ path: 'confirm', message: `Type ${LEARNER} to clear their memory` }]);
    expect((await c.engine.invoke('memory.learner', { mentor, learner: LEARNER })).current.knowledge_gaps).toHaveLength(
      1,
    );

    const cleared = await c.engine.invoke('memory.clear', { mentor, learner: LEARNER, confirm: ` ${LEARNER} ` });
    expect(cleared).toEqual({
      learner: LEARNER,
      cleared: ['knowledge_gaps', 'lessons_learned', 'help_requests'],
      nothingToClear: false,
    });
    sdk(fresh);
    const read = await AiMentorService.aiMentorOrgsUsersMentorsCurrentMemoryRetrieve({
      mentor,
      org: fresh.org,
      userId: LEARNER,
    } as Parameters<typeof AiMentorService.aiMentorOrgsUsersMentorsCurrentMemoryRetrieve>[0]);
    expect(read).toEqual({ knowledge_gaps: [], lessons_learned: [], help_requests: [] });

    const again = await c.engine.invoke('memory.clear', { mentor, learner: LEARNER, confirm: LEARNER });
    expect(again).toEqual({ learner: LEARNER, cleared: [], nothingToClear: true });
  });

  it('CLI: memory show, memory clear refused without --yes, cleared with it, then nothing to clear', async () => {
    const { fresh, mentor } = await withMemory();
    const { dataDir, env } = await cliTenant(fresh);
    const run = (args: string[]) => cli(['--data-dir', dataDir, ...args], { env });

    const shown = await run(['memory', 'show', '--mentor', 'Calculus Coach', '--learner', LEARNER]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('Knowledge gaps (1)\n  - the chain rule');
    expect(shown.stdout).toContain('History (2)');
    const json = await run(['--json', 'memory', 'show', '--mentor', mentor, '--learner', LEARNER]);
    expect(json.lines[0]).toMatchObject({ learner: LEARNER, current: { lessons_learned: ['limits'] } });

    const unconfirmed = await run(['memory', 'clear', '--mentor', mentor, '--learner', LEARNER]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('needs --yes');
    const cleared = await run(['memory', 'clear', '--mentor', mentor, '--learner', LEARNER, '--yes']);
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(cleared.stdout).toContain(`Cleared ${LEARNER}'s knowledge gaps, lessons learned, help requests`);
    const again = await run(['memory', 'clear', '--mentor', mentor, '--learner', LEARNER, '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('nothing to clear');
  });

  it('profile memory: saves, changes and deletes an entry by tag; the SDK reads it; a refusal is at its field', async () => {
    const { fresh } = await withMemory();
    const c = await connect(fresh);
    expect(await c.engine.invoke('memory.profile', { learner: LEARNER })).toEqual({ learner: LEARNER, entries: [] });
    await c.engine.invoke('memory.profileSave', { learner: LEARNER, tag: 'favorite-animal', detail: 'a cat' });
    const changed = await c.engine.invoke('memory.profileSave', {
      learner: LEARNER,
      tag: 'favorite-animal',
      detail: 'a fox',
    });
    expect(changed).toEqual({ tag: 'favorite-animal', detail: 'a fox' });
    sdk(fresh);
    const read = await AiMentorService.aiMentorOrgsUsersAiUserProfileMemoryList({
      org: fresh.org,
      userId: LEARNER,
    } as Parameters<typeof AiMentorService.aiMentorOrgsUsersAiUserProfileMemoryList>[0]);
    expect(read).toEqual([{ tag: 'favorite-animal', detail: 'a fox' }]);

    const blank = await failure(c.engine, 'memory.profileSave', { learner: LEARNER, tag: 'goal', detail: '  ' });
    expect(blank.code, blank.message).toBe('validation');
    expect(blank.issues).toEqual([{ path: 'detail', message: 'This field may not be blank.' }]);

    expect(await c.engine.invoke('memory.profileDelete', { learner: LEARNER, tag: 'favorite-animal' })).toEqual({
      tag: 'favorite-animal',
      deleted: true,
    });
    expect(await c.engine.invoke('memory.profileDelete', { learner: LEARNER, tag: 'favorite-animal' })).toEqual({
      tag: 'favorite-animal',
      deleted: false,
    });

    const { dataDir, env } = await cliTenant(fresh);
    const run = (args: string[]) => cli(['--data-dir', dataDir, ...args], { env });
    const set = await run([
      'memory',
      'profile-set',
      '--learner',
      LEARNER,
      '--tag',
      'goal',
      '--detail',
      'pass calculus',
    ]);
    expect(set.code, set.stderr).toBe(0);
    const listed = await run(['memory', 'profile', '--learner', LEARNER]);
    expect(listed.stdout).toContain('goal\tpass calculus');
    expect((await run(['memory', 'profile-delete', '--learner', LEARNER, '--tag', 'goal'])).code).toBe(2);
    const deleted = await run(['memory', 'profile-delete', '--learner', LEARNER, '--tag', 'goal', '--yes']);
    expect(deleted.stdout).toContain(`Deleted goal of ${LEARNER}`);
  });

  it('edX memory: lists a learner’s records, deletes one (the SDK no longer finds it), CLI too', async () => {
    const { fresh } = await withMemory();
    const { rememberCourse } = await import('../../src/server/areas/mentors/memory');
    const made = rememberCourse(fresh.db, fresh.org, {
      username: LEARNER,
      student: 7,
      course_id: 'course-v1:main+CALC+2026',
      data: { position: 3 },
      at: '2026-11-05T10:00:00.000Z',
    });
    const c = await connect(fresh);
    const listed = await c.engine.invoke('memory.edx', { learner: LEARNER });
    expect(listed.records).toEqual([expect.objectContaining({ id: made.id, course_id: 'course-v1:main+CALC+2026' })]);
    const { dataDir, env } = await cliTenant(fresh);
    const run = (args: string[]) => cli(['--data-dir', dataDir, ...args], { env });
    const shown = await run(['memory', 'edx', '--learner', LEARNER]);
    expect(shown.stdout).toContain(`#${String(made.id)}\tcourse-v1:main+CALC+2026`);
    expect((await run(['memory', 'edx-delete', '--learner', LEARNER, '--id', String(made.id)])).code).toBe(2);

    expect(await c.engine.invoke('memory.edxDelete', { learner: LEARNER, id: Number(made.id) })).toEqual({
      id: made.id,
      deleted: true,
    });
    sdk(fresh);
    await expect(
      AiMentorService.aiMentorOrgsUsersEdxMemoryRetrieve({
        id: Number(made.id),
        org: fresh.org,
        userId: LEARNER,
      } as Parameters<typeof AiMentorService.aiMentorOrgsUsersEdxMemoryRetrieve>[0]),
    ).rejects.toMatchObject({ status: 404 });
    const again = await run(['memory', 'edx-delete', '--learner', LEARNER, '--id', String(made.id), '--yes']);
    expect(again.stdout).toContain('nothing to delete');
  });
});
