/**
 * `mentors bulk-set` (one change of settings across the mentors a filter or a list names, as one journalled job; a
 * dry run prints each mentor's before and after and sends nothing) and `mentors diff A B`.
 */
import { MENTOR_VISIBILITIES, type Job, type JobItem, type Mentor } from '../../shared/contract';
import { mentorSettings, type FieldChange } from '../../shared/resources';
import type { Engine } from '../engine';
import { commandArgs, type Command } from './command';
import { UsageError, type Output } from './io';
import { profileIdOf } from './profile-commands';
import { pairs, printable, typedValues } from './resource-commands';

export const MENTOR_BULK_HELP = `  mentors bulk-set (--where name~TEXT | --where visibility=VALUE)... [MENTOR...] (--set FIELD=VALUE)... [--dry-run]
      one change of settings (fields of mentor-settings) on every mentor the filters (all of them) or the list name,
      as one job; each mentor's change is kept in its history. --dry-run prints each mentor's before and after only.
      Run again after an interruption: the same change resumes its job and sends nothing twice.
  mentors diff A B                 two mentors' settings, the fields that differ`;

/** How long bulk-set follows a job that waits for an unreachable tenant before leaving it to resume later. */
const MAX_WAIT_MS = 60_000;
const SETTLED: readonly Job['state'][] = ['completed', 'failed', 'cancelled', 'paused'];

const shown = (value: unknown) => {
  const text = value === null || value === undefined ? '(empty)' : JSON.stringify(value);
  return printable(text.length > 80 ? `${text.slice(0, 77)}…` : text);
};
const changeLine = (change: FieldChange) => `  ${change.field}: ${shown(change.before)} → ${shown(change.after)}`;

interface Filter {
  name?: string;
  visibility?: string;
}

function filterOf(wheres: string[]): Filter {
  const filter: Filter = {};
  for (const where of wheres) {
    const name = /^name~(.*)$/s.exec(where);
    const visibility = /^visibility=(.*)$/s.exec(where);
    if (name) filter.name = name[1]!.toLowerCase();
    else if (visibility) {
      if (!(MENTOR_VISIBILITIES as readonly string[]).includes(visibility[1]!)) {
        throw new UsageError(`--where visibility= takes ${MENTOR_VISIBILITIES.join(', ')} (got '${visibility[1]}')`);
      }
      filter.visibility = visibility[1]!;
    } else throw new UsageError(`--where takes name~TEXT or visibility=VALUE (got '${where}')`);
  }
  return filter;
}

const matches = (filter: Filter, mentor: Mentor) =>
  (filter.name === undefined || mentor.name.toLowerCase().includes(filter.name)) &&
  (filter.visibility === undefined || mentor.visibility === filter.visibility);

async function chosenMentors(
  engine: Engine,
  tenant: { profileId?: string },
  wheres: string[],
  named: string[],
): Promise<string[]> {
  if (!wheres.length) return named;
  const filter = filterOf(wheres);
  const { mentors } = await engine.invoke('mentors.list', { ...tenant, refresh: true });
  const chosen = mentors.filter((mentor) => matches(filter, mentor)).map((mentor) => mentor.uniqueId);
  return [...named, ...chosen];
}

async function bulkSet(engine: Engine, args: string[], out: Output, profileId: string | undefined) {
  const { values, positionals } = commandArgs(args, {
    where: { type: 'string', multiple: true },
    set: { type: 'string', multiple: true },
    'dry-run': { type: 'boolean' },
  });
  if (!values.set?.length) throw new UsageError('bulk-set needs --set FIELD=VALUE (one or more)');
  if (!values.where?.length && !positionals.length) {
    throw new UsageError('bulk-set needs the mentors: --where name~TEXT, --where visibility=VALUE or MENTOR...');
  }
  const tenant = profileId ? { profileId } : {};
  const change = await typedValues(mentorSettings, 'update', pairs(values.set, '--set'));
  const mentors = await chosenMentors(engine, tenant, values.where ?? [], positionals);
  if (!mentors.length) {
    out.record({ mentors: 0, dryRun: !!values['dry-run'] }, 'No mentor matches: nothing to change.');
    return 0;
  }

  if (values['dry-run']) {
    const preview = await engine.invoke('mentors.bulkPreview', { ...tenant, mentors, values: change });
    const counts = { changing: 0, unchanged: 0, unreadable: 0 };
    for (const row of preview.mentors) {
      const name = printable(row.name);
      if (row.error) {
        counts.unreadable++;
        out.record(row, `${name}: cannot be read (${printable(row.error)})`);
      } else if (!row.changes.length) {
        counts.unchanged++;
        out.record(row, `${name}: already set`);
      } else {
        counts.changing++;
        out.record(row, `${name}:\n${row.changes.map(changeLine).join('\n')}`);
      }
    }
    out.record(
      { mentors: preview.mentors.length, ...counts, dryRun: true },
      `Dry run: ${counts.changing} would change, ${counts.unchanged} already set, ${counts.unreadable} unreadable; nothing was sent.`,
    );
    return counts.unreadable ? 1 : 0;
  }

  const started = await engine.invoke('mentors.bulkSet', { ...tenant, mentors, values: change });
  if (started.resumed) out.text(`Resuming the unfinished job ${started.job.id.slice(0, 8)} for the same change.`);
  const job = await follow(engine, started.job);
  const items: JobItem[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await engine.invoke('jobs.items', { id: job.id, limit: 1000, offset });
    items.push(...page.items);
    if (page.items.length < 1000) break;
  }
  const counts = { updated: 0, unchanged: 0, refused: 0 };
  for (const item of items) {
    const name = printable(item.label);
    if (item.state === 'done') {
      const unchanged = item.phase === 'unchanged';
      counts[unchanged ? 'unchanged' : 'updated']++;
      out.record(
        { mentor: item.key, name: item.label, outcome: unchanged ? 'unchanged' : 'updated' },
        unchanged ? `${name}: already set.` : `${name}: updated.`,
      );
    } else {
      counts.refused++;
      const error = item.error ?? `Not done: the job is ${job.state}${job.reason ? ` (${job.reason})` : ''}`;
      if (out.json) out.record({ mentor: item.key, name: item.label, outcome: 'refused', error }, '');
      out.error(`${name}: ${printable(error)}`);
    }
  }
  out.record(
    { job: job.id, ...counts, state: job.state, resumed: started.resumed },
    `${counts.updated} updated, ${counts.unchanged} already set, ${counts.refused} refused` +
      (job.state === 'completed'
        ? ''
        : ` (job ${job.id} is ${job.state}: mentor-admin jobs show ${job.id.slice(0, 8)})`),
  );
  return counts.refused || job.state !== 'completed' ? 1 : 0;
}

async function follow(engine: Engine, started: Job): Promise<Job> {
  let job = started;
  let waitingSince: number | null = null;
  while (!SETTLED.includes(job.state)) {
    if (job.state === 'waiting') {
      waitingSince ??= Date.now();
      if (Date.now() - waitingSince > MAX_WAIT_MS) break;
    } else waitingSince = null;
    await new Promise((resolve) => setTimeout(resolve, 100));
    job = await engine.invoke('jobs.get', { id: job.id });
  }
  return job;
}

async function diff(engine: Engine, args: string[], out: Output, profileId: string | undefined) {
  const { positionals } = commandArgs(args, {});
  if (positionals.length !== 2) throw new UsageError('diff takes two mentors: mentors diff A B');
  const [a, b] = positionals as [string, string];
  const answer = await engine.invoke('mentors.diff', { ...(profileId ? { profileId } : {}), a, b });
  const left = printable(answer.a.name);
  const right = printable(answer.b.name);
  if (out.json) for (const change of answer.changes) out.record(change, '');
  else if (!answer.changes.length) out.text(`${left} and ${right} have the same settings.`);
  else {
    out.text(`Settings of ${left} → ${right}:`);
    for (const change of answer.changes) out.text(changeLine(change));
  }
  if (out.json) out.record({ a: answer.a, b: answer.b, differences: answer.changes.length }, '');
  return 0;
}

export const runMentorBulkCommand: Command = async (engine, args, out, _io, globals) => {
  const [sub, ...rest] = args;
  if (sub !== 'bulk-set' && sub !== 'diff') {
    throw new UsageError(`mentors takes bulk-set or diff (got '${sub ?? ''}')\n\n${MENTOR_BULK_HELP}`);
  }
  const profileId = await profileIdOf(engine, globals);
  return sub === 'bulk-set' ? bulkSet(engine, rest, out, profileId) : diff(engine, rest, out, profileId);
};
