import { createElectronBridge, findPreloadApi } from './electronBridge';
import type { Bridge } from './types';
import { WebSocketBridge, bridgeSocketUrl, tokenFromLocation } from './websocketBridge';

export type BridgeStartup = { ok: true; bridge: Bridge } | { ok: false; reason: 'missing-token' };

/** Chosen once at start: Electron's preload API when present, otherwise the browser-mode WebSocket. */
export function createBridge(): BridgeStartup {
  const preloadApi = findPreloadApi();
  if (preloadApi) return { ok: true, bridge: createElectronBridge(preloadApi) };
  const token = tokenFromLocation(window.location);
  if (!token) return { ok: false, reason: 'missing-token' };
  return { ok: true, bridge: new WebSocketBridge(bridgeSocketUrl(window.location, token)) };
}
