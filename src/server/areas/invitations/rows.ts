import type { Db } from '../../db';
import { targetOrg } from './catalog';
import { isEmail, membership, type KindSpec, type Member } from './store';

/** Fields of `*InvitationCreate`; anything else in a row "will be added as metadata", as the spec says. */
const KNOWN_FIELDS = new Set([
  'platform_key',
  'course_id',
  'program_key',
  'org',
  'platform_org',
  'email',
  'username',
  'active',
  'source',
  'redirect_to',
  'created',
  'expired',
  'metadata',
  'enrollment_config',
]);

export interface NewInvitation {
  target: string;
  email: string | null;
  user: Member | null;
  username: string | null;
  active: boolean;
  source: string | null;
  redirectTo: string | null;
  metadata: Record<string, unknown>;
  enrollmentConfig: Record<string, unknown> | null;
  created: string;
  expired: string | null;
}

/**
 * Why a row was refused. Bulk answers report `code:index:email` per refused row (index into `invitation_data`);
 * a single create turns it into 404 (unknown target) or 400.
 */
export type RowError = { code: string; detail: string; notFound?: boolean };
export type RowOutcome = { ok: true; invitation: NewInvitation } | ({ ok: false } & RowError);

const fail = (code: string, detail: string, notFound = false): RowOutcome => ({ ok: false, code, detail, notFound });

export function parseBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' && (value === 0 || value === 1)) return value === 1;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (['true', '1', 'yes', 'y'].includes(v)) return true;
    if (['false', '0', 'no', 'n'].includes(v)) return false;
  }
  return null;
}

/** http(s) only: a redirect is followed by an invitee's browser, so `javascript:` and friends are refused. */
export function isRedirectUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function dateTime(value: unknown): string | null | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

const plainObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/** Parses a JSON object given as a string (forms carry nested objects that way). */
function objectField(value: unknown): Record<string, unknown> | null | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') {
    try {
      const parsed = JSON.parse(value) as unknown;
      return plainObject(parsed) ? parsed : null;
    } catch {
      return null;
    }
  }
  return plainObject(value) ? value : null;
}

/**
 * Validates invitation rows for one kind and one tenant. `seen` carries the addresses already accepted in the
 * same request, so duplicates inside a file (compared case-insensitively) are refused after the first.
 */
export function rowValidator(db: Db, spec: KindSpec, org: string, now: () => Date) {
  const members = membership(db);
  const targets = new Map<string, boolean>();
  const activeInvitation = db.prepare(
    `SELECT 1 FROM catalog_invitations WHERE kind = ? AND target = ? AND email = ? AND active = 1
     AND (expired IS NULL OR expired > ?) LIMIT 1`,
  );

  function targetExists(key: string): boolean {
    let known = targets.get(key);
    if (known === undefined) {
      known = targetOrg(db, spec.kind, key) === org;
      targets.set(key, known);
    }
    return known;
  }

  return function validate(input: unknown, seen: Set<string>, fallbackTarget?: unknown): RowOutcome {
    if (!plainObject(input)) return fail('invalid_row', 'each invitation must be an object');
    const rawTarget = input[spec.field] ?? fallbackTarget;
    if (typeof rawTarget !== 'string' || !rawTarget.trim())
      return fail(`missing_${spec.field}`, `${spec.field} is required`);
    const target = rawTarget.trim();
    if (!targetExists(target)) return fail(`${spec.kind}_not_found`, spec.notFound, true);

    let email: string | null = null;
    let user: Member | null = null;
    if (input.email !== undefined && input.email !== null && input.email !== '') {
      if (typeof input.email !== 'string' || !isEmail(input.email.trim()))
        return fail('invalid_email', 'email is not a valid address');
      email = input.email.trim();
      user = members.byEmail(org, email);
    } else if (typeof input.username === 'string' && input.username.trim()) {
      user = members.byUsername(org, input.username.trim());
      if (!user) return fail('unknown_username', `no user named ${input.username.trim()} on this platform`);
      if (!isEmail(user.email)) return fail('invalid_email', 'the user has no valid email address');
      email = user.email;
    } else {
      return fail('missing_email', 'email or username is required');
    }

    const active = input.active === undefined || input.active === null ? true : parseBoolean(input.active);
    if (active === null) return fail('invalid_active', 'active must be true or false');
    let redirectTo: string | null = null;
    if (input.redirect_to !== undefined && input.redirect_to !== null && input.redirect_to !== '') {
      if (typeof input.redirect_to !== 'string' || !isRedirectUrl(input.redirect_to.trim())) {
        return fail('invalid_redirect_to', 'redirect_to must be an http(s) URL');
      }
      redirectTo = input.redirect_to.trim();
    }
    const created = dateTime(input.created);
    const expired = dateTime(input.expired);
    if (created === null || expired === null)
      return fail('invalid_date', 'created and expired must be ISO 8601 date-times');
    const metadata = objectField(input.metadata);
    const enrollmentConfig = spec.kind === 'program' ? objectField(input.enrollment_config) : undefined;
    if (metadata === null || enrollmentConfig === null)
      return fail('invalid_metadata', 'metadata must be a JSON object');
    if (input.source !== undefined && input.source !== null && typeof input.source !== 'string') {
      return fail('invalid_source', 'source must be a string');
    }

    const key = `${target}\u0000${email.toLowerCase()}`;
    if (seen.has(key)) return fail('duplicate_in_request', 'the same address appears earlier in this request');
    seen.add(key);
    if (members.isMember(spec.kind, target, user))
      return fail('already_member', `already a member of this ${spec.kind}`);
    const nowIso = now().toISOString();
    if (activeInvitation.get(spec.kind, target, email, nowIso))
      return fail('already_invited', 'an active invitation already exists');

    const extras = Object.fromEntries(Object.entries(input).filter(([name]) => !KNOWN_FIELDS.has(name)));
    return {
      ok: true,
      invitation: {
        target,
        email,
        user,
        username: user?.username ?? null,
        active,
        source: typeof input.source === 'string' && input.source ? input.source : null,
        redirectTo,
        metadata: { ...(metadata ?? {}), ...extras },
        enrollmentConfig: enrollmentConfig ?? null,
        created: created ?? nowIso,
        expired: expired ?? null,
      },
    };
  };
}

/** Prepared insert for validated invitations (bulk runs it thousands of times in one transaction). */
export function invitationWriter(db: Db, spec: KindSpec, org: string) {
  const insert = db.prepare(
    `INSERT INTO catalog_invitations (kind, org, target, email, username, user_id, source, redirect_to, active, metadata,
       enrollment_config, created, started, expired) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)`,
  );
  return (inv: NewInvitation): number =>
    Number(
      insert.run(
        spec.kind,
        org,
        inv.target,
        inv.email,
        inv.username,
        inv.user?.id ?? null,
        inv.source,
        inv.redirectTo,
        inv.active ? 1 : 0,
        JSON.stringify(inv.metadata),
        inv.enrollmentConfig ? JSON.stringify(inv.enrollmentConfig) : null,
        inv.created,
        inv.expired,
      ).lastInsertRowid,
    );
}
