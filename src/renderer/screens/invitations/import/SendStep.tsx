import { Anchor, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useCall } from '../../../queries/useCall';
import { jobHref, navigateTo } from '../../../shell/routes';
import { JobActions } from '../../../components/jobs/JobActions';
import { JobProgressCard } from '../../../components/jobs/JobProgressCard';
import { JobStateBadge } from '../../../components/jobs/JobStateBadge';
import { batchHref } from '../batchLink';
import { resetWizard } from '../wizardStore';
import { OutcomeBadges } from './OutcomeBadges';
import { WizardFooter } from '../../../components/csv-import/WizardFooter';

/** The invite job, live: progress, pause/resume, and once it ends the result in the review's words. */
export function SendStep({ jobId }: { jobId: string }) {
  const job = useCall('jobs.get', { id: jobId });
  if (!job.data) return <Skeleton height={160} />;
  const ended = ['completed', 'failed', 'cancelled'].includes(job.data.state);
  return (
    <Stack gap="md">
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
      {ended && <OutcomeBadges counts={job.data.counts} sent testId="send-result" />}
      <WizardFooter>
        <Group gap="xs">
          <Button variant="default" onClick={resetWizard}>
            Import another file
          </Button>
          {ended && (
            <Button variant="light" onClick={() => navigateTo(batchHref(jobId))}>
              See these invitations
            </Button>
          )}
        </Group>
        <JobActions job={job.data} />
      </WizardFooter>
    </Stack>
  );
}
