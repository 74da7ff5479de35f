/**
 * A mentor's configuration moved between files and tenants (issue 16): two real sandboxes as two tenants of one
 * engine. Export → import round trip, copy across tenants and within one, what the target lacks listed before
 * anything is created and left out, files of another version or not JSON refused, and no secret in a file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { AiMentorService, OpenAPI } from '@iblai/iblai-api';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MentorConfig } from '../../src/shared/contract';
import type { Sandbox } from '../../src/server/app';
import { cli } from '../helpers/cli';
import { waitForJob } from '../helpers/engine';
import { call, sandbox } from '../helpers/sandbox';
import { requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';
import { connect, failure } from './setup';

const base = (server: Sandbox) => `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;

/** Settings of the source mentor, none of them a default. */
const SETTINGS: Record<string, unknown> = {
  display_name: 'Ada',
  mentor_description: 'Helps with algebra.',
  mentor_visibility: 'viewable_by_anyone',
  system_prompt: 'You are Ada, a patient tutor.',
  initial_message: 'Welcome back.',
  llm_provider: 'google',
  llm_name: 'gemini-1.5-pro',
  llm_temperature: 0.2,
  theme: 'dark',
  user_message_color: '#112233',
  enable_moderation: true,
  moderation_system_prompt: 'Refuse off-topic requests.',
  greeting_method: 'proactive_prompt',
  proactive_prompt: 'Greet the learner by topic.',
  enable_socratic_mode: true,
  show_voice_call: true,
  disable_chathistory: true,
  metadata: { cohort: 7 },
};

let source: Sandbox;
let target: Sandbox;
beforeAll(async () => {
  requireKeychainSession();
  [source, target] = await Promise.all([sandbox(), sandbox()]);
  for (const server of [source, target]) {
    const made = await call(server, 'POST', `${base(server)}mentor/categories/`, { json: { name: 'Algebra' } });
    expect(made.status, JSON.stringify(made.body)).toBeLessThan(300);
  }
  // Only the source has this one.
  await call(source, 'POST', `${base(source)}mentor/categories/`, { json: { name: 'Geometry' } });
});

/** An engine with both sandboxes as tenants ("Sandbox" active, "Second"). */
async function twoTenants() {
  const c = await connect(source);
  const second = await c.engine.invoke('profiles.add', {
    name: 'Second',
    baseUrl: target.url,
    org: target.org,
    username: target.user,
    secret: target.apiKey,
  });
  return { ...c, secondId: second.id };
}

async function sourceMentor(
  c: Awaited<ReturnType<typeof twoTenants>>,
  name: string,
  extra: Record<string, unknown> = {},
) {
  const mentor = await c.engine.invoke('mentors.create', { name });
  const categories = (await call(source, 'GET', `${base(source)}mentor/categories/`)).body as {
    id: number;
    name: string;
  }[];
  await c.engine.invoke('resources.updateSingle', {
    kind: 'mentor-settings',
    key: mentor.uniqueId,
    values: { ...SETTINGS, categories: categories.map((x) => x.id), ...extra },
  });
  return mentor;
}

const targetNames = async (server: Sandbox) =>
  ((await call(server, 'GET', `${base(server)}?page_size=1000`)).body as { results: { name: string }[] }).results.map(
    (m) => m.name,
  );

describe('mentor configuration: export and import', () => {
  it('round trip into another tenant: every setting equal but what the target lacks (listed first, left out)', async () => {
    const c = await twoTenants();
    const mentor = await sourceMentor(c, 'Ada Algebra');
    const { config, fileName } = await c.engine.invoke('mentors.exportConfig', { mentor: mentor.uniqueId });
    expect(fileName).toBe('Ada-Algebra.mentor.json');
    expect(config).toMatchObject({ format: 'mentor-admin.mentor-config', version: 1, name: 'Ada Algebra' });
    expect(config.settings).toMatchObject(SETTINGS);
    expect(config.categories.map((x) => x.name).sort()).toEqual(['Algebra', 'Geometry']);
    expect(config.manifest.leftOut.join('\n')).toMatch(/Secrets: MCP server credentials/);

    const text = JSON.stringify(config);
    const plan = await c.engine.invoke('mentors.planImport', { profileId: c.secondId, text });
    expect(plan).toMatchObject({ action: 'create', name: 'Ada Algebra', target: null, categories: ['Algebra'] });
    expect(plan.leftOut).toEqual([
      { field: 'categories', value: 'Geometry', reason: 'The tenant has no category of this name.' },
    ]);
    // The plan wrote nothing.
    expect(await targetNames(target)).not.toContain('Ada Algebra');

    const imported = await c.engine.invoke('mentors.importConfig', { profileId: c.secondId, text });
    expect(imported.mentor).toMatchObject({ name: 'Ada Algebra', description: 'Helps with algebra.' });
    const back = await c.engine.invoke('mentors.exportConfig', {
      profileId: c.secondId,
      mentor: imported.mentor.uniqueId,
    });
    for (const [field, value] of Object.entries(config.settings))
      expect(back.config.settings[field], field).toEqual(value);
    expect(back.config.categories.map((x) => x.name)).toEqual(['Algebra']);

    // The vendor's SDK reads them back from the target's platform.
    OpenAPI.BASE = target.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${target.apiKey}` };
    // The SDK's typings drop `userId` (a comment swallows it); its code sends it.
    const path = { org: target.org, userId: target.user, mentor: imported.mentor.uniqueId } as {
      org: string;
      mentor: string;
    };
    const settings = (await AiMentorService.aiMentorOrgsUsersMentorsSettingsRetrieve(path)) as unknown as Record<
      string,
      unknown
    >;
    expect(settings).toMatchObject({
      display_name: 'Ada',
      llm_name: 'gemini-1.5-pro',
      mentor_visibility: 'viewable_by_anyone',
    });

    // Imported again under its name: the same mentor is updated, not a second one made.
    const again = await c.engine.invoke('mentors.planImport', { profileId: c.secondId, text });
    expect(again).toMatchObject({ action: 'update', target: imported.mentor.uniqueId });
  });

  it('a model the target is not offered, a category or MCP server it lacks: listed before anything is created, left out', async () => {
    const c = await twoTenants();
    const mentor = await sourceMentor(c, 'Old Model', { llm_provider: 'anthropic', llm_name: 'claude-3-5-haiku' });
    const { config } = await c.engine.invoke('mentors.exportConfig', { mentor: mentor.uniqueId });
    config.mcpServers = [{ name: 'Course catalogue', url: 'https://mcp.example.edu/sse' }];
    const text = JSON.stringify(config);
    const before = await targetNames(target);
    const plan = await c.engine.invoke('mentors.planImport', { profileId: c.secondId, text, name: 'New Model' });
    expect(plan.leftOut.map((x) => [x.field, x.value])).toEqual([
      ['llm_name', 'anthropic / claude-3-5-haiku'],
      ['categories', 'Geometry'],
      ['mcp_servers', 'Course catalogue'],
    ]);
    expect(plan.leftOut[0]!.reason).toMatch(/no longer offers “claude-3-5-haiku” from anthropic/);
    expect(plan.settings).not.toContain('llm_name');
    expect(await targetNames(target)).toEqual(before);

    const { mentor: made } = await c.engine.invoke('mentors.importConfig', {
      profileId: c.secondId,
      text,
      name: 'New Model',
    });
    const settings = (await call(target, 'GET', `${base(target)}mentors/${made.uniqueId}/settings/`)).body as Record<
      string,
      unknown
    >;
    // The tenant's default model, the rest as exported.
    expect(settings).toMatchObject({ llm_provider: 'openai', llm_name: 'gpt-4o-mini', display_name: 'Ada' });
  });

  it('a file of another version, of another format or not JSON is refused with what is wrong; nothing is created', async () => {
    const c = await twoTenants();
    const mentor = await sourceMentor(c, 'Versioned');
    const { config } = await c.engine.invoke('mentors.exportConfig', { mentor: mentor.uniqueId });
    const before = await targetNames(target);
    const refused = async (text: string) =>
      (await failure(c.engine, 'mentors.importConfig', { profileId: c.secondId, text })).message;
    expect(await refused(JSON.stringify({ ...config, version: 2 }))).toBe(
      'This mentor configuration is version 2; this app reads version 1. Export it again with this app.',
    );
    expect(await refused('{"format": "mentor-admin.mentor-config", "version": 1,')).toMatch(
      /^The file is not valid JSON \(/,
    );
    expect(await refused(JSON.stringify({ name: 'x' }))).toMatch(/its "format" is not "mentor-admin.mentor-config"/);
    expect(await refused(JSON.stringify({ ...config, settings: 'none' }))).toMatch(
      /^The mentor configuration is damaged: settings: /,
    );
    expect(await targetNames(target)).toEqual(before);
  });

  it('no secret in the file: an MCP server’s credentials and the tenant’s key stay out', async () => {
    const c = await twoTenants();
    const server = await c.engine.invoke('resources.create', {
      kind: 'mcp-servers',
      values: { name: 'Catalogue', url: 'https://mcp.example.edu/sse', credentials: 'Bearer s3cret-mcp-token' },
    });
    const mentor = await sourceMentor(c, 'Secretive');
    await c.engine.invoke('resources.create', {
      kind: 'call-configurations',
      values: { mentor: mentor.uniqueId, mode: 'realtime', tts_provider: 'elevenlabs' },
    });
    const { config } = await c.engine.invoke('mentors.exportConfig', { mentor: mentor.uniqueId });
    expect(config.callConfiguration).toMatchObject({ mode: 'realtime', tts_provider: 'elevenlabs' });
    expect(config.callConfiguration).not.toHaveProperty('mentor');
    const text = JSON.stringify(config);
    expect(server.record.name).toBe('Catalogue');
    expect(text).not.toContain('s3cret-mcp-token');
    expect(text).not.toContain(source.apiKey);
    expect(text).not.toContain(target.apiKey);
  });
});

describe('mentor copy between tenants', () => {
  it('a dry run plans only; the copy creates the mentor on the other tenant with its call configuration', async () => {
    const c = await twoTenants();
    const mentor = await sourceMentor(c, 'Copied Across');
    await c.engine.invoke('resources.create', {
      kind: 'call-configurations',
      values: { mentor: mentor.uniqueId, mode: 'realtime' },
    });
    const dry = await c.engine.invoke('mentors.copy', {
      mentor: 'Copied Across',
      toProfileId: c.secondId,
      dryRun: true,
    });
    expect(dry.job).toBeNull();
    expect(dry.plan).toMatchObject({ action: 'create', name: 'Copied Across', callConfiguration: true });
    expect(await targetNames(target)).not.toContain('Copied Across');

    // The copy is a job: the mentor, its settings, its call configuration.
    const started = await c.engine.invoke('mentors.copy', { mentor: 'Copied Across', toProfileId: c.secondId });
    const job = await waitForJob(c.engine, started.job!.id);
    expect(job).toMatchObject({ kind: 'mentor-copy', state: 'completed', progress: { total: 3, done: 3 } });
    const copied = await c.engine.invoke('mentors.get', { profileId: c.secondId, mentor: 'Copied Across' });
    expect(copied).toMatchObject({ name: 'Copied Across', description: 'Helps with algebra.' });
    const calls = (await call(target, 'GET', `${base(target)}call-configurations/`)).body as Record<string, unknown>[];
    expect(calls.find((x) => x.mentor === copied.uniqueId)).toMatchObject({ mode: 'realtime' });
    // Its list on the target tenant shows it at once.
    const list = await c.engine.invoke('mentors.list', { profileId: c.secondId });
    expect(list.mentors.map((m) => m.name)).toContain('Copied Across');
  });

  it('within one tenant the copy takes a name of its own', async () => {
    const c = await twoTenants();
    await sourceMentor(c, 'Twin');
    const copied = await c.engine.invoke('mentors.copy', { mentor: 'Twin', toProfileId: c.profileId });
    expect(copied.plan.name).toBe('Twin (copy)');
    expect((await waitForJob(c.engine, copied.job!.id)).state).toBe('completed');
    expect(await targetNames(source)).toEqual(expect.arrayContaining(['Twin', 'Twin (copy)']));
    const refused = await failure(c.engine, 'mentors.copy', { mentor: 'Twin', toProfileId: c.profileId, name: 'Twin' });
    expect(refused.message).toBe("'Twin' is the mentor itself: give the copy another name");
  });
});

describe('mentor-admin mentors export|import|copy', () => {
  /** A data folder with both sandboxes as tenants, their keys in the OS keychain (under this test's service). */
  async function cliTenants() {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      MENTOR_ADMIN_HOME: tempDir(),
      MENTOR_ADMIN_KEYCHAIN_SERVICE: uniqueService(),
      MENTOR_ADMIN_SANDBOX: 'off',
    };
    delete env.MENTOR_ADMIN_API_KEY;
    for (const [name, server] of [
      ['Campus', source],
      ['Other', target],
    ] as const) {
      const at = ['--url', server.url, '--org', server.org, '--user', server.user];
      const added = await cli(
        ['profile', 'add', name, ...at, '--key-stdin', ...(name === 'Campus' ? ['--activate'] : [])],
        {
          env,
          stdin: server.apiKey,
        },
      );
      expect(added.code, added.stderr).toBe(0);
    }
    return env;
  }

  it('exports to a file, imports it into another tenant (what it lacks listed first), copies with a dry run', async () => {
    const env = await cliTenants();
    const made = await call(source, 'POST', base(source), { json: { name: 'Cli Mentor' } });
    const uniqueId = (made.body as { unique_id: string }).unique_id;
    await call(source, 'PUT', `${base(source)}mentors/${uniqueId}/settings/`, {
      json: { display_name: 'Cli', llm_provider: 'anthropic', llm_name: 'claude-3-5-haiku' },
    });
    const file = join(tempDir(), 'cli.mentor.json');
    const exported = await cli(['mentors', 'export', 'Cli Mentor', file], { env });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/^Wrote 'Cli Mentor' to .*cli\.mentor\.json \(version 1\)\. Not in the file:/);
    const config = JSON.parse(readFileSync(file, 'utf8')) as MentorConfig;
    expect(config).toMatchObject({
      format: 'mentor-admin.mentor-config',
      version: 1,
      settings: { display_name: 'Cli' },
    });
    expect(readFileSync(file, 'utf8')).not.toContain(source.apiKey);
    // Made outside the app: what the spec's settings read does not answer is named in the manifest, not guessed.
    expect(config.manifest.leftOut.at(-1)).toMatch(
      /^Settings the platform's read did not answer and this app had not saved: .*system_prompt.*, mcp_servers\.$/,
    );

    const imported = await cli(['--profile', 'Other', 'mentors', 'import', file, '--name', 'Cli Imported'], { env });
    expect(imported.code, imported.stderr).toBe(0);
    const [planLine, leftOut, done] = imported.stdout.trim().split('\n');
    expect(planLine).toMatch(/^Other: create mentor 'Cli Imported' with \d+ settings/);
    expect(leftOut).toMatch(/^ {2}left out: llm_name anthropic \/ claude-3-5-haiku — The platform no longer offers/);
    expect(done).toMatch(/^Created 'Cli Imported' \(/);
    expect(await targetNames(target)).toContain('Cli Imported');

    const dry = await cli(['--json', 'mentors', 'copy', 'Cli Mentor', '--to-profile', 'other', '--dry-run'], { env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.lines).toEqual([{ plan: expect.objectContaining({ action: 'create', name: 'Cli Mentor' }) }]);
    expect(await targetNames(target)).not.toContain('Cli Mentor');
    const copied = await cli(['mentors', 'copy', 'Cli Mentor', '--to-profile', 'Other'], { env });
    expect(copied.code, copied.stderr).toBe(0);
    expect(copied.stdout).toMatch(/^Started job [0-9a-f]{8}\.$/m);
    expect(copied.stdout).toMatch(/Job [0-9a-f]{8} completed: 2 of 2 done, 0 not copied, 0 failed/);
    expect(await targetNames(target)).toContain('Cli Mentor');
  });

  it('refuses a file of another version, a missing file and a tenant it does not know, with what is wrong', async () => {
    const env = await cliTenants();
    const file = join(tempDir(), 'v2.mentor.json');
    writeFileSync(file, JSON.stringify({ format: 'mentor-admin.mentor-config', version: 2 }));
    const v2 = await cli(['mentors', 'import', file], { env });
    expect(v2.code).toBe(1);
    expect(v2.stderr).toBe(
      `mentor-admin: ${file}: This mentor configuration is version 2; this app reads version 1. Export it again with this app.\n`,
    );
    const missing = await cli(['mentors', 'import', join(tempDir(), 'none.json')], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Cannot read .*none\.json: ENOENT/);
    const nowhere = await cli(['mentors', 'copy', 'Anything', '--to-profile', 'Elsewhere'], { env });
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toMatch(/No tenant named 'Elsewhere' \(known: Campus, Other\)/);
  });
});
