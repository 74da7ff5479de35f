/**
 * `mentors eval define|show|run|runs|report|compare`: a mentor's evaluation (its questions and expected answers), a
 * run as one journalled job that waits for the platform's report, the runs kept here, and two runs side by side.
 */
import type { EvalReport, EvalRun, Job } from '../../shared/contract';
import type { Engine } from '../engine';
import { commandArgs, type Command } from './command';
import { UsageError, type Output } from './io';
import { profileIdOf } from './profile-commands';
import { printable } from './resource-commands';

export const MENTOR_EVAL_HELP = `  mentors eval define MENTOR [--name NAME] [--passing-score N] [--prompt TEXT] [--question TEXT [--answer TEXT]]...
      define the mentor's evaluation (or change the one it has: only the options given); each --question is asked,
      the --answer given after it is its expected answer; questions given replace the earlier ones
  mentors eval show MENTOR              the mentor's evaluation and its questions
  mentors eval run MENTOR [--wait-limit MINUTES]
      run it as one job and wait for its report (default limit 30 minutes); interrupted, the job resumes at the next
      start without running the evaluation twice
  mentors eval runs MENTOR              the runs kept here, newest first, with their time and score
  mentors eval report MENTOR [RUN]      a run's report (default: the newest with one): score, each question's answer
  mentors eval compare MENTOR RUN_A RUN_B
      two runs question by question: each score before and after, and what changed`;

const SETTLED: readonly Job['state'][] = ['completed', 'failed', 'cancelled', 'paused'];
/** How long `run` follows a job that waits for an unreachable tenant before leaving it to resume later. */
const MAX_UNREACHABLE_MS = 60_000;

const one = (text: string, max = 100) => {
  const flat = printable(text.replace(/\s+/g, ' ').trim());
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
const scoreText = (score: number | null | undefined) => (score === null || score === undefined ? '—' : String(score));

/** The mentor's unique id (runs are kept under it, whichever name the command was given). */
async function mentorId(engine: Engine, tenant: { profileId?: string }, ref: string | undefined): Promise<string> {
  if (!ref) throw new UsageError('Name the mentor (its unique id or name)');
  return (await engine.invoke('mentors.get', { ...tenant, mentor: ref })).uniqueId;
}

/** `--question Q [--answer A]` pairs, in the order typed: an answer belongs to the question before it. */
function questionsOf(args: string[]): { content: string; sampleAnswer?: string }[] | undefined {
  const questions: { content: string; sampleAnswer?: string }[] = [];
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    if (flag !== '--question' && flag !== '--answer') continue;
    const value = inline ?? args[++i];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    if (flag === '--question') questions.push({ content: value });
    else {
      const last = questions.at(-1);
      if (!last || last.sampleAnswer !== undefined) throw new UsageError('--answer follows the --question it answers');
      last.sampleAnswer = value;
    }
  }
  return questions.length ? questions : undefined;
}

function printReport(out: Output, run: EvalRun, report: EvalReport) {
  out.record(
    { run: run.id, reportId: report.id, overallScore: report.overallScore, isPassed: report.isPassed },
    `Run ${run.id} (report ${report.id}, ${report.generatedAt}): ${report.overallScore} — ${report.isPassed ? 'passed' : 'not passed'}`,
  );
  report.ratings.forEach((rating, index) => {
    out.record(
      { question: rating.question, score: rating.score, answer: rating.answer },
      `  ${index + 1}. [${scoreText(rating.score)}] ${one(rating.question || rating.fullConversationText)}\n     ${one(rating.answer)}`,
    );
  });
}

async function follow(engine: Engine, started: Job): Promise<Job> {
  let job = started;
  let waitingSince: number | null = null;
  while (!SETTLED.includes(job.state)) {
    if (job.state === 'waiting') {
      waitingSince ??= Date.now();
      if (Date.now() - waitingSince > MAX_UNREACHABLE_MS) break;
    } else waitingSince = null;
    await new Promise((resolve) => setTimeout(resolve, 200));
    job = await engine.invoke('jobs.get', { id: job.id });
  }
  return job;
}

const VERBS: Record<
  string,
  (engine: Engine, args: string[], out: Output, tenant: { profileId?: string }) => Promise<number>
> = {
  async define(engine, args, out, tenant) {
    const { values, positionals } = commandArgs(args, {
      question: { type: 'string', multiple: true },
      answer: { type: 'string', multiple: true },
      name: { type: 'string' },
      'passing-score': { type: 'string' },
      prompt: { type: 'string' },
    });
    const mentor = await mentorId(engine, tenant, positionals[0]);
    const questions = questionsOf(args);
    let passingScore: number | undefined;
    if (values['passing-score'] !== undefined) {
      passingScore = Number(values['passing-score']);
      if (!Number.isInteger(passingScore)) throw new UsageError('--passing-score takes a whole number');
    }
    const { evaluation: current } = await engine.invoke('mentorEvals.get', { ...tenant, mentor });
    const { evaluation } = await engine.invoke('mentorEvals.define', {
      ...tenant,
      mentor,
      ...(current && { id: current.id }),
      ...(values.name !== undefined && { name: values.name }),
      ...(passingScore !== undefined && { passingScore }),
      ...(values.prompt !== undefined && { evaluationPrompt: values.prompt }),
      ...(questions && { questions }),
    });
    out.record(
      { evaluation },
      `${current ? 'Changed' : 'Defined'} evaluation ${evaluation.id} of ${mentor}: ${evaluation.questions.length} questions, passing score ${scoreText(evaluation.passingScore)}`,
    );
    return 0;
  },

  async show(engine, args, out, tenant) {
    const mentor = await mentorId(engine, tenant, commandArgs(args, {}).positionals[0]);
    const { evaluation } = await engine.invoke('mentorEvals.get', { ...tenant, mentor });
    if (!evaluation) {
      out.record({ evaluation: null }, `${mentor} has no evaluation yet (mentors eval define ${mentor} …)`);
      return 0;
    }
    out.record(
      { evaluation },
      [
        `Evaluation ${evaluation.id}${evaluation.name ? ` '${printable(evaluation.name)}'` : ''}: passing score ${scoreText(evaluation.passingScore)}, question set ${scoreText(evaluation.questionSet)}`,
        ...evaluation.questions.map(
          (q, i) => `  ${i + 1}. ${one(q.content)}${q.sampleAnswer ? `\n     expected: ${one(q.sampleAnswer)}` : ''}`,
        ),
      ].join('\n'),
    );
    return 0;
  },

  async run(engine, args, out, tenant) {
    const { values, positionals } = commandArgs(args, { 'wait-limit': { type: 'string' } });
    const mentor = await mentorId(engine, tenant, positionals[0]);
    let waitMinutes: number | undefined;
    if (values['wait-limit'] !== undefined) {
      waitMinutes = Number(values['wait-limit']);
      if (!(waitMinutes > 0)) throw new UsageError('--wait-limit takes minutes (a number above 0)');
    }
    const { evaluation } = await engine.invoke('mentorEvals.get', { ...tenant, mentor });
    if (!evaluation)
      throw new UsageError(`${mentor} has no evaluation yet: mentors eval define ${mentor} --question …`);
    const started = await engine.invoke('mentorEvals.run', {
      ...tenant,
      mentor,
      evaluationId: evaluation.id,
      ...(waitMinutes !== undefined && { waitMinutes }),
    });
    out.text(
      `Running evaluation ${evaluation.id} of ${mentor} (run ${started.run.id}, job ${started.job.id.slice(0, 8)})…`,
    );
    const job = await follow(engine, started.job);
    const run = (await engine.invoke('mentorEvals.runs', { ...tenant, mentor })).runs.find(
      (r) => r.id === started.run.id,
    )!;
    if (run.report) {
      printReport(out, run, run.report);
      return 0;
    }
    const why = job.error ?? run.error ?? `the job is ${job.state}${job.reason ? ` (${job.reason})` : ''}`;
    if (out.json) out.record({ run: run.id, state: run.state, job: job.id, error: why }, '');
    out.error(`Run ${run.id}: ${printable(why)}`);
    return 1;
  },

  async runs(engine, args, out, tenant) {
    const mentor = await mentorId(engine, tenant, commandArgs(args, {}).positionals[0]);
    const { runs } = await engine.invoke('mentorEvals.runs', { ...tenant, mentor });
    if (!runs.length) out.text(`No runs of ${mentor} here yet.`);
    for (const run of runs) {
      out.record(
        {
          id: run.id,
          startedAt: run.startedAt,
          state: run.state,
          reportId: run.reportId,
          score: run.report?.overallScore ?? null,
        },
        `${run.id}\t${run.startedAt}\t${run.state}\t${run.report ? `${run.report.overallScore} ${run.report.isPassed ? 'passed' : 'not passed'}` : printable(run.error ?? '')}`,
      );
    }
    return 0;
  },

  async report(engine, args, out, tenant) {
    const { positionals } = commandArgs(args, {});
    const mentor = await mentorId(engine, tenant, positionals[0]);
    const { runs } = await engine.invoke('mentorEvals.runs', { ...tenant, mentor });
    const wanted = positionals[1];
    const run = wanted === undefined ? runs.find((r) => r.report) : runs.find((r) => String(r.id) === wanted);
    if (!run)
      throw new UsageError(
        wanted
          ? `No run ${wanted} of ${mentor} here (mentors eval runs ${mentor})`
          : `No run of ${mentor} with a report yet`,
      );
    if (!run.report) {
      out.error(`Run ${run.id} has no report (${run.state}${run.error ? `: ${printable(run.error)}` : ''})`);
      return 1;
    }
    printReport(out, run, run.report);
    return 0;
  },

  async compare(engine, args, out, tenant) {
    const { positionals } = commandArgs(args, {});
    if (positionals.length !== 3)
      throw new UsageError('compare takes a mentor and two runs: mentors eval compare MENTOR RUN_A RUN_B');
    const mentor = await mentorId(engine, tenant, positionals[0]);
    const [before, after] = positionals.slice(1).map((text) => {
      const id = Number(text);
      if (!Number.isInteger(id)) throw new UsageError(`A run is a number (mentors eval runs ${mentor}); got '${text}'`);
      return id;
    }) as [number, number];
    const answer = await engine.invoke('mentorEvals.compare', { ...tenant, mentor, before, after });
    out.text(
      `Run ${before} (${answer.before.report!.overallScore}) → run ${after} (${answer.after.report!.overallScore})`,
    );
    for (const row of answer.rows) {
      const change =
        row.change === null ? '' : row.change > 0 ? ` (+${row.change})` : row.change < 0 ? ` (${row.change})` : ' (=)';
      out.record(
        row,
        `  [${scoreText(row.before?.score)} → ${scoreText(row.after?.score)}]${change} ${one(row.question)}${row.answerChanged ? '\n     answer changed' : ''}`,
      );
    }
    return 0;
  },
};

export const runMentorEvalCommand: Command = async (engine, args, out, _io, globals) => {
  const [verb, ...rest] = args;
  const run = verb ? VERBS[verb] : undefined;
  if (!run)
    throw new UsageError(
      `mentors eval takes ${Object.keys(VERBS).join(', ')} (got '${verb ?? ''}')\n\n${MENTOR_EVAL_HELP}`,
    );
  const profileId = await profileIdOf(engine, globals);
  return run(engine, rest, out, profileId ? { profileId } : {});
};
