import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useBridge } from '../../bridge/BridgeContext';
import { notifyError } from '../../components/notify';
import { callKey } from '../../queries/useCall';

/** A tenant's mentors from the engine's cache; `refresh()` asks the tenant and replaces what is shown. */
export function useMentors(profileId: string | undefined, search: string) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const [refreshing, setRefreshing] = useState(false);
  const input = { profileId: profileId ?? '', ...(search ? { search } : {}) };
  const query = useQuery({
    queryKey: callKey('mentors.list', input),
    queryFn: () => bridge.call('mentors.list', input),
    enabled: !!profileId,
    placeholderData: keepPreviousData,
    // The engine's cache answers at once and decides when to ask the tenant.
    staleTime: 0,
  });

  async function refresh() {
    if (!profileId) return;
    setRefreshing(true);
    try {
      queryClient.setQueryData(
        callKey('mentors.list', input),
        await bridge.call('mentors.list', { ...input, refresh: true }),
      );
    } catch (error) {
      notifyError('Mentors could not be refreshed', error);
    } finally {
      setRefreshing(false);
    }
  }

  return { query, refresh, refreshing };
}
