import { Group, Paper, Progress, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import type { Job } from '../../../shared/contract';
import { formatBytes, formatCount, formatDateTime, formatDuration, formatRate, percent } from '../../train/format';
import { describeCount, ended, isActive, jobPercent } from './jobPresentation';

/** Once a job ends, its last phase ("Waiting for training") no longer describes it. */
const ENDED_PHASE: Partial<Record<Job['state'], string>> = {
  completed: 'Finished',
  failed: 'Stopped',
  cancelled: 'Cancelled',
};

/** Overall progress: the bar split by outcome, then files, bytes, rate and time left. */
export function JobProgressCard({ job }: { job: Job }) {
  const { progress } = job;
  const active = isActive(job.state);
  const noun = job.kind === 'train' ? 'Files' : 'Items';
  const counts = Object.entries(job.counts).filter(([, value]) => value > 0);
  return (
    <Paper withBorder radius="md" p="lg" data-testid="job-progress">
      <Stack gap="md">
        <Group justify="space-between" align="baseline">
          <Text fw={600} aria-live="polite">
            {active ? progress.phase || 'Working' : ENDED_PHASE[job.state]}
          </Text>
          <Text size="xl" fw={700} data-testid="job-percent">
            {jobPercent(progress)}%
          </Text>
        </Group>
        <Progress.Root size="lg" aria-label={`${jobPercent(progress)}% done`}>
          <Tooltip label={`${formatCount(progress.done)} done`}>
            <Progress.Section
              value={percent(progress.done, progress.total)}
              color="teal"
              animated={job.state === 'running'}
            />
          </Tooltip>
          <Tooltip label={`${formatCount(progress.failed)} failed`}>
            <Progress.Section value={percent(progress.failed, progress.total)} color="red" />
          </Tooltip>
          <Tooltip label={`${formatCount(progress.skipped)} skipped`}>
            <Progress.Section value={percent(progress.skipped, progress.total)} color="gray.5" />
          </Tooltip>
        </Progress.Root>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="lg">
          <Stat
            label={noun}
            value={`${formatCount(ended(progress))} of ${formatCount(progress.total)}`}
            detail={[
              `${formatCount(progress.done)} done`,
              progress.failed ? `${formatCount(progress.failed)} failed` : null,
              progress.skipped ? `${formatCount(progress.skipped)} skipped` : null,
              progress.active ? `${formatCount(progress.active)} active` : null,
            ]
              .filter(Boolean)
              .join(' · ')}
            testId="job-files"
          />
          <Stat
            label="Data"
            value={`${formatBytes(progress.bytesDone)} of ${formatBytes(progress.bytesTotal)}`}
            detail={`${bytesShare(progress.bytesDone, progress.bytesTotal)} of the bytes`}
          />
          <Stat
            label="Rate"
            value={active ? formatRate(progress.bytesPerSecond) : '—'}
            detail={
              active && progress.itemsPerSecond > 0
                ? `${progress.itemsPerSecond.toFixed(1)} ${noun.toLowerCase()}/s`
                : ' '
            }
          />
          <Stat
            label={active ? 'Time left' : 'Finished'}
            value={active ? formatDuration(progress.etaSeconds) : formatDateTime(job.finishedAt)}
            detail={
              job.startedAt ? `started ${formatDateTime(job.startedAt)}` : `created ${formatDateTime(job.createdAt)}`
            }
          />
        </SimpleGrid>
        {counts.length > 0 && (
          <Group gap="lg">
            {counts.map(([key, value]) => {
              const count = describeCount(key, value, { bytes: formatBytes, count: formatCount });
              return (
                <Text key={key} size="xs" c="dimmed">
                  {count.label} <strong>{count.value}</strong>
                </Text>
              );
            })}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** "0%" would read as nothing sent; a sliver is "<1%". */
function bytesShare(done: number, total: number): string {
  const share = percent(done, total);
  return share === 0 && done > 0 ? '<1%' : `${share}%`;
}

function Stat({ label, value, detail, testId }: { label: string; value: string; detail: string; testId?: string }) {
  return (
    <div data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: 0.4 }}>
        {label}
      </Text>
      <Text fw={600} size="md">
        {value}
      </Text>
      <Text size="xs" c="dimmed">
        {detail}
      </Text>
    </div>
  );
}
