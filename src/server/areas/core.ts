import { randomBytes } from 'node:crypto';
import type { Area, AreaDeps, SeedSize } from '../area';
import type { Db } from '../db';
import { badRequest, HttpError, notFound } from '../http/errors';
import type { RequestContext } from '../http/router';
import type { Rng } from '../rng';
import { userRoutes, usersSchema } from './core-users';
import { mentorSchema, seedMentors } from './mentor-store';

/** Tenancy: orgs, users (tenant admins and students), org API keys and user tokens. */
const schema = `
CREATE TABLE IF NOT EXISTS orgs (
  key TEXT PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS users (
  id INTEGER PRIMARY KEY,
  username TEXT NOT NULL UNIQUE,
  email TEXT NOT NULL,
  first_name TEXT NOT NULL DEFAULT '',
  last_name TEXT NOT NULL DEFAULT '',
  org TEXT NOT NULL REFERENCES orgs(key),
  role TEXT NOT NULL CHECK (role IN ('admin', 'student')),
  is_active INTEGER NOT NULL DEFAULT 1,
  department_id INTEGER,
  date_joined TEXT NOT NULL,
  last_login TEXT
);
CREATE INDEX IF NOT EXISTS users_org ON users(org, role);
CREATE INDEX IF NOT EXISTS users_email ON users(org, email COLLATE NOCASE);
CREATE TABLE IF NOT EXISTS api_keys (
  name TEXT NOT NULL,
  key TEXT NOT NULL UNIQUE,
  org TEXT NOT NULL REFERENCES orgs(key),
  username TEXT NOT NULL REFERENCES users(username),
  created TEXT NOT NULL,
  expires TEXT,
  PRIMARY KEY (org, name)
);
CREATE TABLE IF NOT EXISTS user_tokens (
  token TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  kind TEXT NOT NULL CHECK (kind IN ('dm', 'axd')),
  expires TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS departments (
  id INTEGER PRIMARY KEY, org TEXT NOT NULL REFERENCES orgs(key), name TEXT NOT NULL, is_active INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS user_groups (
  id INTEGER PRIMARY KEY, org TEXT NOT NULL REFERENCES orgs(key), name TEXT NOT NULL, owner_email TEXT,
  UNIQUE (org, name)
);
CREATE TABLE IF NOT EXISTS user_group_members (
  group_id INTEGER NOT NULL REFERENCES user_groups(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  PRIMARY KEY (group_id, user_id)
);
`;

export interface SandboxCredentials {
  org: string;
  user: string;
  apiKey: string;
  studentUser: string;
  studentKey: string;
  /** A second tenant, for isolation tests. */
  otherOrg: { org: string; user: string; apiKey: string };
}

export const MAIN_ORG = 'northbridge';
export const OTHER_ORG = 'riverside';
export const ADMIN_USER = 'admin';
export const STUDENT_USER = 'learner0001';

const newKey = () => randomBytes(24).toString('base64url');

const FIRST = [
  'Ada',
  'Ben',
  'Chloé',
  'Dmitri',
  'Esi',
  'Farah',
  'Gustavo',
  'Hana',
  'Iker',
  'Jun',
  'Kofi',
  'Lena',
  'Mateo',
  'Nadia',
  'Omar',
  'Priya',
  'Quinn',
  'Rosa',
  'Sven',
  'Tomás',
  'Uma',
  'Viktor',
  'Wen',
  'Yara',
  'Zoë',
];
const LAST = [
  'Abebe',
  'Bianchi',
  'Chen',
  'Dubois',
  'Eriksen',
  'Fischer',
  'García',
  'Haddad',
  'Ito',
  'Jensen',
  'Kowalski',
  'López',
  'Müller',
  'Nakamura',
  'Okafor',
  'Petrov',
  'Quist',
  'Rossi',
  'Silva',
  'Tanaka',
  'Ueda',
  'Vargas',
  'Weber',
  'Yilmaz',
  'Zhou',
];

export function learnerCount(size: Exclude<SeedSize, 'none'>): number {
  return size === 'large' ? 50_000 : 2_000;
}

/** Orgs, admins, students and keys. With seed 'none' only the two tenants, their admins and one student. */
export function seedCore(deps: AreaDeps, size: SeedSize, rng: Rng): void {
  const { db } = deps;
  const now = deps.now().toISOString();
  const insertOrg = db.prepare('INSERT INTO orgs (key, name, created_at) VALUES (?, ?, ?)');
  const insertUser = db.prepare(
    `INSERT INTO users (username, email, first_name, last_name, org, role, department_id, date_joined, last_login)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertKey = db.prepare('INSERT INTO api_keys (name, key, org, username, created) VALUES (?, ?, ?, ?, ?)');
  insertOrg.run(MAIN_ORG, 'Northbridge University', now);
  insertOrg.run(OTHER_ORG, 'Riverside College', now);
  const departments = ['Engineering', 'Business', 'Medicine', 'Humanities'];
  const insertDept = db.prepare('INSERT INTO departments (org, name) VALUES (?, ?)');
  const deptIds = departments.map((name) => Number(insertDept.run(MAIN_ORG, name).lastInsertRowid));

  insertUser.run(ADMIN_USER, 'admin@northbridge.example', 'Alex', 'Morgan', MAIN_ORG, 'admin', null, now, now);
  insertUser.run('riverside-admin', 'admin@riverside.example', 'Riley', 'Shaw', OTHER_ORG, 'admin', null, now, now);
  insertKey.run('sandbox', newKey(), MAIN_ORG, ADMIN_USER, now);
  insertKey.run('sandbox', newKey(), OTHER_ORG, 'riverside-admin', now);

  const learners = size === 'none' ? 1 : learnerCount(size);
  const anchor = deps.now().getTime();
  for (let i = 1; i <= learners; i++) {
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const username = `learner${String(i).padStart(4, '0')}`;
    const joined = new Date(anchor - rng.int(1, 365) * 86_400_000).toISOString();
    const lastLogin = new Date(anchor - rng.int(0, 60) * 86_400_000).toISOString();
    insertUser.run(
      username,
      `${username}@northbridge.example`,
      first,
      last,
      MAIN_ORG,
      'student',
      rng.pick(deptIds),
      joined,
      lastLogin,
    );
  }
  insertKey.run('student', newKey(), MAIN_ORG, STUDENT_USER, now);
  for (const [name, owner] of [
    ['Cohort 2026', 'admin@northbridge.example'],
    ['Teaching assistants', null],
  ] as const) {
    db.prepare('INSERT INTO user_groups (org, name, owner_email) VALUES (?, ?, ?)').run(MAIN_ORG, name, owner);
  }
  if (size !== 'none') seedMentors(deps, rng);
}

export function sandboxCredentials(db: Db): SandboxCredentials {
  const key = (org: string, name: string) =>
    (db.prepare('SELECT key FROM api_keys WHERE org = ? AND name = ?').get(org, name) as { key: string }).key;
  return {
    org: MAIN_ORG,
    user: ADMIN_USER,
    apiKey: key(MAIN_ORG, 'sandbox'),
    studentUser: STUDENT_USER,
    studentKey: key(MAIN_ORG, 'student'),
    otherOrg: { org: OTHER_ORG, user: 'riverside-admin', apiKey: key(OTHER_ORG, 'sandbox') },
  };
}

/** A catalog-style tenant parameter (`platform_key`) must name the caller's own org. */
export function requirePlatformKey(ctx: RequestContext, value: unknown): string {
  if (typeof value !== 'string' || !value) throw badRequest('platform_key is required');
  if (value !== ctx.caller!.org) throw notFound('Organization not found');
  return value;
}

interface UserRow {
  id: number;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  is_active: number;
  date_joined: string;
  last_login: string | null;
}

const fullName = (u: { first_name: string; last_name: string }) => `${u.first_name} ${u.last_name}`.trim();

function mintTokens(db: Db, userId: number, now: Date) {
  const expires = new Date(now.getTime() + 30 * 86_400_000).toISOString();
  const dm = newKey();
  const axd = newKey();
  const insert = db.prepare('INSERT INTO user_tokens (token, user_id, kind, expires) VALUES (?, ?, ?, ?)');
  insert.run(dm, userId, 'dm', expires);
  insert.run(axd, userId, 'axd', expires);
  return { dm: { token: dm, expires }, axd: { token: axd, expires } };
}

export const coreArea: Area = {
  name: 'core',
  // The mentors table lives with the core tables: documents, chat analytics and tickets all refer to it.
  schema: schema + usersSchema + mentorSchema,
  routes(router, deps) {
    const { db } = deps;

    // Mints a dm_token and an axd_token for a user of the caller's org (tenant admins only).
    router.post('/api/core/consolidated-token/proxy/', async (ctx) => {
      const body = (await ctx.json()) as {
        user_id?: unknown;
        username?: unknown;
        email?: unknown;
        platform_key?: unknown;
      };
      requirePlatformKey(ctx, body.platform_key);
      const given = [body.user_id, body.username, body.email].filter((v) => v !== undefined && v !== null && v !== '');
      if (given.length !== 1) throw badRequest('Invalid request data: give exactly one of user_id, username or email');
      if (
        ctx.caller!.role !== 'admin' &&
        body.username !== ctx.caller!.username &&
        body.user_id !== ctx.caller!.userId
      ) {
        throw new HttpError(403, 'Forbidden');
      }
      const user = db
        .prepare('SELECT * FROM users WHERE org = ? AND (id = ? OR username = ? OR email = ?) AND is_active = 1')
        .get(ctx.caller!.org, body.user_id ?? -1, body.username ?? '', body.email ?? '') as UserRow | undefined;
      if (!user) throw notFound('User not found');
      const tokens = mintTokens(db, user.id, new Date());
      return {
        status: 200,
        body: {
          data: {
            user: {
              user_id: user.id,
              user_email: user.email,
              user_nicename: user.username,
              user_display_name: fullName(user) || user.username,
              user_fullname: fullName(user),
            },
            axd_token: tokens.axd,
            dm_token: tokens.dm,
          },
        },
      };
    });

    // The tenant's people: platform/users/, users/search/ and users/delete/.
    userRoutes(router, deps);

    // Departments and user groups are kit kinds: areas/resources/groups.ts serves them over these tables.

    // Sandbox control (not part of the platform): lets tests change fault injection of a running server.
    router.get('/_sandbox/health', () => ({ status: 200, body: { status: 'ok' } }), { auth: 'none' });
  },
};
