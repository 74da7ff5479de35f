import { Alert, Anchor, Badge, Breadcrumbs, Button, Skeleton, Stack, Text, Title, Group } from '@mantine/core';
import { errorMessage } from '../../bridge/errors';
import { WarningIcon } from '../../components/icons';
import { useCall } from '../../queries/useCall';
import { jobsHref } from '../../shell/routes';
import { JobActions } from './JobActions';
import { JobItemsTable } from './JobItemsTable';
import { JobProgressCard } from './JobProgressCard';
import { JobStateBadge } from './JobStateBadge';
import { KIND_LABELS } from './jobPresentation';
import { NeedsAttention } from './NeedsAttention';
import { RecordTenant } from '../../tenants/RecordTenant';

/** One job, live: progress from `jobs.progress` events, its failures, its items, and what can be done with it. */
export function JobPage({ id }: { id: string }) {
  const job = useCall('jobs.get', { id });
  const data = job.data;

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
                <Badge variant="outline" color="gray" radius="sm" tt="none">
                  {KIND_LABELS[data.kind]}
                </Badge>
                <Text size="xs" c="dimmed" ff="monospace">
                  {data.id}
                </Text>
                <RecordTenant profileId={data.profileId} />
              </Group>
            </div>
            <JobActions job={data} />
          </Group>
          {data.error && (
            <Alert color="red" icon={<WarningIcon />} title="The job stopped">
              {data.error}
            </Alert>
          )}
          {!data.error && data.reason && (data.state === 'paused' || data.state === 'waiting') && (
            <Alert color={data.state === 'waiting' ? 'orange' : 'yellow'} icon={<WarningIcon />} title={data.reason}>
              {data.state === 'waiting'
                ? 'The tenant cannot be reached. The job retries by itself and resumes where it stopped.'
                : data.reason === 'Authentication failed'
                  ? 'The tenant refused the key. Update it in Settings → Tenants; the job resumes by itself.'
                  : 'Resume it when you are ready; it continues where it stopped.'}
            </Alert>
          )}
          <JobProgressCard job={data} />
          <NeedsAttention job={data} />
          <JobItemsTable job={data} />
        </>
      )}
    </Stack>
  );
}
