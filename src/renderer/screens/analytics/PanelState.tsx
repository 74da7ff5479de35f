import { Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import { BridgeCallError } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { NOT_AVAILABLE_OFFLINE } from '../../components/FreshnessBar';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { isUnreachable } from '../../components/nextStep';
import { useTenantReach as useAppTenantReach } from '../../tenants/useTenantReach';

export type PanelState = 'loading' | 'error' | 'empty' | 'ready' | 'unavailable';

/**
 * A skeleton until the first answer, the error if it failed, else the rows or "empty". `unavailable`: the tenant
 * cannot be reached and the page says so once, in its banner, rather than in every panel.
 */
export function panelState(
  loading: boolean,
  error: unknown,
  rows: readonly unknown[] | undefined,
  unavailable = false,
): PanelState {
  if (loading && !rows) return 'loading';
  if (error && !rows) return unavailable && isTenantDown(error) ? 'unavailable' : 'error';
  return !rows?.length ? 'empty' : 'ready';
}

/**
 * A failure of the tenant itself rather than of one question: out of reach, or answering 5xx/429 to everything
 * (what the engine's cache also treats as "serve the last answer").
 */
export function isTenantDown(error: unknown): boolean {
  if (!(error instanceof BridgeCallError)) return false;
  if (error.code === 'unreachable') return true;
  const { status } = error;
  return error.code === 'api' && status !== undefined && (status >= 500 || status === 429);
}

/**
 * What a page of analytics knows about its tenant from its panels: the failure to show once (`down`, for panels
 * with nothing to show), and why exports are off (`exportsOff`: the tenant down, or the page showing saved figures
 * because it is offline). Exports ask the tenant, so they would only wait.
 */
export function tenantReach(panels: { error: unknown; hasData: boolean; offline?: string | null | undefined }[]) {
  const down = panels.find((p) => !p.hasData && isTenantDown(p.error))?.error ?? null;
  const offline = panels.find((p) => p.offline)?.offline ?? null;
  const exportsOff = down
    ? `Exports are off while the tenant cannot be reached: ${errorMessage(down)}`
    : offline
      ? `Exports are off while the tenant cannot be reached: ${offline}`
      : null;
  return { down, exportsOff };
}

/**
 * The last analytics question that failed because the tenant is down, on any tab (the query cache keeps it until it is
 * asked again): the Exports tab has no figures of its own to find out with.
 */
export function useTenantDownAnywhere(): unknown {
  const queryClient = useQueryClient();
  const cache = queryClient.getQueryCache();
  const subscribe = useCallback((changed: () => void) => cache.subscribe(changed), [cache]);
  return useSyncExternalStore(subscribe, () => {
    const failed = cache.findAll({
      predicate: (query) =>
        String(query.queryKey[0]).startsWith('analytics.') &&
        query.state.status === 'error' &&
        isTenantDown(query.state.error),
    });
    return failed[0]?.state.error ?? null;
  });
}

/** What a tab found out about its tenant (see `tenantReach`), for the panels and export buttons inside it. */
export const TenantReach = createContext<{ down: boolean; exportsOff: string | null }>({
  down: false,
  exportsOff: null,
});
export const useTenantReach = () => useContext(TenantReach);

/**
 * The tenant cannot be reached: said once for the page, with one way to ask again (every question that failed). Out of
 * reach while the app's banner says so (with its own Check again), nothing more is said here.
 */
export function TenantDownBanner({ error }: { error: unknown }) {
  const queryClient = useQueryClient();
  const bannerSaysWhy = useAppTenantReach().unreachable && isUnreachable(error);
  const onRetry = () => void queryClient.refetchQueries({ predicate: (query) => query.state.status === 'error' });
  if (bannerSaysWhy) return null;
  return (
    <LoadErrorAlert title="The tenant cannot be reached" error={error} onRetry={onRetry} data-testid="tenant-down">
      {' The figures appear once it answers; exports are off until then.'}
    </LoadErrorAlert>
  );
}

/** A panel with nothing to show while the tenant is down (the app's or the page's banner says why). */
export function Unavailable({ height }: { height: number }) {
  const offline = useAppTenantReach().unreachable;
  return (
    <div
      style={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
      data-testid="panel-unavailable"
    >
      <Text c="dimmed" size="sm" ta="center" px="md">
        {offline ? NOT_AVAILABLE_OFFLINE : 'Not available while the tenant is not answering.'}
      </Text>
    </div>
  );
}

/** A panel that could not be loaded: why, and a way to ask again. */
export function LoadError({ title, error, onRetry }: { title: string; error: unknown; onRetry(): void }) {
  return <LoadErrorAlert title={title} error={error} onRetry={onRetry} />;
}
