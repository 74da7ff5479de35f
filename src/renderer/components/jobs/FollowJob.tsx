import { Anchor, Group, Skeleton, Stack, Text } from '@mantine/core';
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
      <Group justify="space-between" wrap="wrap">
        <Group gap="xs" wrap="nowrap" miw={0}>
          <JobStateBadge job={job.data} />
          <Text size="sm" truncate>
            {job.data.title}
          </Text>
        </Group>
        <Anchor href={jobHref(jobId)} size="sm">
          Open the job
        </Anchor>
      </Group>
      <JobProgressCard job={job.data} />
    </Stack>
  );
}
