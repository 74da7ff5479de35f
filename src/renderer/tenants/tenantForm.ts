import type { AuthScheme, BridgeError, Profile, ProfileAddInput, ProfileUpdateInput } from '../../shared/contract';

export interface TenantFormValues {
  name: string;
  baseUrl: string;
  org: string;
  username: string;
  authScheme: AuthScheme;
  /** Write-only: typed by the user, sent once, then cleared. Never filled from a profile. */
  key: string;
  removeStoredKey: boolean;
  makeActive: boolean;
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

export function toAddInput(values: TenantFormValues): ProfileAddInput {
  const key = values.key.trim();
  return { ...pickFields(values), ...(key ? { secret: key } : {}), makeActive: values.makeActive };
}

/**
 * Sends only what changed, so an edit never rewrites fields it did not touch. `secret` absent keeps the stored
 * key, `null` removes it, a string replaces it.
 */
export function toUpdateInput(profile: Profile, values: TenantFormValues): ProfileUpdateInput {
  const input: ProfileUpdateInput = { id: profile.id };
  const before = pickFields(profile);
  const after = pickFields(values);
  for (const field of Object.keys(after) as (keyof typeof after)[]) {
    if (after[field] !== before[field]) Object.assign(input, { [field]: after[field] });
  }
  const key = values.key.trim();
  if (values.removeStoredKey) input.secret = null;
  else if (key) input.secret = key;
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
