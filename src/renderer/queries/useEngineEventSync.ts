import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useBridge } from '../bridge/BridgeContext';
import { applyAnalyticsEvent } from '../screens/analytics/events';
import { callArea, callKey } from './useCall';

/** Keeps TanStack Query in step with the engine: change events invalidate, and a reconnect refetches everything. */
export function useEngineEventSync(): void {
  const bridge = useBridge();
  const queryClient = useQueryClient();

  useEffect(
    () =>
      bridge.onEvent((event) => {
        applyAnalyticsEvent(queryClient, event.name, event.payload);
        switch (event.name) {
          case 'profiles.changed':
            void queryClient.invalidateQueries({
              predicate: (query) => callArea(String(query.queryKey[0])) === 'profiles',
            });
            break;
          case 'tickets.changed':
            // Lists and the open ticket read the engine's cache again; a chat transcript does not change with it.
            void queryClient.invalidateQueries({
              predicate: (query) =>
                callArea(String(query.queryKey[0])) === 'tickets' &&
                !['tickets.conversation', 'tickets.cannedReplies'].includes(String(query.queryKey[0])),
            });
            break;
          case 'tickets.sync':
            queryClient.setQueryData(callKey('tickets.status', {}), event.payload.sync);
            break;
          case 'invitations.changed':
            void queryClient.invalidateQueries({ queryKey: ['invitations.list'] });
            break;
          case 'invitations.importChanged':
            // The draft and its rows (read, checked, fixed) are views of the engine's import.
            void queryClient.invalidateQueries({
              predicate: (query) =>
                ['invitations.importGet', 'invitations.importRows'].includes(String(query.queryKey[0])) &&
                (query.queryKey[1] as { id?: string } | undefined)?.id === event.payload.id,
            });
            break;
          case 'settings.changed':
            // The event carries the new settings, so show them at once and then confirm.
            queryClient.setQueryData(callKey('settings.get', {}), event.payload);
            void queryClient.invalidateQueries({ queryKey: ['settings.get'] });
            break;
        }
      }),
    [bridge, queryClient],
  );

  useEffect(() => {
    let wasDisconnected = false;
    return bridge.onConnectionChange((state) => {
      if (state.status === 'reconnecting') wasDisconnected = true;
      // Events sent while the socket was down are lost; refetch whatever is on screen.
      if (state.status === 'open' && wasDisconnected) {
        wasDisconnected = false;
        void queryClient.invalidateQueries();
      }
    });
  }, [bridge, queryClient]);
}
