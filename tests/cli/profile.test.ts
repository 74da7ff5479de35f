import { AsyncEntry } from '@napi-rs/keyring';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, cliProcess } from '../helpers/cli';
import { sandbox } from '../helpers/sandbox';
import { filesContaining, requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';

const KEY = 'cli-key-4e5f6a7b8c9d0e1f';

function setup() {
  const dataDir = tempDir();
  const service = uniqueService();
  const env: NodeJS.ProcessEnv = { ...process.env, MENTOR_ADMIN_HOME: dataDir, MENTOR_ADMIN_KEYCHAIN_SERVICE: service };
  delete env.MENTOR_ADMIN_API_KEY;
  return { dataDir, service, env };
}
const addArgs = [
  'profile',
  'add',
  'Campus',
  '--url',
  'https://api.example.org/dm',
  '--org',
  'campus',
  '--user',
  'admin1',
];

describe('mentor-admin profile', () => {
  beforeAll(requireKeychainSession);

  it('add --key-stdin stores the key in the OS keychain and nowhere else', async () => {
    const { dataDir, service, env } = setup();
    const added = await cli([...addArgs, '--auth', 'Token', '--key-stdin', '--json'], { env, stdin: `${KEY}\n` });
    expect(added.code, added.stderr).toBe(0);
    expect(added.lines.at(-1)).toMatchObject({
      event: 'profile.added',
      name: 'Campus',
      authScheme: 'Token',
      secretSource: 'keychain',
    });
    const id = added.lines.at(-1)!.id as string;
    expect(await new AsyncEntry(service, id).getPassword()).toBe(KEY);
    expect(added.stdout + added.stderr).not.toContain(KEY);
    expect(filesContaining(dataDir, KEY)).toEqual([]);
  });

  it('lists one JSON object per profile, switches the active one and removes with the key', async () => {
    const { service, env } = setup();
    await cli([...addArgs, '--key-stdin'], { env, stdin: KEY });
    await cli(['profile', 'add', 'Second', '--url', 'http://127.0.0.1:9', '--org', 'o', '--user', 'u'], { env });
    let list = await cli(['--json', 'profile', 'list'], { env });
    expect(list.lines.map((l) => [l.name, l.active, l.hasSecret])).toEqual([
      ['Campus', true, true],
      ['Second', false, false],
    ]);
    expect((await cli(['profile', 'use', 'second'], { env })).code).toBe(0);
    list = await cli(['profile', 'list', '--json'], { env });
    expect(list.lines.find((l) => l.active)?.name).toBe('Second');
    const campusId = list.lines.find((l) => l.name === 'Campus')!.id as string;
    const removed = await cli(['profile', 'remove', 'Campus'], { env });
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain("Removed tenant 'Campus'");
    expect(await new AsyncEntry(service, campusId).getPassword()).toBeNull();
  });

  it('profile test exits 1 with what to do next when the tenant is unreachable', async () => {
    const { env } = setup();
    await cli(['profile', 'add', 'Closed', '--url', 'http://127.0.0.1:9', '--org', 'o', '--user', 'u', '--key-stdin'], {
      env,
      stdin: KEY,
    });
    const tested = await cli(['profile', 'test', 'Closed', '--json'], { env });
    expect(tested.code).toBe(1);
    const human = await cli(['profile', 'test', 'Closed'], { env });
    expect(human.stdout).toMatch(/^FAILED: /);
  });

  it('gives MENTOR_ADMIN_API_KEY to the tenant a command works on (--profile, profile test NAME, else the active one) and to no other', async () => {
    const server = await sandbox({ seed: 'none' });
    const { env } = setup();
    const at = ['--url', server.url, '--org', server.org, '--user', server.user];
    await cli(['profile', 'add', 'First', ...at], { env });
    await cli(['profile', 'add', 'Second', ...at], { env });
    const withKey = { ...env, MENTOR_ADMIN_API_KEY: server.apiKey };
    const sources = async (args: string[]) =>
      Object.fromEntries(
        (await cli([...args, 'profile', 'list', '--json'], { env: withKey })).lines.map((l) => [
          l.name,
          l.secretSource,
        ]),
      );
    expect(await sources([])).toEqual({ First: 'env', Second: 'none' });
    expect(await sources(['--profile', 'second'])).toEqual({ First: 'none', Second: 'env' });
    const tested = await cli(['profile', 'test', 'Second', '--json'], { env: withKey });
    expect(tested.lines.at(-1)).toMatchObject({ event: 'profile.tested', name: 'Second', outcome: 'ok' });
    const help = await cli(['--help'], { env });
    expect(help.stdout).toMatch(/MENTOR_ADMIN_API_KEY supplies the key of one tenant only/);
  });

  it('answers usage errors with exit 2 and plain words on stderr', async () => {
    const { env } = setup();
    const cases: [string[], RegExp][] = [
      [[], /Usage: mentor-admin/],
      [['frobnicate'], /Unknown command 'frobnicate'/],
      // A name every object has is no command either.
      [['constructor'], /Unknown command 'constructor'/],
      [['profile'], /profile needs a command/],
      [['profile', 'add', 'X', '--url', 'https://x'], /profile add needs --org/],
      [
        ['profile', 'add', 'X', '--url', 'https://x', '--org', 'o', '--user', 'u', '--auth', 'Basic'],
        /--auth must be one of/,
      ],
      [['profile', 'add', 'X', '--bogus'], /Unknown option '--bogus'/],
      [['profile', 'use', 'Nobody'], /No tenant named 'Nobody'/],
    ];
    for (const [args, message] of cases) {
      const result = await cli(args, { env });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
    }
  });

  it('reports invalid values with exit 1 and the field at fault', async () => {
    const { env } = setup();
    const result = await cli(['profile', 'add', 'X', '--url', 'ftp://x', '--org', 'o', '--user', 'u'], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/baseUrl: Base URL must be an http\(s\) address/);
    expect((await cli(['profile', 'list', '--json'], { env })).lines).toEqual([]);
  });

  it('as a real process: profile add without --key-stdin never waits for standard input', async () => {
    const { env } = setup();
    const result = await cliProcess([...addArgs, '--json'], { env, keepStdinOpen: true, timeoutMs: 15_000 });
    expect(result.timedOut).toBe(false);
    expect(result.code, result.stderr).toBe(0);
    expect(result.lines.at(-1)).toMatchObject({ name: 'Campus', hasSecret: false, secretSource: 'none' });
  });

  it('as a real process: no Secret Service gives a clear message and stores nothing', async () => {
    const { env } = setup();
    const noKeychain = { ...env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' };
    const result = await cliProcess([...addArgs, '--key-stdin'], { env: noKeychain, stdin: KEY });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/The OS keychain is not available .*MENTOR_ADMIN_API_KEY/s);
    expect(result.stderr).not.toContain(KEY);
    const list = await cli(['profile', 'list', '--json'], { env });
    expect(list.lines).toEqual([]);
  });

  it('as a real process: without a Secret Service a stored key reads as unavailable, never as "no key"', async () => {
    const { env } = setup();
    await cli([...addArgs, '--key-stdin'], { env, stdin: KEY });
    const noKeychain = { ...env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' };
    // The first keychain lookup of a process is the one that used to answer "no entry" there.
    const result = await cliProcess(['profile', 'list', '--json'], { env: noKeychain });
    expect(result.code, result.stderr).toBe(0);
    expect(result.lines).toMatchObject([{ name: 'Campus', hasSecret: false, secretSource: 'unavailable' }]);
  });
});
