import { Button, RingProgress, Tooltip } from '@mantine/core';
import { ACTIVE_STATES, ended, isActive } from '../lib/jobPresentation';
import { useCall } from '../queries/useCall';
import { percent, plural } from '../lib/format';
import { jobHref, jobsHref } from './routes';

const ACTIVE_INPUT = { states: ACTIVE_STATES, limit: 100 };

/** The top bar's running-jobs badge: how many and how far overall; links to the Jobs screen (or the one job). */
export function JobIndicator() {
  const jobs = useCall('jobs.list', ACTIVE_INPUT);
  // Progress ticks patch the cached list; a job that just ended stays listed until the refetch drops it.
  const active = (jobs.data?.jobs ?? []).filter((job) => isActive(job.state));
  if (!active.length) return null;
  const total = active.reduce((sum, job) => sum + job.progress.total, 0);
  const done = active.reduce((sum, job) => sum + ended(job.progress), 0);
  const overall = percent(done, total);
  const stalled = active.filter((job) => job.state === 'paused' || job.state === 'waiting');
  const color = stalled.length ? 'orange' : 'indigo';
  const summary = `${plural(active.length, 'job')} in progress, ${overall}% done${
    stalled.length ? `; ${stalled.length} paused or waiting` : ''
  }`;
  const href = active.length === 1 ? jobHref(active[0]!.id) : jobsHref();

  return (
    <Tooltip label={summary} withArrow>
      <Button
        component="a"
        href={href}
        variant="light"
        color={color}
        size="compact-md"
        radius="xl"
        aria-label={`${summary}. Open ${active.length === 1 ? 'the job' : 'Jobs'}`}
        data-testid="job-indicator"
        leftSection={
          <RingProgress size={24} thickness={3} roundCaps sections={[{ value: overall, color }]} aria-hidden="true" />
        }
      >
        {active.length === 1 ? '1 job' : `${active.length} jobs`} · {overall}%
      </Button>
    </Tooltip>
  );
}
