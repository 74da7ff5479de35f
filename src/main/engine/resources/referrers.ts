/**
 * What refers to records about to be deleted (an LTI key's tools), read from the cache by the declared relations.
 * The platform is the authority on a delete: this only warns, and says when a referring kind's saved list is not
 * fresh enough to be sure.
 */
import {
  RESOURCES,
  fieldType,
  pluralOf,
  recordSchema,
  referrersOf,
  type ResourceDeclaration,
  type ResourceKind,
} from '../../../shared/resources';
import { normalResource } from '../../../shared/access';
import type { ResourceCache } from './cache';

export interface Referrer {
  /** The referring record's kind, field and id, and what people call it (its first column). */
  kind: ResourceKind;
  field: string;
  id: string;
  name: string;
  /** The id of the record it refers to. */
  refersTo: string;
}

export interface UnsureList {
  kind: ResourceKind;
  /** When the saved list was read from the platform; null: never on this tenant. */
  asOf: string | null;
  /** In words: when they were last read, or why they could not be read. */
  reason: string;
  /** Why the last read failed, if it did. */
  error: string | null;
}

type Row = Record<string, unknown>;
const PAGE = 500;

/**
 * Records that refer through a path (a policy's resources naming `/departments/5/`, or below it) or an object's key
 * (a policy's `role: {id}`): matched on every cached record of the referring kind, which are few.
 */
function referringBy(
  cache: ResourceCache,
  profileId: string,
  declaration: ResourceDeclaration & { kind: ResourceKind },
  relation: { field: string; path?: string | undefined; key?: string | undefined },
  ids: readonly string[],
): Referrer[] {
  const found: Referrer[] = [];
  for (let page = 1; ; page++) {
    const { records } = cache.page(profileId, declaration.kind, { page, pageSize: PAGE });
    for (const record of records) {
      const value = record[relation.field];
      const platformId = Number((record.platform as Row | undefined)?.id ?? Number.NaN);
      for (const id of new Set(ids)) {
        const refers = relation.path
          ? Array.isArray(value) &&
            value.some(
              (resource) =>
                typeof resource === 'string' &&
                normalResource(resource, Number.isFinite(platformId) ? platformId : null).startsWith(
                  normalResource(relation.path!.replace('{id}', id), null),
                ),
            )
          : String(((value ?? {}) as Row)[relation.key!]) === id;
        if (refers) {
          found.push({
            kind: declaration.kind,
            field: relation.field,
            id: String(record[declaration.idField]),
            name: recordTitle(declaration, record),
            refersTo: id,
          });
        }
      }
    }
    if (records.length < PAGE) return found;
  }
}

export const recordTitle = (declaration: ResourceDeclaration, record: Row) =>
  String(record[declaration.columns[0]!.field] ?? record[declaration.idField]);

/** The declarations whose records may refer to records of `kind`, with the field that does. */
export const referringKinds = (kind: string) =>
  referrersOf(kind, Object.values(RESOURCES) as ResourceDeclaration[]).map(
    ({ declaration, field, path, key, removedWith, counted }) => ({
      declaration: declaration as ResourceDeclaration & { kind: ResourceKind },
      field,
      path,
      key,
      removedWith,
      counted: !!counted,
    }),
  );

/** The cached records that refer to any of `ids`, and the referring lists too old (or never read) to be sure of. */
export function referrersIn(
  cache: ResourceCache,
  profileId: string,
  kind: string,
  ids: readonly string[],
  staleAfterMs: number,
  now = Date.now(),
): { referrers: Referrer[]; unsure: UnsureList[] } {
  const referrers: Referrer[] = [];
  const unsure: UnsureList[] = [];
  // Counted kinds (a department's members) are counted by countReferrers, not named.
  for (const { declaration, field, path, key } of referringKinds(kind).filter((referring) => !referring.counted)) {
    const meta = cache.meta(profileId, declaration.kind);
    const what = pluralOf(declaration);
    if (!meta) {
      unsure.push({
        kind: declaration.kind,
        asOf: null,
        reason: `${what} of this tenant have not been read yet`,
        error: null,
      });
      continue;
    }
    if (meta.error) unsure.push({ kind: declaration.kind, asOf: meta.asOf, reason: meta.error, error: meta.error });
    else if (!(now - Date.parse(meta.checkedAt) < staleAfterMs)) {
      unsure.push({
        kind: declaration.kind,
        asOf: meta.asOf,
        reason: `${what} were last read at ${meta.asOf}`,
        error: null,
      });
    }
    if (path || key) {
      referrers.push(...referringBy(cache, profileId, declaration, { field, path, key }, ids));
      continue;
    }
    const numeric = ['integer', 'number'].includes(fieldType(recordSchema(declaration), field) ?? '');
    for (const id of new Set(ids)) {
      // The field holds the id as the spec types it (an LTI tool's tool_key is an integer).
      if (numeric && !Number.isFinite(Number(id))) continue;
      const value = numeric ? Number(id) : id;
      for (let page = 1; ; page++) {
        const { records } = cache.page(profileId, declaration.kind, {
          where: [{ field, value }],
          page,
          pageSize: PAGE,
        });
        for (const record of records) {
          referrers.push({
            kind: declaration.kind,
            field,
            id: String(record[declaration.idField]),
            name: recordTitle(declaration, record),
            refersTo: id,
          });
        }
        if (records.length < PAGE) break;
      }
    }
  }
  return { referrers, unsure };
}

export interface ReferrerCount {
  kind: ResourceKind;
  refersTo: string;
  count: number;
  /** As the platform answered; false: as the saved list has them (the platform could not be asked). */
  exact: boolean;
  asOf: string | null;
}

/** Records whose count is asked of the platform, each one request; the rest are counted in the saved lists. */
const ASKED_AT_MOST = 20;

/**
 * How many records of the counted kinds refer to each of `ids` (a department's members): the platform's count of
 * the list filtered by the field (one DRF page of one), else the saved list's.
 */
export async function countReferrers(
  cache: ResourceCache,
  profileId: string,
  kind: string,
  ids: readonly string[],
  count: (declaration: ResourceDeclaration, query: Row) => Promise<number>,
): Promise<ReferrerCount[]> {
  const counts: ReferrerCount[] = [];
  for (const { declaration, field } of referringKinds(kind).filter((referring) => referring.counted)) {
    const numeric = ['integer', 'number'].includes(fieldType(recordSchema(declaration), field) ?? '');
    const unique = [...new Set(ids)];
    const answered = await Promise.all(
      unique.map(async (id, index) => {
        const value = numeric && Number.isFinite(Number(id)) ? Number(id) : id;
        if (index < ASKED_AT_MOST && declaration.envelope === 'drf') {
          try {
            return { id, count: await count(declaration, { [field]: value }), exact: true };
          } catch {
            // Not answering: the saved list says what it can.
          }
        }
        const { total } = cache.page(profileId, declaration.kind, { where: [{ field, value }], page: 1, pageSize: 1 });
        return { id, count: total, exact: false };
      }),
    );
    const asOf = cache.meta(profileId, declaration.kind)?.asOf ?? null;
    for (const { id, count: n, exact } of answered) {
      counts.push({ kind: declaration.kind, refersTo: id, count: n, exact, asOf: exact ? null : asOf });
    }
  }
  return counts;
}
