/** `mentor-admin mentors export|import|copy`: a mentor's configuration moved between files and tenants. */
import { readFileSync, writeFileSync } from 'node:fs';
import {
  MENTOR_CONFIG_MAX_CHARS,
  parseMentorConfig,
  type MentorCopyDocuments,
  type MentorImportPlan,
} from '../../shared/contract';
import type { Engine } from '../engine';
import { commandArgs, type Command, type Globals } from './command';
import { UsageError, type CliIo, type Output } from './io';
import { followJob } from './jobs-commands';
import { profileIdOf, resolveProfile } from './profile-commands';
import { MENTOR_BULK_HELP, runMentorBulkCommand } from './mentor-bulk-commands';
import { MENTOR_SHARING_HELP, MENTOR_SHARING_VERBS } from './mentor-sharing-commands';
import { MENTOR_EVAL_HELP, runMentorEvalCommand } from './mentor-eval-commands';
import { MENTOR_VOICE_HELP, MENTOR_VOICE_VERBS } from './mentor-voice-commands';

export const MENTORS_HELP = `Mentors across the tenant:
${MENTOR_BULK_HELP}
A mentor's evaluations (questions with expected answers; runs kept here with their reports):
${MENTOR_EVAL_HELP}
A mentor's configuration (settings, categories, MCP servers and call configuration by name; never a secret):
  mentors export MENTOR FILE.json       write it to a versioned JSON file
  mentors import FILE.json [--name NAME] [--dry-run]
      create a mentor from the file (or update the one named NAME); what this tenant lacks (a model it is not
      offered, a category or MCP server it does not have) is listed first and left out
  mentors copy MENTOR --to-profile NAME [--name NAME] [--with-documents] [--dry-run]
      copy it to another tenant (or this one: the copy is named "MENTOR (copy)" unless --name says otherwise) as
      a job, followed here to its end (Ctrl-C pauses it; 'jobs resume ID' goes on, never copying anything twice)
      --with-documents  its trained documents too: the platform's API gives no way to read a document's file,
                        so documents with a URL are trained on the target from it; the others are listed, not copied
                        (within one tenant, 'mentors fork MENTOR --with-documents' copies files too)
${MENTOR_SHARING_HELP}
${MENTOR_VOICE_HELP}`;

/** The plan, as people read it: what is created or changed, then each thing left out and why. */
function printPlan(out: Output, plan: MentorImportPlan, tenant: string) {
  const what = plan.action === 'create' ? 'create' : 'update';
  out.record(
    { plan },
    [
      `${tenant}: ${what} mentor '${plan.name}' with ${plan.settings.length} settings` +
        (plan.categories.length ? `, categories ${plan.categories.join(', ')}` : '') +
        (plan.mcpServers.length ? `, MCP servers ${plan.mcpServers.join(', ')}` : '') +
        (plan.callConfiguration ? ', its call configuration' : ''),
      ...plan.leftOut.map((item) => `  left out: ${item.field} ${item.value} — ${item.reason}`),
    ].join('\n'),
  );
}

/** Which documents a copy trains on the target, and each one it cannot copy, with the reason. */
function printDocuments(out: Output, documents: MentorCopyDocuments) {
  out.record(
    { documents },
    [
      `  documents: ${documents.copied.length} copied, ${documents.notCopied.length} not copied`,
      ...documents.notCopied.map((d) => `  not copied: ${d.name} — ${d.reason}`),
    ].join('\n'),
  );
}

function readConfigFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (text.length > MENTOR_CONFIG_MAX_CHARS) throw new UsageError(`${path} is too large to be a mentor configuration`);
  return text;
}

async function tenantName(engine: Engine, profileId: string | undefined) {
  const profiles = await engine.invoke('profiles.list', {});
  return (profiles.find((p) => (profileId ? p.id === profileId : p.isActive)) ?? { name: 'tenant' }).name;
}

const VERBS: Record<
  string,
  (engine: Engine, args: string[], out: Output, globals: Globals, io: CliIo) => Promise<number>
> = {
  async export(engine, args, out, globals) {
    const { positionals } = commandArgs(args, {});
    const [mentor, file] = positionals;
    if (!mentor || !file || positionals.length > 2) throw new UsageError('mentors export needs MENTOR FILE.json');
    const profileId = await profileIdOf(engine, globals);
    const { config } = await engine.invoke('mentors.exportConfig', { ...(profileId ? { profileId } : {}), mentor });
    writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
    out.record(
      { file, mentor: config.name, version: config.version, leftOut: config.manifest.leftOut },
      `Wrote '${config.name}' to ${file} (version ${config.version}). Not in the file:\n${config.manifest.leftOut.map((l) => `  ${l}`).join('\n')}`,
    );
    return 0;
  },

  async import(engine, args, out, globals) {
    const { positionals, values } = commandArgs(args, {
      name: { type: 'string' },
      'dry-run': { type: 'boolean' },
    });
    const [file] = positionals;
    if (!file || positionals.length > 1) throw new UsageError('mentors import needs FILE.json');
    const text = readConfigFile(file);
    const parsed = parseMentorConfig(text);
    // Told at the place: the file, before the tenant is asked anything.
    if ('problem' in parsed) {
      out.error(`${file}: ${parsed.problem}`);
      return 1;
    }
    const profileId = await profileIdOf(engine, globals);
    const input = { ...(profileId ? { profileId } : {}), text, ...(values.name ? { name: values.name } : {}) };
    // What the tenant lacks is told before anything is created.
    const plan = await engine.invoke('mentors.planImport', input);
    printPlan(out, plan, await tenantName(engine, profileId));
    if (values['dry-run']) return 0;
    const { mentor } = await engine.invoke('mentors.importConfig', input);
    out.record({ mentor }, `${plan.action === 'create' ? 'Created' : 'Updated'} '${mentor.name}' (${mentor.uniqueId})`);
    return 0;
  },

  async copy(engine, args, out, globals, io) {
    const { positionals, values } = commandArgs(args, {
      'to-profile': { type: 'string' },
      name: { type: 'string' },
      'dry-run': { type: 'boolean' },
      'with-documents': { type: 'boolean' },
    });
    const [mentor] = positionals;
    if (!mentor || positionals.length > 1) throw new UsageError('mentors copy needs MENTOR');
    if (!values['to-profile']) throw new UsageError('mentors copy needs --to-profile NAME (the tenant to copy to)');
    const to = await resolveProfile(engine, values['to-profile']);
    const profileId = await profileIdOf(engine, globals);
    const input = {
      ...(profileId ? { profileId } : {}),
      mentor,
      toProfileId: to.id,
      ...(values.name ? { name: values.name } : {}),
      ...(values['with-documents'] ? { withDocuments: true } : {}),
    };
    // What is created, and what is left out, before anything is written.
    const planned = await engine.invoke('mentors.copy', { ...input, dryRun: true });
    printPlan(out, planned.plan, to.name);
    if (planned.documents) printDocuments(out, planned.documents);
    if (values['dry-run']) return 0;
    let jobId = '';
    return followJob(
      engine,
      () => jobId,
      out,
      io,
      async (check) => {
        const { job, resumed } = await engine.invoke('mentors.copy', input);
        jobId = job!.id;
        out.record(
          { event: resumed ? 'resumed' : 'started', job: jobId },
          `${resumed ? 'Resumed' : 'Started'} job ${jobId.slice(0, 8)}.`,
        );
        await check();
      },
    );
  },
};

/** `mentors bulk-set|diff` (mentor-bulk-commands.ts), `mentors eval …` (mentor-eval-commands.ts) and `mentors export|import|copy` (above). */
export const runMentorsCommand: Command = async (engine, args, out, io, globals) => {
  const [verb, ...rest] = args;
  if (verb === 'bulk-set' || verb === 'diff') return runMentorBulkCommand(engine, args, out, io, globals);
  if (verb === 'eval') return runMentorEvalCommand(engine, rest, out, io, globals);
  const run = verb ? (VERBS[verb] ?? MENTOR_SHARING_VERBS[verb] ?? MENTOR_VOICE_VERBS[verb]) : undefined;
  if (!run) {
    const verbs = [
      ...Object.keys(VERBS),
      ...Object.keys(MENTOR_SHARING_VERBS),
      ...Object.keys(MENTOR_VOICE_VERBS),
    ].join(', ');
    throw new UsageError(`mentors takes bulk-set, diff, eval, ${verbs} (got '${verb ?? ''}')`);
  }
  return run(engine, rest, out, globals, io);
};
