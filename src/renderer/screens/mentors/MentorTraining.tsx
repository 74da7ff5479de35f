import { Anchor, CloseButton, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { Job } from '../../../shared/contract';
import { useCall } from '../../queries/useCall';
import { JobStateBadge } from '../../components/jobs/JobStateBadge';
import { ended, isActive, jobPercent } from '../../lib/jobPresentation';
import { jobHref } from '../../shell/routes';
import { formatCount, formatDuration, plural } from '../../lib/format';
import type { MentorTarget } from '../../train/TrainFlowContext';

/**
 * The mentor's training jobs, on its own page: after "Train" the admin stays with the mentor and watches its
 * documents arrive, with each job's progress here and a link to the job's page for the details.
 */
export function MentorTraining({ mentor }: { mentor: MentorTarget }) {
  const jobs = useCall('train.jobs', { profileId: mentor.profileId, mentor: mentor.uniqueId });
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  const shown = (jobs.data?.jobs ?? []).filter((job) => !dismissed.has(job.id));
  if (!shown.length) return null;
  return (
    <Stack gap="xs" aria-label="Training" role="region" data-testid="mentor-training">
      {shown.map((job) => (
        <TrainingJob key={job.id} initial={job} onDismiss={() => setDismissed(new Set([...dismissed, job.id]))} />
      ))}
    </Stack>
  );
}

/** One job, followed live: progress events patch `jobs.get`, which this reads. */
function TrainingJob({ initial, onDismiss }: { initial: Job; onDismiss(): void }) {
  const live = useCall('jobs.get', { id: initial.id });
  const job = live.data ?? initial;
  const { progress } = job;
  const active = isActive(job.state);
  const sent = progress.total - progress.skipped;
  const trained = job.counts.trained ?? progress.done;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="training-job">
      <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Group gap="xs" wrap="wrap">
            <JobStateBadge job={job} />
            <Text size="sm" fw={600}>
              {active ? `Training ${plural(sent, 'file')}` : 'Training ended'}
            </Text>
            <Text size="sm" c="dimmed" data-testid="training-summary">
              {active
                ? `${progress.phase || 'Starting'} · ${formatCount(ended(progress))} of ${formatCount(progress.total)}` +
                  (progress.etaSeconds ? ` · about ${formatDuration(progress.etaSeconds)} left` : '')
                : `${plural(trained, 'document')} trained` +
                  (progress.failed ? `, ${formatCount(progress.failed)} failed` : '') +
                  (progress.skipped ? `, ${formatCount(progress.skipped)} not sent` : '')}
            </Text>
          </Group>
          {active && (
            <Progress
              value={jobPercent(progress)}
              size="sm"
              animated={job.state === 'running'}
              aria-label={`Training progress, ${jobPercent(progress)}%`}
            />
          )}
          {job.reason && (
            <Text size="xs" c="orange">
              {job.reason}
            </Text>
          )}
        </Stack>
        <Group gap={4} wrap="nowrap">
          <Anchor href={jobHref(job.id)} size="sm" style={{ whiteSpace: 'nowrap' }}>
            View job
          </Anchor>
          {!active && <CloseButton size="sm" onClick={onDismiss} aria-label="Hide this finished job" />}
        </Group>
      </Group>
    </Paper>
  );
}
