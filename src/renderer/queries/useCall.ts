import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { CallInput, CallName, CallOutput } from '../../shared/contract';
import { isTenantCall, withTenant } from '../../shared/tenancy';
import { useBridge } from '../bridge/BridgeContext';
import { useActiveTenant } from '../tenants/tenantContext';
import { callArea, keyTenant } from './keys';

export { callKey, keyTenant } from './keys';

/** `callKey` for the tenant the screen shows: the key its `useCall` and its bridge's calls use. */
export function useCallKey(): <N extends CallName>(name: N, input: CallInput<N>) => QueryKey {
  const { id } = useActiveTenant();
  return useCallback(
    <N extends CallName>(name: N, input: CallInput<N>): QueryKey => [name, withTenant(name, input, id) ?? {}],
    [id],
  );
}

/** Calls that read or probe without changing anything, so they invalidate nothing. */
const READ_ONLY_ACTIONS: ReadonlySet<CallName> = new Set<CallName>(['profiles.test', 'profiles.try']);

export function useCall<N extends CallName>(name: N, input: CallInput<N>, options: { enabled?: boolean } = {}) {
  const bridge = useBridge();
  const tenant = useActiveTenant();
  const scoped = withTenant(name, input, tenant.id);
  return useQuery({
    queryKey: [name, scoped ?? {}],
    queryFn: () => bridge.call(name, scoped),
    // A tenant's data is asked for once it is known which tenant the window shows.
    enabled: (options.enabled ?? true) && (tenant.known || !isTenantCall(name)),
  });
}

export interface MutationCallOptions {
  /**
   * The input may carry a key: drop the mutation (and its `variables`) from the cache as soon as nothing observes
   * it, instead of keeping it for the default five minutes. Callers also `reset()` once it settles.
   */
  carriesSecret?: boolean;
}

export function useMutationCall<N extends CallName>(
  name: N,
  options: MutationCallOptions & {
    /**
     * Shows the change in cached answers before the engine answers (an edited row, a deleted one gone); answers how
     * to put them back, which runs when the call fails.
     */
    optimistic?(input: CallInput<N>): Promise<() => void>;
  } = {},
) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const { id } = useActiveTenant();
  return useMutation<CallOutput<N>, Error, CallInput<N>, { rollback?: () => void }>({
    mutationFn: (input) => bridge.call(name, withTenant(name, input, id)),
    ...(options.carriesSecret ? { gcTime: 0 } : {}),
    ...(options.optimistic && {
      onMutate: async (input: CallInput<N>) => ({ rollback: await options.optimistic!(input) }),
      onError: (_error: Error, _input: CallInput<N>, context: { rollback?: () => void } | undefined) =>
        context?.rollback?.(),
    }),
    onSuccess: async (_output, input) => {
      if (READ_ONLY_ACTIONS.has(name)) return;
      const tenant = keyTenant([name, withTenant(name, input, id)]);
      // The engine also emits a change event; this covers a missed one, and does not restart a running refetch.
      // Only the tenant the change was made on is asked again (and answers that belong to no tenant).
      await queryClient.invalidateQueries(
        {
          predicate: ({ queryKey }) =>
            callArea(String(queryKey[0])) === callArea(name) &&
            (tenant === null || [null, tenant].includes(keyTenant(queryKey))),
        },
        { cancelRefetch: false },
      );
    },
  });
}
