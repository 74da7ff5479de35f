import { existsSync, statSync } from 'node:fs';
import { DATASETS, RANGE_PRESETS, type CallInput, type ExportInfo } from '../../shared/contract';
import type { Engine } from '../engine';
import { commandArgs, type Command, type JobOutcome } from './command';
import { UsageError, type CliIo, type Output } from './io';
import { profileIdOf } from './profile-commands';

export const EXPORT_HELP = `Analytics exports (CSV):
  export DATASET --from DATE --to DATE [--mentor ID] [--department ID] [--learner USER] [--tz ZONE] [--no-bom]
         [--delimiter ,|;|tab|'|'] [--columns a,b,…] --out FILE|FOLDER
  export DATASET --range today|7d|30d|90d|all …    instead of --from/--to
  export --list                                     the datasets and their columns

Dates are YYYY-MM-DD, inclusive, in the time zone (--tz, an IANA name such as Europe/Paris; the computer's own by
default); timestamps are written in it with their offset. Running the same command again after an interruption
(Ctrl-C, kill, a crash) continues the unfinished export where it stopped. One learner's datasets (chart.learner-time)
need --learner, a username or an email.`;

const DELIMITER_NAMES: Record<string, ',' | ';' | '\t' | '|'> = {
  ',': ',',
  comma: ',',
  ';': ';',
  semicolon: ';',
  tab: '\t',
  '\\t': '\t',
  '\t': '\t',
  '|': '|',
  pipe: '|',
};

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

function listDatasets(out: Output): number {
  for (const d of DATASETS) {
    out.record(
      {
        id: d.id,
        label: d.label,
        description: d.description,
        columns: d.columns.map((c) => c.key),
        ranged: d.ranged,
        mentorFilter: d.mentorFilter,
        departmentFilter: d.departmentFilter,
        perLearner: d.perLearner,
      },
      `${d.id.padEnd(24)} ${d.label}\n${' '.repeat(25)}columns: ${d.columns.map((c) => c.key).join(', ')}`,
    );
  }
  return 0;
}

const seconds = (s: number | null) =>
  s === null
    ? '…'
    : s >= 3600
      ? `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`
      : s >= 60
        ? `${Math.floor(s / 60)} min ${s % 60} s`
        : `${s} s`;

function describeProgress(info: ExportInfo): string {
  const pages = info.pagesTotal ? `page ${info.pagesDone}/${info.pagesTotal}` : `page ${info.pagesDone}`;
  return `${pages}, ${info.rows.toLocaleString('en-US')} rows, ${info.rowsPerSecond.toLocaleString('en-US')} rows/s, ETA ${seconds(info.etaSeconds)}`;
}

/** The last line of `export` (and of `jobs show|resume|cancel` on an export job); only a written file is success. */
export function exportOutcome(info: ExportInfo): JobOutcome {
  const rows = info.rows.toLocaleString('en-US');
  return {
    summary: { job: info.id, dataset: info.dataset, rows: info.rows, file: info.path },
    human:
      info.state === 'completed'
        ? `Wrote ${rows} rows to ${info.path}`
        : `Export ${info.id.slice(0, 8)} of ${info.dataset} ${info.state}: ${rows} rows so far → ${info.path}`,
    ok: info.state === 'completed',
  };
}

/** Follows the job until it ends; a tenant that cannot be reached is waited for (the job retries by itself). */
async function follow(engine: Engine, id: string, out: Output, io: CliIo): Promise<ExportInfo> {
  let lastPages = -1;
  let lastState = '';
  return new Promise<ExportInfo>((resolve, reject) => {
    // A referenced timer: it keeps the process alive while the job (whose timers are unreferenced) works.
    const timer = setInterval(() => {
      engine.invoke('analytics.export', { id }).then(
        (info) => {
          if (info.pagesDone !== lastPages && info.state === 'running') {
            lastPages = info.pagesDone;
            out.record(
              {
                event: 'progress',
                job: id,
                pages: info.pagesDone,
                pagesTotal: info.pagesTotal,
                rows: info.rows,
                rowsPerSecond: info.rowsPerSecond,
                etaSeconds: info.etaSeconds,
              },
              `  ${describeProgress(info)}`,
            );
          }
          if (info.state !== lastState) {
            lastState = info.state;
            if (info.state === 'waiting' || info.state === 'paused')
              io.stderr.write(`mentor-admin: ${info.state}: ${info.reason ?? ''}\n`);
          }
          // Paused by the engine (e.g. 'Authentication failed'): nothing will change while this command waits.
          if (FINISHED.has(info.state) || info.state === 'paused') {
            clearInterval(timer);
            resolve(info);
          }
        },
        (error: unknown) => {
          clearInterval(timer);
          reject(error as Error);
        },
      );
    }, 150);
  });
}

export const runExportCommand: Command = async (engine, args, out, io, globals) => {
  const { values, positionals } = commandArgs(args, {
    list: { type: 'boolean' },
    from: { type: 'string' },
    to: { type: 'string' },
    range: { type: 'string' },
    mentor: { type: 'string' },
    department: { type: 'string' },
    learner: { type: 'string' },
    tz: { type: 'string' },
    'no-bom': { type: 'boolean' },
    delimiter: { type: 'string' },
    columns: { type: 'string' },
    out: { type: 'string' },
    'page-size': { type: 'string' },
  });
  if (values.list) {
    if (positionals.length) throw new UsageError('export --list takes no dataset');
    return listDatasets(out);
  }
  const dataset = positionals[0];
  if (!dataset || positionals.length > 1) throw new UsageError('export takes exactly one DATASET (see export --list)');
  const spec = DATASETS.find((d) => d.id === dataset);
  if (!spec) throw new UsageError(`Unknown dataset '${dataset}' (see export --list)`);
  if (!values.out) throw new UsageError('export needs --out FILE (or a folder)');

  let range: CallInput<'analytics.exportStart'>['range'];
  if (values.from || values.to) {
    if (values.range) throw new UsageError('Give either --from/--to or --range, not both');
    if (!values.from || !values.to) throw new UsageError('Give both --from and --to (YYYY-MM-DD)');
    range = { preset: 'custom', from: values.from, to: values.to };
  } else if (values.range) {
    if (!(RANGE_PRESETS as readonly string[]).includes(values.range) || values.range === 'custom')
      throw new UsageError(`--range must be one of ${RANGE_PRESETS.filter((p) => p !== 'custom').join(', ')}`);
    range = { preset: values.range as 'today' };
  } else if (spec.ranged) {
    throw new UsageError(`${dataset} needs a range: --from DATE --to DATE, or --range 30d`);
  } else range = { preset: '30d' };

  const delimiter = values.delimiter === undefined ? ',' : DELIMITER_NAMES[values.delimiter];
  if (!delimiter) throw new UsageError('--delimiter must be one of , ; tab |');
  let department: number | undefined;
  if (values.department !== undefined) {
    department = Number(values.department);
    if (!Number.isInteger(department) || department < 1) throw new UsageError('--department must be a department id');
  }
  let pageSize: number | undefined;
  if (values['page-size'] !== undefined) {
    pageSize = Number(values['page-size']);
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000)
      throw new UsageError('--page-size must be between 1 and 1000');
  }
  const profileId = await profileIdOf(engine, globals);
  const isFolder = existsSync(values.out) && statSync(values.out).isDirectory();
  const columns = values.columns
    ?.split(',')
    .map((c) => c.trim())
    .filter(Boolean);

  const started = await engine.invoke('analytics.exportStart', {
    ...(profileId && { profileId }),
    dataset,
    range,
    ...(values.tz ? { timeZone: values.tz } : {}),
    ...(values.mentor ? { mentor: values.mentor } : {}),
    ...(department ? { department } : {}),
    ...(values.learner ? { learner: values.learner } : {}),
    bom: !values['no-bom'],
    delimiter,
    ...(columns?.length ? { columns } : {}),
    ...(isFolder ? { folder: values.out } : { path: values.out, resume: true }),
    ...(pageSize ? { pageSize } : {}),
  });
  out.record(
    { event: 'started', job: started.id, dataset, file: started.path, resumed: started.pagesDone > 0 },
    started.pagesDone > 0
      ? `Continuing export ${started.id.slice(0, 8)} of ${dataset} from page ${started.pagesDone + 1} → ${started.path}`
      : `Exporting ${dataset} → ${started.path}`,
  );
  const info = await follow(engine, started.id, out, io);
  if (info.state !== 'completed') {
    out.error(
      info.state === 'paused'
        ? `The export is paused: ${info.reason ?? ''}. Run the same command again to continue.`
        : `The export ${info.state === 'cancelled' ? 'was cancelled' : 'failed'}: ${info.error ?? info.reason ?? ''}`,
    );
    return 1;
  }
  const outcome = exportOutcome(info);
  out.record(outcome.summary, outcome.human);
  return 0;
};
