/** Core calls: the app, tenant connections (profiles) and settings. */
import { z } from 'zod';
import { WaitLimitMinutes } from './jobs';
import { call, Empty, event, Ok } from './kit';

// ---------------------------------------------------------------------------------------------------------------
// Domain schemas
// ---------------------------------------------------------------------------------------------------------------

export const AUTH_SCHEMES = ['Api-Key', 'Api-Token', 'Token', 'Bearer'] as const;
export const AuthScheme = z.enum(AUTH_SCHEMES);
export type AuthScheme = z.infer<typeof AuthScheme>;

export const Theme = z.enum(['system', 'light', 'dark']);
export type Theme = z.infer<typeof Theme>;

/** Hosts that are this computer: the only ones a key may travel to over plain http. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return true;
  if (/^::ffff:127\./.test(host)) return true;
  const parts = host.split('.');
  return parts.length === 4 && parts[0] === '127' && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/** Why a base URL cannot be used, or null when it can. Plain http is for this computer only: keys travel in it. */
export function baseUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Base URL must be an http(s) address, e.g. https://api.example.org/dm';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return 'Base URL must be an http(s) address, e.g. https://api.example.org/dm';
  }
  if (url.search || url.hash || url.username || url.password) {
    return 'Base URL must be an http(s) address without query, fragment or credentials, e.g. https://api.example.org/dm';
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return 'Use https:// for this address: plain http:// is allowed only for this computer (localhost, 127.0.0.1, ::1), as the key would travel unencrypted';
  }
  return null;
}

/** An https base URL (http only on this computer) that may carry a path prefix such as `/dm`; no trailing slash. */
export const BaseUrl = z
  .string()
  .trim()
  .min(1, 'Base URL is required')
  .max(2048)
  .superRefine((value, context) => {
    const problem = baseUrlProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .transform((value) => value.replace(/\/+$/, ''));

/** Scheme, host and port of a base URL: a stored key belongs to one origin and is never sent to another. */
export function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return baseUrl;
  }
}

/**
 * A single path segment: the tenant key or the username both travel inside API paths, URL-encoded. The spec sets no
 * pattern on either, so only what can never reach the platform through a path is refused: '/' (servers split paths
 * on it even when encoded) and control characters. Anything else unusual (a space) is the form's warning, not a refusal.
 */
const PathToken = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .max(255, `${label} is too long`)
    .regex(/^[^/\x00-\x1f\x7f]+$/, `${label} must not contain '/': it travels inside the API's paths`);

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

/**
 * Where a key typed in the app goes: the OS keychain, or the engine's memory for this session only (never a file;
 * gone when the app quits) — the choice when the keychain is unavailable or the key should not be kept.
 */
export const KeyStorage = z.enum(['keychain', 'session']);
export type KeyStorage = z.infer<typeof KeyStorage>;

export const ProfileAddInput = ProfileFields.extend({
  secret: SecretValue.optional(),
  keyStorage: KeyStorage.optional(),
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
    /**
     * A new secret replaces the stored one; `null` removes it; absent leaves it alone — except when `baseUrl` moves
     * to another origin while a key is stored: then the call must say which (a stored key never follows the address).
     */
    secret: SecretValue.nullable().optional(),
    /** Where a new `secret` goes (default the keychain). */
    keyStorage: KeyStorage.optional(),
  })
  .strict();
export type ProfileUpdateInput = z.input<typeof ProfileUpdateInput>;

/**
 * Where the secret a profile would use comes from right now. `env`: MENTOR_ADMIN_API_KEY, which serves one profile
 * only; `session`: a key kept in the engine's memory until it quits.
 */
export const SecretSource = z.enum(['keychain', 'env', 'session', 'sandbox', 'none', 'unavailable']);
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

/**
 * "Test" inside the Add/Edit dialog, before anything is saved: the typed fields, and the typed key (or, when
 * editing and no key is typed, the profile's own key — never for another origin). Nothing is stored.
 */
export const ProfileTryInput = ProfileFields.omit({ name: true })
  .extend({ id: z.string().min(1).optional(), secret: SecretValue.optional() })
  .strict();
export type ProfileTryInput = z.input<typeof ProfileTryInput>;

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

/** The sidebar: `auto` shows icons only in a narrow window, `full` always shows labels, `rail` always icons only. */
export const NavigationMode = z.enum(['auto', 'full', 'rail']);
export type NavigationMode = z.infer<typeof NavigationMode>;

/** `system` follows the operating system's locale; otherwise a BCP 47 tag such as `en-GB` or `de-DE`. */
export const FormatLocale = z.union([
  z.literal('system'),
  z.string().refine(isKnownLocale, { message: 'Not a locale this computer knows (e.g. en-GB, de-DE)' }),
]);

function isKnownLocale(tag: string): boolean {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([tag]).length > 0;
  } catch {
    return false;
  }
}

const settingsFields = {
  theme: Theme,
  /** A desktop notification when new support tickets arrive while the window is in the background (opt-in). */
  notifyNewTickets: z.boolean(),
  /** A desktop notification when a job (training, invitations, an export) ends while the window is in the background. */
  notifyJobEnds: z.boolean(),
  navigation: NavigationMode,
  /** How dates and numbers are written on every screen. */
  formatLocale: FormatLocale,
  /** How long a job waits for an unreachable tenant before it gives up and pauses (minutes). */
  jobWaitLimitMinutes: WaitLimitMinutes,
};

/** Fields added after the first release have defaults, so settings sent by an older engine still read. */
export const Settings = z.object({
  ...settingsFields,
  navigation: NavigationMode.default('auto'),
  formatLocale: FormatLocale.default('system'),
  jobWaitLimitMinutes: WaitLimitMinutes.default(60),
});
export type Settings = z.infer<typeof Settings>;

/** Built from the fields without defaults: a patch that leaves a field out must not reset it. */
export const SettingsPatch = z.object(settingsFields).partial().strict();

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  shell: z.enum(['electron', 'browser', 'cli', 'test']),
  dataDir: z.string(),
  platform: z.string(),
  node: z.string(),
  schemaVersion: z.number().int(),
  keychain: z.object({ available: z.boolean(), message: z.string() }),
  /** MENTOR_ADMIN_API_KEY: null when unset; else the one profile it serves (null until one is active). */
  envKey: z.object({ profileId: z.string().nullable() }).nullable(),
  sandbox: z.object({
    state: z.enum(['off', 'starting', 'running', 'failed']),
    url: z.string().optional(),
    message: z.string().optional(),
  }),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const coreCalls = {
  'app.info': call(Empty, AppInfo, 'Version, shell and data folder of the running engine'),

  'profiles.list': call(Empty, z.array(Profile), 'All tenant connections'),
  'profiles.get': call(ProfileRef, Profile, 'One tenant connection'),
  'profiles.add': call(ProfileAddInput, Profile, 'Add a tenant connection; its key goes to the OS keychain'),
  'profiles.update': call(ProfileUpdateInput, Profile, 'Change a tenant connection or its key'),
  'profiles.remove': call(ProfileRef, Ok, 'Remove a tenant connection and its stored key'),
  'profiles.test': call(ProfileRef, ProfileTestResult, 'Make a real call to the tenant and explain the answer'),
  'profiles.try': call(
    ProfileTryInput,
    ProfileTestResult,
    'Test a connection as typed, before saving it (without a key: the address, TLS and path only)',
  ),
  'profiles.setActive': call(ProfileRef, Profile, 'Make a tenant connection the active one'),

  'settings.get': call(Empty, Settings, 'Application settings'),
  'settings.set': call(SettingsPatch, Settings, 'Change application settings'),
} as const;

/** A hash route of the app (`#/tickets/12`): where the shell may send the window, e.g. from a notification. */
export const APP_HREF = /^#\/[A-Za-z0-9._~%/-]{0,300}$/;

export const coreEvents = {
  'profiles.changed': event(
    z.object({ reason: z.enum(['added', 'updated', 'removed', 'activated']), id: z.string() }),
    {
      invalidates: [
        { call: 'profiles.list' },
        { call: 'profiles.get', by: ['id'] },
        // A changed connection (address, org, key) may answer differently now; a removed tenant's answers go.
        { tenant: 'id', when: { reason: ['updated'] } },
        { tenant: 'id', when: { reason: ['removed'] }, forget: true },
      ],
    },
  ),
  // Carries the new settings: shown at once, then confirmed.
  'settings.changed': event(Settings, {
    updates: [{ call: 'settings.get', answer: (settings) => settings }],
    invalidates: [{ call: 'settings.get' }],
  }),
  /** From the Electron shell, never the engine: show this route (the admin clicked a desktop notification). */
  'app.navigate': event(z.object({ href: z.string().regex(APP_HREF) })),
} as const;
