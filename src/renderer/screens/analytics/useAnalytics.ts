import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CallInput, CallName } from '../../../shared/contract';
import { useBridge } from '../../bridge/BridgeContext';
import { useCallKey } from '../../queries/useCall';

/**
 * An analytics call as a query. The engine answers from its cache when it can, so a changed range shows the
 * previous answer until the new one lands instead of flashing skeletons.
 */
export function useAnalytics<N extends CallName>(name: N, input: CallInput<N>, options: { enabled?: boolean } = {}) {
  const bridge = useBridge();
  const callKey = useCallKey();
  return useQuery({
    queryKey: callKey(name, input),
    queryFn: () => bridge.call(name, input),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}
