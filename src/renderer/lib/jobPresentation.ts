import type { MantineColor } from '@mantine/core';
import {
  GAVE_UP_WAITING,
  type ItemState,
  type Job,
  type JobKind,
  type JobProgress,
  type JobState,
} from '../../shared/contract';
import { JOB_KIND_LABELS } from '../../shared/desktop-notify';
import { formatClock } from './format';

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

/** What a job's items are, by kind: one and many. */
export const ITEM_NOUNS: Record<JobKind, [string, string]> = {
  train: ['file', 'files'],
  invite: ['row', 'rows'],
  export: ['page', 'pages'],
  'ticket-reply': ['reply', 'replies'],
  'resource-import': ['row', 'rows'],
  'resource-bulk': ['record', 'records'],
  'resource-members': ['row', 'rows'],
  'licence-seats': ['row', 'rows'],
  'mentor-bulk-set': ['mentor', 'mentors'],
  'mentor-eval': ['run', 'runs'],
  'mentor-copy': ['item', 'items'],
  'person-export': ['dataset', 'datasets'],
  'person-erase': ['step', 'steps'],
  'session-export': ['transcript', 'transcripts'],
  'badge-assertions': ['row', 'rows'],
  'catalogue-enrol': ['row', 'rows'],
  'catalogue-suggest': ['row', 'rows'],
};

/** Whether the job moves bytes at all (uploads do; invitations and replies do not): only then are bytes shown. */
export const hasBytes = (progress: JobProgress) => progress.bytesTotal > 0;

/**
 * Overall completion, by bytes while uploading big files would mislead less, but items are what admins count. A job
 * that completed is done, whatever its items say (one with none at all included).
 */
export function jobPercent(progress: JobProgress, state?: JobState): number {
  if (state === 'completed') return 100;
  if (progress.total <= 0) return 0;
  return Math.min(100, Math.floor((ended(progress) / progress.total) * 100));
}

/** The job stopped waiting for its tenant: its waiting limit ran out. */
export const gaveUpWaiting = (job: Pick<Job, 'state' | 'reason'>) =>
  job.state === 'paused' && !!job.reason?.startsWith(GAVE_UP_WAITING);

/** The words of a waiting job's reason after the cause: what the tenant answered (or did not). */
export function waitingCause(reason: string | null): string | null {
  const match = reason ? /\((.*)\); retrying in/.exec(reason) : null;
  return match ? match[1]! : reason;
}

/**
 * "Waiting for the tenant · gives up at 21:49": what lists and the job page say of a waiting job. Its next try is
 * seconds to a minute away and comes by itself ("Retry now" is at hand), so the time that matters is when it stops.
 */
export function waitingLine(job: Pick<Job, 'givesUpAt'>): string {
  return `Waiting for the tenant${job.givesUpAt ? ` · gives up at ${formatClock(job.givesUpAt)}` : ''}`;
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
