import { Badge, Loader } from '@mantine/core';
import type { Job } from '../../../shared/contract';
import { stateColor, stateLabel } from '../../lib/jobPresentation';

export function JobStateBadge({
  job,
  size = 'sm',
}: {
  job: Pick<Job, 'state' | 'progress'>;
  size?: 'sm' | 'md' | 'lg';
}) {
  const color = stateColor(job);
  return (
    <Badge
      variant="light"
      color={color}
      radius="sm"
      size={size}
      style={{ minWidth: 'max-content' }}
      leftSection={job.state === 'running' ? <Loader size={10} color={color} /> : undefined}
      data-testid="job-state"
    >
      {stateLabel(job)}
    </Badge>
  );
}
