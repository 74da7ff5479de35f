/**
 * mentors.exportConfig|planImport|importConfig|copy: a mentor's configuration moved between files and tenants. Built
 * on the engine's own calls (the mentors area creates, the resource kit reads and saves settings with their history
 * and caches), so a copy is the same writes an admin would make by hand, and the same checks guard them.
 */
import {
  MENTOR_CONFIG_FORMAT,
  MENTOR_CONFIG_VERSION,
  parseMentorConfig,
  type CallInput,
  type LeftOut,
  type MentorConfig,
  type MentorImportPlan,
  type mentorTransferCalls,
} from '../../shared/contract';
import { fieldValue, MENTOR_SETTINGS_FIELDS, modelOffer, offeredModels } from '../../shared/resources';
import type { EngineServices } from './context';
import type { HandlersOf } from './dispatch';
import { EngineError } from './errors';
import { UNFINISHED_STATES } from './jobs';
import {
  copyableDocuments,
  copyItems,
  copySignature,
  documentsOf,
  documentsPreview,
  MENTOR_COPY_KIND,
  type Invoke,
  type MentorCopyParams,
} from './mentor-copy';

type Row = Record<string, unknown>;

/** Settings a file carries by name (or not at all): the ids in them belong to the tenant they came from. */
const BY_NAME = new Set(['categories', 'mcp_servers']);
const NOT_CARRIED: Record<string, string> = {
  mentor_name: 'the file names the mentor itself',
  department_id: "a department's id belongs to its tenant",
  types: "mentor types are ids of the source tenant's catalogue",
  subjects: "mentor subjects are ids of the source tenant's catalogue",
};
/** A call configuration's fields a file carries (its id and mentor belong to the source). */
const CALL_FIELDS = [
  'mode',
  'tts_provider',
  'stt_provider',
  'llm_provider',
  'use_function_calling_for_rag',
  'openai_voice_id',
  'google_voice_id',
  'enable_video',
];

const isObject = (value: unknown): value is Row => !!value && typeof value === 'object' && !Array.isArray(value);
const nameOf = (item: unknown): string | null =>
  isObject(item) && typeof item.name === 'string' ? item.name : typeof item === 'string' ? item : null;
const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

export function mentorTransferHandlers(
  invoke: Invoke,
  services: Pick<EngineServices, 'journal' | 'runner' | 'profiles' | 'platform' | 'log' | 'tenant'>,
): HandlersOf<typeof mentorTransferCalls> {
  /** The given profile, or the active one. */
  const tenantOf = services.tenant;
  /** Every record of a list kind on a tenant, read from the platform now. */
  async function all(profileId: string, kind: CallInput<'resources.list'>['kind']): Promise<Row[]> {
    const records: Row[] = [];
    for (let page = 1; ; page++) {
      const answer = await invoke('resources.list', {
        profileId,
        kind,
        page,
        pageSize: 500,
        refresh: page === 1,
        whole: true,
      });
      records.push(...answer.records);
      if (records.length >= answer.total || answer.records.length === 0) return records;
    }
  }

  async function exportConfig(profileId: string | undefined, ref: string) {
    const mentor = await invoke('mentors.get', { ...(profileId ? { profileId } : {}), mentor: ref });
    const tenant = await invoke('profiles.get', { id: tenantOf(profileId) });
    const { record } = await invoke('resources.getSingle', {
      profileId: tenant.id,
      kind: 'mentor-settings',
      key: mentor.uniqueId,
      refresh: true,
    });
    const settings: Row = {};
    const unanswered: string[] = [];
    for (const field of MENTOR_SETTINGS_FIELDS) {
      if (field.name in NOT_CARRIED || BY_NAME.has(field.name)) continue;
      const value = fieldValue(field, record);
      if (value === undefined) unanswered.push(field.name);
      else if (value !== null) settings[field.name] = field.input === 'switch' ? asFlag(value) : value;
    }
    // The spec's settings read (MentorSettingsPublic) leaves the MCP servers out: known only from a save here.
    if (!Array.isArray(record.mcp_servers)) unanswered.push('mcp_servers');
    const servers = await all(tenant.id, 'mcp-servers');
    const mcpServers = (Array.isArray(record.mcp_servers) ? record.mcp_servers : []).flatMap((item) => {
      const server = servers.find((s) => s.id === item || (isObject(item) && s.id === item.id));
      const name = nameOf(server ?? item);
      return name ? [{ name, url: typeof server?.url === 'string' ? server.url : null }] : [];
    });
    const calls = await all(tenant.id, 'call-configurations');
    const callRecord = calls.find((c) => c.mentor === mentor.uniqueId) ?? null;
    const config: MentorConfig = {
      format: MENTOR_CONFIG_FORMAT,
      version: MENTOR_CONFIG_VERSION,
      exportedAt: new Date().toISOString(),
      source: { tenant: tenant.org, mentor: mentor.name, uniqueId: mentor.uniqueId },
      manifest: {
        leftOut: [
          'Secrets: MCP server credentials and call credentials are write-only on the platform and never exported.',
          'Trained documents (copy them with the mentor to another tenant, or train them there).',
          ...Object.entries(NOT_CARRIED)
            .filter(([field]) => field !== 'mentor_name')
            .map(([field, why]) => `${field}: ${why}.`),
          'Local settings history.',
          ...(unanswered.length
            ? [`Settings the platform's read did not answer and this app had not saved: ${unanswered.join(', ')}.`]
            : []),
        ],
      },
      name: mentor.name,
      settings,
      categories: (Array.isArray(record.categories) ? record.categories : []).flatMap((item) => {
        const name = nameOf(item);
        if (!name) return [];
        const audiences = isObject(item) && Array.isArray(item.audiences) ? item.audiences : [];
        return [{ name, audiences: audiences.map(nameOf).filter((a): a is string => !!a) }];
      }),
      mcpServers,
      callConfiguration: callRecord
        ? Object.fromEntries(CALL_FIELDS.filter((f) => callRecord[f] !== undefined).map((f) => [f, callRecord[f]]))
        : null,
    };
    const safe = mentor.name.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'mentor';
    return { config, fileName: `${safe}.mentor.json` };
  }

  /** What the target tenant can take of a configuration, and what it lacks; reads only. */
  async function plan(profileId: string, config: MentorConfig, name: string) {
    const leftOut: LeftOut[] = [];
    const values: Row = {};
    const known = new Map(MENTOR_SETTINGS_FIELDS.map((f) => [f.name, f]));
    for (const [field, value] of Object.entries(config.settings)) {
      if (!known.has(field) || field in NOT_CARRIED || BY_NAME.has(field)) {
        leftOut.push({ field, value: shown(value), reason: 'Not a mentor setting this app copies.' });
      } else values[field] = value;
    }
    const provider = typeof values.llm_provider === 'string' ? values.llm_provider : '';
    const model = typeof values.llm_name === 'string' ? values.llm_name : '';
    const offer = modelOffer(offeredModels(await all(profileId, 'mentor-llms')), provider, model);
    if (offer.status !== 'offered') {
      leftOut.push({
        field: 'llm_name',
        value: `${provider} / ${model}`,
        reason: `${offer.message} The mentor keeps the tenant's default model.`,
      });
      delete values.llm_provider;
      delete values.llm_name;
    }
    const categories = new Map((await all(profileId, 'mentor-categories')).map((c) => [c.name, c.id]));
    const categoryIds: unknown[] = [];
    for (const category of config.categories) {
      if (categories.has(category.name)) categoryIds.push(categories.get(category.name));
      else
        leftOut.push({ field: 'categories', value: category.name, reason: 'The tenant has no category of this name.' });
    }
    if (config.categories.length) values.categories = categoryIds;
    const servers = new Map((await all(profileId, 'mcp-servers')).map((s) => [s.name, s.id]));
    const serverIds: unknown[] = [];
    for (const server of config.mcpServers) {
      if (servers.has(server.name)) serverIds.push(servers.get(server.name));
      else
        leftOut.push({
          field: 'mcp_servers',
          value: server.name,
          reason: 'The tenant has no MCP server of this name.',
        });
    }
    if (serverIds.length) values.mcp_servers = serverIds;
    const existing = (await invoke('mentors.list', { profileId, search: name, refresh: true })).mentors.find(
      (m) => m.name === name,
    );
    const result: MentorImportPlan = {
      action: existing ? 'update' : 'create',
      name,
      target: existing?.uniqueId ?? null,
      settings: Object.keys(values).filter((f) => !BY_NAME.has(f)),
      categories: config.categories.map((c) => c.name).filter((c) => categories.has(c)),
      mcpServers: config.mcpServers.map((s) => s.name).filter((s) => servers.has(s)),
      callConfiguration: config.callConfiguration !== null,
      leftOut,
    };
    return { plan: result, values };
  }

  async function apply(profileId: string, config: MentorConfig, planned: Awaited<ReturnType<typeof plan>>) {
    const { plan: p, values } = planned;
    const mentor = p.target
      ? { uniqueId: p.target, name: p.name }
      : await invoke('mentors.create', { profileId, name: p.name });
    try {
      delete values.mentor_name;
      if (Object.keys(values).length) {
        await invoke('resources.updateSingle', { profileId, kind: 'mentor-settings', key: mentor.uniqueId, values });
      }
      if (config.callConfiguration) {
        const calls = await all(profileId, 'call-configurations');
        const current = calls.find((c) => c.mentor === mentor.uniqueId);
        if (current) {
          await invoke('resources.update', {
            profileId,
            kind: 'call-configurations',
            id: String(current.id),
            values: config.callConfiguration,
          });
        } else {
          await invoke('resources.create', {
            profileId,
            kind: 'call-configurations',
            values: { ...config.callConfiguration, mentor: mentor.uniqueId },
          });
        }
      }
    } catch (error) {
      if (p.target || !(error instanceof Error)) throw error;
      // The mentor exists now: say so, and what is missing.
      throw new EngineError(
        'api',
        `Mentor '${p.name}' was created, but its settings could not all be saved (${error.message}). Open it to finish, or delete it and import again.`,
      );
    }
    return invoke('mentors.get', { profileId, mentor: mentor.uniqueId });
  }

  function read(text: string): MentorConfig {
    const parsed = parseMentorConfig(text);
    if ('problem' in parsed)
      throw new EngineError('validation', parsed.problem, { issues: [{ path: 'text', message: parsed.problem }] });
    return parsed.config;
  }

  return {
    'mentors.exportConfig': ({ profileId, mentor }) => exportConfig(profileId, mentor),
    'mentors.planImport': async ({ profileId, text, name }) => {
      const config = read(text);
      const target = tenantOf(profileId);
      return (await plan(target, config, name ?? config.name)).plan;
    },
    'mentors.importConfig': async ({ profileId, text, name }) => {
      const config = read(text);
      const target = tenantOf(profileId);
      const planned = await plan(target, config, name ?? config.name);
      return { plan: planned.plan, mentor: await apply(target, config, planned) };
    },
    'mentors.copy': async ({ profileId, mentor, toProfileId, name, withDocuments, dryRun }) => {
      const from = tenantOf(profileId);
      const { config } = await exportConfig(from, mentor);
      // Within one tenant a copy needs a name of its own (the same name would be the mentor itself).
      const target = name ?? (from === toProfileId ? `${config.name} (copy)` : config.name);
      const planned = await plan(toProfileId, config, target);
      if (from === toProfileId && planned.plan.target === config.source.uniqueId) {
        throw new EngineError('validation', `'${target}' is the mentor itself: give the copy another name`);
      }
      const sorted = withDocuments
        ? copyableDocuments(await (await documentsOf(services, from)).list(config.source.uniqueId))
        : null;
      const documents = sorted && documentsPreview(sorted);
      if (dryRun) return { plan: planned.plan, documents, job: null, resumed: false };
      const { journal, runner } = services;
      const signature = copySignature(from, config.source.uniqueId, toProfileId, target, !!withDocuments);
      const [unfinished] = journal.find({
        kind: MENTOR_COPY_KIND,
        profileId: toProfileId,
        states: UNFINISHED_STATES,
        params: { signature },
      });
      if (unfinished) {
        runner.start(unfinished.id);
        return { plan: planned.plan, documents, job: runner.present(unfinished.id), resumed: true };
      }
      const values = { ...planned.values };
      delete values.mentor_name;
      const params: MentorCopyParams = {
        fromProfileId: from,
        source: { uniqueId: config.source.uniqueId, name: config.name },
        name: target,
        target: planned.plan.target,
        values,
        callConfiguration: config.callConfiguration,
        withDocuments: !!withDocuments,
        signature,
      };
      const [fromName, toName] = [services.profiles.nameOf(from), services.profiles.nameOf(toProfileId)];
      const jobId = journal.create({
        kind: MENTOR_COPY_KIND,
        profileId: toProfileId,
        title: `Copy '${config.name}' (${fromName}) to '${target}' (${toName})${withDocuments ? ' with documents' : ''}`,
        params,
        items: copyItems(params, sorted),
      });
      if (!runner.start(jobId)) throw new EngineError('internal', 'The copy could not be started here');
      return { plan: planned.plan, documents, job: runner.present(jobId), resumed: false };
    },
  };
}

/** A flag as the settings update takes it (`MentorSettings` answers one of them as "true"/"false"). */
function asFlag(value: unknown): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}
