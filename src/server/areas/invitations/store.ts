import type { Db } from '../../db';
import { hasLearningEnrollments, type TargetKind } from './catalog';

export type Kind = 'platform' | TargetKind;

/** What differs between platform, course and program invitations: the target's field and its 404 message. */
export interface KindSpec {
  kind: Kind;
  field: 'platform_key' | 'course_id' | 'program_key';
  notFound: string;
}

export const KINDS: readonly KindSpec[] = [
  { kind: 'platform', field: 'platform_key', notFound: "Not found - platform doesn't exist" },
  { kind: 'course', field: 'course_id', notFound: "Not found - course doesn't exist" },
  { kind: 'program', field: 'program_key', notFound: "Not found - program doesn't exist" },
];

export const INVITATION_NOT_FOUND = "Not found - invitation doesn't exist";
export const NO_BLANK_INVITATION = 'Not found - no blank invitation available';
export const NO_ACTIVE_INVITATION = 'No active invitation exists for the email';
export const BAD_REQUEST = 'Bad request - missing or invalid parameters';

export interface InvitationRow {
  id: number;
  kind: Kind;
  org: string;
  target: string;
  email: string | null;
  username: string | null;
  user_id: number | null;
  source: string | null;
  redirect_to: string | null;
  active: number;
  metadata: string;
  enrollment_config: string | null;
  created: string;
  started: string | null;
  expired: string | null;
}

/** `{Platform,Course,Program}InvitationDetail`: the same fields, with the target under the kind's own name. */
export function presentInvitation(spec: KindSpec, row: InvitationRow) {
  return {
    id: row.id,
    user_id: row.user_id,
    username: row.username,
    email: row.email,
    created: row.created,
    started: row.started,
    expired: row.expired,
    source: row.source,
    redirect_to: row.redirect_to,
    active: row.active === 1,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    [spec.field]: row.target,
  };
}

// The spec's `format: email` (the same expression its validators use), so every stored address reads back valid.
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
export const isEmail = (value: string) => value.length <= 254 && EMAIL.test(value);

export interface Member {
  id: number;
  username: string;
  email: string;
}

/**
 * Who is already in: platform members are the org's users; course and program members are enrolled users (the
 * analytics area's course enrolments count too when that area is served).
 */
export function membership(db: Db) {
  const userByEmail = db.prepare(
    'SELECT id, username, email FROM users WHERE org = ? AND email = ? COLLATE NOCASE ORDER BY id LIMIT 1',
  );
  const userByName = db.prepare('SELECT id, username, email FROM users WHERE org = ? AND username = ?');
  const enrolled = db.prepare('SELECT 1 FROM catalog_enrollments WHERE kind = ? AND target = ? AND user_id = ?');
  const learning = hasLearningEnrollments(db)
    ? db.prepare(
        `SELECT 1 FROM learning_enrollments e JOIN courses c ON c.id = e.course_pk
         WHERE c.course_id = ? AND e.user_id = ? AND e.is_active = 1`,
      )
    : null;
  return {
    byEmail: (org: string, email: string) => (userByEmail.get(org, email) as Member | undefined) ?? null,
    byUsername: (org: string, username: string) => (userByName.get(org, username) as Member | undefined) ?? null,
    isMember(kind: Kind, target: string, user: Member | null): boolean {
      if (!user) return false;
      if (kind === 'platform') return true;
      if (enrolled.get(kind, target, user.id)) return true;
      return kind === 'course' && !!learning?.get(target, user.id);
    },
  };
}
