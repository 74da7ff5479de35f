/**
 * The tenant's people in the sandbox, over the core `users` table: `platform/users/` (the admin's directory, with
 * their RBAC policies when `return_policies` is given), `users/search/` and `users/delete/`. Both lists answer the
 * spec's `{count, next_page, previous_page, results}` with page numbers (0: none). A removed user stays in the table
 * (tickets, chats and invitations refer to them) but leaves the tenant: listed nowhere, their keys and tokens revoked,
 * their department, user groups and RBAC policies and groups emptied of them.
 */
import type { AreaDeps } from '../area';
import type { Db } from '../db';
import { HttpError, forbidden } from '../http/errors';
import { pageWindow } from '../http/pagination';
import type { RequestContext, Router } from '../http/router';

export const usersSchema = `
CREATE TABLE IF NOT EXISTS removed_users (
  user_id INTEGER PRIMARY KEY REFERENCES users(id), removed_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS users_org_username ON users(org, username);
`;

interface UserRow {
  id: number;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  org: string;
  role: string;
  is_active: number;
  date_joined: string;
  last_login: string | null;
}

type Row = Record<string, unknown>;

const fullName = (u: UserRow) => `${u.first_name} ${u.last_name}`.trim();

/** The orders the sandbox knows (a leading `-` reverses one); any other `sort` keeps the newest first. */
const SORTS: Record<string, string> = {
  username: 'username',
  email: 'email COLLATE NOCASE',
  name: "first_name || ' ' || last_name",
  added_on: 'date_joined',
  user_id: 'id',
};

function orderOf(sort: string | null): string {
  const descending = sort?.startsWith('-') ?? false;
  const column = SORTS[(sort ?? '').replace(/^-/, '')];
  return column ? `${column} ${descending ? 'DESC' : 'ASC'}, id` : 'id DESC';
}

/** The tenant's users matching `query` (in the name, username or email), one page, with their count. */
function pageOfUsers(db: Db, org: string, ctx: RequestContext) {
  const window = pageWindow(ctx.query, 20, 500);
  const search = ctx.query.get('query');
  const where = `org = @org AND id NOT IN (SELECT user_id FROM removed_users)${
    search
      ? ` AND (username LIKE @q ESCAPE '\\' OR email LIKE @q ESCAPE '\\' OR first_name || ' ' || last_name LIKE @q ESCAPE '\\')`
      : ''
  }`;
  const params = { org, q: `%${(search ?? '').replace(/[\\%_]/g, (c) => `\\${c}`)}%` };
  const count = db.prepare(`SELECT count(*) FROM users WHERE ${where}`).pluck().get(params) as number;
  const rows = db
    .prepare(
      `SELECT * FROM users WHERE ${where} ORDER BY ${orderOf(ctx.query.get('sort'))} LIMIT @limit OFFSET @offset`,
    )
    .all({ ...params, limit: window.pageSize, offset: window.offset }) as UserRow[];
  const last = Math.max(1, Math.ceil(count / window.pageSize));
  return {
    rows,
    envelope: {
      count,
      next_page: window.page < last ? window.page + 1 : 0,
      previous_page: window.page > 1 ? window.page - 1 : 0,
    },
  };
}

/** Policy names by user id, and every policy name, from the tenant's RBAC policies (the generic store). */
function policiesOf(db: Db, org: string): { byUser: Map<number, string[]>; names: string[] } {
  const policies = db
    .prepare(`SELECT data FROM resource_store WHERE org = ? AND kind = 'rbac-policies'`)
    .pluck()
    .all(org)
    .map((text) => JSON.parse(text as string) as Row);
  const byUser = new Map<number, string[]>();
  for (const policy of policies) {
    for (const user of (policy.users as Row[] | undefined) ?? []) {
      const id = user.id as number;
      byUser.set(id, [...(byUser.get(id) ?? []), String(policy.name)]);
    }
  }
  return { byUser, names: policies.map((policy) => String(policy.name)) };
}

/** The caller's org, or the one a `platform_key`/`platform_org` names: another tenant's is not found. */
function orgOf(ctx: RequestContext): string {
  for (const name of ['platform_key', 'platform_org']) {
    const value = ctx.query.get(name);
    if (value && value.toLowerCase() !== ctx.caller!.org.toLowerCase())
      throw new HttpError(404, 'Organization not found');
  }
  return ctx.caller!.org;
}

/** Takes a user out of their tenant: their memberships, keys and tokens go; the row stays for what refers to it. */
export function removeFromTenant(db: Db, user: { id: number; username: string; org: string }, at: string): void {
  db.transaction(() => {
    db.prepare('INSERT OR IGNORE INTO removed_users (user_id, removed_at) VALUES (?, ?)').run(user.id, at);
    db.prepare('UPDATE users SET department_id = NULL, is_active = 0 WHERE id = ?').run(user.id);
    db.prepare('DELETE FROM user_group_members WHERE user_id = ?').run(user.id);
    db.prepare('DELETE FROM api_keys WHERE username = ?').run(user.username);
    db.prepare('DELETE FROM user_tokens WHERE user_id = ?').run(user.id);
    // RBAC policies and groups name their people in a `users` list.
    const records = db
      .prepare(`SELECT kind, id, data FROM resource_store WHERE org = ? AND kind IN ('rbac-policies', 'rbac-groups')`)
      .all(user.org) as { kind: string; id: string; data: string }[];
    const update = db.prepare('UPDATE resource_store SET data = ? WHERE org = ? AND kind = ? AND id = ?');
    for (const record of records) {
      const data = JSON.parse(record.data) as Row;
      const people = (data.users as Row[] | undefined) ?? [];
      if (!people.some((person) => person.id === user.id)) continue;
      data.users = people.filter((person) => person.id !== user.id);
      update.run(JSON.stringify(data), user.org, record.kind, record.id);
    }
  })();
}

/** Adds `count` learners to `org` in one transaction (the bench's 50,000 people): `person00001@<org>.example`… */
export function seedUsers(db: Db, org: string, count: number, anchor = new Date('2026-11-01T12:00:00Z')): void {
  const first = ['Ada', 'Ben', 'Chloé', 'Dmitri', 'Esi', 'Farah', 'Gustavo', 'Hana', 'Iker', 'Jun', 'Kofi', 'Lena'];
  const last = ['Abebe', 'Bianchi', 'Chen', 'Dubois', 'Eriksen', 'Fischer', 'García', 'Haddad', 'Ito', 'Jensen'];
  const insert = db.prepare(
    `INSERT INTO users (username, email, first_name, last_name, org, role, date_joined)
     VALUES (?, ?, ?, ?, ?, 'student', ?)`,
  );
  db.transaction(() => {
    for (let i = 1; i <= count; i++) {
      const username = `${org}-person${String(i).padStart(5, '0')}`;
      insert.run(
        username,
        `${username}@${org}.example`,
        first[i % first.length],
        last[(i * 7) % last.length],
        org,
        new Date(anchor.getTime() - i * 60_000).toISOString(),
      );
    }
  })();
}

export function userRoutes(router: Router, { db }: AreaDeps): void {
  router.get(
    '/api/core/platform/users/',
    (ctx) => {
      const org = orgOf(ctx);
      const { rows, envelope } = pageOfUsers(db, org, ctx);
      const policies = ctx.query.get('return_policies') ? policiesOf(db, org) : null;
      const results = rows.map((u) => ({
        user_id: u.id,
        username: u.username,
        name: fullName(u),
        email: u.email,
        platform_key: org,
        platform_org: org,
        is_admin: u.role === 'admin',
        is_staff: u.role === 'admin',
        active: u.is_active === 1,
        added_on: u.date_joined,
        expired_on: null,
        ...(policies && { policies: policies.byUser.get(u.id) ?? [] }),
        // Earlier names of the sandbox's answer, kept for callers that read them.
        is_active: u.is_active === 1,
        date_joined: u.date_joined,
        last_login: u.last_login,
      }));
      return { status: 200, body: { ...envelope, results, ...(policies && { allowed_policies: policies.names }) } };
    },
    { auth: 'admin' },
  );

  // "Not intended for public use with multitenant platforms": the sandbox answers an admin their own tenant's people.
  router.get(
    '/api/core/users/search/',
    (ctx) => {
      const { rows, envelope } = pageOfUsers(db, ctx.caller!.org, ctx);
      const results = rows.map((u) => ({
        user_id: u.id,
        username: u.username,
        email: u.email,
        active: u.is_active === 1,
        edx_data: { name: fullName(u) },
      }));
      return { status: 200, body: { ...envelope, results } };
    },
    { auth: 'admin' },
  );

  // "Initiates the account deletion process for the authenticated user or specified username": anyone may remove
  // themselves; only the tenant's admins someone else of the tenant.
  router.post('/api/core/users/delete/', async (ctx) => {
    const body = ((await ctx.json().catch(() => ({}))) ?? {}) as { username?: unknown };
    const caller = ctx.caller!;
    if (body.username !== undefined && typeof body.username !== 'string') {
      return { status: 400, body: { error: 'username must be a string' } };
    }
    const username = body.username || caller.username;
    if (username !== caller.username && caller.role !== 'admin') throw forbidden();
    const user = db
      .prepare(
        'SELECT id, username, org FROM users WHERE username = ? AND org = ? AND id NOT IN (SELECT user_id FROM removed_users)',
      )
      .get(username, caller.org) as { id: number; username: string; org: string } | undefined;
    if (!user) return { status: 400, body: { error: `User ${username} not found` } };
    removeFromTenant(db, user, new Date().toISOString());
    return { status: 202, body: { message: `Account deletion initiated for ${user.username}` } };
  });
}
