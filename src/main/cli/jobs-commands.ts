import { JobKind, JobState, MAX_WAIT_LIMIT_MINUTES, type Job, type JobProgress } from '../../shared/contract';
import type { Engine } from '../engine';
import { formatBytes } from '../../shared/bytes';
import { commandArgs, type JobOutcome } from './command';
import { exportOutcome } from './export-commands';
import { inviteOutcome } from './invite-commands';
import { UsageError, type CliIo, type Output } from './io';

export const JOBS_HELP = `Jobs (training uploads and other long operations):
  jobs list [--kind train|invite|export|ticket-reply] [--state STATE]
  jobs show ID [--items]        the job, its failed items (all items with --items)
  jobs resume ID [--wait-limit DURATION]
                                run a paused, waiting or interrupted job here until it ends (a job waiting in
                                another process is taken over; one running there goes on there)
  jobs pause ID                 pause it wherever it runs (the app, a background process); it keeps its place
  jobs cancel ID                cancel it wherever it runs

ID may be the first characters of a job id when they are unique. Ctrl-C while a job runs pauses it; so does Pause in
the app, from any process. show, resume and cancel end with the summary line of the command that started the job
(train, invite, export), and resume exits as that command would.
--wait-limit: how long the job waits for an unreachable tenant before it gives up and pauses (90, 30m, 2h, 1d; up
to 7 days). It stays with the job; without it the app's setting applies (Settings → Jobs, 1 h at first).`;

/** `--wait-limit`: minutes, or a number with m, h or d. */
export function parseWaitLimit(text: string): number {
  const match = /^(\d+)\s*(m|min|h|d)?$/i.exec(text.trim());
  const minutes = match ? Number(match[1]) * { m: 1, min: 1, h: 60, d: 1440 }[(match[2] ?? 'm').toLowerCase()]! : 0;
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_WAIT_LIMIT_MINUTES)
    throw new UsageError('--wait-limit must be a duration from 1 minute to 7 days, like 90, 30m, 2h or 1d');
  return minutes;
}

/** A give-up time as people read it here: the local clock time, with the date when it is not today. */
function clockTime(iso: string): string {
  const at = new Date(iso);
  const time = at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  return at.toDateString() === new Date().toDateString() ? time : `${at.toISOString().slice(0, 10)} ${time}`;
}

/** Why a job waits, and until when. */
function waitingLine(job: Job): string {
  return `${job.reason ?? 'Waiting for the tenant'}${job.givesUpAt ? `; gives up at ${clockTime(job.givesUpAt)}` : ''}`;
}

/** Another process runs the job (or holds it waiting): this one is not the place to follow it. */
const runsElsewhere = (job: Job) => !!job.runner && !job.runner.here;

const SETTLED: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled', 'paused']);

/** A job by id or unique id prefix (the CLI prints short ids). */
export async function resolveJob(engine: Engine, ref: string): Promise<Job> {
  const exact = await engine.call('jobs.get', { id: ref });
  if (exact.ok) return exact.value as Job;
  if (ref.length >= 4) {
    const { jobs } = await engine.invoke('jobs.list', { limit: 500 });
    const matches = jobs.filter((job) => job.id.startsWith(ref));
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1) throw new UsageError(`'${ref}' matches ${matches.length} jobs: give more of the id`);
  }
  throw new UsageError(`No job '${ref}' (see: mentor-admin jobs list)`);
}

/** What a job's items are, for people. */
const UNITS: Record<JobKind, string> = {
  train: 'files',
  invite: 'rows',
  export: 'pages',
  'ticket-reply': 'replies',
  'resource-import': 'rows',
  'resource-bulk': 'records',
  'resource-members': 'rows',
  'licence-seats': 'rows',
  'mentor-bulk-set': 'mentors',
  'mentor-eval': 'runs',
  'mentor-copy': 'items',
  'person-export': 'datasets',
  'person-erase': 'steps',
  'session-export': 'transcripts',
  'badge-assertions': 'rows',
  'catalogue-enrol': 'rows',
  'catalogue-suggest': 'rows',
};

function progressLine(progress: JobProgress, unit: string): string {
  const finished = progress.done + progress.failed + progress.skipped;
  const parts = [`${progress.phase || 'Working'}: ${finished}/${progress.total} ${unit}`];
  if (progress.bytesTotal) parts.push(`${formatBytes(progress.bytesDone)} of ${formatBytes(progress.bytesTotal)}`);
  if (progress.bytesPerSecond > 0) parts.push(`${formatBytes(Math.round(progress.bytesPerSecond))}/s`);
  if (progress.failed) parts.push(`${progress.failed} failed`);
  if (progress.etaSeconds) parts.push(`about ${progress.etaSeconds} s left`);
  return parts.join(' · ');
}

/** The last line of `train`: counts from the job (a training job's are kept exact). Exit 0 only when none failed. */
export function trainOutcome(job: Job): JobOutcome {
  const count = (key: string, fallback: number) => job.counts[key] ?? fallback;
  const summary = {
    job: job.id,
    total: job.progress.total,
    uploaded: count('uploaded', job.progress.done),
    skipped: count('skipped', job.progress.skipped),
    trained: count('trained', job.progress.done),
    failed: count('failed', job.progress.failed),
  };
  return {
    summary,
    human:
      `Job ${job.id.slice(0, 8)} ${job.state}: ${summary.total} files, ${summary.uploaded} uploaded, ` +
      `${summary.skipped} skipped, ${summary.trained} trained, ${summary.failed} failed`,
    ok: job.state === 'completed' && summary.failed === 0,
  };
}

/** A queued ticket reply (no command of its own prints one): its items and how many failed. */
function itemsOutcome(job: Job): JobOutcome {
  const { total, done, failed } = job.progress;
  return {
    summary: { job: job.id, total, done, failed },
    human: `Job ${job.id.slice(0, 8)} ${job.state}: ${done} of ${total} done, ${failed} failed`,
    ok: job.state === 'completed' && failed === 0,
  };
}

/** A copy: what was done, and what of the mentor was not copied (documents the platform gives no way to read). */
function copyOutcome(job: Job): JobOutcome {
  const { total, done, failed, skipped } = job.progress;
  return {
    summary: { job: job.id, total, done, failed, notCopied: skipped },
    human: `Job ${job.id.slice(0, 8)} ${job.state}: ${done} of ${total} done, ${skipped} not copied, ${failed} failed`,
    ok: job.state === 'completed' && failed === 0,
  };
}

/** A job's last line and exit code in the shape of the command that starts jobs of its kind. */
async function outcomeOf(engine: Engine, job: Job): Promise<JobOutcome> {
  switch (job.kind) {
    case 'train':
      return trainOutcome(job);
    case 'invite':
      return inviteOutcome(job);
    case 'export':
      return exportOutcome(await engine.invoke('analytics.export', { id: job.id }));
    case 'mentor-copy':
      return copyOutcome(job);
    default:
      return itemsOutcome(job);
  }
}

/**
 * Follows a job in this process until it completes, fails, is cancelled or pauses, printing progress (JSON lines with
 * --json, a line on stderr otherwise). Ctrl-C pauses the job cleanly. Answers the exit code.
 */
export async function followJob(
  engine: Engine,
  job: string | (() => string),
  out: Output,
  io: CliIo,
  started: (subscribed: () => Promise<void>) => Promise<void>,
): Promise<number> {
  // The id may only be known once `started` has started the job (events are listened to before that).
  const id = typeof job === 'string' ? () => job : job;
  let interrupted = false;
  let lastHuman = 0;
  let unit = 'items';
  const tty = !!(io.stderr as { isTTY?: boolean }).isTTY;
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const check = async () => {
    const result = await engine.call('jobs.get', { id: id() });
    if (!result.ok) return;
    const job = result.value as Job;
    unit = UNITS[job.kind];
    if (SETTLED.has(job.state) || runsElsewhere(job)) settle();
  };
  const unsubscribe = engine.onEvent((name, payload) => {
    const event = payload as { id?: string };
    const jobId = id();
    if (!jobId || event.id !== jobId) return;
    if (name === 'jobs.progress') {
      const { state, progress } = payload as { state: string; progress: JobProgress };
      if (out.json) out.record({ event: 'progress', job: jobId, state, ...progress }, '');
      else if (tty || Date.now() - lastHuman > 2000) {
        lastHuman = Date.now();
        const line = progressLine(progress, unit);
        io.stderr.write(tty ? `\r\x1b[K${line}` : `${line}\n`);
      }
    }
    if (name === 'jobs.changed') {
      unit = UNITS[(payload as { kind: JobKind }).kind];
      void engine.call('jobs.get', { id: jobId }).then((result) => {
        if (!result.ok) return;
        const job = result.value as Job;
        if (out.json)
          out.record(
            { event: 'state', job: jobId, state: job.state, reason: job.reason, givesUpAt: job.givesUpAt },
            '',
          );
        else if (job.state === 'waiting') io.stderr.write(`${tty ? '\n' : ''}${waitingLine(job)}\n`);
        if (SETTLED.has(job.state) || runsElsewhere(job)) settle();
      });
    }
  });
  const onInterrupt = () => {
    interrupted = true;
    io.stderr.write('\nPausing…\n');
    void engine.call('jobs.pause', { id: id() }).finally(settle);
  };
  process.once('SIGINT', onInterrupt);
  // The runner's retry timers do not hold the process open; this does, and catches a missed event.
  const keepAlive = setInterval(() => void check(), 5000);
  try {
    await started(check);
    await settled;
  } finally {
    clearInterval(keepAlive);
    process.off('SIGINT', onInterrupt);
    unsubscribe();
    if (tty && !out.json) io.stderr.write('\n');
  }

  const jobId = id();
  const final = await engine.invoke('jobs.get', { id: jobId });
  const failed: { label: string; error: string | null }[] = [];
  for (let offset = 0; ; offset += 1000) {
    const { items } = await engine.invoke('jobs.items', { id: jobId, states: ['failed'], limit: 1000, offset });
    failed.push(...items);
    if (items.length < 1000) break;
  }
  for (const item of failed) {
    out.record(
      { event: 'failed', job: jobId, [final.kind === 'train' ? 'file' : 'item']: item.label, error: item.error },
      `  failed  ${item.label}: ${item.error ?? ''}`,
    );
  }
  const outcome = await outcomeOf(engine, final);
  if (runsElsewhere(final) && !SETTLED.has(final.state)) {
    // Resumed in another process (the app, another command) while it waited here: it goes on there.
    out.error(
      `The job now runs in another Mentor Admin process (pid ${final.runner!.pid}). ` +
        `Follow it with: mentor-admin jobs show ${final.id.slice(0, 8)}`,
    );
    out.record(outcome.summary, outcome.human);
    return 0;
  }
  if (final.state === 'paused') {
    out.error(
      `${interrupted ? 'Paused' : `The job is paused: ${final.reason ?? 'Paused'}`}. ` +
        `Resume it with: mentor-admin jobs resume ${final.id.slice(0, 8)}`,
    );
  } else if (final.state === 'failed') out.error(`The job failed: ${final.error ?? 'unknown error'}`);
  out.record(outcome.summary, outcome.human);
  if (interrupted) return 130;
  return outcome.ok ? 0 : 1;
}

function describeJob(job: Job): string {
  const why = job.state === 'waiting' ? waitingLine(job) : (job.reason ?? job.error);
  const where = runsElsewhere(job) ? ` [process ${job.runner!.pid}]` : '';
  const reason = (why ? ` (${why})` : '') + where;
  const p = job.progress;
  return `${job.id.slice(0, 8)}  ${job.kind.padEnd(6)} ${job.state.padEnd(9)} ${p.done + p.failed + p.skipped}/${p.total}  ${job.title}${reason}`;
}

export async function runJobsCommand(engine: Engine, args: string[], out: Output, io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'list': {
      const { values, positionals } = commandArgs(rest, {
        kind: { type: 'string' },
        state: { type: 'string', multiple: true },
      });
      if (positionals.length) throw new UsageError('jobs list takes no arguments');
      const kind = values.kind === undefined ? undefined : JobKind.safeParse(values.kind);
      if (kind && !kind.success) throw new UsageError(`--kind must be one of ${JobKind.options.join(', ')}`);
      const states = (values.state ?? []).map((state) => {
        const parsed = JobState.safeParse(state);
        if (!parsed.success) throw new UsageError(`--state must be one of ${JobState.options.join(', ')}`);
        return parsed.data;
      });
      const { jobs, total } = await engine.invoke('jobs.list', {
        ...(kind?.data && { kind: kind.data }),
        ...(states.length && { states }),
        limit: 500,
      });
      if (!jobs.length) out.text('No jobs yet.');
      for (const job of jobs) out.record(job, describeJob(job));
      if (total > jobs.length) out.text(`… and ${total - jobs.length} older jobs`);
      return 0;
    }
    case 'show': {
      const { values, positionals } = commandArgs(rest, { items: { type: 'boolean' } });
      if (positionals.length !== 1) throw new UsageError('jobs show takes exactly one ID');
      const job = await resolveJob(engine, positionals[0]!);
      out.record({ event: 'job', ...job }, describeJob(job));
      out.text(
        `  counts: ${
          Object.entries(job.counts)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ') || 'none yet'
        }`,
      );
      const states = values.items ? undefined : (['failed'] as const);
      for (let offset = 0; ; offset += 1000) {
        const { items } = await engine.invoke('jobs.items', {
          id: job.id,
          ...(states && { states: [...states] }),
          limit: 1000,
          offset,
        });
        for (const item of items) {
          out.record(
            { event: 'item', ...item },
            `  ${item.state.padEnd(7)} ${item.phase.padEnd(10)} ${item.label}${item.error ? `: ${item.error}` : ''}`,
          );
        }
        if (items.length < 1000) break;
      }
      const outcome = await outcomeOf(engine, job);
      out.record(outcome.summary, outcome.human);
      return 0;
    }
    case 'resume': {
      const { values, positionals } = commandArgs(rest, { 'wait-limit': { type: 'string' } });
      if (positionals.length !== 1) throw new UsageError('jobs resume takes exactly one ID');
      const waitLimitMinutes = values['wait-limit'] === undefined ? undefined : parseWaitLimit(values['wait-limit']);
      const job = await resolveJob(engine, positionals[0]!);
      if (job.state === 'completed' || job.state === 'cancelled') {
        const outcome = await outcomeOf(engine, job);
        out.record(
          outcome.summary,
          `The job has already ${job.state === 'completed' ? 'completed' : 'been cancelled'}. ${outcome.human}`,
        );
        return outcome.ok ? 0 : 1;
      }
      return followJob(engine, job.id, out, io, async (check) => {
        await engine.invoke('jobs.resume', { id: job.id, ...(waitLimitMinutes && { waitLimitMinutes }) });
        await check();
      });
    }
    case 'pause':
    case 'cancel': {
      if (rest.length !== 1) throw new UsageError(`jobs ${sub} takes exactly one ID`);
      const job = await resolveJob(engine, rest[0]!);
      // Written to the journal: the process that runs the job stops it within moments.
      const stopped = await engine.invoke(sub === 'pause' ? 'jobs.pause' : 'jobs.cancel', { id: job.id });
      out.record(
        {
          event: sub === 'pause' ? 'paused' : 'cancelled',
          ...(await outcomeOf(engine, stopped)).summary,
          state: stopped.state,
        },
        `Job ${stopped.id.slice(0, 8)} is ${stopped.state}.`,
      );
      return 0;
    }
    default:
      throw new UsageError(
        sub ? `Unknown jobs command '${sub}'` : 'jobs needs a command: list, show, resume, pause or cancel',
      );
  }
}
