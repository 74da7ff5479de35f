/**
 * Where each declared kind keeps its records in the sandbox. Most kinds are plain records in one generic table;
 * a kind whose platform behaviour matters beyond storage (a token's key answered once, and working as a key at
 * once) has a hand-written backend over its own table.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Caller } from '../../auth';
import type { Db } from '../../db';
import { fieldErrors, invalidPk } from '../../http/errors';
import type { AuthRule } from '../../http/router';

type Row = Record<string, unknown>;

export interface Backend {
  /** Who may read and who may write. */
  auth: { read: AuthRule; write: AuthRule };
  /** The detail of a 404 for a record that is not there. */
  missing: string;
  list?(org: string, query: Row): Row[];
  /** `org` is null for a caller without credentials on an operation the spec leaves open. */
  get?(org: string | null, id: string, query: Row): Row | null;
  create?(org: string, caller: Caller, body: Row): Row;
  update?(org: string, id: string, body: Row): Row | null;
  delete?(org: string, id: string): boolean;
}

/** The generic store's table: one JSON record per org, kind and id. */
export const genericSchema = `
CREATE TABLE IF NOT EXISTS resource_store (
  org TEXT NOT NULL REFERENCES orgs(key),
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  data TEXT NOT NULL CHECK (json_valid(data)),
  PRIMARY KEY (org, kind, id)
);
`;

/**
 * Records of one kind as JSON in the generic table: created with the spec's defaults filled in, unique by id (DRF's
 * answer to a duplicate), listed in the order they were made.
 */
export function genericBackend(
  db: Db,
  options: {
    kind: string;
    idField: string;
    /** Django's words for a duplicate: "<model> with this <field> already exists." */
    duplicate: string;
    defaults?: Row;
    auth: Backend['auth'];
    /** Query parameters that filter by the record field of the same name. */
    filters?: string[];
    /** The id is the platform's: a number it counts up (DRF's AutoField), not a field the caller gives. */
    counted?: boolean;
    /** Fields the platform makes itself when a record is created (a key pair, say). */
    derive?(record: Row): Row;
    /** Fields that hold another kind's record id (DRF's PrimaryKeyRelatedField): the record must exist in the org. */
    references?: Record<string, string>;
  },
): Backend {
  const { kind, idField } = options;
  const read = (org: string | null, id: string): Row | null => {
    const text = db
      .prepare(
        org === null
          ? 'SELECT data FROM resource_store WHERE kind = @kind AND id = @id LIMIT 1'
          : 'SELECT data FROM resource_store WHERE org = @org AND kind = @kind AND id = @id',
      )
      .pluck()
      .get({ org, kind, id }) as string | undefined;
    return text ? (JSON.parse(text) as Row) : null;
  };
  /** DRF's answer to a reference to nothing: `{"field": ["Invalid pk \"9\" - object does not exist."]}`. */
  const checkReferences = (org: string, body: Row) => {
    for (const [field, referenced] of Object.entries(options.references ?? {})) {
      const value = body[field];
      if (value === undefined || value === null) continue;
      const found = db
        .prepare('SELECT 1 FROM resource_store WHERE org = ? AND kind = ? AND id = ?')
        .get(org, referenced, String(value));
      if (!found) throw invalidPk(field, value);
    }
  };
  const matches = (record: Row, query: Row) =>
    (options.filters ?? []).every((name) => query[name] === undefined || record[name] === query[name]);
  return {
    auth: options.auth,
    missing: 'Not found.',
    list: (org, query) =>
      (
        db
          .prepare('SELECT data FROM resource_store WHERE org = ? AND kind = ? ORDER BY rowid')
          .pluck()
          .all(org, kind) as string[]
      )
        .map((text) => JSON.parse(text) as Row)
        .filter((record) => matches(record, query)),
    get: (org, id, query) => {
      const record = read(org, id);
      return record && matches(record, query) ? record : null;
    },
    create: (org, _caller, body) => {
      checkReferences(org, body);
      const record: Row = { ...options.defaults, ...body };
      if (options.counted) {
        record[idField] = db
          .prepare('SELECT coalesce(max(CAST(id AS INTEGER)), 0) + 1 FROM resource_store WHERE kind = ?')
          .pluck()
          .get(kind) as number;
      }
      Object.assign(record, options.derive?.(record));
      const id = String(record[idField]);
      if (read(org, id)) throw fieldErrors({ [idField]: [options.duplicate] });
      db.prepare('INSERT INTO resource_store (org, kind, id, data) VALUES (?, ?, ?, ?)').run(
        org,
        kind,
        id,
        JSON.stringify(record),
      );
      return record;
    },
    update: (org, id, body) => {
      const record = read(org, id);
      if (!record) return null;
      checkReferences(org, body);
      const next = { ...record, ...body, [idField]: record[idField] };
      db.prepare('UPDATE resource_store SET data = ? WHERE org = ? AND kind = ? AND id = ?').run(
        JSON.stringify(next),
        org,
        kind,
        id,
      );
      return next;
    },
    delete: (org, id) =>
      db.prepare('DELETE FROM resource_store WHERE org = ? AND kind = ? AND id = ?').run(org, kind, id).changes > 0,
  };
}

/** An LTI 1.3 provider key: the platform makes the RSA pair and answers its public half as PEM and as a JWK. */
export function ltiKeyPair(record: Row): Row {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    public_key: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    public_jwk: {
      ...publicKey.export({ format: 'jwk' }),
      alg: 'RS256',
      use: 'sig',
      kid: `lti-key-${String(record.id)}`,
    },
  };
}

interface KeyRow {
  name: string;
  key: string;
  username: string;
  created: string;
  expires: string | null;
}

/** DRF's DurationField format, `[DD] [HH:[MM:]]ss[.uuuuuu]`, in seconds. */
function durationSeconds(text: string): number | null {
  const m = /^(?:(\d+) )?(?:(\d+):)?(?:(\d+):)?(\d+)(?:\.\d+)?$/.exec(text.trim());
  if (!m) return null;
  return Number(m[1] ?? 0) * 86400 + Number(m[2] ?? 0) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4]);
}

/**
 * Platform API tokens are the sandbox's own API keys (core's `api_keys`): a token made here authenticates at once,
 * and a revoked one stops at once. Its key is answered in full by the create only; lists show it masked.
 */
export function apiTokenBackend(db: Db): Backend {
  const present = (row: KeyRow, reveal: boolean): Row => ({
    username: row.username,
    name: row.name,
    key: reveal ? row.key : `${'*'.repeat(12)}${row.key.slice(-4)}`,
    // The spec requires a date: keys without an expiry report one far in the future.
    expires: row.expires ?? '9999-12-31T23:59:59Z',
    created: row.created,
  });
  return {
    auth: { read: 'admin', write: 'admin' },
    missing: 'API key not found',
    list: (org) =>
      (db.prepare('SELECT * FROM api_keys WHERE org = ? ORDER BY created').all(org) as KeyRow[]).map((row) =>
        present(row, false),
      ),
    create: (org, caller, body) => {
      const name = String(body.name);
      if (db.prepare('SELECT 1 FROM api_keys WHERE org = ? AND name = ?').get(org, name)) {
        throw fieldErrors({ name: ['platform api key with this name already exists.'] });
      }
      let expires: string | null = null;
      if (typeof body.expires_in === 'string' && body.expires_in.trim()) {
        const seconds = durationSeconds(body.expires_in);
        if (seconds === null) {
          throw fieldErrors({
            expires_in: ['Duration has wrong format. Use one of these formats instead: [DD] [HH:[MM:]]ss[.uuuuuu].'],
          });
        }
        expires = new Date(Date.now() + seconds * 1000).toISOString();
      }
      const row: KeyRow = {
        name,
        key: randomBytes(24).toString('base64url'),
        username: caller.username,
        created: new Date().toISOString(),
        expires,
      };
      db.prepare('INSERT INTO api_keys (name, key, org, username, created, expires) VALUES (?, ?, ?, ?, ?, ?)').run(
        row.name,
        row.key,
        org,
        row.username,
        row.created,
        row.expires,
      );
      return present(row, true);
    },
    delete: (org, id) => db.prepare('DELETE FROM api_keys WHERE org = ? AND name = ?').run(org, id).changes > 0,
  };
}
