import type { AreaDeps } from '../../area';
import type { Rng } from '../../rng';
import { ADMIN_USER, MAIN_ORG } from '../core';
import type { Kind } from './store';

const DAY = 86_400_000;
export const DEMO_INVITATIONS = 500;

// ASCII only: invitee addresses must be valid `format: email` values.
const FIRST = [
  'amara',
  'bruno',
  'carmen',
  'deniz',
  'elif',
  'felix',
  'grace',
  'hugo',
  'ines',
  'jonas',
  'kaito',
  'leila',
  'marco',
  'nora',
  'oskar',
  'paula',
];
const LAST = [
  'adeyemi',
  'berg',
  'castillo',
  'demir',
  'evans',
  'fontaine',
  'gupta',
  'horvat',
  'ivanova',
  'jansen',
  'kim',
  'lund',
  'moreau',
  'novak',
];
const DOMAINS = ['gmail.example', 'outlook.example', 'partner-college.example', 'acme-corp.example'];
const CAMPAIGNS = ['open-day-2026', 'spring-campaign', 'partner-referral'];
const COMPANIES = ['Acme Corp', 'Globex', 'Initech', 'Umbrella Health'];

/**
 * 500 invitations of the main tenant across the platform, its courses and programs: pending, accepted (by
 * learners who joined), revoked or lapsed, blank (campaign codes) and redeemed blanks.
 */
export function seedInvitations(deps: AreaDeps, rng: Rng): void {
  const { db } = deps;
  const anchor = deps.now().getTime();
  const courses = (
    db.prepare('SELECT course_id FROM courses WHERE org = ? ORDER BY id').all(MAIN_ORG) as { course_id: string }[]
  ).map((c) => c.course_id);
  const programs = (
    db.prepare('SELECT program_key FROM programs WHERE org = ? ORDER BY id').all(MAIN_ORG) as { program_key: string }[]
  ).map((p) => p.program_key);
  const learners = db
    .prepare(`SELECT id, username, email FROM users WHERE org = ? AND role = 'student' ORDER BY id`)
    .all(MAIN_ORG) as { id: number; username: string; email: string }[];
  if (!learners.length) return;

  const insert = db.prepare(
    `INSERT INTO catalog_invitations (kind, org, target, email, username, user_id, source, redirect_to, active, metadata,
       created, started, expired) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const enroll = db.prepare(
    'INSERT OR IGNORE INTO catalog_enrollments (kind, target, user_id, created_at) VALUES (?, ?, ?, ?)',
  );
  // Events happen no later than the seeding instant; expiry dates may lie ahead of it.
  const iso = (ms: number) => new Date(Math.min(ms, anchor)).toISOString();
  const future = (ms: number) => new Date(ms).toISOString();
  // Oldest first, so ids grow with creation dates (the default sort is -id).
  const createdTimes = Array.from({ length: DEMO_INVITATIONS }, () => anchor - rng.int(0, 150 * DAY)).sort(
    (a, b) => a - b,
  );

  createdTimes.forEach((created, i) => {
    const roll = rng.next();
    // Half to the platform, the rest mostly to courses; a kind with nothing to point at falls back to the platform.
    const drawn: Kind = roll < 0.5 ? 'platform' : roll < 0.86 ? 'course' : 'program';
    const pool = drawn === 'course' ? courses : drawn === 'program' ? programs : [];
    const kind: Kind = pool.length ? drawn : 'platform';
    const target = kind === 'platform' ? MAIN_ORG : rng.pick(pool);
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const invitee = `${first}.${last}${i}@${rng.pick(DOMAINS)}`;
    const fromCsv = rng.chance(0.5);
    const metadata = fromCsv
      ? { first_name: first, last_name: last, ...(rng.chance(0.4) ? { company_name: rng.pick(COMPANIES) } : {}) }
      : {};
    const redirect = rng.chance(0.3) ? 'https://learn.northbridge.example/welcome' : null;
    const source = fromCsv ? 'csv-import' : ADMIN_USER;
    /** One invitation of this draw; what varies is who holds it, whether it is active, and when it started or ended. */
    const add = (row: {
      email: string | null;
      learner?: { username: string; id: number };
      source?: string;
      active: 0 | 1;
      metadata?: Record<string, unknown>;
      started?: string | null;
      expired?: string | null;
    }) =>
      insert.run(
        kind,
        MAIN_ORG,
        target,
        row.email,
        row.learner?.username ?? null,
        row.learner?.id ?? null,
        row.source ?? source,
        redirect,
        row.active,
        JSON.stringify(row.metadata ?? metadata),
        iso(created),
        row.started ?? null,
        row.expired ?? null,
      );
    const state = rng.next();
    if (state < 0.4) {
      // Pending: sent, not yet accepted; some have lapsed.
      add({ email: invitee, active: 1, expired: future(created + 60 * DAY) });
    } else if (state < 0.65) {
      // Accepted by a learner who joined (and, for courses and programs, enrolled).
      const learner = rng.pick(learners);
      const started = iso(created + rng.int(1, 14) * DAY);
      add({ email: learner.email, learner, active: 0, started });
      if (kind !== 'platform') enroll.run(kind, target, learner.id, started);
    } else if (state < 0.8) {
      // Revoked by an admin.
      add({ email: invitee, active: 0, expired: iso(created + rng.int(1, 20) * DAY) });
    } else {
      // Blank campaign invitations; some already redeemed for an address.
      const campaign = rng.pick(CAMPAIGNS);
      const redeemed = state >= 0.93;
      add({
        email: redeemed ? invitee : null,
        source: campaign,
        active: 1,
        metadata: { campaign },
        started: redeemed ? iso(created + rng.int(1, 30) * DAY) : null,
      });
    }
  });
}
