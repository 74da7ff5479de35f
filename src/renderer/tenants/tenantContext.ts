import { createContext, useContext } from 'react';
import type { Profile } from '../../shared/contract';

/** The tenant the window shows. Screens below the scope ask for its data only, and are drawn anew when it changes. */
export interface ActiveTenant {
  /** null while the tenants are loading, when none is active, or outside the scope. */
  id: string | null;
  profile: Profile | undefined;
  /** The tenants have been read (whether or not one is active). */
  known: boolean;
  error: Error | null;
}

export const OUTSIDE_SCOPE: ActiveTenant = { id: null, profile: undefined, known: false, error: null };

export const ActiveTenantContext = createContext<ActiveTenant>(OUTSIDE_SCOPE);

export function useActiveTenant(): ActiveTenant {
  return useContext(ActiveTenantContext);
}
