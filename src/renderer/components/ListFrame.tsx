import { ActionIcon, Group, Paper, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { Freshness } from '../../shared/contract';
import { FreshnessNote, OfflineBanner } from './FreshnessBar';
import { ChevronLeftIcon, ChevronRightIcon } from './icons';
import { LoadErrorAlert } from './LoadErrorAlert';
import classes from './ListFrame.module.css';

/** The empty state: why the list is empty and, when there is one, the way to fill it. */
export interface ListEmpty {
  message: ReactNode;
  icon?: ReactNode;
  action?: ReactNode;
}

export interface ListFrameProps {
  /** What is listed, in the plural ("mentors"): the refresh button's and the loading state's names. */
  what: string;
  /** The search box and the filters, at the toolbar's start. */
  toolbarStart?: ReactNode;
  /** Tools and actions at the toolbar's end, before the count and the as-of time. */
  toolbarEnd?: ReactNode;
  /** "12 mentors". */
  count?: ReactNode;
  /** Where the list came from and when: the as-of time in the toolbar, the offline banner above the box. */
  freshness?: Freshness | undefined;
  /** Reads the list again from the tenant; without it there is no as-of time or refresh button. */
  refresh?: { refreshing: boolean; onRefresh(): void } | undefined;
  /** Notes above the box, after the offline banner. */
  banners?: ReactNode;
  /** Inside the box under the toolbar (a selection's actions, a drop zone). */
  beforeBody?: ReactNode;
  loading?: boolean;
  /** The list could not be read: said the way every screen says it, with Try again. */
  error?: { title: string; error: unknown; onRetry(): void } | null | undefined;
  /** Shown instead of the table when set. */
  empty?: ListEmpty | null | undefined;
  /** The table, when there are rows (kept under an error alert: the rows of the last read that worked). */
  children?: ReactNode;
  /** Under the table: paging, notes. */
  footer?: ReactNode;
}

/**
 * One frame for every list screen, so their toolbars, spacing and their empty, error, loading and offline states
 * look and behave the same: a toolbar (search and filters at the start; tools, count and as-of time at the end),
 * the offline banner above the box, and the table in a sideways scroller that shows when columns are clipped.
 */
export function ListFrame({
  what,
  toolbarStart,
  toolbarEnd,
  count,
  freshness,
  refresh,
  banners,
  beforeBody,
  loading = false,
  error,
  empty,
  children,
  footer,
}: ListFrameProps) {
  return (
    <Stack gap="md" data-testid="list-frame">
      <OfflineBanner freshness={freshness} />
      {banners}
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm" data-testid="list-toolbar">
            <Group gap="sm" wrap="wrap" align="flex-end" style={{ flex: '1 1 auto' }}>
              {toolbarStart}
            </Group>
            {/* Wrapped under the search on a narrow window, the tools keep to the right. */}
            {/* As tall as an input: the count and the as-of time stand level with the search box's middle. */}
            <Group gap="md" wrap="wrap" justify="flex-end" align="center" ml="auto" mih={36}>
              {toolbarEnd}
              {count !== undefined && (
                <Text size="xs" c="dimmed" data-testid="list-count">
                  {count}
                </Text>
              )}
              {refresh && (
                <FreshnessNote
                  freshness={freshness}
                  refreshing={refresh.refreshing}
                  onRefresh={refresh.onRefresh}
                  what={what}
                />
              )}
            </Group>
          </Group>
          {beforeBody}
          {loading && (
            <Stack gap="xs" aria-busy="true" aria-label={`Loading ${what}`}>
              {[0, 1, 2].map((row) => (
                <Skeleton key={row} height={40} radius="sm" />
              ))}
            </Stack>
          )}
          {error && <LoadErrorAlert title={error.title} error={error.error} onRetry={error.onRetry} />}
          {!loading && !error && empty && <EmptyState {...empty} />}
          {/* A read that failed after an earlier one keeps its rows on screen under the alert. */}
          {!loading && !empty && children}
          {footer}
        </Stack>
      </Paper>
    </Stack>
  );
}

/** The list has nothing to show: the same dashed box on every screen, the message at the start, the action at the end. */
export function EmptyState({ message, icon, action }: ListEmpty) {
  return (
    <Group
      gap="md"
      p="lg"
      wrap="wrap"
      justify="space-between"
      bd="1px dashed var(--mantine-color-default-border)"
      style={{ borderRadius: 8 }}
      data-testid="list-empty"
    >
      <Group gap="md" wrap="nowrap" style={{ flex: '1 1 240px' }}>
        {icon && (
          <Text span c="dimmed" aria-hidden="true" style={{ display: 'flex' }}>
            {icon}
          </Text>
        )}
        <Text size="sm" c="dimmed" data-testid="list-empty-message">
          {message}
        </Text>
      </Group>
      {action}
    </Group>
  );
}

/**
 * The table area: scrolls sideways when the table is wider than its box (never squeezed under `minWidth`), with a
 * visible scrollbar, a shade at each clipped edge, a keyboard stop so the arrow keys scroll it, and, above the table
 * while columns are clipped, a note saying so with buttons that scroll it (the scrollbar under a long table is often
 * below the window's edge).
 */
export function ListTableArea({ minWidth, label, children }: { minWidth: number; label: string; children: ReactNode }) {
  const scroller = useRef<HTMLDivElement>(null);
  const observer = useRef<ResizeObserver | null>(null);
  const [clipped, setClipped] = useState({ start: false, end: false });
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () => {
      const hidden = element.scrollWidth - element.clientWidth;
      const start = hidden > 1 && element.scrollLeft > 1;
      const end = hidden > 1 && element.scrollLeft < hidden - 1;
      setClipped((now) => (now.start === start && now.end === end ? now : { start, end }));
    };
    element.addEventListener('scroll', measure, { passive: true });
    // The box narrows with the window; the table widens as rows with longer cells arrive.
    observer.current = new ResizeObserver(measure);
    observer.current.observe(element);
    return () => {
      element.removeEventListener('scroll', measure);
      observer.current?.disconnect();
    };
  }, []);
  // A table drawn anew (another page, other columns) is watched too; observing one twice is a no-op.
  useEffect(() => {
    for (const table of scroller.current?.querySelectorAll('table') ?? []) observer.current?.observe(table);
  });
  const scrolls = clipped.start || clipped.end;
  const scrollBy = (direction: 1 | -1) => {
    const element = scroller.current;
    element?.scrollBy({ left: direction * Math.max(120, element.clientWidth * 0.6), behavior: 'smooth' });
  };
  return (
    <>
      {scrolls && (
        <Group gap={6} justify="flex-end" wrap="nowrap" data-testid="list-scroll-note">
          <Text size="xs" c="dimmed">
            {clipped.end ? 'More columns to the right' : 'More columns to the left'}
          </Text>
          <Tooltip label="Scroll left" withArrow>
            <ActionIcon
              variant="default"
              size="sm"
              aria-label={`Scroll ${label} left`}
              disabled={!clipped.start}
              onClick={() => scrollBy(-1)}
            >
              <ChevronLeftIcon size={14} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Scroll right" withArrow>
            <ActionIcon
              variant="default"
              size="sm"
              aria-label={`Scroll ${label} right`}
              disabled={!clipped.end}
              onClick={() => scrollBy(1)}
            >
              <ChevronRightIcon size={14} />
            </ActionIcon>
          </Tooltip>
        </Group>
      )}
      <div
        className={classes.frame}
        data-testid="list-table-area"
        data-clipped-start={clipped.start || undefined}
        data-clipped-end={clipped.end || undefined}
      >
        <div
          ref={scroller}
          className={classes.scroller}
          // A region that scrolls is reachable by keyboard (then the arrow keys move it); one that fits is not a stop.
          tabIndex={scrolls ? 0 : undefined}
          role={scrolls ? 'region' : undefined}
          aria-label={scrolls ? `${label}, scrolls sideways` : undefined}
        >
          <div style={{ minWidth }}>{children}</div>
        </div>
      </div>
    </>
  );
}
