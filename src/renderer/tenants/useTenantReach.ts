import { useCall, useMutationCall } from '../queries/useCall';
import { useActiveTenant } from './tenantContext';

export interface TenantReachView {
  /** Known to be out of reach now: screens show their saved copies and write nothing. */
  unreachable: boolean;
  /** Why, in the transport's words (for a tooltip), or null. */
  reason: string | null;
  /** Asks the tenant again now; the answer reaches every screen of the tenant through the engine's event. */
  retry(): void;
  retrying: boolean;
}

/**
 * Whether a tenant can be reached, as the engine learnt it from every call it made to it (default: the tenant the
 * window shows). Asking for it when nothing is known, or what is known is old, makes the engine check with one light
 * read; a change arrives as `tenants.reachChanged` and updates every user of this hook for that tenant only.
 */
export function useTenantReach(profileId?: string | null): TenantReachView {
  const active = useActiveTenant();
  const id = profileId ?? active.id;
  const reach = useCall('tenants.reach', { profileId: id ?? undefined }, { enabled: !!id });
  const probe = useMutationCall('tenants.probe');
  const known = reach.data?.profileId === id ? reach.data : undefined;
  return {
    unreachable: known?.state === 'unreachable',
    reason: known?.reason ?? null,
    retry: () => {
      if (id) probe.mutate({ profileId: id });
    },
    retrying: probe.isPending,
  };
}
