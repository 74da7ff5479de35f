import { useEffect } from 'react';
import { useBridge } from '../../bridge/BridgeContext';

/**
 * Tells the engine whether the window is shown: it polls the tenant for new tickets and messages while it is, and
 * stops while it is hidden. Also re-announced when another tenant becomes active.
 */
export function useWatchTickets(wanted: boolean): void {
  const bridge = useBridge();
  useEffect(() => {
    if (!wanted) return;
    const send = () => void bridge.call('tickets.watch', { visible: !document.hidden }).catch(() => {});
    send();
    document.addEventListener('visibilitychange', send);
    const off = bridge.onEvent((event) => {
      if (event.name === 'profiles.changed' && event.payload.reason === 'activated') send();
    });
    return () => {
      document.removeEventListener('visibilitychange', send);
      off();
    };
  }, [bridge, wanted]);
}
