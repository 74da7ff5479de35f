/** Jobs: every long operation (training uploads, invitations, exports, queued replies) is a durable job. */
import { z } from 'zod';
import { call, event } from './kit';

export const JobKind = z.enum([
  'train',
  'invite',
  'export',
  'ticket-reply',
  'resource-import',
  'resource-bulk',
  'resource-members',
  'licence-seats',
  'mentor-bulk-set',
  'mentor-eval',
  'mentor-copy',
  'person-export',
  'person-erase',
  'session-export',
  'badge-assertions',
  'catalogue-enrol',
  'catalogue-suggest',
]);
export type JobKind = z.infer<typeof JobKind>;

export const JobState = z.enum([
  'queued', // written, not started yet
  'running',
  'paused', // by the admin; or by the engine when the tenant refused the credentials, or it gave up waiting (see reason)
  'waiting', // the tenant is unreachable: retries by itself until its waiting limit (see givesUpAt)
  'completed', // every item ended; some may have failed (see progress.failed)
  'failed', // the job itself could not go on (e.g. its mentor was deleted)
  'cancelled',
]);
export type JobState = z.infer<typeof JobState>;

export const ItemState = z.enum(['pending', 'active', 'done', 'failed', 'skipped']);
export type ItemState = z.infer<typeof ItemState>;

export const JobProgress = z.object({
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  active: z.number().int(),
  bytesTotal: z.number(),
  bytesDone: z.number(),
  itemsPerSecond: z.number(),
  bytesPerSecond: z.number(),
  /** Seconds left at the current rate; null while unknown. */
  etaSeconds: z.number().nullable(),
  /** What the job does now, in words ("Uploading", "Waiting for training", …). */
  phase: z.string(),
});
export type JobProgress = z.infer<typeof JobProgress>;

export const Job = z.object({
  id: z.string(),
  kind: JobKind,
  profileId: z.string().nullable(),
  title: z.string(),
  state: JobState,
  /** Why a job is paused or waiting, in words. */
  reason: z.string().nullable(),
  error: z.string().nullable(),
  /** Kind-specific counts for reports (e.g. uploaded, trained, invited, already). */
  counts: z.record(z.string(), z.number()),
  progress: JobProgress,
  /** Invite jobs: started with --skip-invalid, so invalid rows do not count as failures. */
  skipInvalid: z.boolean().optional(),
  /** People-file imports (seats, members, enrolments, suggestions): a dry run, which sends nothing. */
  dryRun: z.boolean().optional(),
  /** Waiting: when it tries again, and when it gives up and pauses (its waiting limit); null otherwise. */
  retryAt: z.string().nullable(),
  givesUpAt: z.string().nullable(),
  /** The job's own waiting limit in minutes (`jobs resume --wait-limit`); null: the app's setting applies. */
  waitLimitMinutes: z.number().int().nullable(),
  /**
   * The Mentor Admin process that runs the job, or holds it waiting to retry; null when none does. `here`: the
   * engine answering is that process (otherwise, e.g., a `mentor-admin` command in the background runs it).
   */
  runner: z.object({ pid: z.number().int(), host: z.string(), here: z.boolean() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type Job = z.infer<typeof Job>;

/** The longest a job may wait for an unreachable tenant: a week (in minutes). */
export const MAX_WAIT_LIMIT_MINUTES = 7 * 24 * 60;
export const WaitLimitMinutes = z.number().int().min(1).max(MAX_WAIT_LIMIT_MINUTES);

/** The reason of a job paused because its waiting limit ran out begins so. */
export const GAVE_UP_WAITING = 'Gave up waiting for the tenant';

/** A waiting limit in words: "45 min", "1 h", "1 h 30 min", "3 days". */
export function describeMinutes(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  if (minutes % 1440 === 0 && minutes >= 2880) return `${minutes / 1440} days`;
  const rest = minutes % 60;
  return `${Math.floor(minutes / 60)} h${rest ? ` ${rest} min` : ''}`;
}

export const JobItem = z.object({
  id: z.number().int(),
  key: z.string(),
  label: z.string(),
  state: ItemState,
  /** Kind-specific step, e.g. new/changed/uploading/training/trained for training. */
  phase: z.string(),
  bytes: z.number(),
  attempts: z.number().int(),
  error: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  updatedAt: z.string(),
});
export type JobItem = z.infer<typeof JobItem>;

const JobRef = z.object({ id: z.string().min(1) }).strict();

export const JobResumeInput = z
  .object({
    id: z.string().min(1),
    /** Gives the job its own waiting limit from now on (null: the app's setting again). */
    waitLimitMinutes: WaitLimitMinutes.nullable().optional(),
  })
  .strict();

export const JobsListInput = z
  .object({
    /** One tenant's jobs (the app lists the active tenant's); every tenant's when absent (the CLI). */
    profileId: z.string().min(1).optional(),
    kind: JobKind.optional(),
    states: z.array(JobState).optional(),
    limit: z.number().int().min(1).max(500).default(100),
    offset: z.number().int().min(0).default(0),
  })
  .strict()
  .optional();

export const JobItemsInput = z
  .object({
    id: z.string().min(1),
    states: z.array(ItemState).optional(),
    /** Only items in these phases (a kind's own outcomes: a seat import's rows past the free seats). */
    phases: z.array(z.string().min(1).max(50)).max(20).optional(),
    search: z.string().max(200).optional(),
    limit: z.number().int().min(1).max(1000).default(200),
    offset: z.number().int().min(0).default(0),
  })
  .strict();

export const JobRetryInput = z
  .object({ id: z.string().min(1), itemIds: z.array(z.number().int()).max(100_000).optional() })
  .strict();

export const JobReportInput = z
  .object({
    id: z.string().min(1),
    /** Where to write the CSV; defaults to the user's Downloads folder. */
    path: z.string().min(1).max(4096).optional(),
  })
  .strict();

export const jobCalls = {
  'jobs.list': call(JobsListInput, z.object({ jobs: z.array(Job), total: z.number().int() }), 'Jobs, newest first'),
  'jobs.get': call(JobRef, Job, 'One job with its progress'),
  'jobs.items': call(
    JobItemsInput,
    z.object({ items: z.array(JobItem), total: z.number().int() }),
    'The items of a job (files, rows, pages)',
  ),
  'jobs.pause': call(JobRef, Job, 'Pause a job; it keeps its place'),
  'jobs.resume': call(
    JobResumeInput,
    Job,
    'Resume a paused or waiting job here (a job waiting in another process is taken over)',
  ),
  'jobs.cancel': call(JobRef, Job, 'Cancel a job; what was done stays done'),
  'jobs.wake': call(
    z.object({}).strict(),
    z.object({ woken: z.number().int() }),
    'The computer woke from sleep or the network came back: jobs waiting for an unreachable tenant try again now',
  ),
  'jobs.retry': call(JobRetryInput, Job, 'Retry failed items (all, or the ones given)'),
  'jobs.exportReport': call(
    JobReportInput,
    z.object({ path: z.string(), rows: z.number().int() }),
    'Write the item report of a job to CSV',
    { localPaths: { path: 'write' } },
  ),
} as const;

export const jobEvents = {
  /** A job was added or changed state. `profileId`: the tenant it works on (null for none). */
  'jobs.changed': event(
    z.object({ id: z.string(), state: JobState, kind: JobKind, profileId: z.string().nullable() }),
    {
      invalidates: [
        { call: 'jobs.list', by: ['profileId'] },
        { call: 'jobs.get', by: ['id'] },
        { call: 'jobs.items', by: ['id'] },
        // A training job changes its mentor's documents; an export job its tenant's export history.
        { call: 'train.jobs', by: ['profileId'], when: { kind: ['train'] } },
        { call: 'documents.list', by: ['profileId'], when: { kind: ['train'] } },
        { call: 'analytics.export', by: ['id'], when: { kind: ['export'] } },
        { call: 'analytics.exports', by: ['profileId'], when: { kind: ['export'] } },
        { call: 'analytics.schedules', by: ['profileId'], when: { kind: ['export'] } },
        // An erasure's report changes as its steps end; the person it removes leaves the users list.
        { call: 'person.erasures', by: ['profileId'], when: { kind: ['person-erase'] } },
        { call: 'resources.list', by: ['profileId'], when: { kind: ['person-erase'] } },
        // A badge issued from a file changes its holders and the issuance chart; seats from a file, a licence's seats.
        { call: 'badges.assertions', by: ['profileId'], when: { kind: ['badge-assertions'] } },
        { call: 'badges.overTime', by: ['profileId'], when: { kind: ['badge-assertions'] } },
        { call: 'licences.seats', by: ['profileId'], when: { kind: ['licence-seats'] } },
      ],
    },
  ),
  /**
   * A running job's progress, several times a second: it patches the answers that hold the job rather than asking
   * again. Only answers holding the job are touched, keeping their age, so one already due for a refetch (a job was
   * added or changed state meanwhile) stays due.
   */
  'jobs.progress': event(z.object({ id: z.string(), state: JobState, progress: JobProgress }), {
    updates: [
      { call: 'jobs.get', by: ['id'], answer: (tick, job) => withProgress(job, tick) },
      {
        call: 'jobs.list',
        answer: (tick, list) =>
          list.jobs.some((job) => job.id === tick.id)
            ? { ...list, jobs: list.jobs.map((job) => withProgress(job, tick)) }
            : list,
      },
    ],
  }),
} as const;

function withProgress(job: Job, tick: Pick<Job, 'id' | 'state' | 'progress'>): Job {
  return job.id === tick.id ? { ...job, state: tick.state, progress: tick.progress } : job;
}
