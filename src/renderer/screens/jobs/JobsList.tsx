import {
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
  VisuallyHidden,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { JobKind, type Job, type JobState } from '../../../shared/contract';
import { useBridge } from '../../bridge/BridgeContext';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { JobsIcon } from '../../components/icons';
import { useCallKey } from '../../queries/useCall';
import { jobHref } from '../../shell/routes';
import { formatClock, formatCount } from '../../lib/format';
import { JobRowMenu } from '../../components/jobs/JobActions';
import { JobStateBadge } from '../../components/jobs/JobStateBadge';
import {
  ACTIVE_STATES,
  ended,
  isActive,
  ITEM_NOUNS,
  jobPercent,
  KIND_LABELS,
  waitingLine,
} from '../../lib/jobPresentation';

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
            <LoadErrorAlert title="Jobs could not be loaded" error={jobs.error} onRetry={() => void jobs.refetch()} />
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
            // Fits the window from 1000 px wide; narrower, the table scrolls rather than squeezing its words.
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="sm" highlightOnHover aria-label="Jobs" data-testid="jobs-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Job</Table.Th>
                    <Table.Th w={120}>State</Table.Th>
                    <Table.Th w={150}>Progress</Table.Th>
                    <Table.Th w={120}>When</Table.Th>
                    <Table.Th w={44}>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
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

/** The second line under a job's title: why it waits, is paused or failed, else who runs it. */
function rowNote(job: Job): { text: string; color: string } | null {
  if (job.state === 'waiting') return { text: waitingLine(job), color: 'orange' };
  if (job.error && job.state === 'failed') return { text: job.error, color: 'red' };
  if (job.reason && job.state === 'paused') return { text: job.reason, color: 'dimmed' };
  if (job.runner && !job.runner.here && isActive(job.state))
    return { text: `Runs in another Mentor Admin process (pid ${job.runner.pid})`, color: 'dimmed' };
  return null;
}

/** When it finished, else when it started, else when it was made. */
function when(job: Job): [string, string] {
  if (job.finishedAt) return ['Finished', formatClock(job.finishedAt)];
  if (job.startedAt) return ['Started', formatClock(job.startedAt)];
  return ['Created', formatClock(job.createdAt)];
}

function JobRow({ job }: { job: Job }) {
  const { progress } = job;
  const percent = jobPercent(progress, job.state);
  const note = rowNote(job);
  const [whenLabel, whenAt] = when(job);
  const [one, many] = ITEM_NOUNS[job.kind];
  return (
    <Table.Tr data-testid={`job-row-${job.id}`}>
      {/* Takes the room the other columns leave; its long lines are cut rather than widen the table. */}
      <Table.Td style={{ maxWidth: 0 }}>
        <Anchor href={jobHref(job.id)} size="sm" fw={600} underline="hover" lineClamp={2}>
          {job.title}
        </Anchor>
        <Badge
          variant="outline"
          color="gray"
          radius="sm"
          size="xs"
          mt={2}
          style={{ display: 'block', width: 'fit-content' }}
        >
          {KIND_LABELS[job.kind]}
        </Badge>
        {note && (
          <Text size="xs" c={note.color} lineClamp={2} title={note.text} mt={2}>
            {note.text}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <JobStateBadge job={job} />
      </Table.Td>
      <Table.Td>
        <Stack gap={4}>
          <Progress
            value={percent}
            size="sm"
            color={progress.failed ? 'orange' : 'teal'}
            aria-label={`${job.title}: ${percent}% done`}
          />
          <Text size="xs" c="dimmed">
            {formatCount(ended(progress))} of {formatCount(progress.total)} {progress.total === 1 ? one : many}
            {progress.failed > 0 && ` · ${formatCount(progress.failed)} failed`}
          </Text>
        </Stack>
      </Table.Td>
      <Table.Td>
        <Text size="xs" c="dimmed">
          {whenLabel}
        </Text>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {whenAt}
        </Text>
      </Table.Td>
      <Table.Td>
        <JobRowMenu job={job} />
      </Table.Td>
    </Table.Tr>
  );
}
