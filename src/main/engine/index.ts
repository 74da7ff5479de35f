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
import { createFileLog, logsWritten, type Log } from './log';
import { ensurePrivateDir } from './private-files';
import { testConnection } from './platform/probe';
import { Profiles } from './profiles/profiles';
import { createKeychain, DEFAULT_KEYCHAIN_SERVICE, secretFromEnv, type SecretStore } from './secrets/keychain';
import { SettingsStore } from './settings/settings';
import { openDatabase, schemaVersion } from './store/database';
import { jobHandlers, type ItemReport } from './jobs/handlers';
import { followJobsElsewhere } from './jobs/elsewhere';
import { JobRunner } from './jobs/runner';
import { startCheckpointer, type Checkpointer } from './store/checkpointer';
import type { EngineContext } from './context';
import { EngineError } from './errors';
import { mentorsArea } from './mentors';
import { trainArea } from './train';
import { analyticsArea } from './analytics';
import { invitationsArea } from './invitations';
import { ticketsArea } from './tickets';
import { resourcesArea } from './resources';
import { JobJournal } from './jobs/journal';
import type { SandboxLaunchOptions } from './sandbox/launcher';
import { TenantClients } from './tenants';
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
  /** Start the local sandbox before answering when no tenant is active yet (CLI commands that need one). */
  ensureTenant?: boolean;
  /** Resume unfinished jobs at start (default); the CLI's `jobs` commands decide for themselves. */
  resumeJobs?: boolean;
  /** Announce jobs that other processes run on the same data folder (default: in the app, not the CLI or tests). */
  followJobsElsewhere?: boolean;
  /**
   * The one profile MENTOR_ADMIN_API_KEY serves, by name or id (the CLI's `--profile`). Default: the profile active
   * when the engine starts, or the first other than the local sandbox to become active after it.
   */
  apiKeyFor?: string;
}

export const APP_NAME = 'Mentor Admin';
export const APP_VERSION = '0.1.0';

/** Composes the engine: one database, one keychain, one service per area, one contract. */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  const env = options.env ?? process.env;
  ensurePrivateDir(options.dataDir);
  const log = options.log ?? createFileLog(options.dataDir, env);
  const db = openDatabase(join(options.dataDir, 'mentor-admin.sqlite'), {
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  const secrets =
    options.secrets ??
    createKeychain(options.keychainService ?? env.MENTOR_ADMIN_KEYCHAIN_SERVICE ?? DEFAULT_KEYCHAIN_SERVICE);
  const profiles = new Profiles({ db, secrets, env, apiKeyFor: options.apiKeyFor });
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
  // A fresh machine with no tenant yet: the local sandbox is the tenant, so commands work with no account.
  else if (options.ensureTenant && sandbox && !profiles.activeId()) await sandbox.ensure().catch(() => {});
  /** A sandbox profile needs its server running before anything talks to it. */
  const ready = async (profileId: string) => {
    if (sandbox && profiles.isSandbox(profileId)) await sandbox.ensure().catch(() => {});
  };
  const clients = new TenantClients({ profiles, log, ready });
  // Started at the first bulk write rather than with every engine: a worker thread costs a moment to start.
  let checkpointer: Checkpointer | null = null;
  const bulkWrites = () => {
    checkpointer ??= startCheckpointer(db, { nativeBinding: options.nativeBinding, log });
  };
  const journal = new JobJournal(db);
  const runner = new JobRunner({
    journal,
    clients: (id) => clients.get(id),
    emit,
    log,
    beforeBulkRun: bulkWrites,
    waitLimitMinutes: () => settings.get().jobWaitLimitMinutes,
  });
  const context: EngineContext = {
    db,
    dataDir: options.dataDir,
    shell: options.shell,
    env,
    nativeBinding: options.nativeBinding,
    profiles,
    settings,
    clients,
    jobs: { runner, journal },
    emit,
    log,
    bulkWrites,
    tenant: (profileId) => {
      const id = profileId ?? profiles.activeId();
      if (!id) throw new EngineError('validation', 'No tenant is active: add one in Settings → Tenants');
      return id;
    },
  };
  const mentors = mentorsArea(context);
  const training = trainArea(context, mentors);
  const analytics = analyticsArea(context);
  const invitations = invitationsArea(context);
  const tickets = ticketsArea(context);
  const resources = resourcesArea(context);
  const areas = [mentors, training, analytics, invitations, tickets, resources];
  const reports = Object.assign({}, ...areas.map((area) => area.reports ?? {})) as Record<string, ItemReport>;
  for (const area of areas) for (const kind of area.kinds ?? []) runner.register(kind);
  const elsewhere =
    (options.followJobsElsewhere ?? (options.shell === 'electron' || options.shell === 'browser'))
      ? followJobsElsewhere({ journal, runner, emit })
      : null;
  emitter.on('event', (name: EventName, payload: EventPayload<EventName>) => {
    if (name === 'jobs.changed') {
      const { id, state } = payload as EventPayload<'jobs.changed'>;
      elsewhere?.seen(id, state);
    }
    if (name === 'settings.changed') runner.waitLimitChanged();
    if (name !== 'profiles.changed') return;
    const { id } = payload as EventPayload<'profiles.changed'>;
    clients.invalidate(id);
    runner.credentialsChanged(id);
  });

  /** A test with the key the profile would use (or the one typed); an unreadable keychain still tests the address. */
  const tryConnection = async (input: CallInput<'profiles.try'>) => {
    const { connection, keyUnreadable } = await profiles.trial(input);
    const result = await testConnection(connection);
    if (!keyUnreadable) return result;
    return {
      ...result,
      message: `${result.message} The OS keychain could not be read, so the stored key was not sent.`,
      hint: 'Enter the key in Edit and keep it for this session only, or unlock the OS keychain; then test again.',
    };
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
      envKey: secretFromEnv(env) ? { profileId: profiles.envKeyFor() } : null,
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
      const profile = await profiles.get(id);
      return tryConnection({
        id,
        baseUrl: profile.baseUrl,
        org: profile.org,
        username: profile.username,
        authScheme: profile.authScheme,
      });
    },
    'profiles.try': async (input) => {
      if (input.id) await ready(input.id);
      return tryConnection(input);
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
    ...jobHandlers({ runner, journal, dataDir: options.dataDir, reports }),
    ...mentors.handlers,
    ...training.handlers,
    ...analytics.handlers,
    ...invitations.handlers,
    ...tickets.handlers,
    ...resources.handlers,
  };
  if (options.resumeJobs !== false) runner.resumeAll();

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
      elsewhere?.stop();
      await runner.close();
      for (const area of areas) await area.close?.();
      emitter.removeAllListeners();
      await sandbox?.stop();
      await checkpointer?.stop();
      journal.flush();
      db.close();
      await logsWritten();
    },
  };
}
