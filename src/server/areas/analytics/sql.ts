import type Database from 'better-sqlite3';

/** Prepared statements by SQL text: handlers build SQL from their filters and reuse the compiled form. */
export class StatementCache {
  private readonly statements = new Map<string, Database.Statement>();
  constructor(private readonly db: Database.Database) {}

  get(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/** Bumped by triggers on every chat_sessions write: cached counts are valid while it stays the same. */
export function chatVersion(db: Database.Database): number {
  let statement = versionStatements.get(db);
  if (!statement) {
    statement = db.prepare("SELECT value FROM analytics_state WHERE key = 'chat_version'").pluck();
    versionStatements.set(db, statement);
  }
  return (statement.get() as number | undefined) ?? 0;
}
const versionStatements = new WeakMap<Database.Database, Database.Statement>();
