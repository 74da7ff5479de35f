import { AUTH_SCHEMES, type Profile } from '../../shared/contract';
import type { Engine } from '../engine';
import { commandArgs, type Globals } from './command';
import { readAll, UsageError, type CliIo, type Output } from './io';

export const PROFILE_HELP = `Tenant connections:
  profile add NAME --url URL --org ORG --user USERNAME [--auth ${AUTH_SCHEMES.join('|')}] [--key-stdin] [--activate]
  profile list
  profile remove NAME
  profile test NAME
  profile use NAME

--key-stdin reads the key from standard input and stores it in the OS keychain. Without it no key is stored.
MENTOR_ADMIN_API_KEY supplies the key of one tenant only, never of every one: the tenant --profile names (for
'profile test NAME', that NAME), else the active one. It is read, never stored.`;

export async function resolveProfile(engine: Engine, nameOrId: string): Promise<Profile> {
  const profiles = await engine.invoke('profiles.list', {});
  const found =
    profiles.find((p) => p.id === nameOrId) ?? profiles.find((p) => p.name.toLowerCase() === nameOrId.toLowerCase());
  if (!found) {
    const names = profiles.map((p) => p.name).join(', ') || 'none yet';
    throw new UsageError(`No tenant named '${nameOrId}' (known: ${names})`);
  }
  return found;
}

/** The `profileId` of a command's calls: the tenant `--profile` names, or none for the active one. */
export async function profileIdOf(engine: Engine, globals: Globals): Promise<string | undefined> {
  return globals.profile ? (await resolveProfile(engine, globals.profile)).id : undefined;
}

function describe(profile: Profile): string {
  const key = {
    keychain: 'key in keychain',
    env: 'key from MENTOR_ADMIN_API_KEY, for this tenant only',
    session: 'key for this session only',
    sandbox: 'local sandbox',
    none: 'no key',
    unavailable: 'keychain unavailable',
  }[profile.secretSource];
  return `${profile.isActive ? '*' : ' '} ${profile.name}  ${profile.baseUrl}  org=${profile.org}  user=${profile.username}  ${profile.authScheme}  (${key})`;
}

/** A profile as the CLI prints it: never a secret, only whether there is one. */
const publicFields = (p: Profile) => ({
  id: p.id,
  name: p.name,
  baseUrl: p.baseUrl,
  org: p.org,
  username: p.username,
  authScheme: p.authScheme,
  active: p.isActive,
  hasSecret: p.hasSecret,
  secretSource: p.secretSource,
});

export async function runProfileCommand(engine: Engine, args: string[], out: Output, io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'add': {
      const { values, positionals } = commandArgs(rest, {
        url: { type: 'string' },
        org: { type: 'string' },
        user: { type: 'string' },
        auth: { type: 'string' },
        'key-stdin': { type: 'boolean' },
        activate: { type: 'boolean' },
      });
      const name = positionals[0];
      if (!name || positionals.length > 1) throw new UsageError('profile add takes exactly one NAME');
      for (const flag of ['url', 'org', 'user'] as const) {
        if (!values[flag]) throw new UsageError(`profile add needs --${flag}`);
      }
      if (values.auth && !(AUTH_SCHEMES as readonly string[]).includes(values.auth)) {
        throw new UsageError(`--auth must be one of ${AUTH_SCHEMES.join(', ')}`);
      }
      // Only ever read stdin when asked: a script without --key-stdin must never block here.
      const secret = values['key-stdin'] ? (await readAll(io.stdin)).trim() : undefined;
      if (values['key-stdin'] && !secret) throw new UsageError('--key-stdin was given but standard input was empty');
      const profile = await engine.invoke('profiles.add', {
        name,
        baseUrl: values.url!,
        org: values.org!,
        username: values.user!,
        ...(values.auth ? { authScheme: values.auth as Profile['authScheme'] } : {}),
        ...(secret ? { secret } : {}),
        ...(values.activate ? { makeActive: true } : {}),
      });
      out.record(
        { event: 'profile.added', ...publicFields(profile) },
        `Added tenant '${profile.name}'${profile.secretSource === 'keychain' ? ' (key stored in the OS keychain)' : ''}.`,
      );
      return 0;
    }
    case 'list': {
      if (rest.length) throw new UsageError('profile list takes no arguments');
      const profiles = await engine.invoke('profiles.list', {});
      if (!profiles.length)
        out.text('No tenants yet. Add one with: mentor-admin profile add NAME --url URL --org ORG --user USERNAME');
      for (const profile of profiles) out.record(publicFields(profile), describe(profile));
      return 0;
    }
    case 'remove':
    case 'test':
    case 'use': {
      if (rest.length !== 1) throw new UsageError(`profile ${sub} takes exactly one NAME`);
      const profile = await resolveProfile(engine, rest[0]!);
      if (sub === 'remove') {
        await engine.invoke('profiles.remove', { id: profile.id });
        out.record(
          { event: 'profile.removed', id: profile.id, name: profile.name },
          `Removed tenant '${profile.name}' and its stored key.`,
        );
        return 0;
      }
      if (sub === 'use') {
        await engine.invoke('profiles.setActive', { id: profile.id });
        out.record(
          { event: 'profile.activated', id: profile.id, name: profile.name },
          `'${profile.name}' is now the active tenant.`,
        );
        return 0;
      }
      const result = await engine.invoke('profiles.test', { id: profile.id });
      out.record(
        { event: 'profile.tested', name: profile.name, ...result },
        `${result.ok ? 'OK' : 'FAILED'}: ${result.message}\n${result.hint}`,
      );
      return result.ok ? 0 : 1;
    }
    default:
      throw new UsageError(
        sub ? `Unknown profile command '${sub}'` : 'profile needs a command: add, list, remove, test or use',
      );
  }
}
