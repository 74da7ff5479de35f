import { Anchor, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useCall } from '../../../queries/useCall';
import { jobHref } from '../../../shell/routes';
import { JobActions } from '../../jobs/JobActions';
import { JobProgressCard } from '../../jobs/JobProgressCard';
import { JobStateBadge } from '../../jobs/JobStateBadge';
import { resetWizard } from '../wizardStore';

/** The invite job, live: progress, pause/resume, and the report once it ends. */
export function SendStep({ jobId }: { jobId: string }) {
  const job = useCall('jobs.get', { id: jobId });
  if (!job.data) return <Skeleton height={160} />;
  const counts = job.data.counts;
  const ended = ['completed', 'failed', 'cancelled'].includes(job.data.state);
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Group gap="xs">
          <JobStateBadge job={job.data} />
          <Text size="sm">{job.data.title}</Text>
        </Group>
        <Anchor href={jobHref(jobId)} size="sm">
          Open the job
        </Anchor>
      </Group>
      <JobProgressCard job={job.data} />
      {ended && (
        <Text data-testid="send-result">
          {counts.invited ?? 0} invited · {(counts.alreadyInvited ?? 0) + (counts.alreadyMember ?? 0)} already in ·{' '}
          {counts.invalid ?? 0} invalid · {counts.failed ?? 0} failed
        </Text>
      )}
      <Group justify="space-between">
        <Button variant="default" onClick={resetWizard}>
          Import another file
        </Button>
        <JobActions job={job.data} />
      </Group>
    </Stack>
  );
}
