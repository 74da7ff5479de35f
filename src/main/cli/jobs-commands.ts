import { JobKind, JobState, type Job, type JobProgress } from '../../shared/contract';
import type { Engine } from '../engine';
import { formatBytes } from '../engine/train/classify';
import { commandArgs, type JobOutcome } from './command';
import { exportOutcome } from './export-commands';
import { inviteOutcome } from './invite-commands';
import { UsageError, type CliIo, type Output } from './io';

export const JOBS_HELP = `Jobs (training uploads and other long operations):
  jobs list [--kind train|invite|export|ticket-reply] [--state STATE]
  jobs show ID [--items]        the job, its failed items (all items with --items)
  jobs resume ID                run a paused, waiting or interrupted job here until it ends
  jobs cancel ID

ID may be the first characters of a job id when they are unique. Ctrl-C while a job runs pauses it. show, resume and
cancel end with the summary line of the command that started the job (train, invite, export), and resume exits as
that command would.`;

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
const UNITS: Record<JobKind, string> = { train: 'files', invite: 'rows', export: 'pages', 'ticket-reply': 'replies' };

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

/** A job's last line and exit code in the shape of the command that starts jobs of its kind. */
async function outcomeOf(engine: Engine, job: Job): Promise<JobOutcome> {
  switch (job.kind) {
    case 'train':
      return trainOutcome(job);
    case 'invite':
      return inviteOutcome(job);
    case 'export':
      return exportOutcome(await engine.invoke('analytics.export', { id: job.id }));
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
    if (SETTLED.has(job.state)) settle();
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
        if (out.json) out.record({ event: 'state', job: jobId, state: job.state, reason: job.reason }, '');
        else if (job.state === 'waiting' && job.reason) io.stderr.write(`${tty ? '\n' : ''}${job.reason}\n`);
        if (SETTLED.has(job.state)) settle();
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
  const reason = job.reason ? ` (${job.reason})` : job.error ? ` (${job.error})` : '';
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
      if (rest.length !== 1) throw new UsageError('jobs resume takes exactly one ID');
      const job = await resolveJob(engine, rest[0]!);
      if (job.state === 'completed' || job.state === 'cancelled') {
        const outcome = await outcomeOf(engine, job);
        out.record(
          outcome.summary,
          `The job has already ${job.state === 'completed' ? 'completed' : 'been cancelled'}. ${outcome.human}`,
        );
        return outcome.ok ? 0 : 1;
      }
      return followJob(engine, job.id, out, io, async (check) => {
        await engine.invoke('jobs.resume', { id: job.id });
        await check();
      });
    }
    case 'cancel': {
      if (rest.length !== 1) throw new UsageError('jobs cancel takes exactly one ID');
      const job = await resolveJob(engine, rest[0]!);
      const cancelled = await engine.invoke('jobs.cancel', { id: job.id });
      out.record(
        { event: 'cancelled', ...(await outcomeOf(engine, cancelled)).summary, state: cancelled.state },
        `Job ${cancelled.id.slice(0, 8)} is ${cancelled.state}.`,
      );
      return 0;
    }
    default:
      throw new UsageError(
        sub ? `Unknown jobs command '${sub}'` : 'jobs needs a command: list, show, resume or cancel',
      );
  }
}
