/** The renderer's bridge over an engine in this process: the transport of renderer tests. */
import type { Engine } from '../../src/main/engine';
import type { Bridge, BridgeEvent } from '../../src/renderer/bridge/types';

export function inProcessBridge(engine: Engine): Bridge {
  return {
    capabilities: { notifications: false, revealFile: false },
    call: (name, input) => engine.invoke(name, input),
    onEvent: (listener) => engine.onEvent((name, payload) => listener({ name, payload } as BridgeEvent)),
    getConnectionState: () => ({ status: 'open' }),
    onConnectionChange: () => () => {},
  };
}
