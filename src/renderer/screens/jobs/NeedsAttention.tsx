import { Alert, Button, Checkbox, Group, Paper, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { Job } from '../../../shared/contract';
import { notifyError, notifySuccess } from '../../components/notify';
import { useCall, useMutationCall } from '../../queries/useCall';
import { plural } from '../../lib/format';
import { RetryIcon, WarningIcon } from '../../components/icons';

const SHOWN = 500;

/** The job's failed items with their reasons; retry the ones picked, or all of them. */
export function NeedsAttention({ job }: { job: Job }) {
  const failed = useCall('jobs.items', { id: job.id, states: ['failed'], limit: SHOWN });
  const retry = useMutationCall('jobs.retry');
  const [picked, setPicked] = useState<Set<number>>(new Set());
  // Progress ticks patch the job, not this list: look again when the number of failures moves.
  const refetch = failed.refetch;
  useEffect(() => {
    void refetch();
  }, [job.progress.failed, refetch]);
  const items = failed.data?.items ?? [];
  if (!items.length) return null;
  const total = failed.data?.total ?? items.length;
  const selected = items.filter((item) => picked.has(item.id));
  const allPicked = selected.length === items.length;

  function run(itemIds?: number[]) {
    retry.mutate(
      { id: job.id, ...(itemIds ? { itemIds } : {}) },
      {
        onSuccess: () => {
          notifySuccess(
            'Retrying',
            itemIds ? `${plural(itemIds.length, 'item')} queued again.` : 'Every failed item is queued again.',
          );
          setPicked(new Set());
        },
        onError: (error) => notifyError('Retry did not start', error),
      },
    );
  }

  return (
    <Paper
      withBorder
      radius="md"
      p="lg"
      component="section"
      aria-labelledby="needs-attention"
      data-testid="needs-attention"
    >
      <Stack gap="sm">
        <Group justify="space-between">
          <Group gap="xs">
            <WarningIcon />
            <Title order={2} size="h4" id="needs-attention">
              Needs attention
            </Title>
            <Text size="sm" c="dimmed">
              {plural(total, 'failure')}
            </Text>
          </Group>
          <Group gap="xs">
            <Button
              size="xs"
              variant="default"
              leftSection={<RetryIcon size={14} />}
              disabled={!selected.length}
              loading={retry.isPending && !!retry.variables?.itemIds}
              onClick={() => run(selected.map((item) => item.id))}
            >
              Retry selected{selected.length ? ` (${selected.length})` : ''}
            </Button>
            <Button
              size="xs"
              variant="light"
              color="orange"
              leftSection={<RetryIcon size={14} />}
              loading={retry.isPending && !retry.variables?.itemIds}
              onClick={() => run()}
            >
              Retry all failed
            </Button>
          </Group>
        </Group>
        <Checkbox
          size="xs"
          label="Select all shown"
          checked={allPicked}
          indeterminate={selected.length > 0 && !allPicked}
          onChange={() => setPicked(allPicked ? new Set() : new Set(items.map((item) => item.id)))}
        />
        <ScrollArea.Autosize mah={280} type="auto">
          <Stack gap={6}>
            {items.map((item) => (
              <Checkbox
                key={item.id}
                checked={picked.has(item.id)}
                onChange={(event) => {
                  const next = new Set(picked);
                  if (event.currentTarget.checked) next.add(item.id);
                  else next.delete(item.id);
                  setPicked(next);
                }}
                label={
                  <Text size="sm" span>
                    <Text span fw={500} size="sm">
                      {item.label}
                    </Text>
                    <Text span c="red" size="sm">
                      {' '}
                      — {item.error ?? 'Failed'}
                    </Text>
                  </Text>
                }
              />
            ))}
          </Stack>
        </ScrollArea.Autosize>
        {total > items.length && (
          <Alert color="gray" variant="light" py={6}>
            Showing the first {items.length} of {total}. “Retry all failed” includes every one; the CSV report lists
            them all.
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
