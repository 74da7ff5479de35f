import {
  countOf,
  INVITE_FIELDS,
  outcomeWords,
  summaryCounts,
  type ImportDraft,
  type ImportOutcome,
  type InviteField,
  type InviteTarget,
  type Job,
  type JobProgress,
} from '../../shared/contract';
import type { Engine } from '../engine';
import { commandArgs, type Command, type JobOutcome } from './command';
import { finishedItems, followUntilSettled } from './follow';
import { UsageError, type Output } from './io';
import { profileIdOf } from './profile-commands';

export const INVITE_HELP = `Invitations:
  invite FILE (--platform | --course ID | --program ID) [--map "Header=field"]... [--dry-run] [--skip-invalid]
         [--report FILE] [--redirect-to URL] [--inactive]
      Reads the CSV (encoding, delimiter and header row are detected), validates every row, asks the platform who
      is already invited or a member, then invites the others in chunks. Running it again invites nobody twice;
      after a crash it resumes the unfinished job for the same file and target.
      --map          which column fills which field (${INVITE_FIELDS.join(', ')}, or ignore)
      --dry-run      validate and report; send nothing
      --skip-invalid invalid rows are left out without failing the command
      --report FILE  a CSV with one line per input row: invited, already invited, already a member, invalid, failed
  Exit 0 only when no row failed (invalid rows count as failed unless --skip-invalid).`;

interface Totals {
  rows: number;
  invited: number;
  already: number;
  invalid: number;
  duplicate: number;
  failed: number;
}

function parseTarget(values: { platform?: boolean; course?: string; program?: string }): InviteTarget {
  const given = [values.platform ? 1 : 0, values.course ? 1 : 0, values.program ? 1 : 0].reduce((a, b) => a + b, 0);
  if (given !== 1) throw new UsageError('invite needs exactly one of --platform, --course ID or --program ID');
  if (values.course) return { kind: 'course', id: values.course };
  if (values.program) return { kind: 'program', id: values.program };
  return { kind: 'platform' };
}

/** `--map "E-Mail Address=email"`: the header (case and punctuation ignored) and a field, or `ignore`. */
export function applyMaps(draft: ImportDraft, maps: readonly string[]): (InviteField | null)[] {
  const mapping = draft.columns.map((column) => column.field);
  const norm = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  for (const map of maps) {
    const at = map.lastIndexOf('=');
    if (at < 1) throw new UsageError(`--map "${map}" must look like "Header=field"`);
    const header = map.slice(0, at).trim();
    const field = map
      .slice(at + 1)
      .trim()
      .toLowerCase();
    if (field !== 'ignore' && !(INVITE_FIELDS as readonly string[]).includes(field)) {
      throw new UsageError(`--map "${map}": the field must be one of ${INVITE_FIELDS.join(', ')} or ignore`);
    }
    const column =
      draft.columns.find((c) => c.header === header) ?? draft.columns.find((c) => norm(c.header) === norm(header));
    if (!column) {
      throw new UsageError(
        `--map "${map}": no column "${header}" (columns: ${draft.columns.map((c) => c.header).join(', ')})`,
      );
    }
    if (field !== 'ignore') {
      // A field comes from one column: the one named here.
      mapping.forEach((f, i) => {
        if (f === field) mapping[i] = null;
      });
    }
    mapping[column.index] = field === 'ignore' ? null : (field as InviteField);
  }
  return mapping;
}

/** What will not be sent, in the wizard's words (one vocabulary: `outcomeWords`). */
const NOT_SENT: ImportOutcome[] = ['invalid', 'duplicate', 'alreadyInvited', 'alreadyMember', 'dropped'];

function describeDraft(draft: ImportDraft): string {
  const counts = summaryCounts(draft.summary);
  const parts = [
    `${countOf(draft.summary.rows, 'row')} read from ${draft.name} (${draft.encoding}${draft.bom ? ' with BOM' : ''}, delimiter ${JSON.stringify(draft.delimiter)})`,
    `  ${counts.invited.toLocaleString('en-US')} ${outcomeWords('invited', counts.invited, false)}`,
  ];
  const others = NOT_SENT.filter((outcome) => counts[outcome] > 0).map(
    (outcome) => `${counts[outcome].toLocaleString('en-US')} ${outcomeWords(outcome, counts[outcome], false)}`,
  );
  if (others.length) parts[1] += `; not sent: ${others.join(', ')}`;
  return parts.join('\n');
}

const totalsOf = (job: Job): Totals => ({
  rows: job.progress.total,
  invited: job.counts.invited ?? 0,
  already: (job.counts.alreadyInvited ?? 0) + (job.counts.alreadyMember ?? 0),
  invalid: job.counts.invalid ?? 0,
  duplicate: job.counts.duplicate ?? 0,
  failed: (job.counts.failed ?? 0) + (job.state === 'completed' ? 0 : job.progress.total - finished(job.progress)),
});

const finished = (p: JobProgress) => p.done + p.failed + p.skipped;

/**
 * The last line of `invite` (and of `jobs show|resume|cancel` on an invite job). It succeeded only when no row failed;
 * invalid rows count as failed unless the job was started with --skip-invalid.
 */
export function inviteOutcome(job: Job): JobOutcome {
  const totals = totalsOf(job);
  return {
    summary: { job: job.id, ...totals },
    human:
      `Job ${job.id.slice(0, 8)} ${job.state}: ${countOf(totals.rows, 'row')}, ${totals.invited} invited, ${totals.already} ` +
      `already invited or members, ${totals.invalid} invalid, ${countOf(totals.duplicate, 'duplicate')}, ${totals.failed} failed`,
    ok: job.state === 'completed' && totals.failed === 0 && (!!job.skipInvalid || totals.invalid === 0),
  };
}

export const runInviteCommand: Command = async (engine, args, out, io, globals) => {
  const { values, positionals } = commandArgs(args, {
    platform: { type: 'boolean' },
    course: { type: 'string' },
    program: { type: 'string' },
    map: { type: 'string', multiple: true },
    'dry-run': { type: 'boolean' },
    'skip-invalid': { type: 'boolean' },
    report: { type: 'string' },
    'redirect-to': { type: 'string' },
    inactive: { type: 'boolean' },
  });
  if (positionals.length !== 1) throw new UsageError('invite takes exactly one FILE');
  const target = parseTarget(values);
  const skipInvalid = !!values['skip-invalid'];
  const profileId = await profileIdOf(engine, globals);

  let draft = await engine.invoke('invitations.importOpen', { ...(profileId && { profileId }), path: positionals[0]! });
  try {
    if (values.map?.length) {
      draft = await engine.invoke('invitations.importConfigure', {
        id: draft.id,
        mapping: applyMaps(draft, values.map),
      });
    }
    if (!draft.columns.some((c) => c.field === 'email')) {
      out.error(
        `No column holds email addresses (columns: ${draft.columns.map((c) => c.header).join(', ')}). ` +
          `Name it with --map "Header=email".`,
      );
      await engine.invoke('invitations.importDiscard', { id: draft.id });
      return 1;
    }
    await engine.invoke('invitations.importParse', { id: draft.id, wait: true });
    draft = await engine.invoke('invitations.importTarget', {
      id: draft.id,
      target,
      ...(values['redirect-to'] !== undefined && { redirectTo: values['redirect-to'] }),
      active: !values.inactive,
      wait: true,
    });
  } catch (error) {
    await engine.call('invitations.importDiscard', { id: draft.id });
    throw error;
  }
  if (draft.state === 'failed') {
    out.error(draft.error ?? 'The file could not be read');
    return 1;
  }
  for (const notice of draft.notices) out.record({ event: 'notice', message: notice }, `Note: ${notice}`);
  out.record({ event: 'summary', ...draft.summary }, describeDraft(draft));
  await printProblems(engine, draft, out);
  if (draft.summary.rows === 0) {
    out.error('There is nobody to invite: the file has no rows below its header.');
    return 1;
  }

  if (values['dry-run']) {
    if (values.report) await writeDryRunReport(engine, draft, values.report);
    const s = draft.summary;
    const totals = {
      job: null,
      rows: s.rows,
      invited: 0,
      already: s.alreadyInvited + s.alreadyMember,
      invalid: s.invalid,
      duplicate: s.duplicate,
      failed: 0,
      dryRun: true,
      willEmail: s.willEmail,
    };
    out.record(totals, `Dry run: nothing was sent; ${s.willEmail.toLocaleString('en-US')} would be emailed.`);
    return totals.invalid > 0 && !skipInvalid ? 1 : 0;
  }

  const { jobId, resumed } = await engine.invoke('invitations.importStart', { id: draft.id, skipInvalid });
  out.record(
    { event: 'started', job: jobId, resumed },
    resumed
      ? `Resuming job ${jobId.slice(0, 8)}, which was sending this file to the same place.`
      : `Started job ${jobId.slice(0, 8)}: inviting ${countOf(draft.summary.willEmail, 'person', 'people')}.`,
  );
  const job = await followUntilSettled(
    engine,
    jobId,
    out,
    io,
    (job) =>
      `${job.progress.phase || job.state}: ${finishedItems(job)}/${job.progress.total} rows, ${job.counts.invited ?? 0} invited`,
  );
  if (values.report) {
    const report = await engine.invoke('jobs.exportReport', { id: jobId, path: values.report });
    out.text(`Report: ${report.path} (${report.rows} rows)`);
  }
  if (job.state === 'paused')
    out.error(`The job is paused: ${job.reason ?? 'Paused'}. Run the same command again to resume it.`);
  else if (job.state === 'waiting')
    out.error(`${job.reason ?? 'The tenant is unreachable'}. Run the same command again to resume.`);
  else if (job.state === 'failed') out.error(`The job failed: ${job.error ?? 'unknown error'}`);
  const outcome = inviteOutcome(job);
  out.record(outcome.summary, outcome.human);
  return outcome.ok ? 0 : 1;
};

/** The rows that will not be sent because of a problem, with why (first 50 for people, all with --json). */
async function printProblems(engine: Engine, draft: ImportDraft, out: Output): Promise<void> {
  let shown = 0;
  for (let offset = 0; ; offset += 1000) {
    const { rows, total } = await engine.invoke('invitations.importRows', {
      id: draft.id,
      filter: 'problems',
      offset,
      limit: 1000,
    });
    for (const row of rows) {
      const why =
        row.status === 'duplicate'
          ? `the same address as line ${row.duplicateOf}`
          : row.problems.map((p) => p.message).join('; ');
      if (out.json) out.record({ event: 'invalid', line: row.line, email: row.values.email, problem: why }, '');
      else if (shown++ < 50) out.text(`  line ${row.line}: ${row.values.email || '(no email)'} — ${why}`);
    }
    if (offset + rows.length >= total) {
      if (!out.json && total > 50) out.text(`  … and ${countOf(total - 50, 'more row')} with problems`);
      return;
    }
  }
}

async function writeDryRunReport(engine: Engine, draft: ImportDraft, path: string): Promise<void> {
  const RESULT = {
    ok: 'would invite',
    invalid: 'invalid',
    duplicate: 'duplicate',
    already_invited: 'already invited',
    already_member: 'already a member',
  } as const;
  async function* batches() {
    for (let offset = 0; ; offset += 1000) {
      const { rows } = await engine.invoke('invitations.importRows', {
        id: draft.id,
        filter: 'all',
        offset,
        limit: 1000,
      });
      if (!rows.length) return;
      yield rows.map((row) => [
        row.line,
        row.values.email,
        row.values.first_name,
        row.values.last_name,
        RESULT[row.status],
        row.status === 'duplicate'
          ? `The same address as line ${row.duplicateOf}`
          : row.problems.map((p) => p.message).join('; '),
      ]);
    }
  }
  const { writeCsvAtomically } = await import('../engine/csv');
  await writeCsvAtomically(path, ['row', 'email', 'first_name', 'last_name', 'result', 'message'], batches());
}
