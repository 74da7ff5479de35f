import type { Statement } from 'better-sqlite3';
import type { Db } from '../../db';

const cache = new WeakMap<Db, Map<string, Statement>>();

/** A prepared statement, prepared once per database: uploads and the worker run the same few statements a lot. */
export function stmt(db: Db, sql: string): Statement {
  let statements = cache.get(db);
  if (!statements) cache.set(db, (statements = new Map()));
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = db.prepare(sql)));
  return statement;
}
