import type { Preview, PreviewFile } from '../../shared/contract';
import type { Engine } from '../engine';
import { formatBytes } from '../../shared/bytes';
import { commandArgs, type Command } from './command';
import { startDetached } from './background';
import { followJob, parseWaitLimit } from './jobs-commands';
import { UsageError, type Output } from './io';
import { profileIdOf } from './profile-commands';

export const TRAIN_HELP = `Training:
  train PATH... --mentor UNIQUE_ID|NAME [--dry-run] [--include GLOB]... [--exclude GLOB]...
        [--concurrency N] [--max-size MB] [--no-wait [--wait-limit DURATION]]
      Scans the files and folders, prints what would be sent (new, changed, unchanged, unsupported, too large,
      skipped, unreadable — with reasons), then uploads and follows training until every file is trained or failed.
      --dry-run      print the preview and send nothing
      --include/--exclude  globs on the relative path (*.pdf matches at any depth; exclude wins)
      --concurrency  uploads at once for this job (default 4; the tenant returns to 4 after it)
      --max-size     files above this many MB are not sent (default: no limit; files over 25 MB, which tenants
                     often refuse, are sent with a warning)
      --no-wait      journal the job and return at once: a background process of its own runs it to the end
                     (its output goes to the engine log); 'jobs show ID' follows it
      --wait-limit   with --no-wait: how long the job waits for an unreachable tenant before it pauses (90, 30m,
                     2h, 1d); default: the app's setting (Settings → Jobs, 1 h at first)`;

const HUMAN_FILE_LINES = 200;

const LABELS: Record<string, string> = { too_large: 'too large' };

function describePreview(preview: Preview): string {
  const classes = Object.entries(preview.classes)
    .filter(([, count]) => count > 0)
    .map(([name, count]) => `${count} ${LABELS[name] ?? name}`)
    .join(', ');
  const types = preview.byType.map((type) => `${type.type} ${type.files} (${formatBytes(type.bytes)})`).join(', ');
  const lines = [
    `Preview for mentor "${preview.mentor.name}": ${preview.totalFiles} files — ${classes || 'none'}`,
    `  To send: ${preview.toSend.files} files, ${formatBytes(preview.toSend.bytes)}` +
      (preview.estimateSeconds ? `, about ${preview.estimateSeconds} s to upload` : ''),
  ];
  if (types) lines.push(`  By type: ${types}`);
  for (const warning of preview.warnings) lines.push(`  Warning: ${warning}`);
  return lines.join('\n');
}

const fileLine = (file: PreviewFile) =>
  `  ${(LABELS[file.class] ?? file.class).padEnd(11)} ${file.relativePath}${file.reason ? ` — ${file.reason}` : ''}`;

async function printFiles(engine: Engine, preview: Preview, out: Output, dryRun: boolean): Promise<void> {
  // Humans see every file on a dry run, otherwise only those not sent; --json lists every file.
  const classes =
    out.json || dryRun ? undefined : (['unchanged', 'unsupported', 'too_large', 'skipped', 'unreadable'] as const);
  let shown = 0;
  // Every file is listed from the first page the preview carries, then page by page.
  let page = classes ? null : { files: preview.files, total: preview.totalFiles };
  for (let offset = 0; ;) {
    page ??= await engine.invoke('train.previewFiles', {
      previewId: preview.id,
      ...(classes && { classes: [...classes] }),
      offset,
      limit: 5000,
    });
    for (const file of page.files) {
      if (out.json) out.record({ event: 'file', ...file }, '');
      else if (shown++ < HUMAN_FILE_LINES) out.text(fileLine(file));
    }
    offset += page.files.length;
    if (!page.files.length || offset >= page.total) break;
    page = null;
  }
  if (!out.json && shown > HUMAN_FILE_LINES)
    out.text(`  … and ${shown - HUMAN_FILE_LINES} more (--json lists them all)`);
}

export const runTrainCommand: Command = async (engine, args, out, io, globals) => {
  const { values, positionals } = commandArgs(args, {
    mentor: { type: 'string' },
    'dry-run': { type: 'boolean' },
    include: { type: 'string', multiple: true },
    exclude: { type: 'string', multiple: true },
    concurrency: { type: 'string' },
    'max-size': { type: 'string' },
    'no-wait': { type: 'boolean' },
    'wait-limit': { type: 'string' },
  });
  if (!positionals.length) throw new UsageError('train needs at least one PATH (a file or a folder)');
  if (!values.mentor) throw new UsageError('train needs --mentor UNIQUE_ID|NAME');
  let concurrency: number | undefined;
  if (values.concurrency !== undefined) {
    concurrency = Number(values.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32) {
      throw new UsageError('--concurrency must be a whole number from 1 to 32');
    }
  }
  let maxFileBytes: number | undefined;
  if (values['max-size'] !== undefined) {
    const megabytes = Number(values['max-size']);
    if (!Number.isFinite(megabytes) || megabytes <= 0)
      throw new UsageError('--max-size must be a positive number of MB');
    maxFileBytes = Math.round(megabytes * 1024 * 1024);
  }
  if (values['wait-limit'] !== undefined && !values['no-wait'])
    throw new UsageError('--wait-limit goes with --no-wait (a job followed here is paused with Ctrl-C)');
  const waitLimit =
    values['wait-limit'] === undefined ? [] : ['--wait-limit', String(parseWaitLimit(values['wait-limit']))];
  const profileId = await profileIdOf(engine, globals);

  const preview = await engine.invoke('train.preview', {
    ...(profileId && { profileId }),
    mentor: values.mentor,
    paths: positionals,
    include: values.include ?? [],
    exclude: values.exclude ?? [],
    ...(maxFileBytes && { maxFileBytes }),
  });
  const { files: _firstPage, ...summary } = preview;
  out.record({ event: 'preview', ...summary }, describePreview(preview));
  await printFiles(engine, preview, out, !!values['dry-run']);
  if (values['dry-run']) {
    out.text('Dry run: nothing was sent.');
    return 0;
  }

  if (values['no-wait']) {
    // Journalled here, run by a process of its own: this one's engine would stop the job as the command returns.
    const { jobId } = await engine.invoke('train.start', {
      previewId: preview.id,
      ...(concurrency && { concurrency }),
      queue: true,
    });
    const short = jobId.slice(0, 8);
    globals.afterClose(async () => {
      try {
        const pid = await startDetached(['jobs', 'resume', jobId, ...waitLimit], {
          dataDir: globals.dataDir,
          profile: globals.profile,
          env: io.env,
        });
        out.text(`It runs in process ${pid} ('kill -INT ${pid}' pauses it).`);
      } catch (error) {
        throw new Error(
          `Job ${short} is journalled but could not be started in the background (${(error as Error).message}); ` +
            `run: mentor-admin jobs resume ${short}`,
        );
      }
    });
    out.record(
      { job: jobId, state: 'running' },
      `Started job ${short} in the background. Follow it with: mentor-admin jobs show ${short}`,
    );
    return 0;
  }
  let jobId = '';
  return followJob(
    engine,
    () => jobId,
    out,
    io,
    async (check) => {
      ({ jobId } = await engine.invoke('train.start', { previewId: preview.id, ...(concurrency && { concurrency }) }));
      out.record({ event: 'started', job: jobId }, `Started job ${jobId.slice(0, 8)}.`);
      await check();
    },
  );
};
