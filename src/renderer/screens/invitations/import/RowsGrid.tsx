import { ActionIcon, Badge, Box, Loader, Text, TextInput, Tooltip } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { useState, type KeyboardEvent } from 'react';
import {
  INVITE_FIELD_LABELS,
  type ImportDraft,
  type ImportRow,
  type InviteField,
  type RowFilter,
} from '../../../../shared/contract';
import { useBridge } from '../../../bridge/BridgeContext';
import { notifyError } from '../../../components/notify';
import { callKey, useMutationCall } from '../../../queries/useCall';

/** Fixed row height: the grid renders only the rows in view, so a million rows scroll like a hundred. */
const ROW_HEIGHT = 40;
const VIEW_HEIGHT = 440;
const BLOCK = 100;
const OVERSCAN = 6;

const STATUS: Record<ImportRow['status'], { label: string; color: string }> = {
  ok: { label: 'ready', color: 'teal' },
  invalid: { label: 'invalid', color: 'red' },
  duplicate: { label: 'duplicate', color: 'orange' },
  already_invited: { label: 'already invited', color: 'gray' },
  already_member: { label: 'already a member', color: 'gray' },
};

/** The rows of an import, windowed: each cell can be fixed in place, each row dropped or brought back. */
export function RowsGrid({ draft, filter }: { draft: ImportDraft; filter: RowFilter }) {
  const bridge = useBridge();
  const [scrollTop, setScrollTop] = useState(0);
  const [editing, setEditing] = useState<{ line: number; field: InviteField } | null>(null);
  const edit = useMutationCall('invitations.importEditRow');
  const drop = useMutationCall('invitations.importDropRows');
  const fields = draft.columns.map((c) => c.field).filter((f): f is InviteField => !!f);
  if (!fields.includes('email')) fields.unshift('email');

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const visible = Math.ceil(VIEW_HEIGHT / ROW_HEIGHT) + 2 * OVERSCAN;
  const blocks = new Set([0, Math.floor(first / BLOCK), Math.floor((first + visible) / BLOCK)]);
  const inputFor = (block: number) => ({ id: draft.id, filter, offset: block * BLOCK, limit: BLOCK });
  const pages = useQueries({
    queries: [...blocks].map((block) => ({
      queryKey: callKey('invitations.importRows', inputFor(block)),
      queryFn: () => bridge.call('invitations.importRows', inputFor(block)),
      placeholderData: (previous: { rows: ImportRow[]; total: number } | undefined) => previous,
    })),
  });
  const byBlock = new Map([...blocks].map((block, i) => [block, pages[i]?.data]));
  const total = byBlock.get(0)?.total ?? 0;
  const last = Math.min(total, first + visible);
  const rowAt = (index: number) => byBlock.get(Math.floor(index / BLOCK))?.rows[index % BLOCK];
  const columns = `72px 150px repeat(${fields.length}, minmax(150px, 1fr)) 56px`;

  const save = (row: ImportRow, field: InviteField, value: string) => {
    setEditing(null);
    if (value === row.values[field]) return;
    edit.mutate(
      { id: draft.id, line: row.line, field, value },
      { onError: (error) => notifyError('Not saved', error) },
    );
  };
  const keys = (row: ImportRow, field: InviteField) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') save(row, field, event.currentTarget.value);
    if (event.key === 'Escape') setEditing(null);
  };

  if (pages[0]?.isPending) return <Loader size="sm" />;
  if (!total) return <Text c="dimmed">No rows here.</Text>;
  return (
    <Box
      role="grid"
      aria-label="Rows of the file"
      aria-rowcount={total}
      style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
    >
      <Box
        role="row"
        style={{
          display: 'grid',
          gridTemplateColumns: columns,
          gap: 8,
          padding: '8px 12px',
          fontWeight: 600,
          fontSize: 13,
        }}
      >
        <span role="columnheader">Row</span>
        <span role="columnheader">Status</span>
        {fields.map((field) => (
          <span role="columnheader" key={field}>
            {INVITE_FIELD_LABELS[field]}
          </span>
        ))}
        <span role="columnheader" aria-label="Drop" />
      </Box>
      <Box
        data-testid="rows-viewport"
        style={{ height: VIEW_HEIGHT, overflowY: 'auto', position: 'relative' }}
        onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
      >
        <div style={{ height: total * ROW_HEIGHT, position: 'relative' }}>
          {Array.from({ length: Math.max(0, last - first) }, (_, k) => {
            const index = first + k;
            const row = rowAt(index);
            const style = {
              position: 'absolute' as const,
              top: index * ROW_HEIGHT,
              left: 0,
              right: 0,
              height: ROW_HEIGHT,
              display: 'grid',
              gridTemplateColumns: columns,
              gap: 8,
              alignItems: 'center',
              padding: '0 12px',
              borderTop: '1px solid var(--mantine-color-default-border)',
              opacity: row?.dropped ? 0.5 : 1,
            };
            if (!row) return <div key={index} style={style} aria-busy="true" />;
            const rowProblems = row.problems.filter((p) => !p.field).map((p) => p.message);
            const status = STATUS[row.status];
            return (
              <div key={row.line} role="row" style={style} data-testid={`row-${row.line}`} aria-rowindex={index + 1}>
                <Text size="sm" c="dimmed" role="gridcell">
                  {row.line}
                </Text>
                <span role="gridcell">
                  <Tooltip
                    label={
                      row.dropped
                        ? 'Left out: not sent'
                        : [...rowProblems, row.duplicateOf ? `The same address as row ${row.duplicateOf}` : '']
                            .filter(Boolean)
                            .join(' · ') || status.label
                    }
                  >
                    <Badge color={row.dropped ? 'gray' : status.color} variant="light" data-testid="row-status">
                      {row.dropped ? 'dropped' : status.label}
                    </Badge>
                  </Tooltip>
                </span>
                {fields.map((field) => {
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
                  return (
                    <Text
                      key={field}
                      role="gridcell"
                      size="sm"
                      truncate
                      tabIndex={0}
                      aria-label={`Edit ${INVITE_FIELD_LABELS[field]} of row ${row.line}: ${row.values[field] || 'empty'}${problem ? ` (${problem.message})` : ''}`}
                      aria-invalid={problem ? true : undefined}
                      title={problem?.message ?? 'Click to fix'}
                      c={problem ? 'red' : undefined}
                      fw={problem ? 600 : undefined}
                      style={{
                        cursor: 'text',
                        borderBottom: problem ? '2px solid var(--mantine-color-red-6)' : '1px dashed transparent',
                        minHeight: 22,
                      }}
                      onClick={() => setEditing({ line: row.line, field })}
                      onKeyDown={(event) => {
                        if (event.key === 'Enter') setEditing({ line: row.line, field });
                      }}
                    >
                      {row.values[field] || (problem ? '(missing)' : '')}
                    </Text>
                  );
                })}
                <span role="gridcell">
                  <Tooltip label={row.dropped ? 'Bring back' : 'Leave out'}>
                    <ActionIcon
                      variant="subtle"
                      color={row.dropped ? 'blue' : 'gray'}
                      aria-label={`${row.dropped ? 'Bring back' : 'Leave out'} row ${row.line}`}
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
    </Box>
  );
}
