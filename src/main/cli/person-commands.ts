/**
 * `mentor-admin person`: a learner's data requests. `export` writes everything the tenant holds about a person to
 * one zip (a CSV per dataset and a manifest); `erase` shows what would go, then (with --yes) clears it and removes the
 * person, and prints the signed-off report. Run again after an interruption, either resumes its job.
 */
import { ERASE_STEP_LABELS, type ErasureReport, type PersonPreview } from '../../shared/contract';
import { commandArgs, type Command } from './command';
import { UsageError } from './io';
import { followJob } from './jobs-commands';
import { profileIdOf } from './profile-commands';

export const PERSON_HELP = `A learner's data requests (USER: username or user id):
  person export USER --out FILE.zip     everything about them: chat history, feedback, memory (current, historical,
                                        profile, edX), tickets, invitations, enrolments — a CSV each and manifest.json
  person erase USER --yes [--dry-run]   clears their chat history, memory, profile and edX memory, then removes them;
                                        --dry-run shows the counts only. A tenant access administrator is refused`;

function previewLines(preview: PersonPreview): string {
  const lines = [`${preview.username}${preview.email ? ` <${preview.email}>` : ''} (user ${preview.userId})`];
  for (const { step, count } of preview.counts)
    lines.push(`  ${ERASE_STEP_LABELS[step].padEnd(30)} ${step === 'user' ? 'removed from the tenant' : count}`);
  for (const warning of preview.warnings) lines.push(`warning: ${warning}`);
  return lines.join('\n');
}

export function reportLines(report: ErasureReport): string {
  const lines = [
    `Erasure report ${report.id}: ${report.username} — ${report.state}`,
    `  asked by ${report.requestedBy} at ${report.requestedAt}${report.finishedAt ? `, ended ${report.finishedAt}` : ''}`,
  ];
  for (const step of report.steps)
    lines.push(`  ${ERASE_STEP_LABELS[step.step].padEnd(30)} ${step.erased ?? '-'} of ${step.planned}`);
  if (report.digest) lines.push(`  signed off: sha256 ${report.digest}`);
  return lines.join('\n');
}

export const runPersonCommand: Command = async (engine, args, out, io, globals) => {
  const [sub, ...rest] = args;
  const profileId = await profileIdOf(engine, globals);
  const tenant = profileId ? { profileId } : {};
  switch (sub) {
    case 'export': {
      const { values, positionals } = commandArgs(rest, { out: { type: 'string' } });
      const [user, ...extra] = positionals;
      if (!user || extra.length) throw new UsageError('person export takes one USER');
      if (!values.out) throw new UsageError('person export needs --out FILE.zip');
      let jobId = '';
      return followJob(
        engine,
        () => jobId,
        out,
        io,
        async (check) => {
          const started = await engine.invoke('person.export', { ...tenant, user, path: values.out! });
          jobId = started.jobId;
          out.record(
            { event: started.resumed ? 'resumed' : 'started', job: jobId, path: started.path },
            `${started.resumed ? 'Resumed' : 'Started'} job ${jobId.slice(0, 8)}: ${started.path}`,
          );
          await check();
        },
      );
    }
    case 'erase': {
      const { values, positionals } = commandArgs(rest, { yes: { type: 'boolean' }, 'dry-run': { type: 'boolean' } });
      const [user, ...extra] = positionals;
      if (!user || extra.length) throw new UsageError('person erase takes one USER');
      if (!values['dry-run'] && !values.yes)
        throw new UsageError(`person erase needs --yes: it erases ${user}'s data and removes them (see --dry-run)`);
      const { reports } = await engine.invoke('person.erasures', tenant);
      const pending = reports.find((r) => r.state === 'running' && (r.username === user || r.userId === user));
      if (!pending) {
        const preview = await engine.invoke('person.preview', { ...tenant, user });
        out.record({ event: 'preview', ...preview }, previewLines(preview));
        if (preview.refusal) {
          out.error(preview.refusal);
          return 1;
        }
        if (values['dry-run']) return 0;
      } else if (values['dry-run']) {
        out.record(
          { event: 'pending', report: pending },
          `An erasure of ${pending.username} is under way:\n${reportLines(pending)}`,
        );
        return 0;
      }
      const username = pending?.username ?? (await engine.invoke('person.preview', { ...tenant, user })).username;
      let jobId = '';
      const code = await followJob(
        engine,
        () => jobId,
        out,
        io,
        async (check) => {
          const started = await engine.invoke('person.erase', { ...tenant, user, confirm: username });
          jobId = started.jobId;
          out.record(
            { event: started.resumed ? 'resumed' : 'started', job: jobId, report: started.reportId },
            `${started.resumed ? 'Resumed' : 'Started'} job ${jobId.slice(0, 8)}.`,
          );
          await check();
        },
      );
      const report = (await engine.invoke('person.erasures', tenant)).reports.find((r) => r.jobId === jobId);
      if (report) out.record({ event: 'report', report }, reportLines(report));
      return code;
    }
    default:
      throw new UsageError(`person ${sub ?? ''}: use export or erase\n${PERSON_HELP}`);
  }
};
