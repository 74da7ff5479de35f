import { useMemo, type ReactNode } from 'react';
import { ScopedBridgeProvider, useEngineBridge } from '../bridge/BridgeContext';
import { useCall } from '../queries/useCall';
import { tenantBridge } from './tenantBridge';
import { ActiveTenantContext, type ActiveTenant } from './tenantContext';

/** Provides the active tenant and its bridge to everything below. */
export function TenantScope({ children }: { children: ReactNode }) {
  const engine = useEngineBridge();
  const profiles = useCall('profiles.list', {});
  const profile = profiles.data?.find((candidate) => candidate.isActive);
  const id = profile?.id ?? null;
  const bridge = useMemo(() => tenantBridge(engine, id), [engine, id]);
  const active = useMemo<ActiveTenant>(
    () => ({ id, profile, known: profiles.data !== undefined || profiles.error !== null, error: profiles.error }),
    [id, profile, profiles.data, profiles.error],
  );
  return (
    <ActiveTenantContext.Provider value={active}>
      <ScopedBridgeProvider bridge={bridge}>{children}</ScopedBridgeProvider>
    </ActiveTenantContext.Provider>
  );
}
