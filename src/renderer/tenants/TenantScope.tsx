import { useMemo, type ReactNode } from 'react';
import { eventTenant, withTenant } from '../../shared/tenancy';
import { ScopedBridgeProvider, useEngineBridge } from '../bridge/BridgeContext';
import type { Bridge } from '../bridge/types';
import { useCall } from '../queries/useCall';
import { ActiveTenantContext, type ActiveTenant } from './tenantContext';

/**
 * The bridge of one tenant: every call that takes a tenant and names none is sent for this one, and only this
 * tenant's events (and app-wide ones) are heard. A screen keeps it for its whole life, so even a late call (a draft
 * saved as the screen goes away) reaches the tenant the screen showed.
 */
export function tenantBridge(engine: Bridge, profileId: string | null): Bridge {
  return {
    kind: engine.kind,
    call: (name, input) => engine.call(name, withTenant(name, input, profileId)),
    onEvent: (listener) =>
      engine.onEvent((event) => {
        const about = eventTenant(event.payload);
        if (about === null || about === profileId) listener(event);
      }),
    getConnectionState: () => engine.getConnectionState(),
    onConnectionChange: (listener) => engine.onConnectionChange(listener),
  };
}

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
