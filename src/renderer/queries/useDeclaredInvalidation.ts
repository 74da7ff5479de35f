import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useEngineBridge } from '../bridge/BridgeContext';
import { applyEvent, tellOutside, watchOutsideAnswers } from './declaredInvalidation';

/**
 * Mounted once, beside the query client: every tenant's events are heard (answers cached for a tenant not on screen
 * stay true for the way back), and a reconnect refetches what is on screen, since events sent meanwhile are lost.
 */
export function useDeclaredInvalidation(): void {
  const bridge = useEngineBridge();
  const queryClient = useQueryClient();
  useEffect(() => bridge.onEvent((event) => applyEvent(queryClient, event)), [bridge, queryClient]);
  useEffect(() => {
    let wasDisconnected = false;
    return bridge.onConnectionChange((state) => {
      if (state.status === 'reconnecting') wasDisconnected = true;
      if (state.status === 'open' && wasDisconnected) {
        wasDisconnected = false;
        void queryClient.invalidateQueries();
        tellOutside(queryClient, () => true);
      }
    });
  }, [bridge, queryClient]);
}

/** `watchOutsideAnswers` for a component's life; `onStale` may change without watching again. */
export function useOutsideAnswers(key: QueryKey, onStale: () => void): void {
  const queryClient = useQueryClient();
  const latest = useRef(onStale);
  useEffect(() => {
    latest.current = onStale;
  }, [onStale]);
  const hash = JSON.stringify(key);
  useEffect(
    () => watchOutsideAnswers(queryClient, JSON.parse(hash) as QueryKey, () => latest.current()),
    [queryClient, hash],
  );
}
