import { Group, Paper, Progress, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import type { Job } from '../../../shared/contract';
import { formatBytes, formatCount, formatDateTime, formatDuration, formatRate, percent } from '../../lib/format';
import { IMPORT_WORDS_BY_JOB_KIND, importSummary } from '../../../shared/import-summary';
import { describeCount, ended, hasBytes, isActive, ITEM_NOUNS, jobPercent } from '../../lib/jobPresentation';

/** What the job does now, in words: its own phase while it runs, else its state (its last phase no longer holds). */
const STILL_PHASE: Partial<Record<Job['state'], string>> = {
  queued: 'Queued',
  paused: 'Paused',
  waiting: 'Waiting for the tenant',
  completed: 'Finished',
  failed: 'Stopped',
  cancelled: 'Cancelled',
};

/**
 * The bar's sections as shares of the whole: done, failed, skipped. They add up to what has ended, so a finished
 * job's bar is full; skipped items (unchanged files, invalid rows left out) have their own colour, never the track's.
 */
export function barSections(job: Pick<Job, 'state' | 'progress'>): { done: number; failed: number; skipped: number } {
  const { done, failed, skipped, total } = job.progress;
  if (total <= 0) return { done: job.state === 'completed' ? 100 : 0, failed: 0, skipped: 0 };
  const share = (n: number) => (n / total) * 100;
  return { done: share(done), failed: share(failed), skipped: share(skipped) };
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Overall progress: the bar split by outcome, then items, bytes (when the job moves any), rate and time left. */
export function JobProgressCard({ job }: { job: Job }) {
  const { progress } = job;
  const active = isActive(job.state);
  // A people file that has ended says what its rows came to as its import dialog does (parts that add up), in
  // place of done/skipped and the kind's own counters.
  const words = IMPORT_WORDS_BY_JOB_KIND[job.kind];
  const summary = words && job.dryRun !== undefined && !active ? importSummary(job.counts, words, job.dryRun) : null;
  const detail = summary ? `${formatCount(summary.rows)} rows: ${summary.sentence}` : null;
  const [, nouns] = ITEM_NOUNS[job.kind];
  const bytes = hasBytes(progress);
  const sections = barSections(job);
  const overall = jobPercent(progress, job.state);
  const counts = !summary ? Object.entries(job.counts).filter(([, value]) => value > 0) : [];
  const running = job.state === 'running';
  return (
    <Paper withBorder radius="md" p="lg" data-testid="job-progress">
      <Stack gap="md">
        <Group justify="space-between" align="baseline">
          <Text fw={600} aria-live="polite">
            {running ? progress.phase || 'Working' : (STILL_PHASE[job.state] ?? progress.phase)}
          </Text>
          <Text size="xl" fw={700} data-testid="job-percent">
            {overall}%
          </Text>
        </Group>
        <Progress.Root size="lg" aria-label={`${overall}% done`} data-testid="job-bar">
          <Tooltip label={`${formatCount(progress.done)} done`}>
            <Progress.Section value={sections.done} color="teal" animated={running} />
          </Tooltip>
          <Tooltip label={`${formatCount(progress.failed)} failed`}>
            <Progress.Section value={sections.failed} color="red" />
          </Tooltip>
          <Tooltip label={`${formatCount(progress.skipped)} skipped`}>
            <Progress.Section value={sections.skipped} color="teal.3" />
          </Tooltip>
        </Progress.Root>
        <SimpleGrid cols={{ base: 2, sm: bytes ? 4 : 3 }} spacing="lg">
          <Stat
            label={capitalised(nouns)}
            value={`${formatCount(ended(progress))} of ${formatCount(progress.total)}`}
            detail={
              detail ??
              [
                `${formatCount(progress.done)} done`,
                progress.failed ? `${formatCount(progress.failed)} failed` : null,
                progress.skipped ? `${formatCount(progress.skipped)} skipped` : null,
                progress.active ? `${formatCount(progress.active)} active` : null,
              ]
                .filter(Boolean)
                .join(' · ')
            }
            testId="job-files"
          />
          {bytes && (
            <Stat
              label="Data"
              value={`${formatBytes(progress.bytesDone)} of ${formatBytes(progress.bytesTotal)}`}
              detail={`${bytesShare(progress.bytesDone, progress.bytesTotal)} of the bytes`}
              testId="job-data"
            />
          )}
          <Stat
            label="Rate"
            value={
              !running ? '—' : bytes ? formatRate(progress.bytesPerSecond) : itemRate(progress.itemsPerSecond, nouns)
            }
            detail={running && bytes && progress.itemsPerSecond > 0 ? itemRate(progress.itemsPerSecond, nouns) : ' '}
            testId="job-rate"
          />
          <Stat
            label={active ? 'Time left' : 'Finished'}
            value={active ? (running ? formatDuration(progress.etaSeconds) : '—') : formatDateTime(job.finishedAt)}
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

function itemRate(perSecond: number, nouns: string): string {
  return perSecond > 0 ? `${perSecond.toFixed(perSecond < 10 ? 1 : 0)} ${nouns}/s` : '—';
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
