import { eventTenant, withTenant } from '../../shared/tenancy';
import type { Bridge } from '../bridge/types';

/**
 * The bridge of one tenant: every call that takes a tenant and names none is sent for this one, and only this
 * tenant's events (and app-wide ones) are heard. A screen keeps it for its whole life, so even a late call (a draft
 * saved as the screen goes away) reaches the tenant the screen showed.
 */
export function tenantBridge(engine: Bridge, profileId: string | null): Bridge {
  return {
    capabilities: engine.capabilities,
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
