/** SQL fragments of the job journal (journal.ts): an item change as SET arguments, key ranges, job filters. */
import type { ItemChange, JobFilter } from './journal-types';

export const now = () => new Date().toISOString();
/** Names that go into SQL text (JSON paths, column aliases) are plain identifiers. */
export const identifier = (name: string) => {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`Not a plain name: '${name}'`);
  return name;
};
export const placeholders = (count: number) => Array.from({ length: count }, () => '?').join(',');

export const ITEM_CHANGE = `state = coalesce(@state, state),
  phase = coalesce(@phase, phase),
  error = CASE WHEN @setError THEN @error ELSE error END,
  bytes = coalesce(@bytes, bytes),
  attempts = attempts + @attempt,
  data = CASE WHEN @data IS NULL THEN data ELSE json_patch(data, @data) END,
  updated_at = @at`;

export function itemChange(change: ItemChange) {
  return {
    state: change.state ?? null,
    phase: change.phase ?? null,
    setError: change.error === undefined ? 0 : 1,
    error: change.error ?? null,
    bytes: change.bytes ?? null,
    attempt: change.attempt ? 1 : 0,
    data: change.data ? JSON.stringify(change.data) : null,
    at: now(),
  };
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
