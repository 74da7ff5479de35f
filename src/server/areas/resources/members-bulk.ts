/**
 * The bulk membership calls and the department member check, over core's tables (`users.department_id`,
 * `user_group_members`). The spec declares them without shapes; the inferred body and answer are in
 * src/shared/resources/membership.ts: `{department_id|group_id, users: [{username}|{email}], platform_key?}` answered
 * `{results: [{username, email, user_id, status}]}` in the order given, where `status` is `added`, `already` (in the
 * group before: not an error) or `not_found` (not the tenant's: reported for that person, the others still added).
 * Admin only; `platform_key`, when given, must be the caller's own tenant. One transaction per call.
 */
import type { Db } from '../../db';
import { fieldErrors, notFound, invalidPk } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';

type Row = Record<string, unknown>;

interface Person {
  username?: string;
  email?: string;
}

/** DRF's answers to a body that is not the object the call takes. */
async function bodyOf(ctx: RequestContext, groupField: string): Promise<{ group: number; people: Person[] }> {
  const body = (await ctx.json().catch(() => null)) as unknown;
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    const got = Array.isArray(body) ? 'list' : body === null ? 'null' : typeof body;
    throw fieldErrors({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${got}.`] });
  }
  const given = body as Row;
  if (given.platform_key !== undefined && given.platform_key !== ctx.caller!.org) {
    throw notFound('Organization not found');
  }
  const errors: Record<string, string[]> = {};
  const group = given[groupField];
  if (group === undefined || group === null || group === '') errors[groupField] = ['This field is required.'];
  else if (!Number.isInteger(typeof group === 'string' && /^\d+$/.test(group) ? Number(group) : group))
    errors[groupField] = ['A valid integer is required.'];
  const users = given.users;
  if (users === undefined) errors.users = ['This field is required.'];
  else if (!Array.isArray(users)) errors.users = [`Expected a list of items but got type "${typeof users}".`];
  else {
    users.forEach((user, index) => {
      const person = user && typeof user === 'object' ? (user as Row) : {};
      const named = ['username', 'email'].some((name) => typeof person[name] === 'string' && person[name] !== '');
      if (!named) errors[`users[${index}]`] = ['Either username or email is required.'];
    });
  }
  if (Object.keys(errors).length) throw fieldErrors(errors);
  return { group: Number(group), people: users as Person[] };
}

function personLookup(db: Db) {
  const byUsername = db.prepare('SELECT id, username, email FROM users WHERE org = ? AND username = ?');
  const byEmail = db.prepare('SELECT id, username, email FROM users WHERE org = ? AND email = ? COLLATE NOCASE');
  return (org: string, person: Person) =>
    (person.username ? byUsername.get(org, person.username) : byEmail.get(org, person.email)) as
      { id: number; username: string; email: string } | undefined;
}

const notTheTenants = (person: Person) => ({
  username: person.username ?? null,
  email: person.email ?? null,
  user_id: null,
  status: 'not_found' as const,
  detail: 'User not found on this platform.',
});

export function membersBulkRoutes(db: Db, router: Router): void {
  const find = personLookup(db);

  router.post(
    '/api/core/departments/members/bulk/',
    async (ctx) => {
      const org = ctx.caller!.org;
      const { group, people } = await bodyOf(ctx, 'department_id');
      if (!db.prepare('SELECT 1 FROM departments WHERE org = ? AND id = ? AND is_active = 1').get(org, group))
        throw invalidPk('department_id', group);
      const current = db.prepare('SELECT department_id FROM users WHERE id = ?');
      const move = db.prepare('UPDATE users SET department_id = ? WHERE id = ?');
      const results = db.transaction(() =>
        people.map((person) => {
          const user = find(org, person);
          if (!user) return notTheTenants(person);
          const was = (current.get(user.id) as { department_id: number | null }).department_id;
          if (was !== group) move.run(group, user.id);
          const status = was === group ? 'already' : 'added';
          return { username: user.username, email: user.email, user_id: user.id, status };
        }),
      )();
      return { status: 200, body: { department_id: group, results } };
    },
    { auth: 'admin' },
  );

  router.post(
    '/api/core/user_groups/link/bulk/',
    async (ctx) => {
      const org = ctx.caller!.org;
      const { group, people } = await bodyOf(ctx, 'group_id');
      if (!db.prepare('SELECT 1 FROM user_groups WHERE org = ? AND id = ?').get(org, group))
        throw invalidPk('group_id', group);
      const link = db.prepare('INSERT OR IGNORE INTO user_group_members (group_id, user_id) VALUES (?, ?)');
      const results = db.transaction(() =>
        people.map((person) => {
          const user = find(org, person);
          if (!user) return notTheTenants(person);
          const status = link.run(group, user.id).changes > 0 ? 'added' : 'already';
          return { username: user.username, email: user.email, user_id: user.id, status };
        }),
      )();
      return { status: 200, body: { group_id: group, results } };
    },
    { auth: 'admin' },
  );

  // "Get department member admin info of requesting user": the caller's own department, and whether they administer.
  router.get(
    '/api/core/departments/members/check/',
    (ctx) => {
      const caller = ctx.caller!;
      const key = ctx.query.get('platform_key');
      if (key !== null && key !== caller.org) throw notFound('Organization not found');
      const row = db
        .prepare(
          `SELECT d.id, d.name FROM users u JOIN departments d ON d.id = u.department_id AND d.is_active = 1
           WHERE u.id = ? AND u.org = ?`,
        )
        .get(caller.userId, caller.org) as { id: number; name: string } | undefined;
      return {
        status: 200,
        body: {
          user_id: caller.userId,
          username: caller.username,
          department_id: row?.id ?? null,
          department_name: row?.name ?? null,
          is_admin: caller.role === 'admin',
        },
      };
    },
    { auth: 'user' },
  );
}
