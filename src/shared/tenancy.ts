/**
 * Which calls and events belong to one tenant. A call whose input takes `profileId` reads or changes one tenant's
 * data; the renderer always names the tenant it shows (the engine's "active profile" may have moved meanwhile, from
 * the CLI say), and keys what it caches by it, so one tenant's records never show under another's name.
 */
import { z } from 'zod';
import { calls, type CallInput, type CallName, type EventName, type EventPayload } from './contract';

/** An input type that names `profileId` (an empty input's index signature does not count). */
type TakesTenant<T> = string extends keyof T ? false : 'profileId' extends keyof T ? true : false;

/** Calls whose input takes `profileId` (every variant of it, for inputs that are unions). */
export type TenantCallName = {
  [N in CallName]: TakesTenant<NonNullable<CallInput<N>>> extends true ? N : never;
}[CallName];

/** Events that say which tenant they are about. */
export type TenantEventName = {
  [E in EventName]: EventPayload<E> extends { profileId: string } ? E : never;
}[EventName];

/** Does an input schema take `profileId`? Looks through optional, default, pipe and union wrappers. */
export function takesTenant(schema: z.ZodType): boolean {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault || schema instanceof z.ZodNullable) {
    return takesTenant(schema.unwrap() as z.ZodType);
  }
  if (schema instanceof z.ZodPipe) return takesTenant(schema.in as z.ZodType);
  if (schema instanceof z.ZodUnion) return schema.options.every((option) => takesTenant(option as z.ZodType));
  if (schema instanceof z.ZodObject) return 'profileId' in schema.shape;
  return false;
}

export const TENANT_CALLS: ReadonlySet<TenantCallName> = new Set(
  (Object.keys(calls) as CallName[]).filter((name) => takesTenant(calls[name].input)) as TenantCallName[],
);

export function isTenantCall(name: CallName): name is TenantCallName {
  return TENANT_CALLS.has(name as TenantCallName);
}

/**
 * The input with the tenant named: a tenant call that names none gets `profileId`; any other call, or one that
 * already names its tenant, is left as it is.
 */
export function withTenant<N extends CallName>(name: N, input: CallInput<N>, profileId: string | null): CallInput<N> {
  if (!profileId || !isTenantCall(name)) return input;
  const given = (input ?? {}) as { profileId?: string };
  if (given.profileId !== undefined) return input;
  return { ...given, profileId } as CallInput<N>;
}

/** The tenant an event is about, or null for events about the whole app (jobs, settings, profiles). */
export function eventTenant(payload: unknown): string | null {
  const id = (payload as { profileId?: unknown } | null)?.profileId;
  return typeof id === 'string' ? id : null;
}
