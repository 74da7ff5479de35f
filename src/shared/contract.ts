/**
 * The one contract between the renderer (or CLI, or tests) and the engine.
 * Every call and every event is declared here once, with zod schemas for what goes in and what comes out.
 * Transports (Electron IPC, WebSocket, in-process) only move `{ name, input }` and a `BridgeResult` envelope.
 */
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------------------------
// Domain schemas
// ---------------------------------------------------------------------------------------------------------------

export const AUTH_SCHEMES = ['Api-Key', 'Api-Token', 'Token', 'Bearer'] as const;
export const AuthScheme = z.enum(AUTH_SCHEMES);
export type AuthScheme = z.infer<typeof AuthScheme>;

export const Theme = z.enum(['system', 'light', 'dark']);
export type Theme = z.infer<typeof Theme>;

/** An http(s) base URL that may carry a path prefix such as `/dm`; normalised without a trailing slash. */
export const BaseUrl = z
  .string()
  .trim()
  .min(1, 'Base URL is required')
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash && !url.username;
    } catch {
      return false;
    }
  }, 'Base URL must be an http(s) address without query, fragment or credentials, e.g. https://api.example.org/dm')
  .transform((value) => value.replace(/\/+$/, ''));

/** A single path segment: the tenant key or the username both travel inside API paths. */
const PathToken = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .max(255, `${label} is too long`)
    .regex(/^[^/?#\s]+$/, `${label} must not contain spaces, '/', '?' or '#'`);

export const ProfileName = z.string().trim().min(1, 'Name is required').max(100, 'Name is at most 100 characters');

/** Write-only: a secret travels from the UI or CLI to the engine, never back. */
export const SecretValue = z
  .string()
  .trim()
  .min(1, 'The key is empty')
  .max(8192, 'The key is too long')
  .regex(/^[\x21-\x7e]+$/, 'The key must be printable ASCII without spaces');

export const ProfileFields = z.object({
  name: ProfileName,
  baseUrl: BaseUrl,
  org: PathToken('Org (tenant key)'),
  username: PathToken('Username'),
  authScheme: AuthScheme.default('Api-Key'),
});

export const ProfileAddInput = ProfileFields.extend({
  secret: SecretValue.optional(),
  makeActive: z.boolean().optional(),
}).strict();
export type ProfileAddInput = z.input<typeof ProfileAddInput>;

export const ProfileUpdateInput = z
  .object({
    id: z.string().min(1),
    name: ProfileName.optional(),
    baseUrl: BaseUrl.optional(),
    org: PathToken('Org (tenant key)').optional(),
    username: PathToken('Username').optional(),
    authScheme: AuthScheme.optional(),
    /** A new secret replaces the stored one; `null` removes it; absent leaves it alone. */
    secret: SecretValue.nullable().optional(),
  })
  .strict();
export type ProfileUpdateInput = z.input<typeof ProfileUpdateInput>;

/** Where the secret a profile would use comes from right now. */
export const SecretSource = z.enum(['keychain', 'env', 'sandbox', 'none', 'unavailable']);
export type SecretSource = z.infer<typeof SecretSource>;

export const Profile = z.object({
  id: z.string(),
  name: z.string(),
  baseUrl: z.string(),
  org: z.string(),
  username: z.string(),
  authScheme: AuthScheme,
  isActive: z.boolean(),
  /** The UI learns only whether a secret exists, never the secret. */
  hasSecret: z.boolean(),
  secretSource: SecretSource,
  isSandbox: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Profile = z.infer<typeof Profile>;

export const ProfileRef = z.object({ id: z.string().min(1) }).strict();

export const TestOutcome = z.enum([
  'ok',
  'auth_failed',
  'forbidden',
  'not_found',
  'unreachable',
  'tls_error',
  'timeout',
  'no_secret',
  'server_error',
  'unexpected',
]);
export type TestOutcome = z.infer<typeof TestOutcome>;

export const ProfileTestResult = z.object({
  outcome: TestOutcome,
  ok: z.boolean(),
  /** What happened, in plain words. */
  message: z.string(),
  /** What to do next. */
  hint: z.string(),
  status: z.number().int().optional(),
  url: z.string(),
  elapsedMs: z.number(),
});
export type ProfileTestResult = z.infer<typeof ProfileTestResult>;

export const Settings = z.object({
  theme: Theme,
});
export type Settings = z.infer<typeof Settings>;

export const SettingsPatch = Settings.partial().strict();

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  shell: z.enum(['electron', 'browser', 'cli', 'test']),
  dataDir: z.string(),
  platform: z.string(),
  node: z.string(),
  schemaVersion: z.number().int(),
  keychain: z.object({ available: z.boolean(), message: z.string() }),
  sandbox: z.object({
    state: z.enum(['off', 'starting', 'running', 'failed']),
    url: z.string().optional(),
    message: z.string().optional(),
  }),
});
export type AppInfo = z.infer<typeof AppInfo>;

const Empty = z.object({}).strict().optional();
const Ok = z.object({ ok: z.literal(true) });

// ---------------------------------------------------------------------------------------------------------------
// Calls and events
// ---------------------------------------------------------------------------------------------------------------

interface CallSpec<I extends z.ZodType, O extends z.ZodType> {
  input: I;
  output: O;
  /** One line for docs, the CLI and error messages. */
  summary: string;
}
const call = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O, summary: string): CallSpec<I, O> => ({
  input,
  output,
  summary,
});

export const calls = {
  'app.info': call(Empty, AppInfo, 'Version, shell and data folder of the running engine'),

  'profiles.list': call(Empty, z.array(Profile), 'All tenant connections'),
  'profiles.get': call(ProfileRef, Profile, 'One tenant connection'),
  'profiles.add': call(ProfileAddInput, Profile, 'Add a tenant connection; its key goes to the OS keychain'),
  'profiles.update': call(ProfileUpdateInput, Profile, 'Change a tenant connection or its key'),
  'profiles.remove': call(ProfileRef, Ok, 'Remove a tenant connection and its stored key'),
  'profiles.test': call(ProfileRef, ProfileTestResult, 'Make a real call to the tenant and explain the answer'),
  'profiles.setActive': call(ProfileRef, Profile, 'Make a tenant connection the active one'),

  'settings.get': call(Empty, Settings, 'Application settings'),
  'settings.set': call(SettingsPatch, Settings, 'Change application settings'),
} as const;

export const events = {
  'profiles.changed': z.object({ reason: z.enum(['added', 'updated', 'removed', 'activated']), id: z.string() }),
  'settings.changed': Settings,
} as const;

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type CallInput<N extends CallName> = z.input<Calls[N]['input']>;
export type CallOutput<N extends CallName> = z.output<Calls[N]['output']>;
export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

export const callNames = Object.keys(calls) as CallName[];
export const eventNames = Object.keys(events) as EventName[];

export function isCallName(value: unknown): value is CallName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(calls, value);
}
export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(events, value);
}

// ---------------------------------------------------------------------------------------------------------------
// The envelope every transport carries
// ---------------------------------------------------------------------------------------------------------------

export const ErrorCode = z.enum([
  'validation', // the call or its input does not match the contract
  'not_found',
  'conflict',
  'keychain', // the OS keychain is unavailable or refused
  'api', // the platform answered with an error
  'unreachable',
  'aborted',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const BridgeError = z.object({
  code: ErrorCode,
  message: z.string(),
  /** Field-level problems for validation errors: `path` is dotted, e.g. `baseUrl`. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  status: z.number().int().optional(),
});
export type BridgeError = z.infer<typeof BridgeError>;

export const BridgeResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: BridgeError }),
]);
export type BridgeResult<T = unknown> = { ok: true; value: T } | { ok: false; error: BridgeError };

/** An error that crossed the bridge; thrown by bridge clients so callers can `catch` it like any other. */
export class BridgeCallError extends Error {
  readonly code: ErrorCode;
  readonly issues: BridgeError['issues'];
  readonly status: number | undefined;
  constructor(error: BridgeError) {
    super(error.message);
    this.name = 'BridgeCallError';
    this.code = error.code;
    this.issues = error.issues;
    this.status = error.status;
  }
}

export function issuesFromZod(error: z.ZodError): NonNullable<BridgeError['issues']> {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

export function describeIssues(issues: NonNullable<BridgeError['issues']>): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
}
