/**
 * The resource kit's SQLite cache, per tenant connection and kind: the one owner of `resource_records` (how fresh each
 * kind's list is lives with every cache's lists, in the store's ListFreshness, as `kit:<kind>`). What is written here has lost every field the declaration says is shown once (a new token's
 * key), whoever hands it in.
 */
import { recordIdOf, SINGLE_RECORD_ID, type ResourceDeclaration } from '../../../shared/resources';
import type { Log } from '../log';
import type { Statement } from 'better-sqlite3';
import { INDEXED_SEARCH_MOST, ListFreshness, trigramMatch, type Db, type ListMeta } from '../store';
import type { TenantIdentity } from '../profiles';

export type { ListMeta } from '../store';

/** A kind's name among the engine's cached lists (the mentors area names its own: `mentors`, `documents:…`). */
const listOf = (kind: string) => `kit:${kind}`;

/** Equality on one record field; the value already typed as SQLite's json_extract reads it. */
export interface FieldEquals {
  field: string;
  value: string | number;
}

export interface PageQuery {
  search?: string | undefined;
  where?: FieldEquals[];
  /** Records whose field holds one of these values match the search too. */
  searchAlso?: { field: string; values: readonly string[] } | undefined;
  page: number;
  pageSize: number;
}

type Row = Record<string, unknown>;

/**
 * A record without the fields that are never kept: top-level names, or paths into nested answers
 * (`mcp_servers.*.credentials`: the credentials of each MCP server a mentor's settings answer whole).
 */
export function keptFields(declaration: ResourceDeclaration, record: Row): Row {
  const drop = [...(declaration.revealOnce ?? []), ...(declaration.writeOnly ?? [])];
  return drop.reduce<Row>((kept, path) => withoutPath(kept, path.split('.')) as Row, record);
}

/**
 * A record as the cache and the history keep it (keptFields) with its JSON text: made once where a record is written
 * to both (a bulk change's ~2.7 kB settings), so it is neither trimmed nor turned into text twice.
 */
export class KeptRecord {
  private constructor(
    readonly kind: string,
    readonly record: Row,
    readonly json: string,
  ) {}

  static of(declaration: ResourceDeclaration, record: Row): KeptRecord {
    const kept = keptFields(declaration, record);
    return new KeptRecord(declaration.kind, kept, JSON.stringify(kept));
  }
}

/** A record's kept JSON text, made once for a KeptRecord of this kind. */
function keptJson(declaration: ResourceDeclaration, record: Row | KeptRecord): string {
  if (!(record instanceof KeptRecord)) return JSON.stringify(keptFields(declaration, record));
  if (record.kind !== declaration.kind) throw new Error(`A ${record.kind} record kept as ${declaration.kind}`);
  return record.json;
}

/**
 * `value` without what `path` names (`*`: each item of a list). Only what holds a removed field is copied: a record
 * with nothing to drop is answered as it is (a bulk job keeps hundreds of ~90-field settings records).
 */
function withoutPath(value: unknown, path: string[]): unknown {
  const [head, ...rest] = path;
  if (head === '*') {
    if (!Array.isArray(value)) return value;
    let copy: unknown[] | null = null;
    value.forEach((item, index) => {
      const kept = withoutPath(item, rest);
      if (kept !== item) (copy ??= [...value])[index] = kept;
    });
    return copy ?? value;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, head!)) return value;
  const record = value as Row;
  if (rest.length === 0) {
    const { [head!]: _dropped, ...others } = record;
    return others;
  }
  const inner = withoutPath(record[head!], rest);
  return inner === record[head!] ? record : { ...record, [head!]: inner };
}

export function recordId(declaration: ResourceDeclaration, record: Row): string {
  if (declaration.compositeId) return recordIdOf(declaration, record);
  const id = record[declaration.idField];
  if (typeof id !== 'string' && typeof id !== 'number') {
    throw new Error(`A ${declaration.singular} answered without its ${declaration.idField}`);
  }
  return String(id);
}

const searchText = (declaration: ResourceDeclaration, record: Row) =>
  declaration.search
    .map((field) => record[field])
    .filter((value) => value !== null && value !== undefined)
    .map(String)
    .join('\n')
    .toLowerCase();

/** Where a single record's freshness is kept: its kind, or its kind and parent for a kind keyed by parent. */
export const singleScope = (kind: string, key?: string) => (key === undefined ? kind : `${kind}/${key}`);

/** The most records a search reads through the trigram index (shared with the review queue's search). */
export { INDEXED_SEARCH_MOST };

/**
 * Records written at their positions, from a JSON array of [id, position, search text, record as JSON text]; one
 * already kept under its id (a list that answers an id twice, a page that shifted) is updated in place. Never INSERT
 * OR REPLACE: its delete would skip the trigger that keeps the search index (migration 018).
 */
const WRITE_RECORDS = `INSERT INTO resource_records (profile_id, kind, id, position, search, data)
  SELECT @profileId, @kind, value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(@rows) WHERE true
  ON CONFLICT (profile_id, kind, id) DO UPDATE SET position = excluded.position, search = excluded.search,
    data = excluded.data`;

export class ResourceCache {
  private readonly freshness: ListFreshness;

  constructor(
    private readonly db: Db,
    private readonly log: Log,
    tenants: TenantIdentity,
  ) {
    this.freshness = new ListFreshness(db, (profileId) => tenants.tenantOf(profileId));
  }

  /** Statements of fixed text, prepared once: a bulk change writes hundreds of single records in a row. */
  private readonly statements = new Map<string, Statement>();
  private sql(text: string): Statement {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  meta(profileId: string, kind: string): ListMeta | null {
    return this.freshness.meta(profileId, listOf(kind));
  }

  /** One page of the kind's records, newest position first, with how many match in all. */
  page(profileId: string, kind: string, query: PageQuery): { records: Row[]; total: number } {
    const clauses = ['r.profile_id = @profileId', 'r.kind = @kind'];
    const params: Record<string, unknown> = { profileId, kind };
    // Both sides are lower-cased here, so a plain substring test (no pattern to escape) is the search.
    const search = query.search?.trim().toLowerCase() ?? '';
    const also = search && query.searchAlso?.values.length ? query.searchAlso : null;
    if (search && also) {
      // The field's name comes from the declaration (the caller checked it), never from free text.
      clauses.push(
        '(instr(r.search, @search) > 0 OR json_extract(r.data, @alsoPath) IN (SELECT value FROM json_each(@alsoValues)))',
      );
      params.search = search;
      params.alsoPath = `$."${also.field}"`;
      params.alsoValues = JSON.stringify(also.values);
    } else if (search) {
      clauses.push('instr(r.search, @search) > 0');
      params.search = search;
    }
    (query.where ?? []).forEach(({ field, value }, index) => {
      // Field names come from the declaration (the caller checked them), never from free text.
      clauses.push(`json_extract(r.data, @path${index}) = @value${index}`);
      params[`path${index}`] = `$."${field}"`;
      params[`value${index}`] = value;
    });
    // The records to look at. A search of 3 characters or more asks the trigram index which records hold it (its
    // answer may hold more, never fewer: instr above decides), when that is a few: each is then looked up and sorted
    // (about 2.5 µs), where the scan of the kind's covering index costs about 0.1 µs a record and finds a common
    // text's first page at once. A shorter search has no trigram: the scan (migration 018).
    let from = 'resource_records r';
    // Records matched by searchAlso need not hold the text: no trigram narrowing then.
    const match = also ? null : trigramMatch(search);
    if (match && this.fewHold(match)) {
      from = 'resource_records_text t CROSS JOIN resource_records r ON r.rid = t.rowid';
      clauses.push('resource_records_text MATCH @match');
      params.match = match;
    }
    const where = clauses.join(' AND ');
    const offset = (query.page - 1) * query.pageSize;
    // The page's records are chosen and ordered by rid first, and only those are read whole.
    const texts = this.sql(
      `SELECT data FROM resource_records WHERE rid IN (
         SELECT r.rid FROM ${from} WHERE ${where} ORDER BY r.position, r.id LIMIT @limit OFFSET @offset)
       ORDER BY position, id`,
    )
      .pluck()
      .all({ ...params, limit: query.pageSize, offset }) as string[];
    // A short page is the last one: the count is known without reading every record again (a narrow search over
    // a long list, an email say, then reads it once).
    const total =
      texts.length > 0 && texts.length < query.pageSize
        ? offset + texts.length
        : (this.sql(`SELECT count(*) FROM ${from} WHERE ${where}`).pluck().get(params) as number);
    return { records: texts.map((text) => JSON.parse(text) as Row), total };
  }

  /**
   * How many of the kind's records hold each of `values` in `field` (a department's members by `department_id`), in
   * one pass over the kind's records; a value none holds is absent.
   */
  countBy(profileId: string, kind: string, field: string, values: readonly unknown[]): Map<string, number> {
    // The field's name comes from the declaration (the caller checked it), never from free text.
    const rows = this.sql(
      `SELECT json_extract(data, @path) AS value, count(*) AS n FROM resource_records
         WHERE profile_id = @profileId AND kind = @kind AND json_extract(data, @path) IN (SELECT value FROM json_each(@values))
         GROUP BY 1`,
    ).all({ profileId, kind, path: `$."${field}"`, values: JSON.stringify(values) }) as { value: unknown; n: number }[];
    return new Map(rows.map(({ value, n }) => [String(value), n]));
  }

  /** The kind's list changed on the tenant (a job wrote to it): its next read reads it again. */
  markChanged(profileId: string, kind: string): void {
    this.freshness.markChanged(profileId, listOf(kind));
  }

  /** Whether at most INDEXED_SEARCH_MOST records of any kind or tenant hold the FTS5 string `match` (counted no further). */
  private fewHold(match: string): boolean {
    const held = this.sql(
      'SELECT count(*) FROM (SELECT 1 FROM resource_records_text WHERE resource_records_text MATCH ? LIMIT ?)',
    )
      .pluck()
      .get(match, INDEXED_SEARCH_MOST + 1) as number;
    return held <= INDEXED_SEARCH_MOST;
  }

  find(profileId: string, kind: string, id: string): Row | null {
    if (!this.meta(profileId, kind)) return null;
    const text = this.sql('SELECT data FROM resource_records WHERE profile_id = ? AND kind = ? AND id = ?')
      .pluck()
      .get(profileId, kind, id) as string | undefined;
    return text ? (JSON.parse(text) as Row) : null;
  }

  /** The whole list as the platform answered it now. */
  replace(profileId: string, declaration: ResourceDeclaration, records: Row[], asOf = new Date().toISOString()): void {
    this.db.transaction(() => {
      this.sql('DELETE FROM resource_records WHERE profile_id = ? AND kind = ?').run(profileId, declaration.kind);
      this.write(profileId, declaration, records, 0);
      this.setMeta(profileId, declaration.kind, asOf);
    })();
  }

  /** A later page of a list being read (readPages): after the records stored so far, keeping their order. */
  append(profileId: string, declaration: ResourceDeclaration, records: Row[], from: number): void {
    if (!this.meta(profileId, declaration.kind)) return;
    this.db.transaction(() => this.write(profileId, declaration, records, from))();
  }

  /**
   * Writes a page of records at positions from `from`, in one statement: the search index (kept by triggers,
   * migration 018) then adds the page's text at once, where a statement per record made it write its index anew for
   * each record (five times the cost of the records themselves).
   */
  private write(profileId: string, declaration: ResourceDeclaration, records: Row[], from: number): void {
    if (!records.length) return;
    const rows = records.map((record, index) => {
      const kept = keptFields(declaration, record);
      return [recordId(declaration, record), from + index, searchText(declaration, kept), JSON.stringify(kept)];
    });
    this.sql(WRITE_RECORDS).run({ profileId, kind: declaration.kind, rows: JSON.stringify(rows) });
  }

  /**
   * Adds or replaces one record after a write or a look-up; a new one goes first. A kind the platform cannot list
   * starts its list here; a listed kind that was never read waits for its first full read.
   */
  put(profileId: string, declaration: ResourceDeclaration, record: Row, at = new Date().toISOString()): void {
    const known = this.meta(profileId, declaration.kind);
    if (!known && declaration.envelope !== 'none') return;
    const kept = keptFields(declaration, record);
    this.db.transaction(() => {
      // Rows kept for this connection's former tenant (its address, org or user changed) are not this tenant's.
      if (!known)
        this.db
          .prepare('DELETE FROM resource_records WHERE profile_id = ? AND kind = ?')
          .run(profileId, declaration.kind);
      this.db
        .prepare(
          `INSERT INTO resource_records (profile_id, kind, id, position, search, data)
           VALUES (@profileId, @kind, @id,
             (SELECT coalesce(min(position), 0) - 1 FROM resource_records WHERE profile_id = @profileId AND kind = @kind),
             @search, @data)
           ON CONFLICT (profile_id, kind, id) DO UPDATE SET search = excluded.search, data = excluded.data`,
        )
        .run({
          profileId,
          kind: declaration.kind,
          id: recordId(declaration, record),
          search: searchText(declaration, kept),
          data: JSON.stringify(kept),
        });
      if (declaration.envelope === 'none') this.setMeta(profileId, declaration.kind, at);
      // The tenant just answered: a note that it could not be reached is no longer true.
      else this.freshness.answeredNow(profileId, listOf(declaration.kind));
    })();
  }

  /**
   * A single-record kind's record, as last read or written on this tenant, with its freshness. `key`: the parent of
   * a kind with one record per parent (a mentor's settings), each with a freshness of its own.
   */
  single(profileId: string, kind: string, key?: string): { record: Row; meta: ListMeta } | null {
    const meta = this.meta(profileId, singleScope(kind, key));
    if (!meta) return null;
    const text = this.sql('SELECT data FROM resource_records WHERE profile_id = ? AND kind = ? AND id = ?')
      .pluck()
      .get(profileId, kind, key ?? SINGLE_RECORD_ID) as string | undefined;
    return text ? { record: JSON.parse(text) as Row, meta } : null;
  }

  /** Whether `single` would find a record, without reading it (which of a mentor's names it is cached under). */
  hasSingle(profileId: string, kind: string, key?: string): boolean {
    if (!this.meta(profileId, singleScope(kind, key))) return false;
    return (
      this.sql('SELECT 1 FROM resource_records WHERE profile_id = ? AND kind = ? AND id = ?')
        .pluck()
        .get(profileId, kind, key ?? SINGLE_RECORD_ID) !== undefined
    );
  }

  /** `single` for many parents of a keyed kind in two reads (a bulk change's mentors); those not cached left out. */
  singles(profileId: string, kind: string, keys: readonly string[]): Map<string, { record: Row; meta: ListMeta }> {
    const metas = this.freshness.metas(
      profileId,
      keys.map((key) => listOf(singleScope(kind, key))),
    );
    const rows = this.sql(
      `SELECT id, data FROM resource_records
         WHERE profile_id = ? AND kind = ? AND id IN (SELECT value FROM json_each(?))`,
    ).all(profileId, kind, JSON.stringify(keys)) as { id: string; data: string }[];
    const found = new Map<string, { record: Row; meta: ListMeta }>();
    for (const { id, data } of rows) {
      const meta = metas.get(listOf(singleScope(kind, id)));
      if (meta) found.set(id, { record: JSON.parse(data) as Row, meta });
    }
    return found;
  }

  /**
   * `singles` for only one field of each record (a label to show): which of `keys` are cached, without reading their
   * whole records (a bulk change names hundreds of mentors before its job reads them).
   */
  singleFields(profileId: string, kind: string, keys: readonly string[], field: string): Map<string, unknown> {
    const metas = this.freshness.metas(
      profileId,
      keys.map((key) => listOf(singleScope(kind, key))),
    );
    const rows = this.sql(
      `SELECT id, json_extract(data, ?) AS value FROM resource_records
         WHERE profile_id = ? AND kind = ? AND id IN (SELECT value FROM json_each(?))`,
    ).all(`$.${field}`, profileId, kind, JSON.stringify(keys)) as { id: string; value: unknown }[];
    return new Map(
      rows.filter(({ id }) => metas.has(listOf(singleScope(kind, id)))).map(({ id, value }) => [id, value]),
    );
  }

  /**
   * The parent id a keyed kind's records are kept under, for another name of it (a mentor's slug or name): the id of
   * the cached record whose `fields` hold `name`, or null.
   */
  singleKeyOf(profileId: string, kind: string, name: string, fields: readonly string[]): string | null {
    if (!fields.length) return null;
    const match = fields.map((_, i) => `json_extract(data, @path${i}) = @name`).join(' OR ');
    const params = Object.fromEntries(fields.map((field, i) => [`path${i}`, `$.${field}`]));
    // Prepared once per number of names (the text depends on nothing else).
    const id = this.sql(
      `SELECT id FROM resource_records WHERE profile_id = @profileId AND kind = @kind AND (${match}) LIMIT 1`,
    )
      .pluck()
      .get({ profileId, kind, name, ...params }) as string | undefined;
    return id ?? null;
  }

  /** Keeps a single-record kind's record (of the parent `key`, for a keyed kind) as the platform answered it at `asOf`. */
  putSingle(
    profileId: string,
    declaration: ResourceDeclaration,
    record: Row,
    asOf = new Date().toISOString(),
    key?: string,
  ): void {
    this.putSingles(profileId, declaration, [{ key, record }], asOf);
  }

  /** `putSingle` for many parents in one transaction (a savepoint inside the caller's), statements prepared once. */
  putSingles(
    profileId: string,
    declaration: ResourceDeclaration,
    entries: readonly { key?: string | undefined; record: Row | KeptRecord }[],
    asOf = new Date().toISOString(),
  ): void {
    const write = this.sql(
      `INSERT INTO resource_records (profile_id, kind, id, position, search, data) VALUES (?, ?, ?, 0, '', ?)
         ON CONFLICT (profile_id, kind, id) DO UPDATE SET data = excluded.data`,
    );
    this.db.transaction(() => {
      for (const { key, record } of entries) {
        write.run(profileId, declaration.kind, key ?? SINGLE_RECORD_ID, keptJson(declaration, record));
      }
      this.freshness.readAtAll(
        profileId,
        entries.map(({ key }) => listOf(singleScope(declaration.kind, key))),
        asOf,
      );
    })();
  }

  remove(profileId: string, kind: string, id: string): void {
    this.db
      .prepare('DELETE FROM resource_records WHERE profile_id = ? AND kind = ? AND id = ?')
      .run(profileId, kind, id);
  }

  /** Records a refresh that did not work; the rows stay as they were. */
  refreshFailed(profileId: string, kind: string, error: string, at = new Date().toISOString()): void {
    this.log(`resources: refreshing ${kind} of ${profileId} failed: ${error}`);
    this.freshness.refreshFailed(profileId, listOf(kind), error, at);
  }

  private setMeta(profileId: string, kind: string, asOf: string): void {
    this.freshness.readAt(profileId, listOf(kind), asOf);
  }
}
