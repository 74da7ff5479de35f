import { join } from 'node:path';
import type { Log } from '../log';
import type { Profiles } from '../profiles';
import { launchSandbox, type RunningSandbox, type SandboxLaunchOptions } from './launcher';

export const SANDBOX_PROFILE_NAME = 'Local sandbox';

export type SandboxState =
  { state: 'off' } | { state: 'starting' } | { state: 'running'; url: string } | { state: 'failed'; message: string };

/**
 * Runs the local sandbox platform for the app and keeps the "Local sandbox" profile pointing at it. Its key is
 * held in memory only: the sandbox prints it at every start, so nothing needs the keychain.
 */
export class SandboxManager {
  private running: RunningSandbox | null = null;
  private starting: Promise<RunningSandbox> | null = null;
  private status: SandboxState = { state: 'off' };

  constructor(
    private readonly deps: {
      profiles: Profiles;
      dataDir: string;
      /** The environment the sandbox inherits (its allowlisted part). */
      parentEnv: Record<string, string>;
      log: Log;
      launch?: Partial<SandboxLaunchOptions>;
      onChange?: (profileId: string) => void;
    },
  ) {
    deps.profiles.setSandboxSecretProvider(() => this.running?.apiKey ?? null);
  }

  state(): SandboxState {
    return this.status;
  }

  /** Starts the sandbox once; later calls share the same start. */
  ensure(): Promise<RunningSandbox> {
    if (this.running) return Promise.resolve(this.running);
    this.starting ??= this.start().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private async start(): Promise<RunningSandbox> {
    this.status = { state: 'starting' };
    try {
      const sandbox = await launchSandbox({
        dataDir: join(this.deps.dataDir, 'sandbox'),
        parentEnv: this.deps.parentEnv,
        log: this.deps.log,
        ...this.deps.launch,
      });
      this.running = sandbox;
      this.status = { state: 'running', url: sandbox.url };
      const profileId = this.deps.profiles.upsertSandboxProfile(SANDBOX_PROFILE_NAME, sandbox);
      this.deps.onChange?.(profileId);
      void sandbox.exited.then((code) => {
        if (this.running !== sandbox) return;
        this.running = null;
        this.status = { state: 'failed', message: `The local sandbox stopped unexpectedly (exit ${code})` };
        this.deps.log(`sandbox exited with ${code}`);
      });
      return sandbox;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.status = { state: 'failed', message };
      this.deps.log(`sandbox failed to start: ${message}`);
      throw error;
    }
  }

  async stop(): Promise<void> {
    const sandbox = this.running ?? (await this.starting?.catch(() => null)) ?? null;
    this.running = null;
    await sandbox?.stop();
    this.status = { state: 'off' };
  }
}
