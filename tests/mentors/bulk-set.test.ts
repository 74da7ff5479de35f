/**
 * Settings across many mentors (issue 16, "Bulk edit"), against a real sandbox over HTTP: the per-mentor before and
 * after (nothing sent), the change as one `mentor-bulk-set` job (each mentor kept in its history, revertable there),
 * a mentor the platform refuses reported on that mentor only, a second run that sends nothing, a CLI process killed
 * with SIGKILL mid-job that, run again, resumes and sends no mentor twice; the CLI's dry run and `mentors diff`.
 */
import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine';
import type { Sandbox } from '../../src/server/app';
import { startServer } from '../platform/test-server';
import { cli } from '../helpers/cli';
import { call, sandbox } from '../helpers/sandbox';
import { waitForJob } from '../helpers/engine';
import { cliTenant } from '../invitations/setup';
import { connect, failure, recordingProxy } from './setup';

let server: Sandbox;
beforeAll(async () => {
  server = await sandbox();
});

const base = () => `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;
const settingsPath = (mentor: string) => `${base()}mentors/${mentor}/settings/`;
const settingsOf = async (mentor: string) =>
  (await call(server, 'GET', settingsPath(mentor))).body as Record<string, unknown>;
const setOnServer = async (mentor: string, values: Record<string, unknown>) =>
  expect((await call(server, 'PUT', settingsPath(mentor), { json: values })).status).toBe(200);
const isSettingsPut = (request: { method: string; url: string }) =>
  request.method === 'PUT' && /\/mentors\/[^/]+\/settings\//.test(request.url);

async function makeMentor(name: string): Promise<string> {
  const made = await call(server, 'POST', base(), { json: { name, description: `${name} mentor` } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return (made.body as { unique_id: string }).unique_id;
}

async function finished(engine: Engine, id: string) {
  const job = await waitForJob(engine, id);
  const { items } = await engine.invoke('jobs.items', { id, limit: 100, offset: 0 });
  return { job, items: new Map(items.map((item) => [item.key, item])) };
}

describe('mentors.bulkPreview and mentors.bulkSet', () => {
  it('shows each mentor before and after, changes only those that differ, keeps each in its history', async () => {
    const [a, b, c] = [
      await makeMentor('Bulk Algebra'),
      await makeMentor('Bulk Biology'),
      await makeMentor('Bulk Chem'),
    ];
    await setOnServer(c, { disclaimer: 'Check with your teacher.', enable_moderation: true });
    const proxy = await recordingProxy(server);
    const { engine } = await connect(server, { key: 'env-only', baseUrl: proxy.url });
    const values = { disclaimer: 'Check with your teacher.', enable_moderation: true };

    const preview = await engine.invoke('mentors.bulkPreview', { mentors: [a, b, c], values });
    expect(proxy.requests.filter(isSettingsPut)).toHaveLength(0);
    expect(preview.mentors.map((row) => [row.name, row.changes.map((change) => change.field)])).toEqual([
      ['Bulk Algebra', ['disclaimer', 'enable_moderation']],
      ['Bulk Biology', ['disclaimer', 'enable_moderation']],
      ['Bulk Chem', []],
    ]);
    expect(preview.mentors[0]!.changes[1]).toMatchObject({
      label: 'Moderation',
      before: false,
      after: true,
    });

    const { job: started, resumed } = await engine.invoke('mentors.bulkSet', { mentors: [a, b, c], values });
    expect(resumed).toBe(false);
    expect(started.kind).toBe('mentor-bulk-set');
    const { job, items } = await finished(engine, started.id);
    expect(job.state).toBe('completed');
    expect(job.counts).toMatchObject({ updated: 2, unchanged: 1 });
    expect(items.get(c)!.phase).toBe('unchanged');
    // The preview's reads were fresh: the job sent one PUT per mentor that differed, and read nothing again.
    const puts = proxy.requests.filter(isSettingsPut).map((r) => r.url);
    expect(puts.sort()).toEqual([settingsPath(a), settingsPath(b)].sort());
    expect(proxy.requests.filter((r) => r.method === 'GET' && r.url.includes('/settings/')).length).toBe(3);
    for (const mentor of [a, b, c]) expect(await settingsOf(mentor)).toMatchObject(values);

    // Each mentor's change is in its own history and undone there, for that mentor only.
    const { snapshots } = await engine.invoke('resources.history', { kind: 'mentor-settings', key: a });
    expect(snapshots.map((s) => [s.reason, s.changed])).toEqual([
      ['saved', ['disclaimer', 'enable_moderation']],
      ['found', []],
    ]);
    const reverted = await engine.invoke('resources.revert', {
      kind: 'mentor-settings',
      key: a,
      snapshotId: snapshots[1]!.id,
    });
    expect(reverted.changed.sort()).toEqual(['disclaimer', 'enable_moderation']);
    expect(await settingsOf(a)).toMatchObject({ enable_moderation: false });
    expect(await settingsOf(b)).toMatchObject(values);
    expect((await engine.invoke('resources.history', { kind: 'mentor-settings', key: c })).snapshots).toEqual([]);

    // The same change again: a new job that finds every mentor holding it but the reverted one, and sends one PUT.
    const before = proxy.requests.filter(isSettingsPut).length;
    const again = await engine.invoke('mentors.bulkSet', { mentors: [a, b, c], values });
    const second = await finished(engine, again.job.id);
    expect(second.job.counts).toMatchObject({ updated: 1, unchanged: 2 });
    expect(proxy.requests.filter(isSettingsPut).length - before).toBe(1);
  });

  it('a setting the platform refuses for one mentor is reported on that mentor; the others are changed', async () => {
    const [a, b] = [await makeMentor('Clash One'), await makeMentor('Clash Two')];
    const { engine } = await connect(server, { key: 'env-only' });
    // One name for two mentors: the platform takes it for the first and refuses it for the second.
    const { job: started } = await engine.invoke('mentors.bulkSet', {
      mentors: [a, b],
      values: { mentor_name: 'Clash Shared' },
    });
    const { job, items } = await finished(engine, started.id);
    expect(job.state).toBe('completed');
    expect(job.progress).toMatchObject({ done: 1, failed: 1 });
    const refused = [...items.values()].find((item) => item.state === 'failed')!;
    expect(refused.error).toContain('mentor_name: a mentor with this name already exists');
    const names = [(await settingsOf(a)).mentor_name, (await settingsOf(b)).mentor_name];
    expect(names.filter((name) => name === 'Clash Shared')).toHaveLength(1);
  });

  it('refuses a field that is no setting, or a value the spec does not allow, before anything is written', async () => {
    const a = await makeMentor('Bad Input');
    const { engine } = await connect(server, { key: 'env-only' });
    const unknown = await failure(engine, 'mentors.bulkSet', { mentors: [a], values: { colour: 'red' } });
    expect(unknown.message).toBe('Not a setting of mentors: colour');
    const range = await failure(engine, 'mentors.bulkPreview', { mentors: [a], values: { llm_temperature: 'hot' } });
    expect(range.code).toBe('validation');
    expect(range.issues?.[0]?.path).toBe('llm_temperature');
    expect((await engine.invoke('jobs.list', {})).jobs.filter((j) => j.kind === 'mentor-bulk-set')).toEqual([]);
  });

  it('mentors.diff: two mentors field by field', async () => {
    const [a, b] = [await makeMentor('Diff Left'), await makeMentor('Diff Right')];
    await setOnServer(b, { theme: 'dark', enable_moderation: true });
    const { engine } = await connect(server, { key: 'env-only' });
    const diff = await engine.invoke('mentors.diff', { a, b: 'Diff Right' });
    expect(diff.a).toEqual({ mentor: a, name: 'Diff Left' });
    expect(diff.b.mentor).toBe(b);
    const byField = Object.fromEntries(diff.changes.map((c) => [c.field, [c.before, c.after]]));
    expect(byField).toMatchObject({
      mentor_name: ['Diff Left', 'Diff Right'],
      theme: [expect.anything(), 'dark'],
      enable_moderation: [false, true],
    });
    expect(byField).not.toHaveProperty('system_prompt');
  });
});

describe('mentor-admin mentors', () => {
  it('bulk-set --dry-run prints each mentor before and after and sends nothing; diff prints the fields that differ', async () => {
    const [a, b] = [await makeMentor('Dry Physics'), await makeMentor('Dry Poetry')];
    await makeMentor('Other Topic');
    await setOnServer(b, { mentor_visibility: 'viewable_by_anyone' });
    const { dataDir, env } = await cliTenant(server);
    const run = (args: string[]) => cli(['--data-dir', dataDir, ...args], { env });

    const dry = await run(['mentors', 'bulk-set', '--where', 'name~dry p', '--set', 'theme=dark', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('Dry Physics:\n  theme: ');
    expect(dry.stdout).toContain('→ "dark"');
    expect(dry.stdout).not.toContain('Other Topic');
    expect(dry.stdout).toContain('Dry run: 2 would change, 0 already set, 0 unreadable; nothing was sent.');
    expect((await settingsOf(a)).theme).not.toBe('dark');

    const json = await run([
      '--json',
      ...['mentors', 'bulk-set', '--where', 'name~dry', '--where', 'visibility=viewable_by_anyone'],
      ...['--set', 'enable_moderation=true', '--dry-run'],
    ]);
    expect(json.code, json.stderr).toBe(0);
    expect(json.lines[0]).toMatchObject({
      mentor: b,
      name: 'Dry Poetry',
      changes: [{ field: 'enable_moderation', before: false, after: true }],
    });
    expect(json.lines.at(-1)).toEqual({ mentors: 1, changing: 1, unchanged: 0, unreadable: 0, dryRun: true });

    const bad = await run(['mentors', 'bulk-set', '--where', 'colour=red', '--set', 'theme=dark']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--where takes name~TEXT or visibility=VALUE');

    const set = await run(['mentors', 'bulk-set', a, b, '--set', 'theme=dark']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('Dry Physics: updated.');
    expect(set.stdout).toContain('2 updated, 0 already set, 0 refused');
    expect((await settingsOf(b)).theme).toBe('dark');

    const diff = await run(['mentors', 'diff', a, b]);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('Settings of Dry Physics → Dry Poetry:');
    expect(diff.stdout).toContain('  mentor_visibility: "viewable_by_tenant_students" → "viewable_by_anyone"');
    expect(diff.stdout).not.toContain('theme:');
  });

  it('killed with SIGKILL mid-job, then run again: resumes the same job and sends no mentor twice', async () => {
    const count = 40;
    const mentors: string[] = [];
    for (let i = 0; i < count; i++) mentors.push(await makeMentor(`Resume ${String(i).padStart(2, '0')}`));
    let puts = 0;
    let kill: () => void = () => {};
    // A loopback proxy in front of the sandbox: counts settings PUTs, and kills the CLI at the tenth.
    const proxy = await startServer(async (req, res, { body }) => {
      const put = req.method === 'PUT' && /\/settings\//.test(req.url ?? '');
      if (put && ++puts === 10) kill();
      const answer = await fetch(server.url + req.url, {
        method: req.method ?? 'GET',
        headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' },
        ...(body.length ? { body: new Uint8Array(body) } : {}),
      });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
    });
    const { dataDir, env } = await cliTenant(server, proxy.url);
    // A dry run first: every mentor's settings are in the cache, young, as the job compares with them.
    const dry = await cli(
      [
        '--data-dir',
        dataDir,
        'mentors',
        'bulk-set',
        '--where',
        'name~resume ',
        '--set',
        'disclaimer=Resumed',
        '--dry-run',
      ],
      { env },
    );
    expect(dry.stdout).toContain(`Dry run: ${count} would change`);
    const args = ['bin/mentor-admin.mjs', '--json', 'mentors', 'bulk-set', '--where', 'name~resume '];
    const run = () =>
      new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [...args, '--set', 'disclaimer=Resumed'], { env });
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
    const changedBefore = (await Promise.all(mentors.map(settingsOf))).filter((s) => s.disclaimer === 'Resumed');
    expect(changedBefore.length).toBeGreaterThanOrEqual(9);
    expect(changedBefore.length).toBeLessThan(count);

    kill = () => {};
    const second = await run();
    expect(second.code, second.stderr).toBe(0);
    const summary = JSON.parse(second.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    expect(summary).toMatchObject({ updated: count, unchanged: 0, refused: 0, state: 'completed', resumed: true });
    for (const settings of await Promise.all(mentors.map(settingsOf))) expect(settings.disclaimer).toBe('Resumed');
    // Every mentor was sent its change once: those in flight when the process died were read, not sent again.
    const sent = proxy.requests.filter(isSettingsPut).map((r) => r.url);
    expect(sent).toHaveLength(count);
    expect(new Set(sent).size).toBe(count);
  }, 120_000);
});
