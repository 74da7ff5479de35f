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
import { parseEngineConfig, type EngineSwitches, type Shell } from './config';
import type { EngineServices } from './context';
import { composeAreas, type AreaName } from './areas';
import { mentorCopyKind } from './mentor-copy';
import { mentorTransferHandlers } from './mentor-transfer';
import { dispatch, type Handlers } from './dispatch';
import { EngineError } from './errors';
import { followJobsElsewhere, isThrottleEvent, jobHandlers, JobJournal, JobRunner } from './jobs';
import { createFileLog, logsWritten, type Log } from './log';
import { testConnection } from './platform';
import { ensurePrivateDir } from './private-files';
import { Profiles, ProfileStore } from './profiles';
import { SandboxManager, type SandboxLaunchOptions } from './sandbox';
import { createKeychain, type SecretStore } from './secrets';
import { SettingsStore } from './settings';
import { openDatabase, schemaVersion, startCheckpointer, type Checkpointer } from './store';
import { TenantClients } from './tenants';
import { TenantReachability } from './reach';
import type { Engine, EngineEventListener } from './types';

export type { Engine } from './types';
export type { AreaName } from './areas';
export { EngineConfigError, shellPreset, type EngineConfig, type EngineSwitches, type Shell } from './config';

/**
 * How a shell starts the engine: where its data is, what it is called in app.info, and plain switches (sandbox,
 * scheduler, followOtherProcesses, resumeJobs, ensureTenant; `shellPreset(shell)` has each shell's). Without them
 * the engine starts no sandbox and no scheduler and follows no other process; it resumes unfinished jobs.
 */
export interface EngineOptions extends Partial<EngineSwitches> {
  dataDir: string;
  /** The shell hosting the engine, as app.info reports it; nothing in the engine branches on it. */
  shell: Shell;
  /** The environment whose MENTOR_ADMIN_* variables are read once, at the start (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Keychain service name; tests use their own so they never touch a user's entries. */
  keychainService?: string;
  secrets?: SecretStore;
  /** Path of an Electron-ABI better-sqlite3 build (see README: native modules). */
  nativeBinding?: string;
  log?: Log;
  version?: string;
  sandboxLaunch?: Partial<SandboxLaunchOptions>;
  /**
   * The one profile MENTOR_ADMIN_API_KEY serves, by name or id (the CLI's `--profile`). Default: the profile active
   * when the engine starts, or the first other than the local sandbox to become active after it.
   */
  apiKeyFor?: string;
  /**
   * The areas to compose (default: all). A command-line command names the ones it calls, so it does not load the
   * code of the others; their calls answer that they are absent.
   */
  areas?: readonly AreaName[];
}

export const APP_NAME = 'Mentor Admin';
export const APP_VERSION = '0.1.0';

/** Composes the engine: one database, one keychain, one service per area, one contract. */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  const { config, apiKey } = parseEngineConfig(options);
  ensurePrivateDir(config.dataDir);
  const log = options.log ?? createFileLog(config.dataDir, { echo: config.echoLog });
  const db = openDatabase(join(config.dataDir, 'mentor-admin.sqlite'), {
    ...(config.nativeBinding ? { nativeBinding: config.nativeBinding } : {}),
  });
  const secrets = options.secrets ?? createKeychain(config.keychainService);
  const profiles = new Profiles({ store: new ProfileStore(db), secrets, envKey: apiKey, apiKeyFor: config.apiKeyFor });
  const settings = new SettingsStore(db);
  const emitter = new EventEmitter();
  const emit = <E extends EventName>(name: E, payload: EventPayload<E>) => emitter.emit('event', name, payload);

  const sandbox =
    config.sandbox === 'off'
      ? null
      : new SandboxManager({
          profiles,
          dataDir: config.dataDir,
          parentEnv: config.sandboxEnvironment,
          log,
          ...(options.sandboxLaunch ? { launch: options.sandboxLaunch } : {}),
          onChange: (id) => emit('profiles.changed', { reason: 'updated', id }),
        });
  if (config.sandbox === 'auto') sandbox!.ensure().catch(() => {});
  // A fresh machine with no tenant yet: the local sandbox is the tenant, so commands work with no account.
  else if (config.ensureTenant && sandbox && !profiles.activeId()) await sandbox.ensure().catch(() => {});
  /** A sandbox profile needs its server running before anything talks to it. */
  const ready = async (profileId: string) => {
    if (sandbox && profiles.isSandbox(profileId)) await sandbox.ensure().catch(() => {});
  };
  const clients = new TenantClients({
    profiles,
    log,
    ready,
    onRetry: (profileId, event) => {
      if (isThrottleEvent(event)) runner.throttled(profileId);
    },
    onReach: (profileId, answered, error) => reach.observe(profileId, answered, error),
  });
  const reach = new TenantReachability({ emit, platform: (id) => clients.get(id), profiles });
  // Started at the first bulk write rather than with every engine: a worker thread costs a moment to start.
  let checkpointer: Checkpointer | null = null;
  const bulkWrites = () => {
    checkpointer ??= startCheckpointer(db, { nativeBinding: config.nativeBinding, log });
  };
  const journal = new JobJournal(db);
  const runner = new JobRunner({
    journal,
    clients: (id) => clients.get(id),
    emit,
    log,
    beforeBulkRun: bulkWrites,
    adaptiveConcurrency: config.adaptiveConcurrency,
    waitLimitMinutes: () => settings.get().jobWaitLimitMinutes,
  });
  const services: EngineServices = {
    config,
    journal,
    runner,
    profiles,
    settings,
    platform: (profileId) => clients.get(profileId),
    emit,
    log,
    bulkWrites,
    tenant: (profileId) => {
      const id = profileId ?? profiles.activeId();
      if (!id) throw new EngineError('validation', 'No tenant is active: add one in Settings → Tenants');
      return id;
    },
  };
  // Each area gets the services and its own stores, opened on the one database: never the database itself. Only the
  // areas asked for are loaded (a command-line command names those it calls).
  const { mentors, training, analytics, invitations, tickets, resources, review } = await composeAreas(
    services,
    { db, journal, config, log },
    options.areas,
  );
  const areas = [mentors, training, analytics, invitations, tickets, resources, review];
  const elsewhere = config.followOtherProcesses ? followJobsElsewhere({ journal, runner, emit }) : null;
  emitter.on('event', (name: EventName, payload: EventPayload<EventName>) => {
    if (name === 'jobs.changed') {
      const { id, state } = payload as EventPayload<'jobs.changed'>;
      elsewhere?.seen(id, state);
    }
    if (name === 'settings.changed') runner.waitLimitChanged();
    if (name === 'tenants.reachChanged') {
      const { profileId, state, previous } = payload as EventPayload<'tenants.reachChanged'>;
      // Back in reach: what waits on a timer for this tenant (jobs, the ticket index) tries again now.
      if (state === 'reachable' && previous === 'unreachable') {
        runner.wakeWaiting(profileId);
        for (const area of areas) area.answeredAgain?.(profileId);
      }
    }
    if (name !== 'profiles.changed') return;
    const { id, reason } = payload as EventPayload<'profiles.changed'>;
    clients.invalidate(id);
    // A new address or key may reach where the old did not (or not reach where it did): learnt again.
    if (reason === 'updated' || reason === 'removed') reach.forget(id);
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
      dataDir: config.dataDir,
      platform: `${process.platform}-${process.arch}`,
      node: process.versions.node,
      schemaVersion: schemaVersion(db),
      keychain: await secrets.status(),
      envKey: apiKey ? { profileId: profiles.envKeyFor() } : null,
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
    'tenants.reach': ({ profileId }) => reach.readChecking(services.tenant(profileId)),
    'tenants.probe': ({ profileId }) => reach.probe(services.tenant(profileId)),
    'settings.get': () => settings.get(),
    'settings.set': (patch) => {
      const next = settings.set(patch);
      emit('settings.changed', next);
      return next;
    },
    ...jobHandlers({ runner, journal, dataDir: config.dataDir }),
    ...mentors.handlers,
    ...training.handlers,
    ...analytics.handlers,
    ...invitations.handlers,
    ...tickets.handlers,
    ...resources.handlers,
    ...review.handlers,
    ...mentorTransferHandlers(invokeHandler, services),
  };
  /** A call from inside the engine (a copy is made of the areas' own calls): parsed and answered like any other. */
  async function invokeHandler<N extends CallName>(name: N, input: CallInput<N>): Promise<CallOutput<N>> {
    const result = await dispatch(handlers, name, input, log);
    if (!result.ok)
      throw new EngineError(result.error.code, result.error.message, {
        ...(result.error.issues ? { issues: result.error.issues } : {}),
        ...(result.error.status ? { status: result.error.status } : {}),
      });
    return result.value as CallOutput<N>;
  }
  runner.register(
    mentorCopyKind({
      invoke: invokeHandler,
      profiles,
      platform: services.platform,
      log,
      documentsChanged: (profileId, mentor) => mentors.documentsChanged?.(profileId, mentor),
    }),
  );
  if (config.resumeJobs) runner.resumeAll();

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
