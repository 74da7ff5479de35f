import {
  originOf,
  type AuthScheme,
  type BridgeError,
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

export type TenantField = 'name' | 'baseUrl' | 'org' | 'username' | 'authScheme' | 'key';
export type FieldErrors = Partial<Record<TenantField, string>>;

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

function pickFields({ name, baseUrl, org, username, authScheme }: TenantFormValues | Profile) {
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
 * Sends only what changed, so an edit never rewrites fields it did not touch. `secret` absent keeps the stored
 * key, `null` removes it, a string replaces it.
 */
export function toUpdateInput(
  profile: Profile,
  values: TenantFormValues,
  choice: KeyChoice = { sessionOnly: false },
): ProfileUpdateInput {
  const input: ProfileUpdateInput = { id: profile.id };
  const before = pickFields(profile);
  const after = pickFields(values);
  for (const field of Object.keys(after) as (keyof typeof after)[]) {
    if (after[field] !== before[field]) Object.assign(input, { [field]: after[field] });
  }
  const key = values.key.trim();
  if (values.removeStoredKey) input.secret = null;
  else if (key) {
    input.secret = key;
    if (choice.sessionOnly) input.keyStorage = 'session';
  }
  return input;
}

/** The contract says `secret`; the form says `key`. */
const FIELD_FOR_PATH: Record<string, TenantField> = {
  name: 'name',
  baseUrl: 'baseUrl',
  org: 'org',
  username: 'username',
  authScheme: 'authScheme',
  secret: 'key',
};

/** Splits validation issues into messages shown under their field and the rest, shown in an alert. */
export function splitIssues(issues: NonNullable<BridgeError['issues']>): { fields: FieldErrors; other: string[] } {
  const fields: FieldErrors = {};
  const other: string[] = [];
  for (const issue of issues) {
    const field = FIELD_FOR_PATH[issue.path.split('.')[0] ?? ''];
    if (field && !fields[field]) fields[field] = issue.message;
    else if (!field) other.push(issue.path ? `${issue.path}: ${issue.message}` : issue.message);
  }
  return { fields, other };
}
