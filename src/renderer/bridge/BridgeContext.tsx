import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { Bridge, ConnectionState } from './types';

const BridgeContext = createContext<Bridge | null>(null);

export function BridgeProvider({ bridge, children }: { bridge: Bridge; children: ReactNode }) {
  return <BridgeContext.Provider value={bridge}>{children}</BridgeContext.Provider>;
}

export function useBridge(): Bridge {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error('useBridge must be used inside <BridgeProvider>');
  return bridge;
}

export function useConnectionState(): ConnectionState {
  const bridge = useBridge();
  return useSyncExternalStore(
    (onChange) => bridge.onConnectionChange(onChange),
    () => bridge.getConnectionState(),
  );
}
