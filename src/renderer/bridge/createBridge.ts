import type { PreloadApi } from '../../shared/transport';
import { createElectronBridge } from './electronBridge';
import type { Bridge } from './types';
import { WebSocketBridge, bridgeSocketUrl, forgetTokenInAddress, hasBrowserSession } from './websocketBridge';

/** The preload's `window.api`, if this page runs inside the Electron shell. */
function findPreloadApi(): PreloadApi | undefined {
  return (window as Window & { api?: PreloadApi }).api;
}

export type BridgeStartup = { ok: true; bridge: Bridge } | { ok: false; reason: 'missing-token' };

/**
 * Chosen once at start: Electron's preload API when present, otherwise the browser-mode WebSocket, once the page is
 * known to hold the session cookie its printed address was exchanged for.
 */
export async function createBridge(): Promise<BridgeStartup> {
  const preloadApi = findPreloadApi();
  if (preloadApi) return { ok: true, bridge: createElectronBridge(preloadApi) };
  forgetTokenInAddress(window.location, window.history);
  if (!(await hasBrowserSession())) return { ok: false, reason: 'missing-token' };
  return { ok: true, bridge: new WebSocketBridge(bridgeSocketUrl(window.location)) };
}
