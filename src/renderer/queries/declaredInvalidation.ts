/**
 * Applies what the contract declares about each event (`event(…)` in shared/contract): the answers it brings up to
 * date in place, and the calls whose cached answers it makes stale — narrowed by the event's tenant, mentor or job,
 * so an event about one tenant never touches another's answers. This is the only place that turns engine events into
 * cache changes; screens declare nothing of their own.
 */
import type { Query, QueryClient, QueryKey } from '@tanstack/query-core';
import { eventSpecs } from '../../shared/contract';
import type { BridgeEvent } from '../bridge/types';
import { keyTenant } from './keys';

type Fields = Readonly<Record<string, unknown>>;

interface Narrowing {
  readonly by?: readonly string[];
  readonly when?: Readonly<Record<string, readonly unknown[] | undefined>>;
}

const inputOf = (key: QueryKey): Fields => (key[1] ?? {}) as Fields;

/** The event is one the rule is about (`when`: one of the listed values in each named field). */
function applies(rule: Narrowing, payload: Fields): boolean {
  return Object.entries(rule.when ?? {}).every(([field, values]) => !values || values.includes(payload[field]));
}

/** The answer is one the event names: the same value in every `by` field both sides hold. */
function narrowsTo(rule: Narrowing, payload: Fields, key: QueryKey): boolean {
  const input = inputOf(key);
  return (rule.by ?? []).every((field) => {
    const value = payload[field];
    return value === null || value === undefined || !(field in input) || input[field] === value;
  });
}

/** Answers kept outside the query cache (the ticket queue's blocks): told when an event makes them stale. */
interface OutsideAnswers {
  readonly key: QueryKey;
  onStale(): void;
}
const outsideAnswers = new WeakMap<QueryClient, Set<OutsideAnswers>>();

/**
 * Answers of the call in `key` (`[name, input]`, as `useCallKey` makes it) that live outside the query cache: the
 * same declarations tell `onStale` when they must be read again. Returns the way to stop.
 */
export function watchOutsideAnswers(queryClient: QueryClient, key: QueryKey, onStale: () => void): () => void {
  const watchers = outsideAnswers.get(queryClient) ?? new Set<OutsideAnswers>();
  outsideAnswers.set(queryClient, watchers);
  const watcher = { key, onStale };
  watchers.add(watcher);
  return () => void watchers.delete(watcher);
}

export function tellOutside(queryClient: QueryClient, matches: (key: QueryKey) => boolean): void {
  for (const watcher of outsideAnswers.get(queryClient) ?? []) if (matches(watcher.key)) watcher.onStale();
}

/** A patch is not a fetch: the answer keeps its age, and one already due for a refetch stays due. */
function patch(queryClient: QueryClient, query: Query, data: unknown): void {
  const { isInvalidated, dataUpdatedAt } = query.state;
  queryClient.setQueryData(query.queryKey, data, { updatedAt: dataUpdatedAt });
  if (isInvalidated) void queryClient.invalidateQueries({ queryKey: query.queryKey, exact: true, refetchType: 'none' });
}

/** What one event does to the cache, as its declaration says. */
export function applyEvent(queryClient: QueryClient, event: BridgeEvent): void {
  const spec = eventSpecs[event.name];
  const payload = event.payload as Fields;
  for (const update of spec.updates) {
    const answer = update.answer as (payload: unknown, cached: unknown) => unknown;
    const queries = queryClient.getQueryCache().findAll({
      predicate: ({ queryKey }) => queryKey[0] === update.call && narrowsTo(update, payload, queryKey),
    });
    for (const query of queries) {
      const cached = query.state.data;
      if (cached === undefined) continue;
      const next = answer(payload, cached);
      if (next !== cached) patch(queryClient, query, next);
    }
  }
  for (const rule of spec.invalidates) {
    if (!applies(rule, payload)) continue;
    let matches: (key: QueryKey) => boolean;
    if ('tenant' in rule) {
      const tenant = payload[rule.tenant];
      if (typeof tenant !== 'string') continue;
      matches = (key) => keyTenant(key) === tenant;
      if (rule.forget) {
        queryClient.removeQueries({ predicate: ({ queryKey }) => matches(queryKey) });
        continue;
      }
    } else {
      matches = (key) => key[0] === rule.call && narrowsTo(rule, payload, key);
    }
    void queryClient.invalidateQueries({ predicate: ({ queryKey }) => matches(queryKey) });
    tellOutside(queryClient, matches);
  }
}
