import { parseArgs } from 'node:util';
import { BridgeCallError } from '../../shared/contract';
import { createEngine, shellPreset, type AreaName, type Engine } from '../engine';
import { defaultDataDir } from '../engine/paths';
import type { Command, Globals } from './command';
import { Output, UsageError, type CliIo } from './io';
import { EXPORT_HELP, runExportCommand } from './export-commands';
import { PROFILE_HELP, runProfileCommand } from './profile-commands';
import { JOBS_HELP, runJobsCommand } from './jobs-commands';
import { TRAIN_HELP, runTrainCommand } from './train-commands';
import { INVITE_HELP, runInviteCommand } from './invite-commands';
import { TICKETS_HELP, runTicketsCommand } from './tickets-commands';
import { REVIEW_HELP, runReviewCommand } from './review-commands';
import { RESOURCE_HELP, runLlmAccessCommand, runResourceCommand } from './resource-commands';
import { isResourceKind } from '../../shared/resources';
import { findDataset } from '../../shared/analytics/datasets';
import { IMPORT_HELP, runImportCommand } from './import-commands';
import { BADGE_HELP } from './badge-commands';
import { ENROL_HELP, enrolCommand } from './enrol-commands';
import { MENTORS_HELP, runMentorsCommand } from './mentor-commands';
import { MEMORY_HELP, runMemoryCommand } from './memory-commands';
import { CALLS_HELP, runCallsCommand } from './call-commands';
import { PERSON_HELP, runPersonCommand } from './person-commands';

const HELP = `Usage: mentor-admin [--json] [--data-dir DIR] [--profile NAME] <command> ...

${PROFILE_HELP}

${EXPORT_HELP}

${TRAIN_HELP}

${INVITE_HELP}

${TICKETS_HELP}

${REVIEW_HELP}

${RESOURCE_HELP}

${IMPORT_HELP}

${BADGE_HELP}

${ENROL_HELP}

${MENTORS_HELP}

${MEMORY_HELP}

${CALLS_HELP}

${PERSON_HELP}

${JOBS_HELP}

Global options:
  --json           one JSON object per line (lists: one per item; commands: events, then a summary last)
  -o json|text     the same as --json (json), or the default text
  --data-dir DIR   where the app keeps its data (also MENTOR_ADMIN_HOME)
  --profile NAME   the tenant to use instead of the active one (and the one MENTOR_ADMIN_API_KEY is for)

Exit status: 0 success, 1 failure, 2 usage error.`;

/** Routes `export`: see COMMANDS. */
const runExport: Command = async (engine, args, ...rest) => {
  const flag = args.indexOf('--kind');
  if (flag >= 0) {
    const kind = args[flag + 1];
    if (kind === undefined || kind.startsWith('--')) throw new UsageError('--kind takes a resource KIND');
    const others = args.filter((_, index) => index !== flag && index !== flag + 1);
    return runResourceCommand('export')(engine, [kind, ...others], ...rest);
  }
  const name = args[0];
  const kindOnly = name !== undefined && isResourceKind(name) && !findDataset(name);
  return (kindOnly ? runResourceCommand('export') : runExportCommand)(engine, args, ...rest);
};

const COMMANDS = new Map<string, Command>([
  ['profile', runProfileCommand],
  // `export DATASET` for an analytics dataset, `export KIND` for a resource kind; a name that is both (`users`) is the
  // dataset, as it was before the kind existed, and `export --kind KIND` is always the kind.
  ['export', runExport],
  ['train', runTrainCommand],
  ['jobs', runJobsCommand],
  ['invite', runInviteCommand],
  // `import KIND FILE.csv` for a resource kind; `import FILE …` is an invitations file (invite).
  ['import', runImportCommand],
  ['tickets', runTicketsCommand],
  ['review', runReviewCommand],
  ['llm-access', runLlmAccessCommand],
  ['mentors', runMentorsCommand],
  ['memory', runMemoryCommand],
  ['calls', runCallsCommand],
  ['person', runPersonCommand],
  ['enrol', enrolCommand('enrol')],
  ['unenrol', enrolCommand('unenrol')],
  ...(['kinds', 'get', 'create', 'update', 'delete', 'do'] as const).map(
    (verb) => [verb, runResourceCommand(verb)] as [string, Command],
  ),
]);

/**
 * The engine areas each command calls; the others are not loaded (`profile` needs none of them). `jobs` shows and
 * resumes jobs of every kind, so it takes them all.
 */
const AREAS: Record<string, readonly AreaName[] | undefined> = {
  profile: [],
  // A dataset of analytics, or a kind of the resource kit.
  export: ['analytics', 'resources'],
  kinds: ['resources'],
  get: ['resources'],
  create: ['resources'],
  update: ['resources'],
  delete: ['resources'],
  do: ['resources'],
  'llm-access': ['resources'],
  train: ['train'],
  jobs: undefined,
  invite: ['invitations'],
  import: ['resources', 'invitations'],
  tickets: ['tickets'],
  review: ['review'],
  mentors: ['mentors', 'resources'],
  // `memory list --mentor NAME` looks the mentor's unique id up in the mentors area.
  memory: ['resources', 'mentors'],
  calls: ['resources', 'mentors'],
  person: ['resources'],
  enrol: ['resources'],
  unenrol: ['resources'],
};

export interface CliOptions {
  /** Tests pass their own keychain service so they never touch a user's entries. */
  keychainService?: string;
}

/** Runs one CLI invocation and resolves to its exit code; never calls process.exit. */
export async function runCli(argv: string[], io: CliIo, options: CliOptions = {}): Promise<number> {
  let globals: { json?: boolean; output?: string; 'data-dir'?: string; profile?: string; help?: boolean };
  let command: string[];
  try {
    const parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: false,
      options: {
        json: { type: 'boolean' },
        output: { type: 'string', short: 'o' },
        'data-dir': { type: 'string' },
        profile: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      tokens: true,
    });
    globals = parsed.values as typeof globals;
    // Global flags may stand anywhere; everything else is handed to the command, in order.
    const globalIndexes = new Set<number>();
    for (const token of parsed.tokens ?? []) {
      if (token.kind === 'option' && ['json', 'output', 'data-dir', 'profile', 'help'].includes(token.name)) {
        globalIndexes.add(token.index);
        if (token.value !== undefined && !token.inlineValue) globalIndexes.add(token.index + 1);
      }
    }
    command = argv.filter((_, index) => !globalIndexes.has(index));
    if (globals.output !== undefined && !['json', 'text'].includes(globals.output)) {
      throw new Error(`-o takes json or text (got '${globals.output}')`);
    }
  } catch (error) {
    io.stderr.write(`mentor-admin: ${(error as Error).message}\n\n${HELP}\n`);
    return 2;
  }
  const dataDir = globals['data-dir'] ?? defaultDataDir(io.env);
  const out = new Output(io, !!globals.json || globals.output === 'json');
  if (globals.help || command.length === 0) {
    (globals.help ? io.stdout : io.stderr).write(`${HELP}\n`);
    return globals.help ? 0 : 2;
  }

  const afterClose: (() => Promise<void>)[] = [];
  const code = await runCommand(command, io, out, options, {
    profile: globals.profile,
    dataDir,
    afterClose: (action) => afterClose.push(action),
  });
  for (const action of afterClose) {
    try {
      await action();
    } catch (error) {
      out.error(error instanceof Error ? error.message : String(error));
      return 1;
    }
  }
  return code;
}

/** One command over an engine of its own, closed before this answers. */
async function runCommand(
  command: string[],
  io: CliIo,
  out: Output,
  options: CliOptions,
  globals: Globals,
): Promise<number> {
  let engine: Engine | undefined;
  try {
    const [area, ...rest] = command;
    const run = COMMANDS.get(area!);
    if (!run) throw new UsageError(`Unknown command '${area}'`);
    // MENTOR_ADMIN_API_KEY is the key of the tenant the command works on, and of no other.
    const keyFor = globals.profile ?? (area === 'profile' && rest[0] === 'test' ? rest[1] : undefined);
    engine = await createEngine({
      ...shellPreset('cli'),
      dataDir: globals.dataDir,
      env: io.env,
      ...(keyFor ? { apiKeyFor: keyFor } : {}),
      resumeJobs: false,
      ...(AREAS[area!] && { areas: AREAS[area!] }),
      // Everything but `profile` and `kinds` talks to a tenant: with none yet, the local sandbox is started to be it.
      ensureTenant: area !== 'profile' && area !== 'kinds' && !globals.profile,
      ...(options.keychainService ? { keychainService: options.keychainService } : {}),
    });
    return await run(engine, rest, out, io, globals);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      out.error(`${(error as Error).message}\nRun 'mentor-admin --help' for usage.`);
      return 2;
    }
    if (error instanceof BridgeCallError && error.issues?.length) {
      out.error(error.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('\n'));
      return 1;
    }
    out.error(error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    await engine?.close();
  }
}
