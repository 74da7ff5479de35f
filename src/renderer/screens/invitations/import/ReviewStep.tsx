import { Alert, Button, Group, Progress, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { summaryCounts, type ImportDraft, type RowFilter } from '../../../../shared/contract';
import { formatCount, plural } from '../../../lib/format';
import { updateWizard } from '../wizardStore';
import { Notices } from '../../../components/csv-import/Notices';
import { OutcomeBadges } from './OutcomeBadges';
import { RowsGrid } from './RowsGrid';
import { WizardFooter } from '../../../components/csv-import/WizardFooter';

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
            {draft.state === 'parsing' ? ` — ${plural(draft.progress.rows, 'row')}` : ''}
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
          <OutcomeBadges counts={summaryCounts(s)} sent={false} />
          <Text size="sm" c="dimmed">
            of {plural(s.rows, 'row')}
          </Text>
        </Group>
      )}
      <Notices notices={draft.notices} />
      {!busy && draft.state !== 'failed' && (
        <>
          <Group gap="sm" wrap="wrap">
            <SegmentedControl
              aria-label="Show"
              value={filter}
              onChange={(value) => setFilter(value as RowFilter)}
              data={FILTERS}
            />
            <Text size="xs" c="dimmed">
              Rows with problems are not sent unless fixed; {formatCount(s.willEmail)} will be.
            </Text>
          </Group>
          <RowsGrid key={filter} draft={draft} filter={filter} />
        </>
      )}
      <WizardFooter>
        <Button variant="default" onClick={() => updateWizard({ step: 'target' })}>
          Back
        </Button>
        <Button disabled={draft.state !== 'ready'} onClick={() => updateWizard({ step: 'confirm' })}>
          Next
        </Button>
      </WizardFooter>
    </Stack>
  );
}
