import type { Profile } from '../../shared/contract';
import { useActiveTenant as useTenantScope } from '../tenants/tenantContext';

/**
 * The active tenant, as the app's tenant scope knows it (one source for every screen). Screens pass its id to every
 * mentor, document and training call, so each tenant's answers sit under their own query keys.
 */
export function useActiveTenant(): { tenant: Profile | undefined; isPending: boolean; error: Error | null } {
  const scope = useTenantScope();
  return { tenant: scope.profile, isPending: !scope.known, error: scope.error };
}
