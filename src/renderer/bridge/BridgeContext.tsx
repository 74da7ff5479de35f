import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { Bridge, ConnectionState } from './types';

const BridgeContext = createContext<Bridge | null>(null);
/** The bridge as the transport gives it: every tenant's events, calls sent as written. */
const EngineBridgeContext = createContext<Bridge | null>(null);

/** The app's one bridge, at the root. */
export function BridgeProvider({ bridge, children }: { bridge: Bridge; children: ReactNode }) {
  return (
    <EngineBridgeContext.Provider value={bridge}>
      <BridgeContext.Provider value={bridge}>{children}</BridgeContext.Provider>
    </EngineBridgeContext.Provider>
  );
}

/** Hands a narrower bridge to what is below (the active tenant's: see tenants/TenantScope). */
export function ScopedBridgeProvider({ bridge, children }: { bridge: Bridge; children: ReactNode }) {
  return <BridgeContext.Provider value={bridge}>{children}</BridgeContext.Provider>;
}

/** The bridge for screens: inside the tenant scope it names the active tenant and hears only its events. */
export function useBridge(): Bridge {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error('useBridge must be used inside <BridgeProvider>');
  return bridge;
}

/** The whole engine's bridge, for app-wide listeners that keep every tenant's cached answers in step. */
export function useEngineBridge(): Bridge {
  const bridge = useContext(EngineBridgeContext);
  if (!bridge) throw new Error('useEngineBridge must be used inside <BridgeProvider>');
  return bridge;
}

export function useConnectionState(): ConnectionState {
  const bridge = useBridge();
  return useSyncExternalStore(
    (onChange) => bridge.onConnectionChange(onChange),
    () => bridge.getConnectionState(),
  );
}
