import { Alert, Badge, Button, Group, Progress, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ImportDraft, RowFilter } from '../../../../shared/contract';
import { updateWizard } from '../wizardStore';
import { Notices } from './Notices';
import { RowsGrid } from './RowsGrid';

const FILTERS: { value: RowFilter; label: string }[] = [
  { value: 'all', label: 'All rows' },
  { value: 'problems', label: 'Problems' },
  { value: 'ok', label: 'Ready' },
  { value: 'already', label: 'Already in' },
  { value: 'dropped', label: 'Left out' },
];

/** Every row validated and checked: what will be sent, what will not and why; fix cells, leave rows out. */
export function ReviewStep({ draft }: { draft: ImportDraft }) {
  const [filter, setFilter] = useState<RowFilter>('all');
  const busy = draft.state === 'parsing' || draft.state === 'checking';
  const s = draft.summary;
  const percent = draft.progress.totalBytes ? Math.round((100 * draft.progress.bytes) / draft.progress.totalBytes) : 0;
  return (
    <Stack gap="md">
      {busy && (
        <Stack gap={4} aria-live="polite">
          <Text size="sm">
            {draft.phase || 'Working'}
            {draft.state === 'parsing' ? ` — ${draft.progress.rows.toLocaleString()} rows` : ''}
          </Text>
          <Progress value={draft.state === 'parsing' ? percent : 100} animated size="sm" />
        </Stack>
      )}
      {draft.state === 'failed' && (
        <Alert color="red" title="The file could not be read">
          {draft.error}
        </Alert>
      )}
      {!busy && draft.state !== 'failed' && (
        <Group gap="xs" data-testid="import-summary">
          <Badge size="lg" color="teal" variant="light">
            {s.willEmail.toLocaleString()} will be emailed
          </Badge>
          {s.invalid > 0 && (
            <Badge color="red" variant="light">
              {s.invalid.toLocaleString()} invalid
            </Badge>
          )}
          {s.duplicate > 0 && (
            <Badge color="orange" variant="light">
              {s.duplicate.toLocaleString()} duplicate{s.duplicate === 1 ? '' : 's'}
            </Badge>
          )}
          {s.alreadyInvited > 0 && (
            <Badge color="gray" variant="light">
              {s.alreadyInvited.toLocaleString()} already invited
            </Badge>
          )}
          {s.alreadyMember > 0 && (
            <Badge color="gray" variant="light">
              {s.alreadyMember.toLocaleString()} already {s.alreadyMember === 1 ? 'a member' : 'members'}
            </Badge>
          )}
          {s.dropped > 0 && (
            <Badge color="gray" variant="outline">
              {s.dropped.toLocaleString()} left out
            </Badge>
          )}
          <Text size="sm" c="dimmed">
            of {s.rows.toLocaleString()} rows
          </Text>
        </Group>
      )}
      <Notices notices={draft.notices} />
      {!busy && draft.state !== 'failed' && (
        <>
          <SegmentedControl
            aria-label="Show"
            value={filter}
            onChange={(value) => setFilter(value as RowFilter)}
            data={FILTERS}
          />
          <RowsGrid draft={draft} filter={filter} />
          <Text size="xs" c="dimmed">
            Click a cell to fix it (Enter saves, Escape cancels). Rows with problems are not sent unless fixed.
          </Text>
        </>
      )}
      <Group justify="space-between">
        <Button variant="default" onClick={() => updateWizard({ step: 'target' })}>
          Back
        </Button>
        <Button disabled={draft.state !== 'ready'} onClick={() => updateWizard({ step: 'confirm' })}>
          Next
        </Button>
      </Group>
    </Stack>
  );
}
