import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import {
  BridgeCallError,
  type CallInput,
  type CallName,
  type CallOutput,
  type EventName,
  type EventPayload,
} from '../../shared/contract';
import { dispatch, type Handlers } from './dispatch';
import { createFileLog, type Log } from './log';
import { testConnection } from './platform/probe';
import { Profiles } from './profiles/profiles';
import { createKeychain, DEFAULT_KEYCHAIN_SERVICE, type SecretStore } from './secrets/keychain';
import { SettingsStore } from './settings/settings';
import { openDatabase, schemaVersion } from './store/database';
import type { SandboxLaunchOptions } from './sandbox/launcher';
import { SandboxManager } from './sandbox/manager';
import type { Engine, EngineEventListener, Shell } from './types';

export type { Engine, Shell } from './types';

export interface EngineOptions {
  dataDir: string;
  shell: Shell;
  env?: NodeJS.ProcessEnv;
  /** Keychain service name; tests use their own so they never touch a user's entries. */
  keychainService?: string;
  secrets?: SecretStore;
  /** Path of an Electron-ABI better-sqlite3 build (see README: native modules). */
  nativeBinding?: string;
  log?: Log;
  version?: string;
  /**
   * The local sandbox platform: 'auto' starts it with the engine (app, browser mode), 'lazy' when a call needs it
   * (CLI), 'off' never (tests that bring their own). MENTOR_ADMIN_SANDBOX=off turns it off everywhere.
   */
  sandbox?: 'auto' | 'lazy' | 'off';
  sandboxLaunch?: Partial<SandboxLaunchOptions>;
}

export const APP_NAME = 'Mentor Admin';
export const APP_VERSION = '0.1.0';

/** Composes the engine: one database, one keychain, one service per area, one contract. */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  const env = options.env ?? process.env;
  const log = options.log ?? createFileLog(options.dataDir, env);
  const db = openDatabase(join(options.dataDir, 'mentor-admin.sqlite'), {
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  const secrets =
    options.secrets ??
    createKeychain(options.keychainService ?? env.MENTOR_ADMIN_KEYCHAIN_SERVICE ?? DEFAULT_KEYCHAIN_SERVICE);
  const profiles = new Profiles({ db, secrets, env });
  const settings = new SettingsStore(db);
  const emitter = new EventEmitter();
  const emit = <E extends EventName>(name: E, payload: EventPayload<E>) => emitter.emit('event', name, payload);

  const sandboxMode =
    env.MENTOR_ADMIN_SANDBOX === 'off'
      ? 'off'
      : (options.sandbox ?? (options.shell === 'test' ? 'off' : options.shell === 'cli' ? 'lazy' : 'auto'));
  const sandbox =
    sandboxMode === 'off'
      ? null
      : new SandboxManager({
          profiles,
          dataDir: options.dataDir,
          log,
          ...(options.sandboxLaunch ? { launch: options.sandboxLaunch } : {}),
          onChange: (id) => emit('profiles.changed', { reason: 'updated', id }),
        });
  if (sandboxMode === 'auto') sandbox!.ensure().catch(() => {});
  /** A sandbox profile needs its server running before anything talks to it. */
  const ready = async (profileId: string) => {
    if (sandbox && profiles.isSandbox(profileId)) await sandbox.ensure().catch(() => {});
  };

  const handlers: Handlers = {
    'app.info': async () => ({
      name: APP_NAME,
      version: options.version ?? APP_VERSION,
      shell: options.shell,
      dataDir: options.dataDir,
      platform: `${process.platform}-${process.arch}`,
      node: process.versions.node,
      schemaVersion: schemaVersion(db),
      keychain: await secrets.status(),
      sandbox: sandbox?.state() ?? { state: 'off' as const },
    }),
    'profiles.list': () => profiles.list(),
    'profiles.get': ({ id }) => profiles.get(id),
    'profiles.add': async (input) => {
      const profile = await profiles.add(input);
      emit('profiles.changed', { reason: 'added', id: profile.id });
      return profile;
    },
    'profiles.update': async (input) => {
      const profile = await profiles.update(input);
      emit('profiles.changed', { reason: 'updated', id: profile.id });
      return profile;
    },
    'profiles.remove': async ({ id }) => {
      await profiles.remove(id);
      emit('profiles.changed', { reason: 'removed', id });
      return { ok: true as const };
    },
    'profiles.test': async ({ id }) => {
      await ready(id);
      const connection = await profiles.connection(id);
      return testConnection(connection);
    },
    'profiles.setActive': async ({ id }) => {
      const profile = await profiles.setActive(id);
      emit('profiles.changed', { reason: 'activated', id });
      return profile;
    },
    'settings.get': () => settings.get(),
    'settings.set': (patch) => {
      const next = settings.set(patch);
      emit('settings.changed', next);
      return next;
    },
  };

  let closed = false;
  return {
    call: (name, input) => dispatch(handlers, name, input, log),
    async invoke<N extends CallName>(name: N, input: CallInput<N>): Promise<CallOutput<N>> {
      const result = await dispatch(handlers, name, input, log);
      if (!result.ok) throw new BridgeCallError(result.error);
      return result.value as CallOutput<N>;
    },
    onEvent(listener: EngineEventListener) {
      const wrapped = (name: EventName, payload: EventPayload<EventName>) => listener(name, payload);
      emitter.on('event', wrapped);
      return () => emitter.off('event', wrapped);
    },
    async close() {
      if (closed) return;
      closed = true;
      emitter.removeAllListeners();
      await sandbox?.stop();
      db.close();
    },
  };
}
