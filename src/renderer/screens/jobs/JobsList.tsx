import {
  Alert,
  Anchor,
  Badge,
  Group,
  Pagination,
  Paper,
  Progress,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { JobKind, type Job, type JobState } from '../../../shared/contract';
import { useBridge } from '../../bridge/BridgeContext';
import { errorMessage } from '../../bridge/errors';
import { WarningIcon } from '../../components/icons';
import { useCallKey } from '../../queries/useCall';
import { jobHref } from '../../shell/routes';
import { formatCount, formatDateTime } from '../../train/format';
import { JobsIcon } from '../../train/icons';
import { JobStateBadge } from './JobStateBadge';
import { ACTIVE_STATES, ended, jobPercent, KIND_LABELS } from './jobPresentation';

const PAGE_SIZE = 25;

const STATE_FILTERS: Record<string, { label: string; states?: JobState[] }> = {
  all: { label: 'All' },
  active: { label: 'In progress', states: ACTIVE_STATES },
  completed: { label: 'Completed', states: ['completed'] },
  failed: { label: 'Failed', states: ['failed'] },
  cancelled: { label: 'Cancelled', states: ['cancelled'] },
};

/** Every job, newest first: filter by kind and state, open one to follow it. */
export function JobsList() {
  const bridge = useBridge();
  const callKey = useCallKey();
  const [kind, setKind] = useState<string>('all');
  const [state, setState] = useState('all');
  const [page, setPage] = useState(1);
  const states = STATE_FILTERS[state]?.states;
  const input = {
    ...(kind !== 'all' ? { kind: JobKind.parse(kind) } : {}),
    ...(states ? { states } : {}),
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  };
  const jobs = useQuery({
    queryKey: callKey('jobs.list', input),
    queryFn: () => bridge.call('jobs.list', input),
    placeholderData: keepPreviousData,
  });
  const pages = Math.max(1, Math.ceil((jobs.data?.total ?? 0) / PAGE_SIZE));

  return (
    <Stack gap="lg" maw={1200}>
      <div>
        <Title order={1} size="h2">
          Jobs
        </Title>
        <Text c="dimmed" size="sm">
          Training uploads and other long operations. They keep their place when the app closes and resume at the next
          start.
        </Text>
      </div>
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap">
            <SegmentedControl
              aria-label="Filter jobs by state"
              size="xs"
              value={state}
              onChange={(value) => {
                setState(value);
                setPage(1);
              }}
              data={Object.entries(STATE_FILTERS).map(([value, filter]) => ({ value, label: filter.label }))}
            />
            <Select
              aria-label="Filter jobs by kind"
              size="xs"
              w={200}
              value={kind}
              allowDeselect={false}
              onChange={(value) => {
                setKind(value ?? 'all');
                setPage(1);
              }}
              data={[
                { value: 'all', label: 'All kinds' },
                ...JobKind.options.map((value) => ({ value, label: KIND_LABELS[value] })),
              ]}
            />
          </Group>
          {jobs.isPending && <Skeleton height={120} radius="sm" />}
          {jobs.isError && (
            <Alert color="red" icon={<WarningIcon />} title="Jobs could not be loaded">
              {errorMessage(jobs.error)}
            </Alert>
          )}
          {jobs.data && jobs.data.jobs.length === 0 && (
            <Group
              gap="md"
              p="lg"
              wrap="nowrap"
              bd="1px dashed var(--mantine-color-default-border)"
              style={{ borderRadius: 8 }}
            >
              <JobsIcon size={28} />
              <Text size="sm" c="dimmed">
                {state === 'all' && kind === 'all'
                  ? 'No jobs yet. Drop a folder on a mentor to start training one.'
                  : 'No jobs match these filters.'}
              </Text>
            </Group>
          )}
          {jobs.data && jobs.data.jobs.length > 0 && (
            <Table.ScrollContainer minWidth={880}>
              <Table verticalSpacing="sm" highlightOnHover aria-label="Jobs" data-testid="jobs-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Job</Table.Th>
                    <Table.Th w={110}>Kind</Table.Th>
                    <Table.Th w={170}>State</Table.Th>
                    <Table.Th w={190}>Progress</Table.Th>
                    <Table.Th w={180}>Created</Table.Th>
                    <Table.Th w={180}>Finished</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody style={{ opacity: jobs.isPlaceholderData ? 0.6 : 1 }}>
                  {jobs.data.jobs.map((job) => (
                    <JobRow key={job.id} job={job} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {pages > 1 && (
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                {formatCount(jobs.data?.total ?? 0)} jobs
              </Text>
              <Pagination size="sm" total={pages} value={page} onChange={setPage} />
            </Group>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}

function JobRow({ job }: { job: Job }) {
  const { progress } = job;
  return (
    <Table.Tr data-testid={`job-row-${job.id}`}>
      <Table.Td>
        <Anchor href={jobHref(job.id)} size="sm" fw={600} underline="hover">
          {job.title}
        </Anchor>
        {(job.reason || job.error) && (
          <Text size="xs" c={job.error ? 'red' : 'dimmed'} lineClamp={1}>
            {job.error ?? job.reason}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Badge variant="outline" color="gray" radius="sm" tt="none" style={{ minWidth: 'max-content' }}>
          {KIND_LABELS[job.kind]}
        </Badge>
      </Table.Td>
      <Table.Td>
        <JobStateBadge job={job} />
      </Table.Td>
      <Table.Td>
        <Stack gap={4}>
          <Progress
            value={jobPercent(progress)}
            size="sm"
            color={progress.failed ? 'orange' : 'teal'}
            aria-label={`${job.title}: ${jobPercent(progress)}% done`}
          />
          <Text size="xs" c="dimmed">
            {formatCount(ended(progress))} of {formatCount(progress.total)}
            {progress.failed > 0 && ` · ${formatCount(progress.failed)} failed`}
          </Text>
        </Stack>
      </Table.Td>
      <Table.Td>
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(job.createdAt)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(job.finishedAt)}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
