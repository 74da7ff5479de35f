/**
 * A mentor's evaluations in the sandbox: `mentor-eval/` (GET the mentor's evaluation; POST creates one, or with `id`
 * updates it), `mentor-eval-execution/` (POST `{id}` runs it: answers `{report_id}`) and
 * `reports/{report_id}/mentor-eval-report/` (the report, once written).
 *
 * A run is real and deterministic: the mentor "answers" each question with the best passage of its trained documents
 * (the same FTS5 search as `documents/search/`), and the answer scores the share of the sample answer's words it
 * holds (of the question's words when there is no sample answer), 0 to 100. The report is written a while after the
 * run (REPORT_DELAY_MS, longer with more questions); until then, and for a report that is not there or is another
 * mentor's, the platform answers 400 'Report not found or still being generated', as the spec says.
 */
import { randomUUID } from 'node:crypto';
import type { AreaDeps } from '../../area';
import type { Db } from '../../db';
import { badRequest, fieldErrors, HttpError, notFound } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import { ftsQuery, searchChunks, termCoverage } from '../documents/fts';
import type { MentorRow } from '../mentor-store';
import { findMentor } from './store';

type Row = Record<string, unknown>;

const BASE = '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/';
export const EVAL_PATH = `${BASE}mentor-eval/`;
export const EXECUTION_PATH = `${BASE}mentor-eval-execution/`;
export const REPORT_PATH = `${BASE}reports/{report_id}/mentor-eval-report/`;

export const EVALUATIONS_NOT_FOUND = 'Mentor or evaluations not found';
export const INVALID_EVAL_DATA = 'Invalid data or mentor not found';
export const INVALID_EVAL_ID = 'Invalid evaluation ID or mentor mismatch';
export const REPORT_NOT_READY = 'Report not found or still being generated';

/** The spec's example values, the defaults of a new evaluation. */
export const DEFAULT_PASSING_SCORE = 60;
export const DEFAULT_EVALUATION_PROMPT =
  'Please evaluate the following answer to the question: {{question}}.\n\n The sample answer to the question is {{sample_answer}} \n\n The answer you are evaluating is {{mentor_answer}}. \n\n Give me a rating as an integer between 0 to 100, only say the rating and nothing else.';
/** How long a report takes to be written: this, plus REPORT_DELAY_PER_QUESTION_MS per question. */
export const REPORT_DELAY_MS = 1_500;
export const REPORT_DELAY_PER_QUESTION_MS = 150;
/** What the mentor says when none of its documents speaks to the question. */
export const NO_ANSWER = 'I could not find this in my documents.';

export const mentorEvalSchema = `
CREATE TABLE IF NOT EXISTS mentor_evals (
  id INTEGER PRIMARY KEY,
  org TEXT NOT NULL REFERENCES orgs(key),
  mentor_id INTEGER NOT NULL REFERENCES mentors(id),
  eval_id TEXT NOT NULL UNIQUE,
  name TEXT,
  passing_score INTEGER NOT NULL,
  evaluation_prompt TEXT NOT NULL,
  question_set INTEGER NOT NULL,
  -- JSON array of {id, content, sample_answer}
  questions TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS mentor_evals_mentor ON mentor_evals(mentor_id, id);
CREATE TABLE IF NOT EXISTS mentor_eval_reports (
  id INTEGER PRIMARY KEY,
  org TEXT NOT NULL REFERENCES orgs(key),
  mentor_id INTEGER NOT NULL REFERENCES mentors(id),
  eval_row INTEGER NOT NULL REFERENCES mentor_evals(id),
  ready_at TEXT NOT NULL,
  -- The MentorEvalReport, as it is answered once ready_at has passed.
  data TEXT NOT NULL
);
`;

interface EvalRow {
  id: number;
  org: string;
  mentor_id: number;
  eval_id: string;
  name: string | null;
  passing_score: number;
  evaluation_prompt: string;
  question_set: number;
  questions: string;
}

interface Question {
  id: number;
  content: string;
  sample_answer: string | null;
}

const present = (row: EvalRow, mentor: MentorRow) => ({
  id: row.id,
  mentor: mentorLabel(mentor),
  questions: JSON.parse(row.questions) as Question[],
  eval_id: row.eval_id,
  name: row.name,
  passing_score: row.passing_score,
  evaluation_prompt: row.evaluation_prompt,
  question_set: row.question_set,
});

const mentorLabel = (mentor: MentorRow) => `${mentor.name} - ${mentor.org}`;

/** The MentorEvalRequest's fields checked as DRF checks them: the messages by field. */
function checkEvalBody(body: unknown): Row {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw fieldErrors({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
  }
  const input = body as Row;
  const errors: Record<string, string[]> = {};
  const integer = (name: string) => {
    const value = input[name];
    if (value === undefined || value === null) return;
    if (typeof value !== 'number' || !Number.isInteger(value)) errors[name] = ['A valid integer is required.'];
  };
  const text = (name: string) => {
    const value = input[name];
    if (value !== undefined && value !== null && typeof value !== 'string') errors[name] = ['Not a valid string.'];
  };
  integer('id');
  integer('passing_score');
  text('name');
  text('evaluation_prompt');
  const questions = input.questions;
  // DRF's nested list errors: one object per question, empty for a question without fault.
  let questionErrors: Record<string, string[]>[] | null = null;
  if (questions !== undefined && questions !== null) {
    if (!Array.isArray(questions)) {
      errors.questions = [`Expected a list of items but got type "${typeof questions}".`];
    } else {
      const each = questions.map((question: unknown) => {
        const q = (question ?? {}) as Row;
        const problems: Record<string, string[]> = {};
        if (typeof q.content !== 'string') problems.content = ['This field is required.'];
        else if (!q.content.trim()) problems.content = ['This field may not be blank.'];
        if (q.sample_answer !== undefined && q.sample_answer !== null && typeof q.sample_answer !== 'string') {
          problems.sample_answer = ['Not a valid string.'];
        }
        return problems;
      });
      if (each.some((problems) => Object.keys(problems).length)) questionErrors = each;
    }
  }
  if (questionErrors) {
    const messages = [...Object.values(errors).flat(), ...questionErrors.flatMap((q) => Object.values(q).flat())];
    throw new HttpError(400, messages.join(' '), {}, { ...errors, questions: questionErrors });
  }
  if (Object.keys(errors).length) throw fieldErrors(errors);
  return input;
}

/** The mentor's answer to one question and its score, from its trained documents. */
function rate(db: Db, mentor: MentorRow, question: Question) {
  const { hits } = searchChunks(db, {
    org: mentor.org,
    pathway: mentor.unique_id,
    query: question.content,
    limit: 1,
    publicOnly: false,
  });
  const answer = hits[0]?.content.trim() || NO_ANSWER;
  const against = question.sample_answer?.trim() || question.content;
  const terms = ftsQuery(against)?.terms ?? [];
  const score = hits.length ? Math.round(100 * termCoverage(terms, answer)) : 0;
  return {
    full_conversation_text: `Question: ${question.content}\n\nAnswer: ${answer}`,
    rating_text: String(score),
    score,
  };
}

export function mentorEvalRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const admin = { auth: 'admin' as const };
  const mentorOf = (ctx: RequestContext) => findMentor(db, ctx.params.org!, ctx.params.mentor!);
  const latest = db.prepare('SELECT * FROM mentor_evals WHERE mentor_id = ? ORDER BY id DESC LIMIT 1');
  const byId = db.prepare('SELECT * FROM mentor_evals WHERE id = ? AND mentor_id = ?');

  router.add(
    'GET',
    EVAL_PATH,
    (ctx) => {
      const mentor = mentorOf(ctx);
      const row = mentor && (latest.get(mentor.id) as EvalRow | undefined);
      if (!mentor || !row) throw notFound(EVALUATIONS_NOT_FOUND);
      return { status: 200, body: present(row, mentor) };
    },
    admin,
  );

  router.add(
    'POST',
    EVAL_PATH,
    async (ctx) => {
      const body = checkEvalBody(await ctx.json().catch(() => null));
      const mentor = mentorOf(ctx);
      if (!mentor) throw badRequest(INVALID_EVAL_DATA);
      const id = typeof body.id === 'number' ? body.id : null;
      const before = id === null ? undefined : (byId.get(id, mentor.id) as EvalRow | undefined);
      if (id !== null && !before) throw badRequest(INVALID_EVAL_DATA);
      const given = (name: string) => body[name] !== undefined && body[name] !== null;
      let questions = before ? (JSON.parse(before.questions) as Question[]) : [];
      let questionSet = before?.question_set ?? 0;
      if (given('questions') || !before) {
        // A new set of questions is a new question set: reports name the set they asked.
        questionSet =
          (db.prepare('SELECT COALESCE(MAX(question_set), 0) FROM mentor_evals').pluck().get() as number) + 1;
        questions = ((body.questions as Row[] | null | undefined) ?? []).map((q, index) => ({
          id: questionSet * 1000 + index + 1,
          content: String(q.content).trim(),
          sample_answer: typeof q.sample_answer === 'string' ? q.sample_answer : null,
        }));
      }
      const record = {
        name: given('name') ? (body.name as string) : (before?.name ?? ''),
        passing_score: given('passing_score')
          ? (body.passing_score as number)
          : (before?.passing_score ?? DEFAULT_PASSING_SCORE),
        evaluation_prompt: given('evaluation_prompt')
          ? (body.evaluation_prompt as string)
          : (before?.evaluation_prompt ?? DEFAULT_EVALUATION_PROMPT),
        question_set: questionSet,
        questions: JSON.stringify(questions),
      };
      let rowId: number;
      if (before) {
        db.prepare(
          `UPDATE mentor_evals SET name = @name, passing_score = @passing_score, evaluation_prompt = @evaluation_prompt,
             question_set = @question_set, questions = @questions WHERE id = @id`,
        ).run({ ...record, id: before.id });
        rowId = before.id;
      } else {
        rowId = Number(
          db
            .prepare(
              `INSERT INTO mentor_evals (org, mentor_id, eval_id, name, passing_score, evaluation_prompt, question_set, questions)
               VALUES (@org, @mentor_id, @eval_id, @name, @passing_score, @evaluation_prompt, @question_set, @questions)`,
            )
            .run({ ...record, org: mentor.org, mentor_id: mentor.id, eval_id: randomUUID() }).lastInsertRowid,
        );
      }
      return { status: 200, body: present(byId.get(rowId, mentor.id) as EvalRow, mentor) };
    },
    admin,
  );

  router.add(
    'POST',
    EXECUTION_PATH,
    async (ctx) => {
      const body = (await ctx.json().catch(() => null)) as Row | null;
      if (!body || body.id === undefined || body.id === null) throw fieldErrors({ id: ['This field is required.'] });
      if (typeof body.id !== 'number' || !Number.isInteger(body.id)) {
        throw fieldErrors({ id: ['A valid integer is required.'] });
      }
      const mentor = mentorOf(ctx);
      const evaluation = mentor && (byId.get(body.id, mentor.id) as EvalRow | undefined);
      if (!mentor || !evaluation) throw badRequest(INVALID_EVAL_ID);
      const questions = JSON.parse(evaluation.questions) as Question[];
      const now = deps.now();
      const ratings = questions.map((question) => rate(db, mentor, question));
      const scores = ratings.map((rating) => rating.score);
      const overall = scores.length ? Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 100) / 100 : 0;
      const readyAt = new Date(now.getTime() + REPORT_DELAY_MS + REPORT_DELAY_PER_QUESTION_MS * questions.length);
      const insert = db.prepare(
        'INSERT INTO mentor_eval_reports (org, mentor_id, eval_row, ready_at, data) VALUES (?, ?, ?, ?, ?)',
      );
      const reportId = Number(
        insert.run(mentor.org, mentor.id, evaluation.id, readyAt.toISOString(), '{}').lastInsertRowid,
      );
      const report = {
        id: reportId,
        mentor_eval: `(Mentor ${mentor.name}, Question Set ${evaluation.question_set})`,
        mentor: mentorLabel(mentor),
        conversation_ratings: ratings.map((rating, index) => ({ id: reportId * 1000 + index + 1, ...rating })),
        overall_score: overall,
        is_passed: overall >= evaluation.passing_score,
        generated_at: readyAt.toISOString(),
      };
      db.prepare('UPDATE mentor_eval_reports SET data = ? WHERE id = ?').run(JSON.stringify(report), reportId);
      // The spec declares no answer body, only that it returns "the ID of the generated evaluation report".
      return { status: 200, body: { report_id: reportId } };
    },
    admin,
  );

  router.add(
    'GET',
    REPORT_PATH,
    (ctx) => {
      const mentor = mentorOf(ctx);
      const id = Number(ctx.params.report_id);
      const row =
        mentor && Number.isInteger(id)
          ? (db
              .prepare('SELECT ready_at, data FROM mentor_eval_reports WHERE id = ? AND mentor_id = ?')
              .get(id, mentor.id) as { ready_at: string; data: string } | undefined)
          : undefined;
      if (!row || Date.parse(row.ready_at) > deps.now().getTime()) throw badRequest(REPORT_NOT_READY);
      return { status: 200, body: JSON.parse(row.data) as Row };
    },
    admin,
  );
}
