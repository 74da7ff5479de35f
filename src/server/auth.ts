import type { IncomingMessage } from 'node:http';
import type Database from 'better-sqlite3';
import type { Db } from './db';
import { unauthorized } from './http/errors';

export type Role = 'admin' | 'student';

/** Who is calling: resolved from the Authorization header. */
export interface Caller {
  userId: number;
  username: string;
  email: string;
  org: string;
  role: Role;
  via: 'api-key' | 'token';
}

interface UserRow {
  id: number;
  username: string;
  email: string;
  org: string;
  role: Role;
}

/**
 * Accepts the four header forms real tenants use: `Api-Key <key>` and `Api-Token <key>` (org API keys, acting as
 * the key's user) and `Token <t>` / `Bearer <t>` (user tokens minted by consolidated-token/proxy).
 */
const statements = new WeakMap<Db, { byKey: Database.Statement; byToken: Database.Statement }>();

/** Prepared once per database: authentication runs on every request. */
function prepared(db: Db) {
  let found = statements.get(db);
  if (!found) {
    found = {
      byKey: db.prepare(
        `SELECT u.id, u.username, u.email, u.org, u.role FROM api_keys k JOIN users u ON u.username = k.username
         WHERE k.key = ? AND (k.expires IS NULL OR k.expires > ?) AND u.is_active = 1`,
      ),
      byToken: db.prepare(
        `SELECT u.id, u.username, u.email, u.org, u.role FROM user_tokens t JOIN users u ON u.id = t.user_id
         WHERE t.token = ? AND t.expires > ? AND u.is_active = 1`,
      ),
    };
    statements.set(db, found);
  }
  return found;
}

export function authenticate(db: Db, req: IncomingMessage): Caller | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^(Api-Key|Api-Token|Token|Bearer)\s+(\S+)\s*$/i.exec(header);
  if (!match)
    throw unauthorized('Invalid authorization header. Use "Api-Key <key>", "Token <token>" or "Bearer <token>".');
  const scheme = match[1]!.toLowerCase();
  const credential = match[2]!;
  const now = new Date().toISOString();
  let user: UserRow | undefined;
  if (scheme === 'api-key' || scheme === 'api-token') {
    user = prepared(db).byKey.get(credential, now) as UserRow | undefined;
    if (!user) throw unauthorized('Invalid API key.');
    return {
      userId: user.id,
      username: user.username,
      email: user.email,
      org: user.org,
      role: user.role,
      via: 'api-key',
    };
  }
  user = prepared(db).byToken.get(credential, now) as UserRow | undefined;
  if (!user) throw unauthorized('Invalid token.');
  return { userId: user.id, username: user.username, email: user.email, org: user.org, role: user.role, via: 'token' };
}
