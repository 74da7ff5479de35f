import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { CallInput } from '../../shared/contract';
import { useBridge } from '../bridge/BridgeContext';
import { notifyError } from '../components/notify';
import { callKey } from '../queries/useCall';

export type ListQuery = Omit<CallInput<'resources.list'>, 'profileId' | 'refresh'>;

/** One page of a kind's records from the engine's cache; `refresh()` asks the tenant and replaces what is shown. */
export function useResourceList(profileId: string, query: ListQuery) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const [refreshing, setRefreshing] = useState(false);
  const input = { profileId, ...query };
  const list = useQuery({
    queryKey: callKey('resources.list', input),
    queryFn: () => bridge.call('resources.list', input),
    placeholderData: keepPreviousData,
    // The engine's cache answers at once and decides when to ask the tenant.
    staleTime: 0,
  });

  async function refresh() {
    setRefreshing(true);
    try {
      queryClient.setQueryData(
        callKey('resources.list', input),
        await bridge.call('resources.list', { ...input, refresh: true }),
      );
    } catch (error) {
      notifyError('Could not refresh', error);
    } finally {
      setRefreshing(false);
    }
  }

  return { list, refresh, refreshing };
}
