import { useQueryClient, type Query } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useEngineBridge } from '../bridge/BridgeContext';
import { applyAnalyticsEvent } from '../screens/analytics/events';
import { callArea, callKey, keyTenant } from './useCall';

const nameOf = (query: Query) => String(query.queryKey[0]);

/**
 * Keeps TanStack Query in step with the engine: change events invalidate, and a reconnect refetches everything.
 * Every tenant's events are heard (answers cached for a tenant not on screen stay true for the way back), and an
 * event about one tenant touches that tenant's keys only.
 */
export function useEngineEventSync(): void {
  const bridge = useEngineBridge();
  const queryClient = useQueryClient();

  useEffect(
    () =>
      bridge.onEvent((event) => {
        applyAnalyticsEvent(queryClient, event.name, event.payload);
        switch (event.name) {
          case 'profiles.changed': {
            const { id, reason } = event.payload;
            void queryClient.invalidateQueries({ predicate: (query) => callArea(nameOf(query)) === 'profiles' });
            // A removed tenant's answers go; a changed one (address, org, key) may answer differently now.
            if (reason === 'removed')
              queryClient.removeQueries({ predicate: (query) => keyTenant(query.queryKey) === id });
            if (reason === 'updated') {
              void queryClient.invalidateQueries({ predicate: (query) => keyTenant(query.queryKey) === id });
            }
            break;
          }
          case 'tickets.changed':
            // Lists and the open ticket read the engine's cache again; a chat transcript does not change with it.
            void queryClient.invalidateQueries({
              predicate: (query) =>
                callArea(nameOf(query)) === 'tickets' &&
                keyTenant(query.queryKey) === event.payload.profileId &&
                !['tickets.conversation', 'tickets.cannedReplies'].includes(nameOf(query)),
            });
            break;
          case 'tickets.sync':
            queryClient.setQueryData(
              callKey('tickets.status', { profileId: event.payload.profileId }),
              event.payload.sync,
            );
            break;
          case 'invitations.changed':
            void queryClient.invalidateQueries({
              predicate: (query) =>
                nameOf(query) === 'invitations.list' && keyTenant(query.queryKey) === event.payload.profileId,
            });
            break;
          case 'invitations.importChanged':
            // The draft and its rows (read, checked, fixed) are views of the engine's import.
            void queryClient.invalidateQueries({
              predicate: (query) =>
                ['invitations.importGet', 'invitations.importRows'].includes(nameOf(query)) &&
                (query.queryKey[1] as { id?: string } | undefined)?.id === event.payload.id,
            });
            break;
          case 'resources.changed':
            // The kind's lists and records read the engine's cache again, for that tenant only.
            void queryClient.invalidateQueries({
              predicate: (query) =>
                callArea(nameOf(query)) === 'resources' &&
                keyTenant(query.queryKey) === event.payload.profileId &&
                (query.queryKey[1] as { kind?: string } | undefined)?.kind === event.payload.kind,
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
