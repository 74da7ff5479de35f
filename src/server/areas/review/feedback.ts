import type { AreaDeps } from '../../area';
import { badRequest, fieldErrors, notFound } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import { isAdmin, objectBody, pathId } from '../support/access';

const MENTOR_BASE = '/api/ai-mentor/orgs/{org}/users/{user_id}/';
const ANALYTICS_BASE = '/api/ai-analytics/orgs/{org}/users/{user_id}/';
const REQUIRED = ['username', 'session', 'user_text', 'ai_response', 'reason', 'additional_feedback'] as const;

interface FeedbackRow {
  id: number;
  org: string;
  username: string;
  session: string;
  user_text: string;
  ai_response: string;
  reason: string;
  additional_feedback: string;
  rating: number | null;
  inserted_at: string;
  mentor: number;
  message: number | null;
}

const present = ({ org: _org, ...row }: FeedbackRow) => row;

/**
 * Learners' feedback on mentor answers (`UserChatFeedback`): `mentor-feedback/{feedback_id}/` GET and PUT,
 * `mentor-feedback/create/`, and the counts per period of `user-feedback/`. The spec has no list of feedback entries.
 */
export function feedbackRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;

  /** A learner sees their own entries; admins every entry of the tenant. */
  const visible = (ctx: RequestContext): FeedbackRow => {
    const row = db
      .prepare('SELECT * FROM review_feedback WHERE id = ? AND org = ?')
      .get(pathId(ctx.params.feedback_id), ctx.params.org) as FeedbackRow | undefined;
    if (!row || (!isAdmin(ctx.caller!) && row.username !== ctx.caller!.username)) throw notFound();
    return row;
  };

  function validated(body: Record<string, unknown>, org: string) {
    const errors: Record<string, string[]> = {};
    for (const field of REQUIRED) {
      if (typeof body[field] !== 'string') errors[field] = ['This field is required.'];
    }
    const mentor = body.mentor;
    if (typeof mentor !== 'number' || !Number.isInteger(mentor)) errors.mentor = ['A valid integer is required.'];
    else if (!db.prepare('SELECT 1 FROM mentors WHERE id = ? AND org = ?').get(mentor, org)) {
      errors.mentor = [`Invalid pk "${mentor}" - object does not exist.`];
    }
    const rating = body.rating ?? null;
    if (rating !== null && rating !== -1 && rating !== 0 && rating !== 1) {
      errors.rating = [`"${String(rating)}" is not a valid choice.`];
    }
    const message = body.message ?? null;
    if (message !== null && (typeof message !== 'number' || !Number.isInteger(message))) {
      errors.message = ['A valid integer is required.'];
    }
    if (Object.keys(errors).length) throw fieldErrors(errors);
    return { ...(body as Record<(typeof REQUIRED)[number], string>), mentor: mentor as number, rating, message };
  }

  /**
   * A conversation's rating (chat-history's read-only `rating`) is its learner's latest feedback on it: inferred,
   * as the spec derives it from nothing else. 0 and null clear it.
   */
  const rateConversation = (org: string, session: string, rating: number | null) => {
    const value = rating === 1 || rating === -1 ? rating : null;
    const pk = db
      .prepare('SELECT id FROM chat_sessions WHERE org = ? AND session_id = ?')
      .pluck()
      .get(org, session.toLowerCase()) as number | undefined;
    if (pk === undefined) return;
    db.prepare('UPDATE chat_sessions SET rating = ? WHERE id = ?').run(value, pk);
    db.prepare('UPDATE chat_session_topics SET rating = ? WHERE session_pk = ?').run(value, pk);
  };

  router.get(`${MENTOR_BASE}mentor-feedback/{feedback_id}/`, (ctx) => ({ status: 200, body: present(visible(ctx)) }));

  router.put(`${MENTOR_BASE}mentor-feedback/{feedback_id}/`, async (ctx) => {
    const row = visible(ctx);
    const next = validated(await objectBody(ctx), ctx.params.org!);
    db.prepare(
      `UPDATE review_feedback SET username = @username, session = @session, user_text = @user_text,
         ai_response = @ai_response, reason = @reason, additional_feedback = @additional_feedback, rating = @rating,
         mentor = @mentor, message = @message WHERE id = @id`,
    ).run({ ...next, id: row.id });
    rateConversation(row.org, next.session, next.rating as number | null);
    return { status: 200, body: present(visible(ctx)) };
  });

  router.post(`${MENTOR_BASE}mentor-feedback/create/`, async (ctx) => {
    const next = validated(await objectBody(ctx), ctx.params.org!);
    const { lastInsertRowid } = db
      .prepare(
        `INSERT INTO review_feedback (org, username, session, user_text, ai_response, reason, additional_feedback,
           rating, inserted_at, mentor, message)
         VALUES (@org, @username, @session, @user_text, @ai_response, @reason, @additional_feedback, @rating, @at,
           @mentor, @message)`,
      )
      .run({ ...next, org: ctx.params.org, at: new Date().toISOString() });
    rateConversation(ctx.params.org!, next.session, next.rating as number | null);
    const row = db.prepare('SELECT * FROM review_feedback WHERE id = ?').get(lastInsertRowid) as FeedbackRow;
    return { status: 201, body: present(row) };
  });

  const BUCKET: Record<string, (iso: string) => string> = {
    hourly: (iso) => `${iso.slice(0, 13)}:00:00Z`,
    daily: (iso) => `${iso.slice(0, 10)}T00:00:00Z`,
    weekly: (iso) => {
      const d = new Date(`${iso.slice(0, 10)}T00:00:00Z`);
      d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
      return d.toISOString().replace('.000Z', 'Z');
    },
  };

  router.get(
    `${ANALYTICS_BASE}user-feedback/`,
    (ctx) => {
      const q = ctx.query;
      const start = q.get('start_date');
      const end = q.get('end_date');
      const aggregation = q.get('aggregation') || 'daily';
      const bucket = BUCKET[aggregation];
      if (!start || !end || Number.isNaN(Date.parse(start)) || Number.isNaN(Date.parse(end)) || !bucket) {
        throw badRequest('Invalid parameters');
      }
      const mentor = q.get('mentor_id');
      const rows = db
        .prepare(
          `SELECT f.inserted_at FROM review_feedback f LEFT JOIN mentors m ON m.id = f.mentor
           WHERE f.org = ? AND substr(f.inserted_at, 1, 10) BETWEEN ? AND ? AND (? IS NULL OR m.unique_id = ?)`,
        )
        .pluck()
        .all(ctx.params.org, start.slice(0, 10), end.slice(0, 10), mentor, mentor?.toLowerCase() ?? null) as string[];
      const counts = new Map<string, number>();
      for (const at of rows) counts.set(bucket(at), (counts.get(bucket(at)) ?? 0) + 1);
      const body = [...counts]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([period, n]) => ({ period, feedback_count: n }));
      return { status: 200, body };
    },
    { auth: 'admin' },
  );
}
