import { useEffect } from 'react';
import { useBridge } from '../bridge/BridgeContext';

/** The network is back: jobs waiting for an unreachable tenant try again now rather than at their next timed try. */
export function useWakeJobsOnline(): void {
  const bridge = useBridge();
  useEffect(() => {
    const wake = () => void bridge.call('jobs.wake', {});
    window.addEventListener('online', wake);
    return () => window.removeEventListener('online', wake);
  }, [bridge]);
}
