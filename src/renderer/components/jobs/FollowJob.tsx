import { Anchor, Group, Skeleton, Stack, Text } from '@mantine/core';
import type { Job } from '../../../shared/contract';
import { useCall } from '../../queries/useCall';
import { jobHref } from '../../shell/routes';
import { JobProgressCard } from './JobProgressCard';
import { JobStateBadge } from './JobStateBadge';

/** A job started from a dialog: its state, progress and a link to its page. */
export function FollowJob({ jobId }: { jobId: string }) {
  const job = useCall('jobs.get', { id: jobId });
  if (!job.data) return <Skeleton height={80} />;
  return (
    <Stack gap="xs">
      <JobHeading job={job.data} />
      <JobProgressCard job={job.data} />
    </Stack>
  );
}

/** A followed job's state and title, with the way to its page. */
export function JobHeading({ job }: { job: Job }) {
  return (
    <Group justify="space-between" wrap="wrap">
      <Group gap="xs" wrap="nowrap" miw={0}>
        <JobStateBadge job={job} />
        <Text size="sm" truncate>
          {job.title}
        </Text>
      </Group>
      <Anchor href={jobHref(job.id)} size="sm">
        Open the job
      </Anchor>
    </Group>
  );
}
