/**
 * What guides a mentor (issue 16): its linked course (`mentor-course-link`), its scenario (`mentor-scenarios`: one
 * MentorScenario, as the spec's schema says) and its auto memory prompt (`mentor-auto-memory-prompt`), each one
 * record per mentor through the resource kit. Engine and CLI against the real sandbox; the vendor SDK reads back
 * what the app wrote; another tenant's connection never sees it.
 */
import { AiMentorService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { DEFAULT_AUTO_MEMORY_PROMPT } from '../../src/server/areas/mentors/guidance';
import { call, sandbox } from '../helpers/sandbox';
import { requireKeychainSession } from '../helpers/temp';
import { connect, failure } from './setup';

let server: Sandbox;
let mentor: string;

beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox();
  const made = await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`, {
    json: { name: 'Guided Mentor' },
  });
  mentor = String((made.body as { unique_id: string }).unique_id);
  OpenAPI.BASE = server.url;
  OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
});

const userPath = <T>(extra: object) => ({ org: server.org, userId: server.user, mentor, ...extra }) as unknown as T;

describe('a mentor’s guidance through the kit', () => {
  it('links a course, read back by the vendor SDK', async () => {
    const c = await connect(server);
    const before = await c.engine.invoke('resources.getSingle', { kind: 'mentor-course-link', key: mentor });
    expect(before.record).toMatchObject({ is_linked: false, course_id: null });
    const saved = await c.engine.invoke('resources.updateSingle', {
      kind: 'mentor-course-link',
      key: mentor,
      values: { course_id: 'course-v1:main+CS101+2026' },
    });
    expect(saved.record).toMatchObject({ is_linked: true, course_id: 'course-v1:main+CS101+2026' });
    expect(await AiMentorService.aiMentorOrgsMentorsLinkCourseRetrieve({ mentor, org: server.org })).toEqual({
      mentor_unique_id: mentor,
      course_id: 'course-v1:main+CS101+2026',
      is_linked: true,
    });
    const blank = await failure(c.engine, 'resources.updateSingle', {
      kind: 'mentor-course-link',
      key: mentor,
      values: { course_id: ' ' },
    });
    expect(blank.issues?.[0]?.path).toBe('course_id');
  });

  it('saves the one scenario the schema describes where none was, read back by the vendor SDK', async () => {
    const c = await connect(server);
    // None saved: the platform's 404 reads as an empty scenario, and the first save makes it.
    const empty = await c.engine.invoke('resources.getSingle', { kind: 'mentor-scenarios', key: mentor });
    expect(empty.record.name ?? null).toBeNull();
    const prompts = [{ summary: 'Give me a summary', content: 'Please summarise this topic', icon: 'add' }];
    await c.engine.invoke('resources.updateSingle', {
      kind: 'mentor-scenarios',
      key: mentor,
      values: { name: 'chat', display: 'Chat', prompts },
    });
    const read = await AiMentorService.aiMentorOrgsUsersMentorsScenariosRetrieve(
      userPath<Parameters<typeof AiMentorService.aiMentorOrgsUsersMentorsScenariosRetrieve>[0]>({}),
    );
    expect(read).toEqual({ name: 'chat', display: 'Chat', prompts });
    const missing = await failure(c.engine, 'resources.updateSingle', {
      kind: 'mentor-scenarios',
      key: mentor,
      values: { prompts: [{ summary: 'No content' }] },
    });
    expect(missing.code).toBe('validation');
  });

  it('sets and resets the auto memory prompt, read back by the vendor SDK; another tenant sees none of it', async () => {
    const c = await connect(server);
    await c.engine.invoke('resources.updateSingle', {
      kind: 'mentor-auto-memory-prompt',
      key: mentor,
      values: { auto_memory_prompt: 'Note what the learner struggles with.' },
    });
    const sdkRead = () =>
      AiMentorService.aiMentorOrgsUsersMentorsAutoMemoryPromptRetrieve(
        userPath<Parameters<typeof AiMentorService.aiMentorOrgsUsersMentorsAutoMemoryPromptRetrieve>[0]>({}),
      );
    expect(await sdkRead()).toEqual({ auto_memory_prompt: 'Note what the learner struggles with.' });
    await c.engine.invoke('resources.updateSingle', {
      kind: 'mentor-auto-memory-prompt',
      key: mentor,
      values: { reset: true },
    });
    expect(await sdkRead()).toEqual({ auto_memory_prompt: DEFAULT_AUTO_MEMORY_PROMPT });

    const other = await connect(server, {
      org: server.otherOrg.org,
      username: server.otherOrg.user,
      secret: server.otherOrg.apiKey,
    });
    const theirs = await failure(other.engine, 'resources.getSingle', { kind: 'mentor-course-link', key: mentor });
    expect(theirs.message).toMatch(/not found/i);
  });

  it('names a mentor’s types and subjects from the platform’s catalogues, read back by the vendor SDK', async () => {
    const c = await connect(server);
    const types = await c.engine.invoke('resources.list', { kind: 'mentor-types', refresh: true });
    expect(types.records.map((t) => t.name)).toContain('Coach');
    await c.engine.invoke('resources.updateSingle', {
      kind: 'mentor-settings',
      key: mentor,
      values: { types: [2], subjects: [1, 4] },
    });
    const read = (await AiMentorService.aiMentorOrgsUsersMentorsSettingsRetrieve(
      userPath<Parameters<typeof AiMentorService.aiMentorOrgsUsersMentorsSettingsRetrieve>[0]>({}),
    )) as unknown as { types: { id: number }[]; subjects: { id: number }[] };
    expect(read.types.map((t) => t.id)).toEqual([2]);
    expect(read.subjects.map((s) => s.id)).toEqual([1, 4]);
  });
});
