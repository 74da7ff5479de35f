/**
 * `import KIND FILE.csv`: creates or updates a resource kind's records from a CSV file through resources.import (the
 * same reading, column matching and checks as the app's import screen), then follows the job it starts. A first
 * argument that is not a kind is an invitations file: `import FILE …` is `invite FILE …`.
 */
import { existsSync } from 'node:fs';
import { repeatedMessage } from '../../shared/import-summary';
import { RESOURCES, declarationOf, isResourceKind, pluralOf, type ResourceKind } from '../../shared/resources';
import { isBadgeKind, runBadgeImport } from './badge-commands';
import { commandArgs, type Command } from './command';
import { runInviteCommand } from './invite-commands';
import { finishedItems, followUntilSettled } from './follow';
import { UsageError } from './io';
import { profileIdOf } from './profile-commands';

export const IMPORT_HELP = `Import:
  import KIND FILE.csv [--dry-run] [--report FILE]     (kinds: ${Object.keys(RESOURCES).join(', ')})
      Creates or updates records from a CSV file by the kind's id: a record that exists and equals the row is left
      unchanged, one that differs is updated, a new one is created. Encoding, delimiter, header row and columns are
      detected (the kind's fields and their usual names). Rows are checked against the platform's rules first;
      running it again sends nothing twice, and after a crash it resumes the unfinished job for the same file.
      --dry-run      read and check every row; send nothing
      --report FILE  a CSV with one line per input row: created, updated, unchanged, invalid, failed
  Prints the summary {job,rows,created,updated,unchanged,invalid,failed} last; exit 0 only when no row was invalid
  or failed. (import FILE … without a KIND imports invitations: see invite.)
  import department-members|user-group-members FILE.csv [--dry-run] [--report FILE]
      Puts people into departments or user groups: a column with the person's email or username, one with the
      department's (user group's) name or id. Sent in bulk; a person already in the group is "already", an unknown
      person or group is reported on its row and the rest go on. --dry-run reads the tenant's people and groups
      and says what each row would do, sending nothing. Summary {job,rows,added,already,unknown,invalid,failed}.
  import license-assignments|course-license-assignments|program-license-assignments FILE.csv --license ID
         [--dry-run] [--report FILE]
      Gives each person of the file (a column with their email or user ID) a seat of the user (course, program)
      licence ID. A program licence keeps a seat for an email with no account yet (the spec's note). Someone who
      holds a seat already is "already"; rows past the licence's free seats are sent and flagged (overSeats); a
      person the platform does not know is reported on its row in the platform's words. --dry-run reads the
      licence, its seats and the tenant's people and says what each row would do, and which rows will not fit.
      Summary {job,rows,added,already,unknown,overSeats,invalid,failed}.
  import program-enrollments FILE.csv [--dry-run] [--report FILE]     (also: import enrollments)
      Enrols people in programs and pathways: a column with the person's email or username, one with the program's
      or pathway's id or name. One enrolment call a row (active, with metadata, expiry honoured: the platform's
      defaults); someone enrolled already is "already"; an unknown person or a program or pathway no longer there
      is reported on its row and the rest go on. Courses can't be enrolled directly: a row naming a course is
      reported with the programs and pathways that contain it (counted under courses, and as invalid, or unknown
      when its person is unknown too). --dry-run reads the tenant's people, catalogue and enrolments and says what
      each row would do. Summary {job,rows,added,already,unknown,courses,invalid,failed} (added: enrolled).`;

export const runImportCommand: Command = async (engine, args, out, io, globals) => {
  const first = args[0];
  if (isBadgeKind(args.find((arg) => !arg.startsWith('-')))) return runBadgeImport(engine, args, out, io, globals);
  if (first !== undefined && !isResourceKind(first) && (/\.(csv|tsv|txt)$/i.test(first) || existsSync(first))) {
    // `import FILE --platform …`: an invitations file.
    return runInviteCommand(engine, args, out, io, globals);
  }
  const { values, positionals } = commandArgs(args, {
    'dry-run': { type: 'boolean' },
    report: { type: 'string' },
    license: { type: 'string' },
  });
  const [given, file, ...extra] = positionals;
  // `import enrollments` (the course enrolments' kind, which nothing creates) has always meant an enrolment file:
  // its rows go into programs and pathways, as program-enrollments' do.
  const kind = given === 'enrollments' ? 'program-enrollments' : given;
  if (!kind || !file) throw new UsageError('import needs a KIND and a FILE.csv');
  if (!isResourceKind(kind)) {
    throw new UsageError(`Unknown kind '${kind}' (kinds: ${Object.keys(RESOURCES).join(', ')})`);
  }
  if (extra.length) throw new UsageError(`Unexpected argument '${extra[0]}'`);
  const profileId = await profileIdOf(engine, globals);
  const dryRun = !!values['dry-run'];
  // A membership file's dry run is a job too: it reads the tenant's people and groups to say what each row would do.
  const declaration = declarationOf(kind);
  const seats = !!declaration.seats;
  // An enrolment file is one too: its dry run reads the tenant's catalogue and enrolments.
  const membership = !!(declaration.membership || declaration.enrolment) || seats;
  const joined = declaration.enrolment ? 'enrolled' : 'added';
  const member = seats ? 'holding a seat' : declaration.enrolment ? 'enrolled' : 'members';
  const license = values.license === undefined ? undefined : Number(values.license);
  if (seats && (license === undefined || !Number.isInteger(license) || license <= 0)) {
    const licences = declaration.seats!.licenseKind;
    throw new UsageError(`import ${kind} needs --license ID (the licence's number, from: get ${licences})`);
  }
  if (!seats && values.license !== undefined) {
    throw new UsageError(
      `--license is for seat kinds only (license-assignments, course-…, program-license-assignments)`,
    );
  }
  const preview = await engine.invoke('resources.import', {
    ...(profileId && { profileId }),
    kind,
    path: file,
    start: !dryRun || membership,
    ...(membership && dryRun && { dryRun: true }),
    ...(license !== undefined && { licenseId: license }),
    rows: { filter: 'invalid', offset: 0, limit: 1000 },
  });
  const { counts } = preview;
  out.record(
    {
      event: 'read',
      encoding: preview.encoding,
      delimiter: preview.delimiter,
      headerRow: preview.headerRow,
      columns: preview.headers.map((header, i) => ({ header, field: preview.mapping[i] })),
      unknownColumns: preview.unknownColumns,
    },
    `Read ${preview.name}: ${counts.rows.toLocaleString('en-US')} rows (${preview.encoding}, ` +
      `${preview.delimiter === '\t' ? 'tab' : `'${preview.delimiter}'`}-separated); columns: ` +
      preview.headers.map((header, i) => `${header} → ${preview.mapping[i] ?? 'ignored'}`).join(', '),
  );
  for (const notice of preview.notices) out.record({ event: 'notice', message: notice }, `Note: ${notice}`);
  preview.rows.forEach((row, shown) => {
    const why =
      row.problems.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join('; ') ||
      (row.repeatOf !== undefined ? repeatedMessage(row.repeatOf) : '');
    const event = row.problems.length ? 'invalid' : 'repeated';
    if (out.json) out.record({ event, line: row.line, values: row.values, problem: why }, '');
    else if (shown < 50) out.text(`  line ${row.line}: ${why}`);
  });
  if (!out.json && preview.rowsTotal > 50) out.text(`  … and ${preview.rowsTotal - 50} more rows with problems`);

  if (!preview.job) {
    const summary = {
      job: null,
      rows: counts.rows,
      created: 0,
      updated: 0,
      unchanged: 0,
      invalid: counts.invalid,
      failed: 0,
      dryRun: true,
      valid: counts.valid,
    };
    out.record(
      summary,
      `Dry run: nothing was sent; ${counts.valid.toLocaleString('en-US')} valid, ${counts.invalid.toLocaleString('en-US')} invalid.`,
    );
    return counts.invalid ? 1 : 0;
  }

  const jobId = preview.job.id;
  out.record(
    { event: 'started', job: jobId, resumed: preview.job.resumed },
    preview.job.resumed
      ? `Resuming job ${jobId.slice(0, 8)}, which was importing this file.`
      : `Started job ${jobId.slice(0, 8)}: importing ${counts.valid.toLocaleString('en-US')} ${pluralOf(RESOURCES[kind as ResourceKind])}.`,
  );
  const job = await followUntilSettled(
    engine,
    jobId,
    out,
    io,
    (job) => `${job.progress.phase || job.state}: ${finishedItems(job)}/${job.progress.total} rows`,
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
  const n = (key: string) => job.counts[key] ?? 0;
  if (membership) {
    const summary = {
      job: jobId,
      rows: job.progress.total,
      ...(dryRun ? { dryRun: true, wouldAdd: n('wouldAdd') } : { added: n('added') }),
      already: n('already'),
      repeated: n('repeated'),
      unknown: n('unknown'),
      ...(seats && { overSeats: n('overSeats') }),
      ...(declaration.enrolment && { courses: n('courses') }),
      invalid: n('invalid'),
      failed: n('failed'),
    };
    out.record(
      summary,
      `${dryRun ? `Dry run, nothing was sent: ${n('wouldAdd')} would be ${joined}` : `${n('added')} ${joined}`}, ` +
        `${summary.already} already ${member}, ` +
        (summary.repeated ? `${summary.repeated} repeated in the file, ` : '') +
        `${summary.unknown} unknown, ` +
        (seats ? `${n('overSeats')} ${dryRun ? 'will not fit' : 'beyond the seats'}, ` : '') +
        (declaration.enrolment && n('courses')
          ? `${n('courses')} naming a course (courses can’t be enrolled directly; enrol in a program or pathway that contains it), `
          : '') +
        `${summary.invalid} invalid, ` +
        `${summary.failed} failed (job ${jobId.slice(0, 8)}, ${job.state}).`,
    );
    return job.state === 'completed' && !summary.unknown && !summary.invalid && !summary.failed ? 0 : 1;
  }
  const summary = {
    job: jobId,
    rows: job.progress.total,
    created: n('created'),
    updated: n('updated'),
    unchanged: n('unchanged'),
    invalid: n('invalid'),
    failed: n('failed'),
  };
  out.record(
    summary,
    `${summary.created} created, ${summary.updated} updated, ${summary.unchanged} unchanged, ` +
      `${summary.invalid} invalid, ${summary.failed} failed (job ${jobId.slice(0, 8)}, ${job.state}).`,
  );
  return job.state === 'completed' && !summary.invalid && !summary.failed ? 0 : 1;
};
