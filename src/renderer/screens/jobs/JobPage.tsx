import { Alert, Anchor, Badge, Breadcrumbs, Button, Skeleton, Stack, Text, Title, Group } from '@mantine/core';
import { useEffect } from 'react';
import { describeMinutes, type Job } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { WarningIcon } from '../../components/icons';
import { useCall } from '../../queries/useCall';
import { dismissJobEndToast } from '../../shell/jobNotifications';
import { jobsHref, settingsHref } from '../../shell/routes';
import { JobActions } from '../../components/jobs/JobActions';
import { JobItemsTable } from './JobItemsTable';
import { JobProgressCard } from '../../components/jobs/JobProgressCard';
import { JobStateBadge } from '../../components/jobs/JobStateBadge';
import { gaveUpWaiting, KIND_LABELS, waitingCause, waitingLine } from '../../lib/jobPresentation';
import { NeedsAttention } from './NeedsAttention';
import { RecordTenant } from '../../tenants/RecordTenant';

/** One job, live: progress from `jobs.progress` events, its failures, its items, and what can be done with it. */
export function JobPage({ id }: { id: string }) {
  const job = useCall('jobs.get', { id });
  const data = job.data;
  // Open, the job says itself how it ended; a toast about that would only cover the page.
  const ended = data?.finishedAt;
  useEffect(() => {
    if (ended) dismissJobEndToast(id);
  }, [id, ended]);

  return (
    <Stack gap="lg" maw={1200}>
      <Breadcrumbs>
        <Anchor href={jobsHref()} size="sm">
          Jobs
        </Anchor>
        <Text size="sm" c="dimmed">
          {data?.title ?? '…'}
        </Text>
      </Breadcrumbs>
      {job.isPending && <Skeleton height={160} radius="md" />}
      {job.isError && (
        <Alert color="red" icon={<WarningIcon />} title="This job could not be opened">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessage(job.error)}</Text>
            <Button size="xs" variant="default" component="a" href={jobsHref()}>
              All jobs
            </Button>
          </Stack>
        </Alert>
      )}
      {data && (
        <>
          <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
            <div style={{ minWidth: 0 }}>
              <Group gap="sm">
                <Title order={1} size="h2" data-testid="job-title">
                  {data.title}
                </Title>
                <JobStateBadge job={data} size="lg" />
              </Group>
              <Group gap="xs" mt={4}>
                <Badge variant="outline" color="gray" radius="sm">
                  {KIND_LABELS[data.kind]}
                </Badge>
                <Text size="xs" c="dimmed" ff="monospace">
                  {data.id}
                </Text>
                <RecordTenant profileId={data.profileId} />
              </Group>
              {data.runner && !data.runner.here && (
                <Text size="xs" c="dimmed" mt={4} data-testid="job-runner">
                  Runs in another Mentor Admin process (pid {data.runner.pid}); Pause and Cancel here stop it there.
                </Text>
              )}
            </div>
            <JobActions job={data} />
          </Group>
          {data.error && data.state === 'failed' && (
            <Alert color="red" icon={<WarningIcon />} title="The job stopped">
              {data.error}
            </Alert>
          )}
          {data.state === 'failed' || !data.reason ? null : <StateAlert job={data} />}
          <JobProgressCard job={data} />
          <NeedsAttention job={data} />
          <JobItemsTable job={data} />
        </>
      )}
    </Stack>
  );
}

/** Why a job waits or is paused, and what happens next. */
function StateAlert({ job }: { job: Job }) {
  const settings = useCall('settings.get', {});
  if (job.state === 'waiting') {
    const limit = job.waitLimitMinutes ?? settings.data?.jobWaitLimitMinutes;
    return (
      <Alert color="orange" icon={<WarningIcon />} title={waitingLine(job)} data-testid="job-waiting">
        <Stack gap={4}>
          <Text size="sm">The tenant cannot be reached: {waitingCause(job.reason)}.</Text>
          <Text size="sm">
            The job tries again by itself and continues where it stopped. If the tenant stays unreachable
            {limit ? ` for ${describeMinutes(limit)}` : ''}, it gives up and pauses; resume it then.{' '}
            {job.waitLimitMinutes ? (
              'This job has its own waiting limit (set from the command line).'
            ) : (
              <Anchor href={settingsHref()} size="sm">
                Change the waiting limit in Settings
              </Anchor>
            )}
          </Text>
        </Stack>
      </Alert>
    );
  }
  if (job.state !== 'paused') return null;
  const gaveUp = gaveUpWaiting(job);
  return (
    <Alert
      color="yellow"
      icon={<WarningIcon />}
      title={gaveUp ? 'Gave up waiting for the tenant' : job.reason}
      data-testid="job-paused"
    >
      {gaveUp
        ? `${job.reason} It continues where it stopped.`
        : job.reason === 'Authentication failed'
          ? 'The tenant refused the key. Update it in Settings → Tenants; the job resumes by itself.'
          : 'Resume it when you are ready; it continues where it stopped.'}
    </Alert>
  );
}
