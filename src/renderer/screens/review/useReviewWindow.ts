import { useQueries } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import type { ReviewFilter, ReviewItem, ReviewPage } from '../../../shared/contract';
import { useBridge } from '../../bridge/BridgeContext';
import { useActiveTenant } from '../../tenants/tenantContext';

export const CHUNK = 200;

/**
 * The rows of the queue the list shows, fetched from the engine's cache a chunk of 200 at a time as they scroll into
 * view; the first chunk also answers the total, the counts per mentor and the sync state. Keyed by tenant.
 */
export function useReviewWindow(filter: ReviewFilter) {
  const bridge = useBridge();
  const { id: profileId, known } = useActiveTenant();
  const [range, setRange] = useState<[number, number]>([0, CHUNK]);
  const chunks = useMemo(() => {
    const out = new Set<number>([0]);
    for (let c = Math.floor(range[0] / CHUNK); c <= Math.floor(Math.max(range[0], range[1] - 1) / CHUNK); c++)
      out.add(c);
    return [...out].sort((a, b) => a - b);
  }, [range]);
  const results = useQueries({
    queries: chunks.map((chunk) => {
      const input = { profileId: profileId ?? '', filter, offset: chunk * CHUNK, limit: CHUNK };
      return {
        queryKey: ['review.list', input],
        queryFn: () => bridge.call('review.list', input),
        enabled: known && !!profileId,
        placeholderData: (previous: ReviewPage | undefined) => previous,
      };
    }),
  });
  const first = results[0]?.data;
  const rows = new Map<number, ReviewItem>();
  results.forEach((r) => {
    if (r.data) r.data.items.forEach((item, i) => rows.set(r.data!.offset + i, item));
  });
  const onRange = useCallback((start: number, end: number) => {
    setRange((old) =>
      Math.floor(old[0] / CHUNK) === Math.floor(start / CHUNK) && Math.floor(old[1] / CHUNK) === Math.floor(end / CHUNK)
        ? old
        : [start, end],
    );
  }, []);
  return {
    total: first?.total ?? 0,
    mentors: first?.mentors ?? [],
    sync: first?.sync ?? null,
    loading: results[0]?.isLoading ?? true,
    error: results[0]?.error ?? null,
    row: (index: number) => rows.get(index),
    onRange,
  };
}
