/** SQL fragments of the job journal (journal.ts): an item change as SET arguments, key ranges, job filters. */
import type { ItemChange, JobFilter } from './journal-types';

export const now = () => new Date().toISOString();
/** Names that go into SQL text (JSON paths, column aliases) are plain identifiers. */
export const identifier = (name: string) => {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`Not a plain name: '${name}'`);
  return name;
};
export const placeholders = (count: number) => Array.from({ length: count }, () => '?').join(',');

/**
 * An item change as the SET list of an UPDATE and its named parameters. Only the columns the change names are set:
 * SQLite then leaves alone every index whose columns are not in the list (marking 500 items `sending` does not touch
 * the index of their states). The text depends only on which fields are given, so each shape is prepared once.
 */
export function itemChange(change: ItemChange): { set: string; params: Record<string, unknown> } {
  const set: string[] = [];
  const params: Record<string, unknown> = { at: now() };
  if (change.state !== undefined) {
    set.push('state = @state');
    params.state = change.state;
  }
  if (change.phase !== undefined) {
    set.push('phase = @phase');
    params.phase = change.phase;
  }
  if (change.error !== undefined) {
    set.push('error = @error');
    params.error = change.error;
  }
  if (change.bytes !== undefined) {
    set.push('bytes = @bytes');
    params.bytes = change.bytes;
  }
  if (change.attempt) set.push('attempts = attempts + 1');
  if (change.data) {
    set.push('data = json_patch(data, @data)');
    params.data = JSON.stringify(change.data);
  }
  set.push('updated_at = @at');
  return { set: set.join(', '), params };
}

/** Keys that start with `prefix` are those from it up to (not including) the prefix with its last character next. */
export function keyRange(prefix: string): [string, string] {
  if (!prefix) throw new Error('An empty key prefix');
  return [prefix, prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)];
}

export function jobWhere(filter: JobFilter): { clause: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.profileId) {
    where.push('profile_id = ?');
    params.push(filter.profileId);
  }
  if (filter.kind) {
    where.push('kind = ?');
    params.push(filter.kind);
  }
  if (filter.states?.length) {
    where.push(`state IN (${placeholders(filter.states.length)})`);
    params.push(...filter.states);
  }
  for (const [key, value] of Object.entries(filter.params ?? {})) {
    where.push(`json_extract(params, '$.${identifier(key)}') = ?`);
    params.push(value);
  }
  return { clause: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
}
