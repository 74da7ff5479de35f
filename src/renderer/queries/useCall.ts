import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { CallInput, CallName, CallOutput } from '../../shared/contract';
import { useBridge } from '../bridge/BridgeContext';

/** Query keys are `[callName, params]`, so events can invalidate every query of one area by its name prefix. */
export function callKey<N extends CallName>(name: N, input?: CallInput<N>): QueryKey {
  return [name, input ?? {}];
}

/** The area of a call, e.g. `profiles` for `profiles.list`. */
export function callArea(name: string): string {
  return name.split('.')[0] ?? name;
}

/** Calls that read or probe without changing anything, so they invalidate nothing. */
const READ_ONLY_ACTIONS: ReadonlySet<CallName> = new Set<CallName>(['profiles.test']);

export function useCall<N extends CallName>(name: N, input: CallInput<N>, options: { enabled?: boolean } = {}) {
  const bridge = useBridge();
  return useQuery({
    queryKey: callKey(name, input),
    queryFn: () => bridge.call(name, input),
    enabled: options.enabled ?? true,
  });
}

export interface MutationCallOptions {
  /**
   * The input may carry a key: drop the mutation (and its `variables`) from the cache as soon as nothing observes
   * it, instead of keeping it for the default five minutes. Callers also `reset()` once it settles.
   */
  carriesSecret?: boolean;
}

export function useMutationCall<N extends CallName>(name: N, options: MutationCallOptions = {}) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  return useMutation<CallOutput<N>, Error, CallInput<N>>({
    mutationFn: (input) => bridge.call(name, input),
    ...(options.carriesSecret ? { gcTime: 0 } : {}),
    onSuccess: async () => {
      if (READ_ONLY_ACTIONS.has(name)) return;
      // The engine also emits a change event; this covers a missed one, and does not restart a running refetch.
      await queryClient.invalidateQueries(
        { predicate: (query) => callArea(String(query.queryKey[0])) === callArea(name) },
        { cancelRefetch: false },
      );
    },
  });
}
