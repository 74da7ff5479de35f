import type { Profile } from '../../shared/contract';
import { useCall } from '../queries/useCall';

/**
 * The active tenant. Screens pass its id to every mentor, document and training call, so each tenant's answers
 * sit under their own query keys and switching tenants never shows another tenant's cached rows.
 */
export function useActiveTenant(): { tenant: Profile | undefined; isPending: boolean; error: Error | null } {
  const profiles = useCall('profiles.list', {});
  return {
    tenant: profiles.data?.find((profile) => profile.isActive),
    isPending: profiles.isPending,
    error: profiles.error,
  };
}
