import {
  originOf,
  type AuthScheme,
  type Profile,
  type ProfileAddInput,
  type ProfileTryInput,
  type ProfileUpdateInput,
} from '../../shared/contract';

export interface TenantFormValues {
  name: string;
  baseUrl: string;
  org: string;
  username: string;
  authScheme: AuthScheme;
  /** Write-only: typed by the user, sent once, then cleared. Never filled from a profile. */
  key: string;
  removeStoredKey: boolean;
  /** Offered when the OS keychain is unavailable: the key stays in the engine's memory until the app quits. */
  sessionOnly: boolean;
  makeActive: boolean;
}

export interface KeyChoice {
  /** Keep a typed key for this session only (the keychain is out of reach and the admin left the box ticked). */
  sessionOnly: boolean;
}

/** The fields a profile has and the form edits as they are; an edit sends those it changed. */
export const PROFILE_FIELDS = ['name', 'baseUrl', 'org', 'username', 'authScheme'] as const;
type ProfileFieldValues = Pick<TenantFormValues, (typeof PROFILE_FIELDS)[number]>;

export function emptyTenantForm(): TenantFormValues {
  return {
    name: '',
    baseUrl: '',
    org: '',
    username: '',
    authScheme: 'Api-Key',
    key: '',
    removeStoredKey: false,
    sessionOnly: true,
    makeActive: false,
  };
}

/** Prefills everything but the key, which the renderer never has. */
export function tenantFormFrom(profile: Profile): TenantFormValues {
  return { ...emptyTenantForm(), ...pickFields(profile) };
}

function pickFields({ name, baseUrl, org, username, authScheme }: ProfileFieldValues) {
  return { name, baseUrl, org, username, authScheme };
}

export function toAddInput(values: TenantFormValues, choice: KeyChoice = { sessionOnly: false }): ProfileAddInput {
  const key = values.key.trim();
  return {
    ...pickFields(values),
    ...(key ? { secret: key, ...(choice.sessionOnly ? { keyStorage: 'session' as const } : {}) } : {}),
    makeActive: values.makeActive,
  };
}

/**
 * "Test" before saving: the fields as typed and the typed key; when editing with no key typed, the engine uses the
 * tenant's own key (unless the address moved to another server).
 */
export function toTryInput(editing: Profile | undefined, values: TenantFormValues): ProfileTryInput {
  const key = values.key.trim();
  const { baseUrl, org, username, authScheme } = values;
  return {
    ...(editing ? { id: editing.id } : {}),
    baseUrl,
    org,
    username,
    authScheme,
    ...(key && !values.removeStoredKey ? { secret: key } : {}),
  };
}

/** The edited base URL points at another server than the one the stored key was given for. */
export function keyMovesAway(profile: Pick<Profile, 'baseUrl'>, values: Pick<TenantFormValues, 'baseUrl'>): boolean {
  const typed = values.baseUrl.trim();
  return typed !== '' && URL.canParse(typed) && originOf(typed) !== originOf(profile.baseUrl);
}

/**
 * Sends only what changed (`changed`: the profile's fields the admin edited), so an edit never rewrites fields it
 * did not touch. `secret` absent keeps the stored key, `null` removes it, a string replaces it.
 */
export function toUpdateInput(
  profile: Pick<Profile, 'id'>,
  changed: Partial<ProfileFieldValues>,
  values: Pick<TenantFormValues, 'key' | 'removeStoredKey'>,
  choice: KeyChoice = { sessionOnly: false },
): ProfileUpdateInput {
  const input: ProfileUpdateInput = { id: profile.id, ...changed };
  const key = values.key.trim();
  if (values.removeStoredKey) input.secret = null;
  else if (key) {
    input.secret = key;
    if (choice.sessionOnly) input.keyStorage = 'session';
  }
  return input;
}

/** The contract says `secret`; the form says `key`. */
const FIELD_FOR_PATH: Record<string, keyof TenantFormValues> = {
  name: 'name',
  baseUrl: 'baseUrl',
  org: 'org',
  username: 'username',
  authScheme: 'authScheme',
  secret: 'key',
};

/** The form field a validation issue's path is about (undefined: the form's alert says it). */
export const tenantFieldOf = (path: string): string | undefined => FIELD_FOR_PATH[path.split('.')[0] ?? ''];
