import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ResourceList, ResourceRecord } from '../../shared/contract';
import type { ResourceKind } from '../../shared/resources';

/**
 * A change shown at once in every page of one tenant's list of a kind held by TanStack Query (never in the engine's
 * cache, which only the platform's answer changes). Answers how to put the pages back as they were.
 */
export function useOptimisticList(profileId: string, kind: ResourceKind) {
  const queryClient = useQueryClient();
  return useCallback(
    async (change: (records: ResourceRecord[]) => ResourceRecord[]): Promise<() => void> => {
      const filters = {
        predicate: ({ queryKey }: { queryKey: readonly unknown[] }) => {
          const input = queryKey[1] as { profileId?: unknown; kind?: unknown } | undefined;
          return queryKey[0] === 'resources.list' && input?.profileId === profileId && input.kind === kind;
        },
      };
      // A read under way would paint over the change with what it read before it.
      await queryClient.cancelQueries(filters);
      const before = queryClient.getQueriesData<ResourceList>(filters);
      for (const [key, data] of before) {
        if (!data) continue;
        const records = change(data.records);
        queryClient.setQueryData<ResourceList>(key, {
          ...data,
          records,
          total: Math.max(0, data.total + records.length - data.records.length),
        });
      }
      return () => {
        for (const [key, data] of before) queryClient.setQueryData(key, data);
        void queryClient.invalidateQueries(filters);
      };
    },
    [queryClient, profileId, kind],
  );
}
