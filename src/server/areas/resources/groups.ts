/**
 * Departments and user groups in the sandbox, over core's own tables (`departments`, `user_groups`, whose rows the
 * analytics and mentor settings read too). The spec declares these calls without shapes: one POST "Create/update"s
 * (the record named by `department_id`/`group_id` is updated, otherwise one is made), "Show (active) departments"
 * lists the active ones, and a delete takes the id as a query parameter. See src/shared/resources/groups.ts.
 */
import type { Db } from '../../db';
import { fieldErrors, notFound, invalidPk } from '../../http/errors';
import type { Backend } from './backends';

type Row = Record<string, unknown>;

export function departmentBackend(db: Db): Backend {
  const read = (org: string, id: string) => {
    const row = db
      .prepare('SELECT id, name, is_active FROM departments WHERE org = ? AND id = ? AND is_active = 1')
      .get(org, id) as { id: number; name: string; is_active: number } | undefined;
    return row ? { ...row, is_active: row.is_active === 1 } : null;
  };
  return {
    auth: { read: 'admin', write: 'admin' },
    missing: 'Not found.',
    list: (org) =>
      (
        db
          .prepare('SELECT id, name, is_active FROM departments WHERE org = ? AND is_active = 1 ORDER BY name, id')
          .all(org) as Row[]
      ).map((row) => ({ ...row, is_active: row.is_active === 1 })),
    create: (org, _caller, body) => {
      // "Create/update a department": an existing one when the body names it.
      if (body.department_id !== undefined) {
        const id = String(body.department_id);
        if (!read(org, id)) throw notFound();
        db.prepare('UPDATE departments SET name = ? WHERE org = ? AND id = ?').run(body.name, org, id);
        // A department made inactive leaves the active list, as a delete does.
        if (body.is_active === false) db.prepare('UPDATE departments SET is_active = 0 WHERE id = ?').run(id);
        return { ...read(org, id), ...(body.is_active === false && { is_active: false }) } as Row;
      }
      const id = db
        .prepare('INSERT INTO departments (org, name, is_active) VALUES (?, ?, ?)')
        .run(org, body.name, body.is_active === false ? 0 : 1).lastInsertRowid;
      return { id: Number(id), name: body.name, is_active: body.is_active !== false };
    },
    delete: (org, id) => {
      if (!read(org, id)) return false;
      db.prepare('UPDATE users SET department_id = NULL WHERE org = ? AND department_id = ?').run(org, id);
      return db.prepare('UPDATE departments SET is_active = 0 WHERE org = ? AND id = ?').run(org, id).changes > 0;
    },
  };
}

export function userGroupBackend(db: Db): Backend {
  const select = `SELECT g.id, g.name, g.owner_email, count(m.user_id) AS members FROM user_groups g
    LEFT JOIN user_group_members m ON m.group_id = g.id WHERE g.org = ?`;
  const read = (org: string, id: string) =>
    (db.prepare(`${select} AND g.id = ? GROUP BY g.id`).get(org, id) as Row | undefined) ?? null;
  const taken = (org: string, name: unknown, id?: string) =>
    !!db.prepare('SELECT 1 FROM user_groups WHERE org = ? AND name = ? AND id IS NOT ?').get(org, name, id ?? null);
  const duplicate = () => fieldErrors({ name: ['user group with this name already exists.'] });
  return {
    auth: { read: 'admin', write: 'admin' },
    missing: 'Not found.',
    list: (org) => db.prepare(`${select} GROUP BY g.id ORDER BY g.id`).all(org) as Row[],
    create: (org, _caller, body) => {
      if (body.group_id !== undefined) {
        const id = String(body.group_id);
        const current = read(org, id);
        if (!current) throw notFound();
        if (taken(org, body.name, id)) throw duplicate();
        db.prepare('UPDATE user_groups SET name = ?, owner_email = ? WHERE id = ?').run(
          body.name,
          body.owner_email ?? current.owner_email,
          id,
        );
        return read(org, id)!;
      }
      if (taken(org, body.name)) throw duplicate();
      const id = db
        .prepare('INSERT INTO user_groups (org, name, owner_email) VALUES (?, ?, ?)')
        .run(org, body.name, body.owner_email ?? null).lastInsertRowid;
      return read(org, String(id))!;
    },
    delete: (org, id) => db.prepare('DELETE FROM user_groups WHERE org = ? AND id = ?').run(org, id).changes > 0,
  };
}

/**
 * Department members over core's `users.department_id` (a person is in one department): the tenant's active people
 * in active departments. Adding someone already in that department answers the membership again ("already" is not
 * an error); adding them to another department moves them ("or update status").
 */
export function departmentMemberBackend(db: Db): Backend {
  const select = `SELECT u.id AS user_id, u.username, u.email, d.id AS department_id, d.name AS department_name
    FROM users u JOIN departments d ON d.id = u.department_id AND d.org = u.org AND d.is_active = 1
    WHERE u.org = ? AND u.is_active = 1`;
  const member = (org: string, userId: unknown) =>
    (db.prepare(`${select} AND u.id = ?`).get(org, userId) as Row | undefined) ?? null;
  return {
    auth: { read: 'admin', write: 'admin' },
    missing: 'Not found.',
    list: (org, query) =>
      (query.department_id === undefined
        ? db.prepare(`${select} ORDER BY d.name, u.username`).all(org)
        : db.prepare(`${select} AND d.id = ? ORDER BY u.username`).all(org, query.department_id)) as Row[],
    create: (org, _caller, body) => {
      const department = db
        .prepare('SELECT id FROM departments WHERE org = ? AND id = ? AND is_active = 1')
        .get(org, body.department_id);
      if (!department) throw invalidPk('department_id', body.department_id);
      const userId = personOf(db, org, body);
      db.prepare('UPDATE users SET department_id = ? WHERE id = ?').run(body.department_id, userId);
      return member(org, userId)!;
    },
    delete: (org, id) => {
      if (!member(org, id)) return false;
      return db.prepare('UPDATE users SET department_id = NULL WHERE org = ? AND id = ?').run(org, id).changes > 0;
    },
  };
}

/** The person a body names by `username` or `email`, among the tenant's people (the spec's 400 by field otherwise). */
function personOf(db: Db, org: string, body: Row): number {
  if (body.username === undefined && body.email === undefined) {
    throw fieldErrors({ username: ['Either username or email is required.'] });
  }
  const user = db
    .prepare(
      body.username !== undefined
        ? 'SELECT id FROM users WHERE org = ? AND username = ?'
        : 'SELECT id FROM users WHERE org = ? AND email = ? COLLATE NOCASE',
    )
    .get(org, body.username ?? body.email) as { id: number } | undefined;
  if (!user)
    throw fieldErrors({ [body.username !== undefined ? 'username' : 'email']: ['User not found on this platform.'] });
  return user.id;
}

/**
 * User group links over core's `user_group_members` (its rowid is the link's id): adding someone already in the group
 * answers their link again.
 */
export function userGroupMemberBackend(db: Db): Backend {
  const select = `SELECT m.rowid AS id, g.id AS group_id, g.name AS group_name, u.id AS user_id, u.username, u.email
    FROM user_group_members m JOIN user_groups g ON g.id = m.group_id JOIN users u ON u.id = m.user_id
    WHERE g.org = ? AND u.is_active = 1`;
  return {
    auth: { read: 'admin', write: 'admin' },
    missing: 'Not found.',
    list: (org, query) =>
      (query.group_id === undefined
        ? db.prepare(`${select} ORDER BY g.name, u.username`).all(org)
        : db.prepare(`${select} AND g.id = ? ORDER BY u.username`).all(org, query.group_id)) as Row[],
    create: (org, _caller, body) => {
      if (!db.prepare('SELECT 1 FROM user_groups WHERE org = ? AND id = ?').get(org, body.group_id)) {
        throw invalidPk('group_id', body.group_id);
      }
      const userId = personOf(db, org, body);
      db.prepare('INSERT OR IGNORE INTO user_group_members (group_id, user_id) VALUES (?, ?)').run(
        body.group_id,
        userId,
      );
      return db.prepare(`${select} AND g.id = ? AND u.id = ?`).get(org, body.group_id, userId) as Row;
    },
    delete: (org, id) =>
      db
        .prepare(
          'DELETE FROM user_group_members WHERE rowid = ? AND group_id IN (SELECT id FROM user_groups WHERE org = ?)',
        )
        .run(id, org).changes > 0,
  };
}
