/** The range, zone and filters every analytics tab shares, kept while the admin moves between tabs. */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { localTimeZone, type CallName, type DateRange } from '../../../shared/contract';
import { useBridge } from '../../bridge/BridgeContext';

export interface Filters {
  range: DateRange;
  timeZone: string;
  mentor: string | null;
  department: number | null;
}

interface FiltersState {
  filters: Filters;
  setFilters(patch: Partial<Filters>): void;
  /** The input of every dashboard call for the current filters. */
  input: { range: DateRange; timeZone: string; mentor?: string; department?: number };
  /** Asks the tenant again for everything on screen. */
  refresh(): Promise<void>;
  refreshing: boolean;
}

const FiltersContext = createContext<FiltersState | null>(null);

export const DEFAULT_FILTERS: Filters = {
  range: { preset: '30d' },
  timeZone: localTimeZone(),
  mentor: null,
  department: null,
};

/** Calls that read dashboards (not exports or schedules). */
const DASHBOARD_CALLS = new Set<string>([
  'analytics.kpis',
  'analytics.activity',
  'analytics.topMentors',
  'analytics.topics',
  'analytics.sentiment',
  'analytics.costs',
  'analytics.conversations',
  'analytics.learning',
  'analytics.learners',
  'analytics.learner',
  'analytics.filters',
]);

export function DashboardFiltersProvider({ children }: { children: ReactNode }) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const [filters, set] = useState<Filters>(DEFAULT_FILTERS);
  const [refreshing, setRefreshing] = useState(false);
  const setFilters = useCallback((patch: Partial<Filters>) => set((current) => ({ ...current, ...patch })), []);
  const refresh = useCallback(async () => {
    setRefreshing(true);
    try {
      const onScreen = queryClient
        .getQueryCache()
        .findAll({ predicate: (q) => DASHBOARD_CALLS.has(String(q.queryKey[0])) && q.getObserversCount() > 0 });
      await Promise.all(
        onScreen.map(async (query) => {
          const name = String(query.queryKey[0]) as CallName;
          const input = { ...(query.queryKey[1] as object), refresh: true };
          try {
            queryClient.setQueryData(query.queryKey, await bridge.call(name, input as never));
          } catch {
            // The query keeps its answer; its own error state shows on the next fetch.
          }
        }),
      );
    } finally {
      setRefreshing(false);
    }
  }, [bridge, queryClient]);
  const value = useMemo<FiltersState>(
    () => ({
      filters,
      setFilters,
      refresh,
      refreshing,
      input: {
        range: filters.range,
        timeZone: filters.timeZone,
        ...(filters.mentor ? { mentor: filters.mentor } : {}),
        ...(filters.department ? { department: filters.department } : {}),
      },
    }),
    [filters, setFilters, refresh, refreshing],
  );
  return <FiltersContext.Provider value={value}>{children}</FiltersContext.Provider>;
}

export function useDashboardFilters(): FiltersState {
  const state = useContext(FiltersContext);
  if (!state) throw new Error('useDashboardFilters must be used inside <DashboardFiltersProvider>');
  return state;
}
