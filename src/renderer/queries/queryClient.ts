import { QueryClient } from '@tanstack/react-query';
import { BridgeCallError } from '../../shared/contract';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Engine events invalidate what changed, so focus refetches would only add load.
        refetchOnWindowFocus: false,
        staleTime: 30_000,
        // A BridgeCallError is a real answer (bad input, missing profile, lost connection); repeating it does not help.
        retry: (failureCount, error) => !(error instanceof BridgeCallError) && failureCount < 2,
      },
      mutations: { retry: false },
    },
  });
}
