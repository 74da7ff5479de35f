import { ActionIcon, Badge, Box, Group, Loader, Pagination, Text, TextInput, Tooltip } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import {
  INVITE_FIELD_LABELS,
  INVITE_FIELDS,
  type ImportDraft,
  type ImportRow,
  type InviteField,
  type RowFilter,
} from '../../../../shared/contract';
import { useBridge } from '../../../bridge/BridgeContext';
import { notifyError } from '../../../components/notify';
import { callKey, useCall, useMutationCall } from '../../../queries/useCall';
import { asLabel, formatCount } from '../../../lib/format';

/** Fixed row height: the virtualizer renders only the rows in view. */
const ROW_HEIGHT = 40;
const HEADER_HEIGHT = 38;
/**
 * Rows per page of the grid: 100,000 × 40 px = 4 M px, well under the tallest element Chromium lays out (~33.5 M px),
 * so every row of a page can be scrolled to; a million rows are ten pages.
 */
export const GRID_PAGE_ROWS = 100_000;
/** The leave-out column stays in view when the grid scrolls sideways. */
const STICKY_END = {
  position: 'sticky' as const,
  right: 0,
  height: '100%',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  background: 'var(--mantine-color-body)',
};

/** Rows fetched from the engine at a time. */
const BLOCK = 100;

const STATUS: Record<ImportRow['status'], { label: string; color: string }> = {
  ok: { label: 'ready', color: 'teal' },
  invalid: { label: 'invalid', color: 'red' },
  duplicate: { label: 'duplicate', color: 'orange' },
  already_invited: { label: 'already invited', color: 'gray' },
  already_member: { label: 'already a member', color: 'gray' },
};

/** Why a row has its status, in words: every problem with the field it is about, or what "ready" means. */
export function statusReason(row: ImportRow): string {
  if (row.dropped) return 'Left out: not sent';
  const problems = row.problems.map((p) => (p.field ? `${INVITE_FIELD_LABELS[p.field]}: ${p.message}` : p.message));
  if (row.status === 'duplicate' && row.duplicateOf) problems.push(`The same address as row ${row.duplicateOf}`);
  if (problems.length) return problems.join(' · ');
  switch (row.status) {
    case 'ok':
      return 'Ready: will be emailed an invitation';
    case 'already_invited':
      return 'Already holds a live invitation: not sent again';
    case 'already_member':
      return 'Already a member: not invited';
    default:
      return STATUS[row.status].label;
  }
}

/** The rows of an import, virtualized and paged: each cell can be fixed in place, each row dropped or brought back. */
export function RowsGrid({ draft, filter }: { draft: ImportDraft; filter: RowFilter }) {
  const bridge = useBridge();
  const viewport = useRef<HTMLDivElement>(null);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<{ line: number; field: InviteField } | null>(null);
  // The grid is one tab stop: this cell (row index in the page, column) takes the focus; arrow keys move it.
  const [cursor, setCursor] = useState({ index: 0, column: 0 });
  const moved = useRef(false);
  const edit = useMutationCall('invitations.importEditRow');
  const drop = useMutationCall('invitations.importDropRows');
  // The mapped fields, email first, in the order of the invitation's fields.
  const mapped = new Set(draft.columns.map((c) => c.field));
  const fields = INVITE_FIELDS.filter((field) => field === 'email' || mapped.has(field));

  // The first block carries the total.
  const first = useCall('invitations.importRows', { id: draft.id, filter, offset: 0, limit: BLOCK });
  const total = first.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / GRID_PAGE_ROWS));
  const current = Math.min(page, pages);
  const pageStart = (current - 1) * GRID_PAGE_ROWS;
  const pageRows = Math.max(0, Math.min(GRID_PAGE_ROWS, total - pageStart));

  // The app is not built with the React Compiler, whose memoization this rule guards: nothing memoizes the grid.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: pageRows,
    getScrollElement: () => viewport.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    scrollMargin: HEADER_HEIGHT,
  });
  const items = virtualizer.getVirtualItems();

  // Another page: start at its top (another filter is another grid: see ReviewStep).
  useEffect(() => {
    viewport.current?.scrollTo({ top: 0 });
  }, [current]);

  const blocks = new Set<number>();
  for (const item of items) blocks.add(Math.floor((pageStart + item.index) / BLOCK));
  const inputFor = (block: number) => ({ id: draft.id, filter, offset: block * BLOCK, limit: BLOCK });
  const loaded = useQueries({
    queries: [...blocks].map((block) => ({
      queryKey: callKey('invitations.importRows', inputFor(block)),
      queryFn: () => bridge.call('invitations.importRows', inputFor(block)),
    })),
  });
  const byBlock = new Map([...blocks].map((block, i) => [block, loaded[i]?.data]));
  const rowAt = (index: number) => byBlock.get(Math.floor(index / BLOCK))?.rows[index % BLOCK];
  // Focusable columns: the status, each field, the leave-out button.
  const lastColumn = fields.length + 1;
  const rendered = items.map((item) => item.index);
  const tabStop = rendered.includes(cursor.index) ? cursor : { index: rendered[0] ?? 0, column: cursor.column };
  const cellProps = (index: number, column: number) => ({
    'data-cell': `${index}:${column}`,
    tabIndex: tabStop.index === index && tabStop.column === column ? 0 : -1,
    onFocus: () => {
      if (cursor.index !== index || cursor.column !== column) setCursor({ index, column });
    },
  });
  const onGridKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (editing || (event.target as HTMLElement).tagName === 'INPUT') return;
    const page = Math.max(1, Math.floor((viewport.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const moves: Record<string, () => { index: number; column: number }> = {
      ArrowDown: () => ({ ...tabStop, index: tabStop.index + 1 }),
      ArrowUp: () => ({ ...tabStop, index: tabStop.index - 1 }),
      ArrowRight: () => ({ ...tabStop, column: tabStop.column + 1 }),
      ArrowLeft: () => ({ ...tabStop, column: tabStop.column - 1 }),
      PageDown: () => ({ ...tabStop, index: tabStop.index + page }),
      PageUp: () => ({ ...tabStop, index: tabStop.index - page }),
      Home: () => (event.ctrlKey ? { index: 0, column: 0 } : { ...tabStop, column: 0 }),
      End: () => (event.ctrlKey ? { index: pageRows - 1, column: lastColumn } : { ...tabStop, column: lastColumn }),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const next = move();
    const index = Math.max(0, Math.min(pageRows - 1, next.index));
    const column = Math.max(0, Math.min(lastColumn, next.column));
    moved.current = true;
    setCursor({ index, column });
    virtualizer.scrollToIndex(index, { align: 'auto' });
  };
  // After a move by keyboard, the focus follows the cursor once its row is rendered.
  useEffect(() => {
    if (!moved.current) return;
    const cell = viewport.current?.querySelector<HTMLElement>(`[data-cell="${cursor.index}:${cursor.column}"]`);
    if (cell) {
      moved.current = false;
      cell.focus();
    }
  });

  const columns = `64px 140px repeat(${fields.length}, minmax(160px, 1fr)) 48px`;
  const minWidth = 64 + 140 + fields.length * 160 + 48 + (fields.length + 3) * 8 + 24;

  const save = (row: ImportRow, field: InviteField, value: string) => {
    setEditing(null);
    if (value === row.values[field]) return;
    edit.mutate(
      { id: draft.id, line: row.line, field, value },
      { onError: (error) => notifyError('Not saved', error) },
    );
  };
  const keys = (row: ImportRow, field: InviteField) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' && event.key !== 'Escape') return;
    // Back to the cell, for the keyboard to go on from there.
    moved.current = true;
    if (event.key === 'Enter') save(row, field, event.currentTarget.value);
    else setEditing(null);
  };

  if (first.isPending) return <Loader size="sm" />;
  if (!total) return <Text c="dimmed">No rows here.</Text>;
  const shownFirst = pageStart + 1;
  const shownLast = pageStart + pageRows;
  return (
    <Box>
      <Box
        ref={viewport}
        data-testid="rows-viewport"
        role="grid"
        aria-label="Rows of the file"
        onKeyDown={onGridKey}
        aria-rowcount={total + 1}
        style={{
          height: 'clamp(240px, calc(100dvh - 430px), 560px)',
          overflow: 'auto',
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 8,
        }}
      >
        <div
          style={{ minWidth, width: '100%', height: virtualizer.getTotalSize() + HEADER_HEIGHT, position: 'relative' }}
        >
          <div
            role="row"
            aria-rowindex={1}
            style={{
              position: 'sticky',
              top: 0,
              zIndex: 1,
              height: HEADER_HEIGHT,
              display: 'grid',
              gridTemplateColumns: columns,
              gap: 8,
              alignItems: 'center',
              padding: '0 12px',
              fontWeight: 600,
              fontSize: 13,
              background: 'var(--mantine-color-body)',
              borderBottom: '1px solid var(--mantine-color-default-border)',
            }}
          >
            <span role="columnheader">Row</span>
            <span role="columnheader">Status</span>
            {fields.map((field) => (
              <span role="columnheader" key={field}>
                {INVITE_FIELD_LABELS[field]}
              </span>
            ))}
            <span role="columnheader" aria-label="Leave out" style={STICKY_END} />
          </div>
          {items.map((item) => {
            const index = pageStart + item.index;
            const row = rowAt(index);
            const style = {
              position: 'absolute' as const,
              top: item.start - virtualizer.options.scrollMargin + HEADER_HEIGHT,
              left: 0,
              right: 0,
              height: ROW_HEIGHT,
              display: 'grid',
              gridTemplateColumns: columns,
              gap: 8,
              alignItems: 'center',
              padding: '0 12px',
              borderTop: item.index ? '1px solid var(--mantine-color-default-border)' : undefined,
              opacity: row?.dropped ? 0.5 : 1,
            };
            if (!row) return <div key={`pending-${index}`} style={style} aria-busy="true" />;
            const status = STATUS[row.status];
            const reason = statusReason(row);
            return (
              <div key={row.line} role="row" style={style} data-testid={`row-${row.line}`} aria-rowindex={index + 2}>
                <Text size="sm" c="dimmed" role="gridcell">
                  {row.line}
                </Text>
                <span role="gridcell">
                  <Tooltip label={reason} multiline maw={360} events={{ hover: true, focus: true, touch: true }}>
                    <Badge
                      color={row.dropped ? 'gray' : status.color}
                      variant="light"
                      data-testid="row-status"
                      {...cellProps(item.index, 0)}
                      aria-label={`Row ${row.line}: ${row.dropped ? 'dropped' : status.label}. ${reason}`}
                    >
                      {asLabel(row.dropped ? 'dropped' : status.label)}
                    </Badge>
                  </Tooltip>
                </span>
                {fields.map((field, f) => {
                  const problem = row.problems.find((p) => p.field === field);
                  if (editing?.line === row.line && editing.field === field) {
                    return (
                      <TextInput
                        key={field}
                        size="xs"
                        autoFocus
                        aria-label={`${INVITE_FIELD_LABELS[field]} of row ${row.line}`}
                        defaultValue={row.values[field]}
                        onKeyDown={keys(row, field)}
                        onBlur={(event) => save(row, field, event.currentTarget.value)}
                      />
                    );
                  }
                  const cell = (
                    <Text
                      key={field}
                      role="gridcell"
                      size="sm"
                      truncate
                      {...cellProps(item.index, f + 1)}
                      aria-label={`Edit ${INVITE_FIELD_LABELS[field]} of row ${row.line}: ${row.values[field] || 'empty'}${problem ? ` (${problem.message})` : ''}`}
                      aria-invalid={problem ? true : undefined}
                      c={problem ? 'red' : undefined}
                      fw={problem ? 600 : undefined}
                      style={{
                        cursor: 'text',
                        borderBottom: problem ? '2px solid var(--mantine-color-red-6)' : '1px dashed transparent',
                        minHeight: 22,
                      }}
                      onClick={() => setEditing({ line: row.line, field })}
                      onKeyDown={(event) => {
                        if (event.key === 'Enter' || event.key === 'F2') setEditing({ line: row.line, field });
                      }}
                    >
                      {row.values[field] || (problem ? '(missing)' : '')}
                    </Text>
                  );
                  // Every cell with a problem says why, on hover and on focus.
                  return problem ? (
                    <Tooltip key={field} label={problem.message} events={{ hover: true, focus: true, touch: true }}>
                      {cell}
                    </Tooltip>
                  ) : (
                    cell
                  );
                })}
                <span role="gridcell" style={STICKY_END}>
                  <Tooltip label={row.dropped ? 'Bring back' : 'Leave out'}>
                    <ActionIcon
                      variant="subtle"
                      color={row.dropped ? 'blue' : 'gray'}
                      aria-label={`${row.dropped ? 'Bring back' : 'Leave out'} row ${row.line}`}
                      {...cellProps(item.index, lastColumn)}
                      onClick={() => drop.mutate({ id: draft.id, lines: [row.line], dropped: !row.dropped })}
                    >
                      {row.dropped ? '↺' : '✕'}
                    </ActionIcon>
                  </Tooltip>
                </span>
              </div>
            );
          })}
        </div>
      </Box>
      <Group justify="space-between" mt="xs" gap="xs" wrap="wrap">
        <Text size="xs" c="dimmed" data-testid="rows-range">
          {pages > 1
            ? `Rows ${formatCount(shownFirst)}–${formatCount(shownLast)} of ${formatCount(total)}`
            : `${formatCount(total)} ${total === 1 ? 'row' : 'rows'}`}
          {' · '}Click a cell, or Enter on it, to fix it (Enter saves, Escape cancels); arrow keys move between cells.
        </Text>
        {pages > 1 && (
          <Pagination
            aria-label="Pages of rows"
            size="sm"
            withEdges
            total={pages}
            value={current}
            onChange={setPage}
            getControlProps={(control) => ({ 'aria-label': `${control} page of rows` })}
            getItemProps={(n) => ({ 'aria-label': `Rows page ${n}` })}
          />
        )}
      </Group>
    </Box>
  );
}
