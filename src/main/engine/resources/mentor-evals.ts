/**
 * A mentor's evaluations: mentorEvals.get|define (the platform's `mentor-eval/`), mentorEvals.run (one journalled
 * `mentor-eval` job of the one runner), mentorEvals.runs (the runs kept here) and mentorEvals.compare.
 *
 * The job sends `mentor-eval-execution/` once: its item is marked `sending` (committed) before the POST, and a run
 * that finds it so after a crash does not send it again (the platform cannot be asked whether a lost one started);
 * the report id it answers is kept at once. Then it reads the report until it is written: the platform's 400 'Report
 * not found or still being generated' means "not yet" (read again after the report operation's backoff, until the
 * run's waiting limit); any other refusal ends the run with the platform's words.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import {
  EVAL_REPORT_WAIT_DEFAULT_MINUTES,
  type EvalCompareRow,
  type EvalRating,
  type EvalReport,
  type EvalRun,
  type MentorEvaluation,
  type resourceCalls,
} from '../../../shared/contract';
import type { BridgeError } from '../../../shared/contract';
import type { HandlersOf } from '../dispatch';
import { EngineError } from '../errors';
import { JobFailed, type ItemReport, type JobContext, type JobKindRunner } from '../jobs';
import {
  ApiError,
  backoffDelay,
  isTransient,
  retriesStatus,
  retryPolicyOf,
  type CallOptions,
  type PlatformClient,
} from '../platform';
import { userScope } from '../tenants';
import { drfIssues } from './explain';
import type { EvalRunStore } from './eval-run-store';
import type { ResourceServices } from './handlers';

type EvalHandlers = Pick<
  HandlersOf<typeof resourceCalls>,
  'mentorEvals.get' | 'mentorEvals.define' | 'mentorEvals.run' | 'mentorEvals.runs' | 'mentorEvals.compare'
>;

export const MENTOR_EVAL_KIND = 'mentor-eval';
/** The platform's words for a report not written yet (or not there: the spec gives both one message). */
export const REPORT_NOT_READY = 'Report not found or still being generated';

const EVAL_PATH = '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/mentor-eval/';
const RUN_PATH = '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/mentor-eval-execution/';
const REPORT_PATH =
  '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/reports/{report_id}/mentor-eval-report/';
/** A screen waits on the platform briefly. */
const INTERACTIVE: CallOptions = { maxAttempts: 2, timeoutMs: 15_000 };

export interface MentorEvalParams {
  mentor: string;
  evaluationId: number;
  /** The run's row in `mentor_eval_runs`. */
  runId: number;
  waitMinutes: number;
}

// ---- the platform's answers --------------------------------------------------------------------------------------

const ApiQuestion = z.object({
  id: z.number().int().optional(),
  content: z.string(),
  sample_answer: z.string().nullable().optional(),
});
const ApiMentorEval = z.object({
  id: z.number().int(),
  questions: z.array(ApiQuestion).nullish(),
  eval_id: z.string().nullish(),
  name: z.string().nullish(),
  passing_score: z.number().nullish(),
  evaluation_prompt: z.string().nullish(),
  question_set: z.number().int().nullish(),
});
/** The spec's schema is one MentorEval, its example a list of them: both are read, the newest kept. */
const ApiMentorEvalAnswer = z.union([ApiMentorEval, z.array(ApiMentorEval)]);
const ApiReport = z.object({
  id: z.number().int(),
  mentor_eval: z.string().nullish(),
  conversation_ratings: z.array(
    z.object({
      id: z.number().int().nullish(),
      full_conversation_text: z.string(),
      rating_text: z.string().nullish(),
      score: z.number().nullish(),
    }),
  ),
  overall_score: z.number(),
  is_passed: z.boolean(),
  generated_at: z.string(),
});

function parsed<T>(schema: z.ZodType<T>, data: unknown, what: string): T {
  const result = schema.safeParse(data);
  if (!result.success) {
    throw new EngineError(
      'api',
      `The platform answered ${what} in an unexpected shape: ${result.error.issues[0]?.message}`,
    );
  }
  return result.data;
}

const toEvaluation = (row: z.infer<typeof ApiMentorEval>): MentorEvaluation => ({
  id: row.id,
  evalId: row.eval_id ?? null,
  name: row.name ?? null,
  passingScore: row.passing_score ?? null,
  evaluationPrompt: row.evaluation_prompt ?? null,
  questionSet: row.question_set ?? null,
  questions: (row.questions ?? []).map((q) => ({
    ...(q.id !== undefined && { id: q.id }),
    content: q.content,
    sampleAnswer: q.sample_answer ?? null,
  })),
});

/** "Question: …\n\nAnswer: …" split in two (the whole text as the answer when it is not so written). */
function splitConversation(text: string): { question: string; answer: string } {
  const match = /^\s*Question:\s*([\s\S]*?)\n\s*\n?\s*Answer:\s*([\s\S]*)$/.exec(text);
  if (!match) return { question: '', answer: text };
  return { question: match[1]!.replace(/^Question:\s*/, '').trim(), answer: match[2]!.trim() };
}

export function toReport(data: unknown): EvalReport {
  const row = parsed(ApiReport, data, 'the evaluation report');
  return {
    id: row.id,
    mentorEval: row.mentor_eval ?? '',
    overallScore: row.overall_score,
    isPassed: row.is_passed,
    generatedAt: row.generated_at,
    ratings: row.conversation_ratings.map((rating): EvalRating => ({
      id: rating.id ?? null,
      ...splitConversation(rating.full_conversation_text),
      fullConversationText: rating.full_conversation_text,
      ratingText: rating.rating_text ?? null,
      score: rating.score ?? null,
    })),
  };
}

/**
 * The report id in the execution's answer. The spec declares no body ("Returns: the ID of the generated evaluation
 * report"): a bare number, `{report_id}`, `{id}` or `{report: {id}}` are read.
 */
export function reportIdOf(answer: unknown): number | null {
  const asId = (value: unknown) =>
    typeof value === 'number' && Number.isInteger(value)
      ? value
      : typeof value === 'string' && /^\d+$/.test(value)
        ? Number(value)
        : null;
  if (asId(answer) !== null) return asId(answer);
  if (!answer || typeof answer !== 'object') return null;
  const body = answer as Record<string, unknown>;
  return (
    asId(body.report_id) ??
    asId(body.id) ??
    (body.report && typeof body.report === 'object' ? asId((body.report as Record<string, unknown>).id) : null)
  );
}

/** The answer that means "the report is not written yet". */
export const isReportPending = (error: unknown) =>
  error instanceof ApiError && (error.status === 400 || error.status === 404) && error.detail === REPORT_NOT_READY;

// ---- refusals in words an admin can act on, at their fields -------------------------------------------------------

const FIELD_NAMES: Record<string, string> = {
  passing_score: 'passingScore',
  evaluation_prompt: 'evaluationPrompt',
  sample_answer: 'sampleAnswer',
};

/** DRF's `{field: [...]}` with the contract's field names; a question's own errors at `questions.N.field`. */
function evalIssues(body: unknown): NonNullable<BridgeError['issues']> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  const { questions, ...rest } = body as Record<string, unknown>;
  const issues = drfIssues(rest).map((issue) => ({
    ...issue,
    path: issue.path
      .split('.')
      .map((part) => FIELD_NAMES[part] ?? part)
      .join('.'),
  }));
  if (Array.isArray(questions)) {
    questions.forEach((question, index) => {
      if (typeof question === 'string') issues.push({ path: 'questions', message: question });
      else
        for (const issue of drfIssues(question)) {
          issues.push({ path: `questions.${index}.${FIELD_NAMES[issue.path] ?? issue.path}`, message: issue.message });
        }
    });
  }
  return issues;
}

export function explainEval(error: unknown, doing: string): unknown {
  if (!(error instanceof ApiError)) return error;
  const { status, detail } = error;
  const issues = status === 400 ? evalIssues(error.body) : [];
  if (issues.length) {
    const words = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
    return new EngineError('validation', `The platform refused ${doing}: ${words}`, { issues, status });
  }
  if (status === 404) return new EngineError('not_found', detail ?? error.message);
  const said = detail && detail !== error.message ? `${error.message} (${detail})` : error.message;
  return new EngineError('api', `The platform refused ${doing}: ${said}`, { status });
}

// ---- the handlers ---------------------------------------------------------------------------------------------------

export function mentorEvalHandlers(ctx: ResourceServices, runs: EvalRunStore): EvalHandlers {
  const { journal, runner } = ctx;
  const scoped = async (profileId: string) => {
    const client = await ctx.platform(profileId);
    const scope = await userScope(ctx.profiles, profileId);
    return { api: client.api, user: { org: scope.org, user_id: scope.username } };
  };

  /** What a job's title calls the mentor: its name as the platform gives it, else the id it was asked by. */
  const nameOf = async (profileId: string, mentor: string): Promise<string> => {
    try {
      const { api, user } = await scoped(profileId);
      const { data } = await api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/{name}/', {
        params: { path: { ...user, name: mentor } },
      });
      const name = (data as { name?: unknown } | undefined)?.name;
      return typeof name === 'string' && name ? name : mentor;
    } catch {
      // The run itself says what is wrong with the tenant or the mentor; the title only names it.
      return mentor;
    }
  };

  const runOf = (profileId: string, mentor: string, id: number): EvalRun => {
    const run = runs.run(profileId, id);
    if (!run || run.mentor !== mentor) throw new EngineError('not_found', `No run ${id} of this mentor here`);
    return run;
  };

  return {
    'mentorEvals.get': async ({ profileId: given, mentor }) => {
      const profileId = ctx.tenant(given);
      const { api, user } = await scoped(profileId);
      try {
        const { data } = await api.GET(EVAL_PATH, { params: { path: { ...user, mentor } }, ...INTERACTIVE });
        const answer = parsed(ApiMentorEvalAnswer, data, "the mentor's evaluation");
        const rows = Array.isArray(answer) ? [...answer].sort((a, b) => a.id - b.id) : [answer];
        const newest = rows.at(-1);
        return { evaluation: newest ? toEvaluation(newest) : null };
      } catch (error) {
        // 'Mentor or evaluations not found': a mentor without one yet (or no such mentor: the page says so first).
        if (error instanceof ApiError && error.status === 404) return { evaluation: null };
        throw explainEval(error, "the mentor's evaluation");
      }
    },

    'mentorEvals.define': async ({ profileId: given, mentor, id, name, passingScore, evaluationPrompt, questions }) => {
      const profileId = ctx.tenant(given);
      const { api, user } = await scoped(profileId);
      const body = {
        ...(id !== undefined && { id }),
        ...(name !== undefined && { name }),
        ...(passingScore !== undefined && { passing_score: passingScore }),
        ...(evaluationPrompt !== undefined && { evaluation_prompt: evaluationPrompt }),
        ...(questions !== undefined && {
          questions:
            questions?.map((q) => ({
              content: q.content,
              ...(q.sampleAnswer !== undefined && { sample_answer: q.sampleAnswer }),
            })) ?? null,
        }),
      };
      try {
        const { data } = await api.POST(EVAL_PATH, { params: { path: { ...user, mentor } }, body });
        const evaluation = toEvaluation(parsed(ApiMentorEval, data, 'the saved evaluation'));
        ctx.emit('mentorEvals.changed', { profileId, mentor });
        return { evaluation };
      } catch (error) {
        throw explainEval(error, 'the evaluation');
      }
    },

    'mentorEvals.run': async ({ profileId: given, mentor, evaluationId, waitMinutes }) => {
      const profileId = ctx.tenant(given);
      const title = `Evaluate '${await nameOf(profileId, mentor)}' (${ctx.profiles.nameOf(profileId)})`;
      const runId = runs.start(profileId, mentor, evaluationId);
      const jobId = journal.create({
        kind: MENTOR_EVAL_KIND,
        profileId,
        title,
        params: {
          mentor,
          evaluationId,
          runId,
          waitMinutes: waitMinutes ?? EVAL_REPORT_WAIT_DEFAULT_MINUTES,
        } satisfies MentorEvalParams,
        items: [{ key: `run-${runId}`, label: `Evaluation ${evaluationId}` }],
      });
      runs.setJob(runId, jobId);
      ctx.emit('mentorEvals.changed', { profileId, mentor });
      if (!runner.start(jobId)) throw new EngineError('internal', 'The evaluation could not be started here');
      return { job: runner.present(jobId), run: runs.run(profileId, runId)! };
    },

    'mentorEvals.runs': ({ profileId: given, mentor }) => {
      const profileId = ctx.tenant(given);
      return { runs: runs.runs(profileId, mentor) };
    },

    'mentorEvals.compare': ({ profileId: given, mentor, before, after }) => {
      const profileId = ctx.tenant(given);
      const a = runOf(profileId, mentor, before);
      const b = runOf(profileId, mentor, after);
      for (const run of [a, b]) {
        if (!run.report) {
          throw new EngineError('validation', `Run ${run.id} has no report yet (${run.state}): compare finished runs`);
        }
      }
      return { before: a, after: b, rows: compareRuns(a.report!, b.report!) };
    },
  };
}

/** Two reports question by question: questions matched by their text, in the order the later run asked them. */
export function compareRuns(before: EvalReport, after: EvalReport): EvalCompareRow[] {
  const earlier = new Map(before.ratings.map((rating) => [rating.question || rating.fullConversationText, rating]));
  const rows: EvalCompareRow[] = after.ratings.map((rating) => {
    const key = rating.question || rating.fullConversationText;
    const old = earlier.get(key);
    earlier.delete(key);
    return row(rating.question, old, rating);
  });
  for (const old of earlier.values()) rows.push(row(old.question, old, undefined));
  return rows;
}

function row(question: string, before: EvalRating | undefined, after: EvalRating | undefined): EvalCompareRow {
  const side = (rating: EvalRating | undefined) => rating && { score: rating.score, answer: rating.answer };
  const change =
    before?.score != null && after?.score != null ? Math.round((after.score - before.score) * 100) / 100 : null;
  return {
    question,
    before: side(before) ?? null,
    after: side(after) ?? null,
    change,
    answerChanged: !!before && !!after && before.answer !== after.answer,
  };
}

// ---- the job -------------------------------------------------------------------------------------------------------

const report: ItemReport = {
  header: ['run', 'evaluation', 'outcome', 'error'],
  row: (item) => [item.key, item.label, item.phase, item.error ?? ''],
};

export function mentorEvalKind(deps: {
  services: Pick<ResourceServices, 'profiles' | 'emit'>;
  runs: EvalRunStore;
  /** Waits between reads of a report not written yet (tests shorten it). */
  wait?: (ms: number, signal: AbortSignal) => Promise<unknown>;
}): JobKindRunner {
  const { runs } = deps;
  const wait = deps.wait ?? ((ms, signal) => sleep(ms, undefined, { signal }));
  return {
    kind: MENTOR_EVAL_KIND,
    report,
    async run(ctx: JobContext) {
      const params = ctx.params as MentorEvalParams;
      const profileId = ctx.job.profile_id;
      if (!profileId) throw new JobFailed('This job has no tenant connection (it was removed)');
      const [item] = ctx.journal.itemsIn(ctx.job.id, ['pending', 'active']);
      if (!item) return;
      const changed = () => deps.services.emit('mentorEvals.changed', { profileId, mentor: params.mentor });
      const fail = (message: string): never => {
        ctx.journal.updateItem(item.id, { state: 'failed', phase: 'failed', error: message });
        runs.fail(params.runId, message);
        changed();
        throw new JobFailed(message);
      };
      const client: PlatformClient = await ctx.client();
      const scope = await userScope(deps.services.profiles, profileId);
      const path = { org: scope.org, user_id: scope.username, mentor: params.mentor };

      let reportId = runs.run(profileId, params.runId)?.reportId ?? null;
      if (reportId === null) {
        if (item.phase === 'sending') {
          fail(
            'The app stopped while this run was being sent: it may have started on the platform, but its report ' +
              'id never came back. Nothing was sent again; run the evaluation again.',
          );
        }
        ctx.progress('Starting the evaluation');
        ctx.journal.updateItem(item.id, { state: 'active', phase: 'sending', attempt: true });
        let answer: unknown;
        try {
          ({ data: answer } = await client.api.POST(RUN_PATH, {
            params: { path },
            body: { id: params.evaluationId },
            signal: ctx.signal,
          }));
        } catch (error) {
          // Refused before it was taken (the answers the operation's rule retries, or the key): sent again later,
          // still once.
          const notTaken = retryPolicyOf('post', RUN_PATH);
          if (error instanceof ApiError && (retriesStatus(notTaken, error.status) || error.status === 401)) {
            ctx.journal.updateItem(item.id, { phase: '' });
            throw error;
          }
          // Stopped while sending: the item stays `sending`, and a resumed run says so rather than send it twice.
          if (ctx.signal.aborted) throw error;
          if (isTransient(error)) {
            fail(
              `The platform did not confirm the run (${error.message}): it may have started all the same. Nothing ` +
                'was sent again; run the evaluation again.',
            );
          }
          const explained = explainEval(error, 'the run');
          fail(explained instanceof Error ? explained.message : String(explained));
        }
        reportId = reportIdOf(answer);
        if (reportId === null) {
          fail(
            `The platform started the evaluation but did not say which report it writes (it answered ${JSON.stringify(answer)})`,
          );
        }
        ctx.journal.transaction(() => {
          runs.sent(params.runId, reportId!);
          ctx.journal.updateItem(item.id, { phase: 'waiting', data: { reportId } });
        });
        changed();
      }

      // The waiting limit counts from the run's start, across restarts.
      const startedAt = Date.parse(runs.run(profileId, params.runId)!.startedAt);
      const deadline = startedAt + params.waitMinutes * 60_000;
      const policy = retryPolicyOf('get', REPORT_PATH);
      ctx.progress(`Waiting for report ${reportId}`);
      for (let attempt = 1; ; attempt++) {
        try {
          const { data } = await client.api.GET(REPORT_PATH, {
            params: { path: { ...path, report_id: reportId! } },
            signal: ctx.signal,
          });
          const got = toReport(data);
          ctx.journal.transaction(() => {
            runs.ready(params.runId, got);
            ctx.journal.updateItem(item.id, { state: 'done', phase: 'ready', error: null });
            ctx.journal.addCounts(ctx.job.id, { ready: 1 });
          });
          ctx.progress('Report ready');
          changed();
          return;
        } catch (error) {
          if (!isReportPending(error)) {
            if (ctx.signal.aborted || isTransient(error) || (error instanceof ApiError && error.status === 401)) {
              throw error;
            }
            const explained = explainEval(error, `report ${reportId}`);
            fail(explained instanceof Error ? explained.message : String(explained));
          }
        }
        // Full jitter, but never less than a quarter of the rule's base: a busy platform is not asked in a tight loop.
        const delay = Math.max(policy.baseDelayMs / 4, backoffDelay(attempt, policy));
        if (Date.now() + delay > deadline) {
          fail(
            `No report after ${params.waitMinutes} ${params.waitMinutes === 1 ? 'minute' : 'minutes'}: the platform ` +
              `still says '${REPORT_NOT_READY}' for report ${reportId}.`,
          );
        }
        await wait(delay, ctx.signal);
      }
    },
  };
}
