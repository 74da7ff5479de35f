/**
 * The kind `mentor-settings` (one record per mentor, issue 16): every field of the spec's MentorSettingsRequest
 * written through the engine and read back by the vendor's SDK; the sandbox's GET/PUT against the spec (success,
 * field errors, tenants apart); the local history of every save (diff, revert); and the CLI's get/update.
 */
import { join } from 'node:path';
import { AiMentorService, OpenAPI } from '@iblai/iblai-api';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { RESOURCES, specOperation } from '../../src/shared/resources';
import { cli } from '../helpers/cli';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';
import { requireKeychainSession } from '../helpers/temp';
import { cliTenant } from '../invitations/setup';
import { modelOffer, offeredModels } from '../../src/renderer/screens/mentors/modelOffer';
import { connect, failure } from './setup';

const T = '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/settings/';
const base = (server: Sandbox) => `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;

/** A value for every field of MentorSettingsRequest, none of them the sandbox's default. */
const EVERY_SETTING: Record<string, unknown> = {
  mentor_name: 'Renamed Mentor',
  template_name: 'socratic-template',
  display_name: 'Ada',
  profile_image: 'https://img.example/ada.png',
  initial_message: 'Welcome back.',
  suggested_message: 'Ask about chapter 2.',
  theme: 'dark',
  user_message_color: '#112233',
  mentor_bubble_color: '#445566',
  align_mentor_bubble: 'right',
  system_prompt: 'You are Ada, a patient tutor.',
  llm_provider: 'google',
  llm_name: 'gemini-1.5-pro',
  featured: true,
  disable_chathistory: true,
  metadata: { cohort: 7 },
  custom_css: '.bubble { border: 0 }',
  department_id: null,
  mentor_visibility: 'viewable_by_anyone',
  enable_image_generation: true,
  enable_web_browsing: true,
  enable_code_interpreter: true,
  allow_anonymous: true,
  forkable: true,
  forkable_with_training_data: true,
  mentor_description: 'Helps with algebra.',
  uploaded_profile_image: 'https://img.example/uploaded.png',
  proactive_response: 'Hello! Ready?',
  greeting_method: 'proactive_prompt',
  can_use_tools: true,
  tool_slugs: ['web-search'],
  llm_temperature: 0.2,
  proactive_prompt: 'Greet the learner by topic.',
  disclaimer: 'AI answers may be wrong.',
  placeholder_prompt: 'Type a question',
  moderation_system_prompt: 'Refuse off-topic requests.',
  post_processing_prompt: 'Shorten answers.',
  moderation_response: 'Let us stay on algebra.',
  enable_moderation: true,
  enable_multi_query_rag: true,
  enable_post_processing_system: true,
  enable_openai_assistant: true,
  enable_total_grounding: true,
  enable_suggested_prompts: false,
  enable_guided_prompts: false,
  mcp_servers: [],
  show_attachment: false,
  show_voice_call: true,
  show_voice_record: false,
  embed_is_context_aware: true,
  embed_open_by_default: true,
  embed_show_attachment: true,
  embed_show_voice_call: true,
  embed_show_voice_record: true,
  google_voice: 3,
  openai_voice: 4,
  guided_prompt_instructions: 'Lead with a question.',
  safety_system_prompt: 'Never give medical advice.',
  safety_response: 'I cannot help with that.',
  enable_safety_system: true,
  enable_spaced_repetition: true,
  enable_instruction_mode: true,
  enable_socratic_mode: true,
  is_guided_mentor: true,
  is_featured: true,
  enable_email_chat: true,
  categories: [],
  types: [],
  subjects: [],
};

let server: Sandbox;
beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox();
});

async function newMentor(name: string, target = server) {
  const created = await call(target, 'POST', `/api/ai-mentor/orgs/${target.org}/users/${target.user}/`, {
    json: { name },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { unique_id: string; slug: string; name: string };
}

describe('mentor-settings: the declaration', () => {
  it('declares every field of the spec’s MentorSettingsRequest, each in a group', () => {
    const body = specOperation(RESOURCES['mentor-settings'].operations.update).body!.schema;
    const declared = RESOURCES['mentor-settings'].fields.map((field) => field.name);
    expect([...declared].sort()).toEqual(Object.keys(body.properties ?? {}).sort());
    expect(Object.keys(EVERY_SETTING).sort()).toEqual([...declared].sort());
    for (const field of RESOURCES['mentor-settings'].fields) expect(field.group, field.name).toBeTruthy();
  });
});

describe('mentor-settings: engine and sandbox', () => {
  it('saves every setting; the vendor SDK reads each one back from the platform', async () => {
    const c = await connect(server);
    const mentor = await newMentor('Every Setting');
    const { record } = await c.engine.invoke('resources.updateSingle', {
      kind: 'mentor-settings',
      key: mentor.unique_id,
      values: EVERY_SETTING,
    });
    // The PUT's answer (MentorSettings) is the record: prompts included.
    expect(record).toMatchObject({ system_prompt: EVERY_SETTING.system_prompt, mentor_name: 'Renamed Mentor' });
    // The mentor's name and description changed with them: screens showing the mentor (its page, the list) read again.
    expect(c.events).toContainEqual({ name: 'mentors.changed', payload: { profileId: c.profileId } });

    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    // The SDK's typings drop `userId` (a comment swallows it); its code sends it.
    const path = { org: server.org, userId: server.user, mentor: mentor.unique_id } as { org: string; mentor: string };
    const settings = (await AiMentorService.aiMentorOrgsUsersMentorsSettingsRetrieve(path)) as unknown as Record<
      string,
      unknown
    >;
    const mentorRecord = (await AiMentorService.aiMentorOrgsUsersRetrieve({
      org: server.org,
      userId: server.user,
      name: mentor.unique_id,
    } as { org: string; name: string })) as unknown as Record<string, unknown>;
    // What only the PUT answers (MentorSettings): read back with an empty save, which changes nothing.
    const full = (await AiMentorService.aiMentorOrgsUsersMentorsSettingsUpdate({
      ...path,
      formData: {},
    })) as unknown as Record<string, unknown>;

    /** Where the spec's read answers carry each request field (its own name unless said here). */
    const readBack: Record<string, () => unknown> = {
      template_name: () => full.template_mentor,
      featured: () => settings.is_featured,
      tool_slugs: () => (settings.mentor_tools as { slug: string }[]).map((tool) => tool.slug),
      llm_temperature: () => (settings.llm_config as { temperature: number }).temperature,
      department_id: () => (full.department === '' ? null : full.department),
      disable_chathistory: () => full.disable_chathistory === 'true',
    };
    // The spec answers the uploaded image's URL nowhere (MentorSettings, MentorSettingsPublic and Mentor lack it).
    const unreadable = new Set(['uploaded_profile_image']);
    for (const [field, written] of Object.entries(EVERY_SETTING)) {
      if (unreadable.has(field)) continue;
      const read =
        field in readBack
          ? readBack[field]!()
          : field in settings
            ? settings[field]
            : field in mentorRecord
              ? mentorRecord[field]
              : full[field];
      expect(read, field).toEqual(written);
    }
  });

  it('reads a mentor’s settings by its unique_id or slug, cached per mentor with its own as-of time', async () => {
    const c = await connect(server);
    const a = await newMentor('Cache A');
    const b = await newMentor('Cache B');
    const first = await c.engine.invoke('resources.getSingle', { kind: 'mentor-settings', key: a.unique_id });
    expect(first.freshness.source).toBe('api');
    expect(first.record).toMatchObject({ mentor_unique_id: a.unique_id, mentor_name: 'Cache A' });
    // Another mentor is not answered from the first one's freshness.
    const other = await c.engine.invoke('resources.getSingle', { kind: 'mentor-settings', key: b.unique_id });
    expect(other.freshness.source).toBe('api');
    expect(other.record).toMatchObject({ mentor_name: 'Cache B' });
    const again = await c.engine.invoke('resources.getSingle', { kind: 'mentor-settings', key: a.unique_id });
    expect(again.freshness).toMatchObject({ source: 'cache', asOf: first.freshness.asOf });

    // A keyed kind needs its mentor; a tenant's own kind takes none.
    expect(await failure(c.engine, 'resources.getSingle', { kind: 'mentor-settings' })).toMatchObject({
      code: 'validation',
      message: 'Name the mentor of these mentor settings',
    });
    expect((await failure(c.engine, 'resources.getSingle', { kind: 'org-metadata', key: 'x' })).message).toMatch(
      /one record per tenant/,
    );
    expect(
      await failure(c.engine, 'resources.getSingle', { kind: 'mentor-settings', key: 'no-such-mentor' }),
    ).toMatchObject({ code: 'not_found' });
  });

  it('shows what the platform refuses at its field (DRF errors), from the spec’s own rules; nothing is saved', async () => {
    const c = await connect(server);
    const mentor = await newMentor('Refused');
    // Checked in the engine against the spec before anything is sent.
    const local = await failure(c.engine, 'resources.updateSingle', {
      kind: 'mentor-settings',
      key: mentor.unique_id,
      values: { llm_temperature: 3, profile_image: 'not a url' },
    });
    expect(local.code).toBe('validation');
    expect(local.issues).toEqual(
      expect.arrayContaining([
        { path: 'llm_temperature', message: 'Ensure this value is less than or equal to 1.' },
        { path: 'profile_image', message: 'Enter a valid URL.' },
      ]),
    );
    // What only the platform knows (a name another mentor has) comes back at its field too.
    await newMentor('Taken Name');
    const remote = await failure(c.engine, 'resources.updateSingle', {
      kind: 'mentor-settings',
      key: mentor.unique_id,
      values: { mentor_name: 'Taken Name' },
    });
    expect(remote.issues).toEqual([
      expect.objectContaining({ path: 'mentor_name', message: 'a mentor with this name already exists' }),
    ]);
    const read = await call(server, 'GET', `${base(server)}mentors/${mentor.unique_id}/settings/`);
    expect(read.body).toMatchObject({ mentor_name: 'Refused' });
  });

  it('sandbox: PUT answers MentorSettings; spec errors by field with the catalogue’s detail; 404; tenants apart', async () => {
    const mentor = await newMentor('Contract');
    const path = `${base(server)}mentors/${mentor.unique_id}/settings/`;
    const saved = await call(server, 'PUT', path, { json: { ...EVERY_SETTING, mentor_name: 'Contract Renamed' } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expectSpecValid('put', T, 200, saved.body);
    const read = await call(server, 'GET', `${path}?department_id=1`);
    expectSpecValid('get', T, 200, read.body);

    for (const [json, field, message] of [
      [{ llm_temperature: 1.5 }, 'llm_temperature', 'Ensure this value is less than or equal to 1.'],
      [{ enable_moderation: 'often' }, 'enable_moderation', 'Must be a valid boolean.'],
      [{ profile_image: 'img' }, 'profile_image', 'Enter a valid URL.'],
      [{ tool_slugs: 'web' }, 'tool_slugs', 'Expected a list of items.'],
      [{ greeting_method: 'wave' }, 'greeting_method', '"wave" is not a valid choice.'],
      [{ google_voice: 'three' }, 'google_voice', 'A valid integer is required.'],
    ] as const) {
      const bad = await call(server, 'PUT', path, { json });
      expect(bad, field).toMatchObject({ status: 400, body: { detail: 'Invalid request data', [field]: [message] } });
      expectSpecValid('put', T, 400, bad.body);
    }
    // Optional stays optional: nulls the spec allows are taken.
    const nulls = await call(server, 'PUT', path, {
      json: { initial_message: null, custom_css: null, enable_suggested_prompts: null, mcp_servers: null },
    });
    expect(nulls.status, JSON.stringify(nulls.body)).toBe(200);

    const missing = await call(server, 'PUT', `${base(server)}mentors/nobody/settings/`, { json: {} });
    expect(missing).toMatchObject({ status: 404, body: { detail: 'Mentor not found' } });
    // The other tenant's key neither reads nor changes this tenant's mentor, under either org's path.
    const other = server.otherOrg;
    expect((await call(server, 'GET', path, { key: other.apiKey })).status).toBe(404);
    expect((await call(server, 'PUT', path, { key: other.apiKey, json: { display_name: 'Hijacked' } })).status).toBe(
      404,
    );
    const viaOwnOrg = `/api/ai-mentor/orgs/${other.org}/users/${other.user}/mentors/${mentor.unique_id}/settings/`;
    expect(
      (await call(server, 'PUT', viaOwnOrg, { key: other.apiKey, json: { display_name: 'Hijacked' } })).status,
    ).toBe(404);
    expect((await call(server, 'GET', path)).body).toMatchObject({ display_name: 'Ada' });
  });
});

describe('mentor-public-settings', () => {
  it('reads what anyone may see of a mentor (read-only), as its visibility allows', async () => {
    const c = await connect(server);
    const mentor = await newMentor('Public Face');
    await c.engine.invoke('resources.updateSingle', {
      kind: 'mentor-settings',
      key: mentor.unique_id,
      values: { mentor_visibility: 'viewable_by_anyone', display_name: 'Face', system_prompt: 'Secret sauce.' },
    });
    const { record } = await c.engine.invoke('resources.getSingle', {
      kind: 'mentor-public-settings',
      key: mentor.slug,
    });
    expect(record).toMatchObject({ display_name: 'Face', mentor_visibility: 'viewable_by_anyone' });
    expect(record).not.toHaveProperty('system_prompt');
    expect(
      await failure(c.engine, 'resources.updateSingle', {
        kind: 'mentor-public-settings',
        key: mentor.slug,
        values: { display_name: 'x' },
      }),
    ).toMatchObject({ code: 'validation', message: expect.stringMatching(/read-only/) });
  });
});

describe('the offered models (mentor-llms/)', () => {
  const offered = offeredModels([
    { name: 'openai', chat_models: ['gpt-4o', 'gpt-4o-mini'], disabled_models: [] },
    {
      name: 'anthropic',
      chat_models: [{ name: 'claude-3-5-sonnet' }, { name: 'claude-3-5-haiku' }],
      disabled_models: ['claude-3-5-haiku'],
    },
    { name: 'google', chat_models: { 'gemini-1.5-pro': 'Gemini Pro' } },
  ]);
  it('flags a model no longer offered, a disabled one, and an unknown provider; says nothing of an offered one', () => {
    expect(modelOffer(offered, 'openai', 'gpt-4o')).toEqual({ status: 'offered' });
    expect(modelOffer(offered, 'google', 'gemini-1.5-pro')).toEqual({ status: 'offered' });
    expect(modelOffer(offered, 'openai', 'gpt-3.5')).toMatchObject({ status: 'not-offered' });
    expect(modelOffer(offered, 'anthropic', 'claude-3-5-haiku')).toMatchObject({
      status: 'not-offered',
      message: expect.stringContaining('Its models now: claude-3-5-sonnet'),
    });
    expect(modelOffer(offered, 'mistral', 'large')).toMatchObject({ status: 'unknown-provider' });
    // Nothing to say before the models are known, or while the model is empty.
    expect(modelOffer(new Map(), 'openai', 'gpt-3.5')).toEqual({ status: 'offered' });
    expect(modelOffer(offered, 'openai', '')).toEqual({ status: 'offered' });
  });
});

describe('mentor-settings: history', () => {
  it('keeps a snapshot of every save (and of how it was found), diffs any two field by field, reverts to one', async () => {
    const c = await connect(server);
    const mentor = await newMentor('Historian');
    const key = mentor.unique_id;
    await c.engine.invoke('resources.getSingle', { kind: 'mentor-settings', key });
    await c.engine.invoke('resources.updateSingle', {
      kind: 'mentor-settings',
      key,
      values: { display_name: 'First', system_prompt: 'Be brief.' },
    });
    // Named by its slug, the same mentor's history.
    await c.engine.invoke('resources.updateSingle', {
      kind: 'mentor-settings',
      key: mentor.slug,
      values: { display_name: 'Second', llm_temperature: 0.1 },
    });
    const { snapshots } = await c.engine.invoke('resources.history', { kind: 'mentor-settings', key });
    expect(snapshots.map((s) => [s.reason, s.changed])).toEqual([
      ['saved', ['display_name', 'llm_temperature']],
      ['saved', ['display_name', 'system_prompt']],
      ['found', []],
    ]);
    const [second, first, found] = snapshots;

    const { changes } = await c.engine.invoke('resources.historyDiff', {
      kind: 'mentor-settings',
      key,
      from: first!.id,
      to: second!.id,
    });
    expect(changes).toEqual(
      expect.arrayContaining([
        { field: 'display_name', label: 'Display name', before: 'First', after: 'Second' },
        { field: 'llm_temperature', label: 'Temperature', before: 0.7, after: 0.1 },
      ]),
    );
    // Timestamps that change with every save are no difference.
    expect(changes.map((change) => change.field)).not.toContain('updated_at');

    const reverted = await c.engine.invoke('resources.revert', { kind: 'mentor-settings', key, snapshotId: found!.id });
    expect(reverted.changed).toEqual(expect.arrayContaining(['display_name', 'llm_temperature']));
    expect(reverted.record).toMatchObject({ display_name: 'Historian', llm_temperature: 0.7 });
    const platform = await call(server, 'GET', `${base(server)}mentors/${key}/settings/`);
    expect(platform.body).toMatchObject({ display_name: 'Historian', llm_config: { temperature: 0.7 } });
    // The revert is a save like any other: kept, naming what it went back to.
    const after = (await c.engine.invoke('resources.history', { kind: 'mentor-settings', key })).snapshots;
    expect(after[0]).toMatchObject({ reason: 'reverted', revertedTo: found!.id });
    expect(
      (
        await c.engine.invoke('resources.historyDiff', { kind: 'mentor-settings', key, from: found!.id, to: 'current' })
      ).changes
        .map((change) => change.field)
        .filter((field) => ['display_name', 'llm_temperature'].includes(field)),
    ).toEqual([]);
    expect(
      await failure(c.engine, 'resources.revert', { kind: 'mentor-settings', key, snapshotId: found!.id }),
    ).toMatchObject({ code: 'validation', message: expect.stringMatching(/^Nothing to revert/) });

    // Kept in SQLite per tenant connection.
    const db = new Database(join(c.dataDir, 'mentor-admin.sqlite'), { readonly: true });
    const rows = db.prepare('SELECT profile_id, key FROM resource_snapshots').all() as { profile_id: string }[];
    db.close();
    expect(rows.every((row) => row.profile_id === c.profileId)).toBe(true);
  });

  it('keeps how the settings were found even when the first save comes before any read (as the CLI’s does)', async () => {
    const c = await connect(server);
    const mentor = await newMentor('Saved Unread');
    await c.engine.invoke('resources.updateSingle', {
      kind: 'mentor-settings',
      key: mentor.slug,
      values: { display_name: 'Changed' },
    });
    const { snapshots } = await c.engine.invoke('resources.history', {
      kind: 'mentor-settings',
      key: mentor.unique_id,
    });
    expect(snapshots.map((s) => s.reason)).toEqual(['saved', 'found']);
    const { changes } = await c.engine.invoke('resources.historyDiff', {
      kind: 'mentor-settings',
      key: mentor.unique_id,
      from: snapshots[1]!.id,
      to: snapshots[0]!.id,
    });
    expect(changes).toContainEqual({
      field: 'display_name',
      label: 'Display name',
      before: 'Saved Unread',
      after: 'Changed',
    });
  });

  it('keeps tenants apart: another tenant’s snapshots are neither listed, diffed nor reverted to', async () => {
    const c = await connect(server);
    const mentor = await newMentor('Tenant A Mentor');
    await c.engine.invoke('resources.updateSingle', {
      kind: 'mentor-settings',
      key: mentor.unique_id,
      values: { display_name: 'A' },
    });
    const [snapshot] = (await c.engine.invoke('resources.history', { kind: 'mentor-settings', key: mentor.unique_id }))
      .snapshots;
    const other = await c.engine.invoke('profiles.add', {
      name: 'Other',
      baseUrl: server.url,
      org: server.otherOrg.org,
      username: server.otherOrg.user,
      secret: server.otherOrg.apiKey,
      makeActive: false,
    });
    const asOther = { profileId: other.id, kind: 'mentor-settings' as const, key: mentor.unique_id };
    expect((await c.engine.invoke('resources.history', asOther)).snapshots).toEqual([]);
    expect(
      await failure(c.engine, 'resources.historyDiff', { ...asOther, from: snapshot!.id, to: 'current' }),
    ).toMatchObject({ code: 'not_found' });
    expect(await failure(c.engine, 'resources.revert', { ...asOther, snapshotId: snapshot!.id })).toMatchObject({
      code: 'not_found',
    });
    // The other tenant cannot reach this tenant's mentor through the kind either.
    expect(await failure(c.engine, 'resources.getSingle', asOther)).toMatchObject({ code: 'not_found' });
  });
});

describe('mentor-admin get|update mentor-settings MENTOR', () => {
  it('prints and changes one mentor’s settings by the kit’s verbs; the SDK reads the change', async () => {
    const { dataDir, env } = await cliTenant(server);
    const run = (args: string[]) => cli(['--data-dir', dataDir, ...args], { env });
    const mentor = await newMentor('Cli Mentor');

    const updated = await run([
      'update',
      'mentor-settings',
      mentor.slug,
      '--set',
      'llm_temperature=0.3',
      '--set',
      'enable_moderation=true',
      '--set',
      'system_prompt=Answer in French.',
    ]);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toContain('Updated Mentor settings.');
    const got = await run(['get', 'mentor-settings', mentor.slug]);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toContain('enable_moderation: true');
    expect(got.stdout).toContain('system_prompt: Answer in French.');

    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const settings = (await AiMentorService.aiMentorOrgsUsersMentorsSettingsRetrieve({
      org: server.org,
      userId: server.user,
      mentor: mentor.unique_id,
    } as { org: string; mentor: string })) as unknown as {
      enable_moderation: boolean;
      llm_config: { temperature: number };
    };
    expect(settings).toMatchObject({ enable_moderation: true, llm_config: { temperature: 0.3 } });

    const bad = await run(['update', 'mentor-settings', mentor.slug, '--set', 'llm_temperature=2']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/llm_temperature: Ensure this value is less than or equal to 1/);
    expect((await run(['get', 'mentor-settings'])).stderr).toMatch(/get mentor-settings MENTOR/);
    expect((await run(['update', 'mentor-settings', '--set', 'theme=dark'])).code).toBe(2);
    const shown = await run(['get', 'mentor-public-settings', mentor.slug]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('enable_moderation: true');
    expect(shown.stdout).not.toContain('system_prompt');
  });
});
