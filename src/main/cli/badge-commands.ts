/**
 * Badges on the command line: `get badges`, `get badge-assertions --badge ID`, and `import badge-assertions FILE.csv
 * --badge ID [--dry-run] [--report FILE]` (a journalled job: a dry run says what each row would do, a second run
 * issues nobody twice).
 */
import type { Engine } from '../engine';
import { commandArgs, type Command } from './command';
import { finishedItems, followUntilSettled } from './follow';
import { UsageError, type Output } from './io';
import { profileIdOf } from './profile-commands';

/** Kinds these commands serve besides the resource kit's. */
export const BADGE_KINDS = ['badges', 'badge-assertions'] as const;
export const isBadgeKind = (kind: string | undefined) => (BADGE_KINDS as readonly string[]).includes(kind ?? '');

export const BADGE_HELP = `Badges:
  get badges                                   the tenant's badges (id, name, course, holders)
  get badge-assertions --badge ID              who holds a badge (revoked ones marked)
  import badge-assertions FILE.csv --badge ID [--dry-run] [--report FILE]
      Issues the badge to the people of a CSV file (a column of emails or usernames, found as in a membership
      import). A journalled job: --dry-run reads the tenant's people and the badge's holders and says per row what
      would happen, sending nothing; running it again issues nobody twice. Summary {job,rows,issued,already,unknown,
      invalid,failed} last; exit 0 only when no row was unknown, invalid or failed.`;

export const runBadgeGet = async (
  engine: Engine,
  args: string[],
  out: Output,
  tenant: { profileId?: string },
): Promise<number> => {
  const { values, positionals } = commandArgs(args, { badge: { type: 'string' } });
  const [kind, ...extra] = positionals;
  if (extra.length) throw new UsageError(`Unexpected argument '${extra[0]}'`);
  if (kind === 'badges') {
    const { badges, freshness } = await engine.invoke('badges.list', tenant);
    for (const badge of badges)
      out.record(
        badge,
        `${badge.id.padEnd(24)} ${badge.name.padEnd(32)} ${String(badge.issued ?? '').padStart(6)}  ${badge.course ?? ''}`,
      );
    // The saved copy (the tenant is not answering): said on stderr, as the kit's lists do.
    if (freshness.offline) out.error(freshness.offline);
    return 0;
  }
  if (!values.badge) throw new UsageError('get badge-assertions needs --badge ID');
  const { assertions, freshness } = await engine.invoke('badges.assertions', { ...tenant, badge: values.badge });
  for (const a of assertions)
    out.record(
      a,
      `${a.id.padEnd(24)} ${a.username.padEnd(20)} ${a.issuedOn.slice(0, 10)}${a.revoked ? `  revoked: ${a.revocationReason}` : ''}`,
    );
  if (freshness.offline) out.error(freshness.offline);
  return 0;
};

export const runBadgeImport: Command = async (engine, args, out, io, globals) => {
  const { values, positionals } = commandArgs(args, {
    badge: { type: 'string' },
    'dry-run': { type: 'boolean' },
    report: { type: 'string' },
  });
  const [, file, ...extra] = positionals;
  if (!file) throw new UsageError('import badge-assertions needs a FILE.csv');
  if (!values.badge) throw new UsageError('import badge-assertions needs --badge ID');
  if (extra.length) throw new UsageError(`Unexpected argument '${extra[0]}'`);
  const profileId = await profileIdOf(engine, globals);
  const dryRun = !!values['dry-run'];
  const started = await engine.invoke('badges.import', {
    ...(profileId && { profileId }),
    badge: values.badge,
    path: file,
    dryRun,
  });
  out.record(
    { event: 'started', job: started.job.id, resumed: started.job.resumed, rows: started.rows },
    started.job.resumed
      ? `Resuming job ${started.job.id.slice(0, 8)}, which was issuing from this file.`
      : `Started job ${started.job.id.slice(0, 8)}: ${dryRun ? 'checking' : 'issuing to'} ${started.rows.toLocaleString('en-US')} rows.`,
  );
  const job = await followUntilSettled(
    engine,
    started.job.id,
    out,
    io,
    (j) => `${j.progress.phase || j.state}: ${finishedItems(j)}/${j.progress.total} rows`,
  );
  if (values.report) {
    const report = await engine.invoke('jobs.exportReport', { id: job.id, path: values.report });
    out.text(`Report: ${report.path} (${report.rows} rows)`);
  }
  if (job.state === 'failed') out.error(`The job failed: ${job.error ?? 'unknown error'}`);
  const n = (key: string) => job.counts[key] ?? 0;
  const summary = {
    job: job.id,
    rows: job.progress.total,
    ...(dryRun ? { dryRun: true, wouldIssue: n('wouldIssue') } : { issued: n('issued') }),
    already: n('already'),
    unknown: n('unknown'),
    invalid: n('invalid'),
    failed: n('failed'),
  };
  out.record(
    summary,
    `${dryRun ? `Dry run, nothing was sent: ${n('wouldIssue')} would be issued` : `${n('issued')} issued`}, ` +
      `${summary.already} already held it, ${summary.unknown} unknown, ${summary.invalid} invalid, ${summary.failed} failed ` +
      `(job ${job.id.slice(0, 8)}, ${job.state}).`,
  );
  return job.state === 'completed' && !summary.unknown && !summary.invalid && !summary.failed ? 0 : 1;
};
