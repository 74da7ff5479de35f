/**
 * Whether each tenant connection can be reached, app-wide: the engine learns it from every platform call it makes
 * (an answer of any status: reachable; no answer — refused, DNS, timeout, TLS: unreachable), so a screen served from
 * a still-fresh saved copy knows the tenant is down before its own refresh fails.
 */
import { z } from 'zod';
import { call, event } from './kit';

const Tenant = { profileId: z.string().min(1).optional() };

export const TenantReach = z.object({
  profileId: z.string(),
  /** 'unknown' until a call to the tenant has answered or failed to. */
  state: z.enum(['unknown', 'reachable', 'unreachable']),
  /** When it was last learnt (ISO time), null while unknown. */
  checkedAt: z.string().nullable(),
  /** Why it could not be reached (the transport's words), null otherwise. */
  reason: z.string().nullable(),
});
export type TenantReach = z.infer<typeof TenantReach>;

export const reachCalls = {
  'tenants.reach': call(
    z.object(Tenant).strict(),
    TenantReach,
    'Whether the tenant can be reached, as last learnt; unknown or old, it is checked (the change comes as an event)',
  ),
  'tenants.probe': call(
    z.object(Tenant).strict(),
    TenantReach,
    'Check now whether the tenant can be reached (one light read) and answer what was learnt',
  ),
} as const;

export const reachEvents = {
  // Carries the new state: the cached answer is replaced in place. Back in reach after being out of it, the tenant's
  // answers are asked again so screens showing a saved copy, or an error, show the tenant's data (not on the first
  // answer after start: nothing was missed then).
  'tenants.reachChanged': event(TenantReach.extend({ previous: TenantReach.shape.state }), {
    updates: [{ call: 'tenants.reach', by: ['profileId'], answer: ({ previous: _previous, ...reach }) => reach }],
    invalidates: [{ tenant: 'profileId', when: { previous: ['unreachable'] } }],
  }),
} as const;
