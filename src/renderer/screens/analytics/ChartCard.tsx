import { Skeleton, Stack, Text } from '@mantine/core';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import {
  CHART_COLUMNS,
  CHART_TITLES,
  datasetFilters,
  findDataset,
  type ChartId,
  type Freshness,
  type TableRow,
} from '../../../shared/contract';
import { useBridge } from '../../bridge/BridgeContext';
import { errorMessage } from '../../bridge/errors';
import { DataTable } from './DataTable';
import { useDashboardFilters } from './DashboardFilters';
import { ExportStatus } from './ExportStatus';
import { ChartIcon, ExportIcon, TableIcon } from './icons';
import classes from './Overview.module.css';
import { LoadError, panelState, Unavailable, useTenantReach } from './PanelState';

interface ChartCardProps {
  chart: ChartId;
  loading: boolean;
  error: unknown;
  /** The chart's table; empty → the empty state. */
  rows: TableRow[] | undefined;
  notes?: string[] | undefined;
  freshness?: Freshness | undefined;
  onRetry(): void;
  /** Draws the chart at the card's size (known before the first paint: no extra frame to measure). */
  children: (size: { width: number; height: number }) => ReactNode;
  height?: number;
  empty?: string;
  /** What to try when it is empty; none when null. */
  hint?: string | null;
  /** Whose data, for a learner's chart (exported with it). */
  learner?: string;
}

/**
 * A chart with its skeleton, empty and error states, "view as table" and "export CSV" (the table behind the chart,
 * exported as a job with the current range, zone and filters, and the learner of a learner's chart).
 */
export function ChartCard({
  chart,
  loading,
  error,
  rows,
  notes,
  onRetry,
  children,
  height = 260,
  empty,
  hint = 'Try a longer range or another mentor.',
  learner,
}: ChartCardProps) {
  const bridge = useBridge();
  const { input } = useDashboardFilters();
  const [asTable, setAsTable] = useState(false);
  const [exportId, setExportId] = useState<string | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const title = CHART_TITLES[chart];
  const reach = useTenantReach();
  const state = panelState(loading, error, rows, reach.down);

  async function exportCsv() {
    setExportError(null);
    const dataset = findDataset(`chart.${chart}`)!;
    try {
      const started = await bridge.call('analytics.exportStart', {
        dataset: dataset.id,
        range: input.range,
        timeZone: input.timeZone,
        ...datasetFilters(dataset, input),
        ...(dataset.perLearner && learner ? { learner } : {}),
      });
      setExportId(started.id);
    } catch (e) {
      setExportError(errorMessage(e));
    }
  }

  // Plain elements with the look of Mantine's Card, Title and subtle Buttons: six cards are drawn at once.
  return (
    <div className={classes.card} data-testid={`chart-${chart}`} data-state={state} aria-busy={state === 'loading'}>
      <div className={classes.head}>
        <h4 className={classes.title}>{title}</h4>
        <div className={classes.actions}>
          <button
            type="button"
            className={classes.action}
            title={asTable ? 'Show the chart' : 'Show the numbers as a table'}
            onClick={() => setAsTable((t) => !t)}
            disabled={state !== 'ready'}
          >
            {asTable ? <ChartIcon size={14} /> : <TableIcon size={14} />}
            {asTable ? 'View as chart' : 'View as table'}
          </button>
          <button
            type="button"
            className={classes.action}
            onClick={() => void exportCsv()}
            disabled={state === 'loading' || !!reach.exportsOff}
            title={reach.exportsOff ?? undefined}
          >
            <ExportIcon size={14} />
            Export CSV
          </button>
        </div>
      </div>
      <div className={classes.body}>
        {state === 'loading' ? (
          <Skeleton height={height} radius="sm" data-testid="chart-skeleton" />
        ) : state === 'unavailable' ? (
          <Unavailable height={Math.min(height, 160)} />
        ) : state === 'error' ? (
          <LoadError title={`${title} could not be loaded`} error={error} onRetry={onRetry} />
        ) : state === 'empty' ? (
          <Stack h={Math.min(height, 160)} align="center" justify="center" gap={4} data-testid="chart-empty">
            <Text c="dimmed" size="sm">
              {empty ?? 'No data in this range.'}
            </Text>
            {hint ? (
              <Text c="dimmed" size="xs">
                {hint}
              </Text>
            ) : null}
          </Stack>
        ) : asTable ? (
          <DataTable columns={CHART_COLUMNS[chart]} rows={rows ?? []} caption={title} />
        ) : (
          <ChartArea height={height}>{children}</ChartArea>
        )}
        {notes?.map((note) => (
          <p key={note} className={classes.note}>
            {note}
          </p>
        ))}
        {exportId ? <ExportStatus id={exportId} compact /> : null}
        {exportError ? (
          <Text size="xs" c="red" role="alert">
            {exportError}
          </Text>
        ) : null}
      </div>
    </div>
  );
}

/**
 * The chart's box: its width is read once before the first paint, then followed with a ResizeObserver. Charts get
 * a fixed size, so they draw in the same frame as the card instead of waiting for a measuring pass each.
 */
function ChartArea({
  height,
  children,
}: {
  height: number;
  children: (size: { width: number; height: number }) => ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(Math.floor(element.getBoundingClientRect().width));
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} style={{ height, width: '100%' }}>
      {width > 0 ? children({ width, height }) : null}
    </div>
  );
}
