/**
 * A mentor's evaluations (issue 16, "Evaluations"): the questions and expected answers it is judged by
 * (`mentor-eval/`), a run as one journalled `mentor-eval` job (it sends `mentor-eval-execution/`, then waits for the
 * report), the runs kept on this computer with their reports, and two runs side by side.
 */
import { z } from 'zod';
import { call, event } from './kit';
import { Job } from './jobs';

const Tenant = { profileId: z.string().min(1).optional() };
/** The mentor: its unique id (or slug or name, as the platform takes them). */
const Mentor = { mentor: z.string().min(1) };

export const EvalQuestion = z.object({
  /** The platform's id of the question (absent in a definition not saved yet). */
  id: z.number().int().optional(),
  content: z.string(),
  sampleAnswer: z.string().nullable(),
});
export type EvalQuestion = z.infer<typeof EvalQuestion>;

/** The platform's MentorEval. */
export const MentorEvaluation = z.object({
  id: z.number().int(),
  evalId: z.string().nullable(),
  name: z.string().nullable(),
  passingScore: z.number().nullable(),
  evaluationPrompt: z.string().nullable(),
  questionSet: z.number().int().nullable(),
  questions: z.array(EvalQuestion),
});
export type MentorEvaluation = z.infer<typeof MentorEvaluation>;

/** The fields of MentorEvalRequest: each optional, as the spec has them. */
export const MentorEvalDefineInput = z
  .object({
    ...Tenant,
    ...Mentor,
    /** The evaluation to change; without it the platform creates one. */
    id: z.number().int().optional(),
    name: z.string().nullable().optional(),
    passingScore: z.number().int().nullable().optional(),
    evaluationPrompt: z.string().nullable().optional(),
    questions: z
      .array(z.object({ content: z.string(), sampleAnswer: z.string().nullable().optional() }).strict())
      .nullable()
      .optional(),
  })
  .strict();
export type MentorEvalDefineInput = z.input<typeof MentorEvalDefineInput>;

/** One question's line of a report (the platform's ConversationRating, its text split into question and answer). */
export const EvalRating = z.object({
  id: z.number().int().nullable(),
  question: z.string(),
  answer: z.string(),
  fullConversationText: z.string(),
  ratingText: z.string().nullable(),
  score: z.number().nullable(),
});
export type EvalRating = z.infer<typeof EvalRating>;

/** The platform's MentorEvalReport. */
export const EvalReport = z.object({
  id: z.number().int(),
  mentorEval: z.string(),
  overallScore: z.number(),
  isPassed: z.boolean(),
  generatedAt: z.string(),
  ratings: z.array(EvalRating),
});
export type EvalReport = z.infer<typeof EvalReport>;

export const EvalRunState = z.enum([
  'sending', // the execution is being sent
  'waiting', // sent: the report is being written
  'ready',
  'failed',
]);
export type EvalRunState = z.infer<typeof EvalRunState>;

/** A run of an evaluation, kept on this computer (the platform lists no reports). */
export const EvalRun = z.object({
  id: z.number().int(),
  mentor: z.string(),
  evaluationId: z.number().int(),
  /** The platform's report id, once the execution answered. */
  reportId: z.number().int().nullable(),
  startedAt: z.string(),
  state: EvalRunState,
  jobId: z.string().nullable(),
  error: z.string().nullable(),
  report: EvalReport.nullable(),
});
export type EvalRun = z.infer<typeof EvalRun>;

/** One question of two runs side by side. */
export const EvalCompareRow = z.object({
  question: z.string(),
  before: z.object({ score: z.number().nullable(), answer: z.string() }).nullable(),
  after: z.object({ score: z.number().nullable(), answer: z.string() }).nullable(),
  /** after − before, when both have a score. */
  change: z.number().nullable(),
  /** The answer's text differs between the two runs. */
  answerChanged: z.boolean(),
});
export type EvalCompareRow = z.infer<typeof EvalCompareRow>;

/** How long a run waits for its report by default, in minutes. */
export const EVAL_REPORT_WAIT_DEFAULT_MINUTES = 30;

export const mentorEvalCalls = {
  'mentorEvals.get': call(
    z.object({ ...Tenant, ...Mentor }).strict(),
    z.object({ evaluation: MentorEvaluation.nullable() }),
    "A mentor's evaluation as the platform has it (null when it has none yet)",
  ),
  'mentorEvals.define': call(
    MentorEvalDefineInput,
    z.object({ evaluation: MentorEvaluation }),
    "Creates a mentor's evaluation, or with its id changes the fields given",
  ),
  'mentorEvals.run': call(
    z
      .object({
        ...Tenant,
        ...Mentor,
        evaluationId: z.number().int(),
        /** How long to wait for the report before the job ends failed (default 30 minutes). */
        waitMinutes: z
          .number()
          .positive()
          .max(24 * 60)
          .optional(),
      })
      .strict(),
    z.object({ job: Job, run: EvalRun }),
    'Runs the evaluation as one journalled job: sends the execution once, then waits for its report',
  ),
  'mentorEvals.runs': call(
    z.object({ ...Tenant, ...Mentor }).strict(),
    z.object({ runs: z.array(EvalRun) }),
    "A mentor's runs kept on this computer, newest first, with their reports",
  ),
  'mentorEvals.compare': call(
    z.object({ ...Tenant, ...Mentor, before: z.number().int(), after: z.number().int() }).strict(),
    z.object({ before: EvalRun, after: EvalRun, rows: z.array(EvalCompareRow) }),
    'Two runs (by their ids here) question by question: each score before and after and what changed',
  ),
} as const;

export const mentorEvalEvents = {
  /** A mentor's evaluation or its runs changed (a definition saved, a run started or its report came). */
  'mentorEvals.changed': event(z.object({ profileId: z.string(), mentor: z.string() }), {
    invalidates: [
      { call: 'mentorEvals.get', by: ['profileId'] },
      { call: 'mentorEvals.runs', by: ['profileId'] },
      { call: 'mentorEvals.compare', by: ['profileId'] },
    ],
  }),
} as const;
