import { keepPreviousData, usePrefetchQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  OVERVIEW_PANELS,
  type CallInput,
  type Freshness,
  type OverviewAnswer,
  type OverviewPanel,
} from '../../../shared/contract';
import type { Bridge } from '../../bridge/types';
import { useBridge } from '../../bridge/BridgeContext';
import { useCallKey } from '../../queries/useCall';
import { useAnalytics } from './useAnalytics';

type Input = CallInput<'analytics.overview'>;

export interface Panel<T> {
  /** The answer for the current filters, or the previous filters' while the new one comes. */
  data: T | undefined;
  /** `data` belongs to the previous filters. */
  isPlaceholderData: boolean;
  /** Nothing to show yet, and no error. */
  isLoading: boolean;
  error: unknown;
  refetch(): void;
}

export type OverviewPanels = { [P in OverviewPanel]: Panel<NonNullable<OverviewAnswer[P]>> };

const newer = <T extends { freshness: Freshness }>(a: T | undefined, b: T | undefined): T | undefined =>
  !a ? b : !b ? a : (b.freshness.asOf ?? '') > (a.freshness.asOf ?? '') ? b : a;

const overviewQuery = (bridge: Bridge, callKey: ReturnType<typeof useCallKey>, input: Input) => ({
  queryKey: callKey('analytics.overview', input),
  queryFn: () => bridge.call('analytics.overview', input),
});

/**
 * Asks for the cached panels at once and answers false until they are in (or `maxWaitMs` has passed): the Overview
 * then draws once with its figures instead of drawing skeletons first and everything again a moment later.
 */
export function useCachedFirst(input: Input, maxWaitMs: number): boolean {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const callKey = useCallKey();
  const [query] = useState(() => overviewQuery(bridge, callKey, input));
  // Sent while this render is still going (the answer is usually back before it ends), not after it is committed.
  usePrefetchQuery(query);
  const [waiting, setWaiting] = useState(() => queryClient.getQueryData(query.queryKey) === undefined);
  useEffect(() => {
    if (!waiting) return;
    let done = false;
    const stop = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      setWaiting(false);
    };
    const timer = setTimeout(stop, maxWaitMs);
    queryClient.prefetchQuery(query).then(stop, stop);
    return () => {
      done = true;
      clearTimeout(timer);
    };
  }, [waiting, maxWaitMs, query, queryClient]);
  return !waiting;
}

/**
 * The Overview's six panels. One call brings every panel the engine has cached for the filters, so a warm Overview
 * draws once, as soon as that answer lands; only the panels it lacks are then asked for with their own calls (which
 * wait on the tenant and fill in one by one). A panel's own answer, when newer (the Refresh button), wins.
 */
export function useOverview(input: Input): OverviewPanels {
  const bridge = useBridge();
  const callKey = useCallKey();
  const snapshot = useQuery({ ...overviewQuery(bridge, callKey, input), placeholderData: keepPreviousData });
  const current = snapshot.data && !snapshot.isPlaceholderData ? snapshot.data : undefined;
  // Until the cached answers are in, the panels' own calls wait (they would ask the tenant for what is cached).
  const settled = current !== undefined || snapshot.isError;
  const previous = snapshot.isPlaceholderData ? snapshot.data : undefined;

  const usePanel = <P extends OverviewPanel>(panel: P): Panel<NonNullable<OverviewAnswer[P]>> => {
    type T = NonNullable<OverviewAnswer[P]>;
    const cached = (current?.[panel] ?? undefined) as T | undefined;
    // The six calls take the same input; one of them stands for all in the types (the answer is `T` for this one).
    const own = useAnalytics(OVERVIEW_PANELS[panel] as 'analytics.kpis', input, { enabled: settled && !cached });
    const ownData = own.data as unknown as T | undefined;
    const fresh = newer(own.isPlaceholderData ? undefined : ownData, cached);
    const stand = fresh ?? (own.isPlaceholderData ? ownData : undefined) ?? (previous?.[panel] as T | undefined);
    const error = fresh ? null : own.error;
    return {
      data: stand,
      isPlaceholderData: !fresh && stand !== undefined,
      isLoading: stand === undefined && !error,
      error,
      refetch: () => void own.refetch(),
    };
  };

  // Always the same six hooks, in the same order.
  return {
    kpis: usePanel('kpis'),
    activity: usePanel('activity'),
    topMentors: usePanel('topMentors'),
    topics: usePanel('topics'),
    sentiment: usePanel('sentiment'),
    costs: usePanel('costs'),
  };
}
