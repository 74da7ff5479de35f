/**
 * A saved copy for reads that ask the tenant every time (Credentials' badges, a licence's seats: what was just given or
 * issued shows at once): the last answer is kept in the engine's answer cache (SQLite, per tenant profile and
 * connection) to stand in, said to be old, when the tenant cannot be reached. Cold and unreachable, the read fails as
 * before ("could not be loaded").
 */
import type { Freshness } from '../../shared/contract';
import { isUnreachable, offlineNote } from './mentors';
import { canonical, type AnswerCache } from './store';

export interface Saved<T> {
  value: T;
  freshness: Freshness;
}

/**
 * `read`'s answer, kept under (profile, call, params); or the kept one, marked offline, when the tenant is unreachable.
 * `params` holds the connection's org and user, so a profile pointed at another tenant never shows the first one's.
 */
export async function withSavedCopy<T>(
  answers: AnswerCache,
  key: { profileId: string; call: string; params: Record<string, unknown> },
  read: () => Promise<T>,
): Promise<Saved<T>> {
  const params = canonical(key.params);
  try {
    const value = await read();
    const asOf = new Date().toISOString();
    answers.write(key.profileId, key.call, params, value, asOf);
    return { value, freshness: { asOf, source: 'api', offline: null } };
  } catch (error) {
    const kept = isUnreachable(error) ? answers.read(key.profileId, key.call, params) : undefined;
    if (!kept) throw error;
    return { value: kept.value as T, freshness: { asOf: kept.asOf, source: 'cache', offline: offlineNote(error) } };
  }
}
