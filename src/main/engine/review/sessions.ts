/**
 * A learner's chat sessions for an admin (issue 18): one session's messages (`sessions/{session_id}/`), its pin
 * (`pin-message/`), and its export: a `session-export` job asks the platform for the export task
 * (`tasks/sessions/{session_id}/`), reads `downloads/tasks/{task_id}/?to_csv=true` until it is ready, and writes the
 * platform's CSV again through the app's writer (formula cells neutralised, a BOM for spreadsheets). The platform's
 * `{user_id}` is the learner on these paths.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Papa from 'papaparse';
import { z } from 'zod';
import type { sessionCalls, SessionView } from '../../../shared/contract';
import type { EngineServices } from '../context';
import { writeCsvAtomically } from '../csv';
import type { HandlersOf } from '../dispatch';
import { invalid, notFound } from '../errors';
import { defaultExportDir, JobFailed, type JobContext, type JobKindRunner } from '../jobs';
import { ApiError, type PlatformClient } from '../platform';
import { userScope } from '../tenants';

const SESSION = '/api/ai-mentor/orgs/{org}/users/{user_id}/sessions/{session_id}/' as const;
const PIN = '/api/ai-mentor/orgs/{org}/users/{user_id}/pin-message/' as const;
const EXPORT_TASK = '/api/ai-mentor/orgs/{org}/users/{user_id}/tasks/sessions/{session_id}/' as const;
const DOWNLOAD = '/api/ai-mentor/orgs/{org}/users/{user_id}/downloads/tasks/{task_id}/' as const;

/** How often a not-ready export is asked again, and for how long before the job gives up. */
const POLL_MS = 1_000;
const POLL_LIMIT_MS = 10 * 60_000;
const TRANSCRIPT = 'transcript';

const MessageView = z.object({
  title: z.string().nullish(),
  mentor_unique_id: z.string().nullish(),
  results: z.array(z.unknown()),
});
const Pins = z.array(z.object({ session_id: z.string() }).passthrough());
const TaskView = z.object({ task_id: z.string().min(1) });
/** `{state: 'task_not_ready'}` (the spec's example) until the export is ready, then a `ChatHistoryItem`. */
const Ready = z.object({ type: z.string(), content: z.string(), timestamp: z.string() });
const NotReady = z.object({ state: z.string() }).passthrough();

const ExportParams = z.object({
  profileId: z.string(),
  org: z.string(),
  learner: z.string(),
  session: z.string(),
  path: z.string(),
});

/** A message as the session's results carry it: `{type, content, timestamp}` (type `human` is the learner). */
function messageOf(raw: unknown): SessionView['messages'][number] | null {
  const m = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  if (typeof m.content !== 'string') return null;
  const role = m.type === 'human' || m.type === 'user' ? ('learner' as const) : ('mentor' as const);
  return { role, content: m.content, timestamp: typeof m.timestamp === 'string' ? m.timestamp : '' };
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((done, fail) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        fail(signal.reason instanceof Error ? signal.reason : new Error('Request aborted'));
      },
      { once: true },
    );
  });

const path = (org: string, learner: string) => ({ org, user_id: learner });

export function sessionExportKind(): JobKindRunner {
  return {
    kind: 'session-export',
    async run(ctx: JobContext) {
      const parsed = ExportParams.safeParse(ctx.params);
      if (!parsed.success) throw new JobFailed('This export was written by another version of the app; start it again');
      const { org, learner, session, path: file } = parsed.data;
      const { journal, job } = ctx;
      const item = journal.itemByKey(job.id, TRANSCRIPT)!;
      if (item.state === 'done') return;
      const client = await ctx.client();
      // The task id is kept before it is waited on: a resumed job reads the same export.
      let taskId = (JSON.parse(item.data) as { taskId?: string }).taskId;
      if (!taskId) {
        ctx.progress('Asking the tenant for the export');
        const { data } = await client.api.POST(EXPORT_TASK, {
          params: { path: { ...path(org, learner), session_id: session } },
          body: { task_id: '' },
          signal: ctx.signal,
        });
        taskId = TaskView.parse(data).task_id;
        journal.updateItem(item.id, { state: 'active', attempt: true, data: { taskId } });
      }
      const started = Date.now();
      for (;;) {
        const { data } = await client.api.GET(DOWNLOAD, {
          params: { path: { ...path(org, learner), task_id: taskId }, query: { to_csv: true } },
          signal: ctx.signal,
        });
        const ready = Ready.safeParse(data);
        if (ready.success) {
          const answer = ready.data;
          const rows = Papa.parse<string[]>(answer.content.trim(), { skipEmptyLines: true }).data;
          const [header = ['type', 'content', 'timestamp'], ...body] = rows;
          const written = await writeCsvAtomically(
            file,
            ['session', 'learner', ...header],
            [body.map((row) => [session, learner, ...row])],
          );
          journal.transaction(() => {
            journal.updateItem(item.id, { state: 'done', error: null, data: { taskId, rows: written.rows } });
            journal.setCounts(job.id, { rows: written.rows });
          });
          return;
        }
        NotReady.parse(data);
        if (Date.now() - started > POLL_LIMIT_MS)
          throw new JobFailed('The tenant did not finish the export within 10 minutes; start it again later');
        ctx.progress('Waiting for the tenant to prepare the export');
        await wait(POLL_MS, ctx.signal);
      }
    },
  };
}

export function sessionHandlers(services: EngineServices): HandlersOf<typeof sessionCalls> {
  services.runner.register(sessionExportKind());
  const tenantScope = async (profileId: string) => {
    const [client, scope] = await Promise.all([services.platform(profileId), userScope(services.profiles, profileId)]);
    return { client, org: scope.org };
  };
  const missing = (learner: string, session: string) =>
    notFound(`No session ${session} of ${learner} on this tenant: it was deleted, or it is another learner's`);

  async function pinned(client: PlatformClient, org: string, learner: string, session: string) {
    const { data } = await client.api.GET(PIN, {
      params: { path: path(org, learner), query: { session_id: session } },
    });
    return Pins.parse(data).some((p) => p.session_id.toLowerCase() === session.toLowerCase());
  }

  return {
    'sessions.get': async ({ profileId, learner, session }) => {
      const { client, org } = await tenantScope(services.tenant(profileId));
      let view;
      try {
        const { data } = await client.api.GET(SESSION, {
          params: { path: { ...path(org, learner), session_id: session } },
        });
        view = MessageView.parse(data);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) throw missing(learner, session);
        throw error;
      }
      return {
        session,
        learner,
        title: view.title ?? '',
        mentorUniqueId: view.mentor_unique_id ?? null,
        messages: view.results.flatMap((m) => messageOf(m) ?? []),
        pinned: await pinned(client, org, learner, session),
      };
    },

    'sessions.pin': async ({ profileId, learner, session, pinned: pin }) => {
      const { client, org } = await tenantScope(services.tenant(profileId));
      try {
        if (pin) await client.api.POST(PIN, { params: { path: path(org, learner) }, body: { session_id: session } });
        // The spec's DELETE declares no parameters: the session goes in the query, as its GET takes it.
        else
          await client.api.DELETE(PIN, {
            params: { path: path(org, learner), query: { session_id: session } as never },
          });
      } catch (error) {
        // Unpinning what is no longer pinned ends in the state asked for.
        if (!(error instanceof ApiError && error.status === 404 && !pin)) {
          if (error instanceof ApiError && error.status === 404) throw missing(learner, session);
          throw error;
        }
      }
      return { pinned: await pinned(client, org, learner, session) };
    },

    'sessions.export': async ({ profileId: given, learner, session, path: chosen }) => {
      const profileId = services.tenant(given);
      const folder = defaultExportDir(services.config.dataDir);
      if (!chosen) mkdirSync(folder, { recursive: true });
      const safe = (text: string) => text.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'x';
      const file = resolve(chosen ?? join(folder, `session-${safe(learner)}-${session.slice(0, 8)}.csv`));
      if (!file.toLowerCase().endsWith('.csv')) throw invalid('path', 'Name the export FILE.csv');
      if (!existsSync(dirname(file)) || !statSync(dirname(file)).isDirectory())
        throw invalid('path', `The folder ${dirname(file)} does not exist`);
      const { org } = await userScope(services.profiles, profileId);
      const jobId = services.journal.create({
        kind: 'session-export',
        profileId,
        title: `Export ${learner}'s session ${session.slice(0, 8)}`,
        params: { profileId, org, learner, session, path: file },
        items: [{ key: TRANSCRIPT, label: `Session ${session}` }],
      });
      services.runner.start(jobId);
      return { jobId, path: file };
    },
  };
}
