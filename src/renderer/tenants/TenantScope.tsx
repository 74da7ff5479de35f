import { useEffect, useMemo, type ReactNode } from 'react';
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
  // On a fresh data folder the local sandbox becomes the tenant a moment after the window opens: until it has (or
  // has failed), "no active tenant" is not yet known, and a deep link waits for it rather than saying so.
  const info = useCall('app.info', {});
  const starting = info.data?.sandbox.state === 'starting';
  const settingUp = !profile && (info.data ? starting : !info.error);
  // No event says a start failed: the engine is asked again until the sandbox runs or has failed.
  const { refetch } = info;
  useEffect(() => {
    if (!starting) return;
    const timer = setInterval(() => void refetch(), 500);
    return () => clearInterval(timer);
  }, [starting, refetch]);
  const known = (profiles.data !== undefined || profiles.error !== null) && (!settingUp || profiles.error !== null);
  const bridge = useMemo(() => tenantBridge(engine, id), [engine, id]);
  const active = useMemo<ActiveTenant>(
    () => ({ id, profile, known, error: profiles.error }),
    [id, profile, known, profiles.error],
  );
  return (
    <ActiveTenantContext.Provider value={active}>
      <ScopedBridgeProvider bridge={bridge}>{children}</ScopedBridgeProvider>
    </ActiveTenantContext.Provider>
  );
}
