import { SimpleGrid, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import type { Kpi } from '../../../shared/contract';
import { formatChange, formatKpi } from './format';
import classes from './Overview.module.css';
import { isTenantDown, LoadError, useTenantReach } from './PanelState';

/** Costs going up is not good news: the change badge reads accordingly. */
const UP_IS_GOOD: Record<Kpi['key'], boolean> = {
  activeUsers: true,
  registeredUsers: true,
  sessions: true,
  messages: true,
  avgMessages: true,
  ratings: true,
  cost: false,
  completions: true,
  completionRate: true,
  averageGrade: true,
};

/**
 * One key figure (plain elements: the Overview draws seven at once each time it opens). Its label carries the
 * figure's definition as a tooltip (focusable, for the keyboard); a note says why there is no change, or what a
 * partial period is compared with.
 */
export function KpiCard({ kpi, showNote = true }: { kpi: Kpi; showNote?: boolean }) {
  const good = kpi.change === null || kpi.change === 0 ? null : kpi.change > 0 === UP_IS_GOOD[kpi.key];
  const id = `kpi-definition-${kpi.key}`;
  return (
    <div className={classes.kpi} data-testid={`kpi-${kpi.key}`}>
      <Tooltip
        label={kpi.definition}
        multiline
        w={300}
        withArrow
        openDelay={150}
        events={{ hover: true, focus: true, touch: true }}
      >
        <p className={classes.kpiLabel} tabIndex={0} aria-describedby={id} data-testid="kpi-label">
          {kpi.label}
          <span id={id} hidden>
            {kpi.definition}
          </span>
        </p>
      </Tooltip>
      <p className={classes.kpiValue} data-testid="kpi-value">
        {formatKpi(kpi, kpi.value)}
      </p>
      <div className={classes.kpiChange} title={kpi.note ?? undefined}>
        <strong data-testid="kpi-change" data-good={good === null ? undefined : String(good)}>
          {formatChange(kpi.change, kpi.previous, !!kpi.note)}
        </strong>
        {kpi.previous !== null ? <span>vs {formatKpi(kpi, kpi.previous)} before</span> : null}
      </div>
      {kpi.note && showNote ? (
        <p className={classes.kpiNote} data-testid="kpi-note">
          {kpi.note}
        </p>
      ) : null}
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
  // The tenant out of reach: the page says so once, in its banner; the cards stay as quiet placeholders.
  const unavailable = useTenantReach().down && !kpis && isTenantDown(error);
  if (!kpis && error && !unavailable) {
    return <LoadError title="The key figures could not be loaded" error={error} onRetry={onRetry} />;
  }
  // A note several cards share ("so far today, against yesterday until 19:31") is said once, under the cards.
  const byNote = new Map<string, string[]>();
  for (const kpi of kpis ?? []) if (kpi.note) byNote.set(kpi.note, [...(byNote.get(kpi.note) ?? []), kpi.label]);
  const shared = [...byNote].filter(([, labels]) => labels.length > 1);
  return (
    <Stack gap={6}>
      <SimpleGrid
        cols={{ base: 2, sm: 3, lg: count > 5 ? 4 : count, xl: count }}
        spacing="sm"
        data-testid="kpis"
        data-state={kpis ? 'ready' : unavailable ? 'unavailable' : 'loading'}
      >
        {kpis
          ? kpis.map((kpi) => (
              <KpiCard
                key={`${kpi.key}-${kpi.label}`}
                kpi={kpi}
                showNote={!shared.some(([note]) => note === kpi.note)}
              />
            ))
          : unavailable
            ? Array.from({ length: count }, (_, i) => (
                <div key={i} className={classes.kpi} aria-hidden>
                  <p className={classes.kpiValue} style={{ color: 'var(--mantine-color-dimmed)' }}>
                    —
                  </p>
                </div>
              ))
            : Array.from({ length: count }, (_, i) => <Skeleton key={i} height={92} radius="md" visible={loading} />)}
      </SimpleGrid>
      {shared.map(([note, labels]) => (
        <Text key={note} size="xs" c="dimmed" data-testid="kpi-shared-note">
          {labels.length === kpis?.length
            ? note
            : `${labels.join(', ')}: ${note.charAt(0).toLowerCase()}${note.slice(1)}`}
        </Text>
      ))}
    </Stack>
  );
}
