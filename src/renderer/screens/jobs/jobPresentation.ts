import type { MantineColor } from '@mantine/core';
import type { ItemState, Job, JobKind, JobProgress, JobState } from '../../../shared/contract';
import { JOB_KIND_LABELS } from '../../../shared/desktop-notify';

/** The kinds' names, shared with the desktop notifications so both say the same. */
export const KIND_LABELS: Record<JobKind, string> = JOB_KIND_LABELS;

export const STATE_INFO: Record<JobState, { label: string; color: MantineColor }> = {
  queued: { label: 'Queued', color: 'gray' },
  running: { label: 'Running', color: 'blue' },
  paused: { label: 'Paused', color: 'yellow' },
  waiting: { label: 'Waiting', color: 'orange' },
  completed: { label: 'Completed', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
  cancelled: { label: 'Cancelled', color: 'gray' },
};

export const ITEM_STATE_INFO: Record<ItemState, { label: string; color: MantineColor }> = {
  pending: { label: 'Pending', color: 'gray' },
  active: { label: 'Active', color: 'blue' },
  done: { label: 'Done', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
  skipped: { label: 'Skipped', color: 'gray' },
};

/** Jobs that still have work ahead: they show in the top bar and can be paused or cancelled. */
export const ACTIVE_STATES: JobState[] = ['queued', 'running', 'paused', 'waiting'];
export const FINISHED_STATES: JobState[] = ['completed', 'failed', 'cancelled'];

export const isActive = (state: JobState) => ACTIVE_STATES.includes(state);

/** Items that have ended one way or another. */
export const ended = (progress: JobProgress) => progress.done + progress.failed + progress.skipped;

/** Overall completion, by bytes while uploading big files would mislead less, but items are what admins count. */
export function jobPercent(progress: JobProgress): number {
  if (progress.total <= 0) return 0;
  return Math.min(100, Math.floor((ended(progress) / progress.total) * 100));
}

/** A completed job with failures says so in its badge. */
export function stateLabel(job: Pick<Job, 'state' | 'progress'>): string {
  if (job.state === 'completed' && job.progress.failed > 0) return 'Completed with failures';
  return STATE_INFO[job.state].label;
}

export function stateColor(job: Pick<Job, 'state' | 'progress'>): MantineColor {
  if (job.state === 'completed' && job.progress.failed > 0) return 'orange';
  return STATE_INFO[job.state].color;
}

const words = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A kind-specific counter as the admin reads it: `uploaded` → "Uploaded 5", `uploadBytes` → "Upload data 2 MB",
 * `uploadMs` → "Upload time 48 ms".
 */
export function describeCount(
  key: string,
  value: number,
  format: { bytes(n: number): string; count(n: number): string },
) {
  if (key.endsWith('Bytes'))
    return { label: `${capitalised(words(key.slice(0, -5)))} data`, value: format.bytes(value) };
  if (key.endsWith('Ms')) {
    const ms = Math.round(value);
    return {
      label: `${capitalised(words(key.slice(0, -2)))} time`,
      value: ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`,
    };
  }
  return { label: capitalised(words(key)), value: format.count(value) };
}
