import { useEffect, useState } from 'react';

/** How long a read deferred to idle time waits at most when the browser never becomes idle. */
const IDLE_AT_MOST_MS = 1_000;

/**
 * False until the browser has been idle once after the component mounted (or a second has passed): reads that only
 * dress up a screen (a picker's choices) start after the screen has painted, not in competition with it.
 */
export function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(() => setIdle(true), 0);
      return () => clearTimeout(timer);
    }
    const handle = requestIdleCallback(() => setIdle(true), { timeout: IDLE_AT_MOST_MS });
    return () => cancelIdleCallback(handle);
  }, []);
  return idle;
}
