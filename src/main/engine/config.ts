/**
 * The engine's configuration, parsed once when it starts: the switches its shell chose and the MENTOR_ADMIN_*
 * variables of its environment. Areas read plain switches from here; nothing else in the engine reads the environment
 * or asks which shell hosts it.
 */
import { z } from 'zod';
import { sandboxEnvironment } from './sandbox';
import { DEFAULT_KEYCHAIN_SERVICE, secretFromEnv } from './secrets';

export type Shell = 'electron' | 'browser' | 'cli' | 'test';

const Switches = z.object({
  /** The local sandbox platform: 'auto' starts it with the engine, 'lazy' when a call needs it, 'off' never. */
  sandbox: z.enum(['auto', 'lazy', 'off']).default('off'),
  /** Scheduled exports run on a timer while the engine runs. */
  scheduler: z.boolean().default(false),
  /** Announce jobs that other processes (the CLI, a background run) run on the same data folder. */
  followOtherProcesses: z.boolean().default(false),
  /** Resume unfinished jobs at start. */
  resumeJobs: z.boolean().default(true),
  /** Start the local sandbox before answering when no tenant is active yet (commands that need one). */
  ensureTenant: z.boolean().default(false),
});
export type EngineSwitches = z.infer<typeof Switches>;

/** The switches of each shell. Given none, an engine starts no sandbox and no scheduler (what tests want). */
export function shellPreset(shell: Shell): { shell: Shell } & Partial<EngineSwitches> {
  switch (shell) {
    case 'electron':
    case 'browser':
      return { shell, sandbox: 'auto', scheduler: true, followOtherProcesses: true };
    case 'cli':
      return { shell, sandbox: 'lazy' };
    case 'test':
      return { shell };
  }
}

/** Unset and empty are the same for every variable (`VAR= command` clears one in a shell). */
const variable = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());
const wholeNumber = (min: number) =>
  z
    .string()
    .regex(/^\d+$/, { error: (issue) => `must be a whole number (it is '${String(issue.input)}')` })
    .transform(Number)
    .refine((n) => n >= min, { error: `must be at least ${min}` });

const onOff = z.enum(['on', 'off'], { error: (issue) => `must be on or off (it is '${String(issue.input)}')` });

/** The variables the engine reads (README, "Environment"); a malformed value stops the start with its name. */
const Environment = z.object({
  MENTOR_ADMIN_API_KEY: z.string().optional(),
  MENTOR_ADMIN_KEYCHAIN_SERVICE: variable(z.string()),
  /** off: never start the local sandbox; on: as the shell chose. */
  MENTOR_ADMIN_SANDBOX: variable(onOff),
  /** Scheduled exports run (on) or not (off), whatever the shell chose. */
  MENTOR_ADMIN_SCHEDULER: variable(onOff),
  MENTOR_ADMIN_SCHEDULER_TICK_MS: variable(wholeNumber(50)),
  MENTOR_ADMIN_INVITE_CHUNK: variable(wholeNumber(1)),
  MENTOR_ADMIN_INVITE_MAX_CHUNK: variable(wholeNumber(1)),
  MENTOR_ADMIN_EXPORT_DIR: variable(z.string()),
  MENTOR_ADMIN_MAX_CONCURRENCY: variable(wholeNumber(1)),
  MENTOR_ADMIN_DEBUG: variable(z.string()),
});

/** What the engine's areas are configured with. */
export interface EngineConfig extends EngineSwitches {
  dataDir: string;
  /** The Electron-ABI better-sqlite3 build, when the engine runs inside Electron (worker threads need it too). */
  nativeBinding: string | undefined;
  /** How often the export scheduler looks for due schedules. */
  schedulerTickMs: number;
  /** Chunk sizes of the invite job, when pinned (tests and benchmarks). */
  invite: { chunkSize: number | undefined; maxChunk: number | undefined };
  /** The default export folder, when the environment names one. */
  exportDir: string | undefined;
  /**
   * The most requests at once a job sends a tenant when it names no concurrency of its own: it starts at 4 and grows
   * towards this while the tenant answers fast (jobs/adaptive.ts); 4 or less keeps every job at 4.
   */
  adaptiveConcurrency: number;
  /** Echo the engine's log to stderr. */
  echoLog: boolean;
  keychainService: string;
  /** The profile MENTOR_ADMIN_API_KEY serves, by name or id (the CLI's `--profile`). */
  apiKeyFor: string | undefined;
  /** The part of the environment a local sandbox process inherits. */
  sandboxEnvironment: Record<string, string>;
}

export interface ConfigInput extends Partial<EngineSwitches> {
  dataDir: string;
  /** Default: this process's environment (the only place the engine reads it). */
  env?: NodeJS.ProcessEnv | undefined;
  nativeBinding?: string | undefined;
  keychainService?: string | undefined;
  apiKeyFor?: string | undefined;
}

export class EngineConfigError extends Error {
  override name = 'EngineConfigError';
}

const DEFAULT_SCHEDULER_TICK_MS = 30_000;
/** Enough to keep small uploads flowing across a 100 ms round trip; a tenant that takes fewer says so by throttling. */
const DEFAULT_ADAPTIVE_CONCURRENCY = 16;

/**
 * The configuration, and MENTOR_ADMIN_API_KEY apart from it (a secret: it goes to the profiles, not to every area).
 * The environment overrides a shell's switches where it is the user's word: MENTOR_ADMIN_SANDBOX=off and
 * MENTOR_ADMIN_SCHEDULER=on|off.
 */
export function parseEngineConfig(input: ConfigInput): { config: EngineConfig; apiKey: string | null } {
  const env = input.env ?? process.env;
  const parsed = Environment.safeParse(env);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    throw new EngineConfigError(`${String(issue!.path[0])} ${issue!.message}`);
  }
  const vars = parsed.data;
  const switches = Switches.safeParse({
    sandbox: input.sandbox,
    scheduler: input.scheduler,
    followOtherProcesses: input.followOtherProcesses,
    resumeJobs: input.resumeJobs,
    ensureTenant: input.ensureTenant,
  });
  if (!switches.success) {
    const [issue] = switches.error.issues;
    throw new EngineConfigError(`The engine option ${String(issue!.path[0])}: ${issue!.message}`);
  }
  return {
    config: {
      ...switches.data,
      ...(vars.MENTOR_ADMIN_SANDBOX === 'off' && { sandbox: 'off' as const }),
      ...(vars.MENTOR_ADMIN_SCHEDULER && { scheduler: vars.MENTOR_ADMIN_SCHEDULER === 'on' }),
      dataDir: input.dataDir,
      nativeBinding: input.nativeBinding,
      schedulerTickMs: vars.MENTOR_ADMIN_SCHEDULER_TICK_MS ?? DEFAULT_SCHEDULER_TICK_MS,
      invite: { chunkSize: vars.MENTOR_ADMIN_INVITE_CHUNK, maxChunk: vars.MENTOR_ADMIN_INVITE_MAX_CHUNK },
      exportDir: vars.MENTOR_ADMIN_EXPORT_DIR,
      adaptiveConcurrency: vars.MENTOR_ADMIN_MAX_CONCURRENCY ?? DEFAULT_ADAPTIVE_CONCURRENCY,
      echoLog: vars.MENTOR_ADMIN_DEBUG !== undefined,
      keychainService: input.keychainService ?? vars.MENTOR_ADMIN_KEYCHAIN_SERVICE ?? DEFAULT_KEYCHAIN_SERVICE,
      apiKeyFor: input.apiKeyFor,
      sandboxEnvironment: sandboxEnvironment(env),
    },
    apiKey: secretFromEnv(env),
  };
}
