/** Query keys of contract calls: `[callName, input]`, the tenant named in the input of every tenant call. */
import type { QueryKey } from '@tanstack/query-core';
import type { CallInput, CallName } from '../../shared/contract';
import type { TenantCallName } from '../../shared/tenancy';

/** A tenant call's key names its tenant: each tenant's answers are cached apart and never stand in for another's. */
type KeyArgs<N extends CallName> = N extends TenantCallName
  ? [input: CallInput<N> & { profileId: string }]
  : [input?: CallInput<N>];

/**
 * Query keys are `[callName, params]`, so the contract's declared invalidation finds a call's answers by its name,
 * narrowed by the fields of `params` (`profileId`: one tenant's). Inside a screen, `useCallKey()` fills in the
 * active tenant.
 */
export function callKey<N extends CallName>(name: N, ...[input]: KeyArgs<N>): QueryKey {
  return [name, input ?? {}];
}

/** The tenant a query key names, or null for app-wide calls (settings, profiles, jobs by id…). */
export function keyTenant(key: QueryKey): string | null {
  const id = (key[1] as { profileId?: unknown } | undefined)?.profileId;
  return typeof id === 'string' ? id : null;
}

/** The area of a call, e.g. `profiles` for `profiles.list`. */
export function callArea(name: string): string {
  return name.split('.')[0] ?? name;
}
