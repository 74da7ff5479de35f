import { SimpleGrid, Skeleton } from '@mantine/core';
import type { Kpi } from '../../../shared/contract';
import { formatChange, formatKpi } from './format';
import classes from './Overview.module.css';
import { LoadError } from './PanelState';

/** Costs going up is not good news: the change badge reads accordingly. */
const UP_IS_GOOD: Record<Kpi['key'], boolean> = {
  activeUsers: true,
  registeredUsers: true,
  sessions: true,
  messages: true,
  avgMessages: true,
  ratings: true,
  cost: false,
};

/** One key figure (plain elements: the Overview draws seven at once each time it opens). */
export function KpiCard({ kpi }: { kpi: Kpi }) {
  const good = kpi.change === null || kpi.change === 0 ? null : kpi.change > 0 === UP_IS_GOOD[kpi.key];
  return (
    <div className={classes.kpi} data-testid={`kpi-${kpi.key}`}>
      <p className={classes.kpiLabel}>{kpi.label}</p>
      <p className={classes.kpiValue} data-testid="kpi-value">
        {formatKpi(kpi, kpi.value)}
      </p>
      <div className={classes.kpiChange}>
        <strong data-testid="kpi-change" data-good={good === null ? undefined : String(good)}>
          {formatChange(kpi.change)}
        </strong>
        {kpi.previous !== null ? <span>vs {formatKpi(kpi, kpi.previous)} before</span> : null}
      </div>
    </div>
  );
}

export function KpiGrid({
  kpis,
  loading,
  error,
  onRetry,
  count = 7,
}: {
  kpis: Kpi[] | undefined;
  loading: boolean;
  error: unknown;
  onRetry(): void;
  count?: number;
}) {
  if (!kpis && error) {
    return <LoadError title="The key figures could not be loaded" error={error} onRetry={onRetry} />;
  }
  return (
    <SimpleGrid
      cols={{ base: 2, sm: 3, lg: count > 5 ? 4 : count, xl: count }}
      spacing="sm"
      data-testid="kpis"
      data-state={kpis ? 'ready' : 'loading'}
    >
      {kpis
        ? kpis.map((kpi) => <KpiCard key={`${kpi.key}-${kpi.label}`} kpi={kpi} />)
        : Array.from({ length: count }, (_, i) => <Skeleton key={i} height={92} radius="md" visible={loading} />)}
    </SimpleGrid>
  );
}
