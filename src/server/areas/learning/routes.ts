/**
 * Course suggestions to a person or a user group (`/api/catalog/suggestions/course/manage/`, `bulk/`, `group/`) and
 * course and program reviews (`reviews/{course,program}/`, `info/`, `update/`). Suggesting is for administrators
 * (the spec's "manage" calls); anyone of the tenant reads reviews, a learner writes their own, an administrator
 * moderates anyone's. Every call names the tenant (`platform_key`), which must be the caller's.
 */
import type { AreaDeps } from '../../area';
import type { Db } from '../../db';
import { badRequest, fieldErrors, forbidden, notFound } from '../../http/errors';
import { catalogPage, pageWindow } from '../../http/pagination';
import type { RequestContext, Router } from '../../http/router';
import { requirePlatformKey } from '../core';
import { programRow } from '../catalogue/items';
import { personOf } from '../catalogue/store';

type Row = Record<string, unknown>;

export const SUGGESTIONS = '/api/catalog/suggestions/course/manage/';
export const GROUP_SUGGESTIONS = '/api/catalog/suggestions/course/manage/group/';
export const BULK_SUGGESTIONS = '/api/catalog/suggestions/course/manage/bulk/';
export const SUGGESTION_MISSING = 'Not found - suggestion does not exist';
export const COURSE_MISSING = "Not found - course doesn't exist";
export const USER_MISSING = 'Not found - user does not exist';
export const GROUP_MISSING = 'Not found - group does not exist';

export const learningSchema = `
CREATE TABLE IF NOT EXISTS learning_suggestions (
  id INTEGER PRIMARY KEY,
  org TEXT NOT NULL,
  course_id TEXT NOT NULL,
  user_id INTEGER,
  group_id INTEGER,
  accepted INTEGER NOT NULL DEFAULT 0,
  visible INTEGER NOT NULL DEFAULT 1,
  metadata TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata)),
  suggested_by TEXT,
  created TEXT NOT NULL,
  modified TEXT NOT NULL,
  CHECK ((user_id IS NULL) <> (group_id IS NULL))
);
CREATE UNIQUE INDEX IF NOT EXISTS learning_suggestions_user ON learning_suggestions (org, course_id, user_id)
  WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS learning_suggestions_group ON learning_suggestions (org, course_id, group_id)
  WHERE group_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS learning_reviews (
  item_type TEXT NOT NULL CHECK (item_type IN ('course', 'program')),
  item TEXT NOT NULL,
  org TEXT NOT NULL,
  user_id INTEGER NOT NULL,
  rating REAL,
  title TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL DEFAULT '',
  visible INTEGER NOT NULL DEFAULT 1,
  metadata TEXT CHECK (metadata IS NULL OR json_valid(metadata)),
  created TEXT NOT NULL,
  modified TEXT NOT NULL,
  PRIMARY KEY (item_type, item, user_id)
) WITHOUT ROWID;
`;

async function bodyOf(ctx: RequestContext): Promise<Row> {
  const body = await ctx.json().catch(() => {
    throw badRequest('Invalid request data');
  });
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Invalid request data');
  return body as Row;
}

function required(body: Row, names: string[]): void {
  const missing = names.filter((name) => body[name] === undefined || body[name] === null || body[name] === '');
  if (missing.length) throw fieldErrors(Object.fromEntries(missing.map((name) => [name, ['This field is required.']])));
}

const flag = (value: unknown, fallback: boolean) =>
  value === undefined || value === null ? fallback : value === true || value === 'true' || value === 1;

function metadataOf(value: unknown): string {
  if (value === undefined || value === null) return '{}';
  if (typeof value !== 'object' || Array.isArray(value))
    throw fieldErrors({ metadata: ['Expected a dictionary of items but got type "' + typeof value + '".'] });
  return JSON.stringify(value);
}

interface SuggestionRow {
  id: number;
  org: string;
  course_id: string;
  course_name: string | null;
  user_id: number | null;
  username: string | null;
  name: string | null;
  group_id: number | null;
  group_name: string | null;
  user_count: number | null;
  accepted: number;
  visible: number;
  metadata: string;
  created: string;
  modified: string;
}

const SUGGESTION_SELECT = `SELECT s.*, c.name AS course_name, u.username,
    trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) AS name, g.name AS group_name,
    (SELECT count(*) FROM user_group_members m WHERE m.group_id = s.group_id) AS user_count
  FROM learning_suggestions s JOIN courses c ON c.course_id = s.course_id
  LEFT JOIN users u ON u.id = s.user_id LEFT JOIN user_groups g ON g.id = s.group_id`;

/** The spec's CourseSuggestionDetail. */
const presentSuggestion = (row: SuggestionRow) => ({
  id: row.id,
  user_id: row.user_id,
  username: row.username ?? '',
  name: row.name || row.username || '',
  platform_key: row.org,
  accepted: row.accepted === 1,
  visible: row.visible === 1,
  created: row.created,
  modified: row.modified,
  metadata: JSON.parse(row.metadata) as unknown,
  course_id: row.course_id,
  course_name: row.course_name ?? row.course_id,
});

/** The spec's CourseGroupSuggestionDetail. */
const presentGroupSuggestion = (row: SuggestionRow) => ({
  id: row.id,
  group_id: row.group_id,
  group_name: row.group_name ?? '',
  platform_key: row.org,
  accepted: row.accepted === 1,
  visible: row.visible === 1,
  created: row.created,
  modified: row.modified,
  metadata: JSON.parse(row.metadata) as unknown,
  course_id: row.course_id,
  course_name: row.course_name ?? row.course_id,
  user_count: row.user_count ?? 0,
});

function courseOf(db: Db, org: string, courseId: unknown): string {
  const found = db
    .prepare('SELECT course_id FROM courses WHERE org = ? AND course_id = ?')
    .pluck()
    .get(org, String(courseId)) as string | undefined;
  if (!found) throw notFound(COURSE_MISSING);
  return found;
}

/** The spec's sort (`-id` by default) over the fields a suggestion answers. */
function orderOf(sort: string | null, fallback: string): string {
  const given = sort || fallback;
  const field = given.replace(/^-/, '');
  const column = ({ id: 's.id', created: 's.created', modified: 's.modified', course_id: 's.course_id' } as Row)[field];
  if (!column) throw badRequest(`Invalid sort field: ${field}`);
  return `${String(column)} ${given.startsWith('-') ? 'DESC' : 'ASC'}, s.id DESC`;
}

export function suggestionRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const stamp = () => deps.now().toISOString();
  const tenant = (ctx: RequestContext, given: unknown) => requirePlatformKey(ctx, given);

  const list = (ctx: RequestContext, group: boolean) => {
    const org = tenant(ctx, ctx.query.get('platform_key'));
    const window = pageWindow(ctx.query, 10);
    const query = ctx.query.get('query')?.trim();
    const like = `%${query ?? ''}%`;
    const who = group ? 's.group_id IS NOT NULL' : 's.user_id IS NOT NULL';
    const search = query
      ? group
        ? 'AND (g.name LIKE ? OR c.name LIKE ? OR s.course_id LIKE ?)'
        : 'AND (u.username LIKE ? OR u.email LIKE ? OR c.name LIKE ? OR s.course_id LIKE ?)'
      : '';
    const args = query ? (group ? [like, like, like] : [like, like, like, like]) : [];
    const where = `WHERE s.org = ? AND ${who} ${search}`;
    const count = db
      .prepare(`SELECT count(*) FROM (${SUGGESTION_SELECT} ${where})`)
      .pluck()
      .get(org, ...args) as number;
    const rows = db
      .prepare(
        `${SUGGESTION_SELECT} ${where} ORDER BY ${orderOf(ctx.query.get('sort'), group ? 'id' : '-id')} LIMIT ? OFFSET ?`,
      )
      .all(org, ...args, window.pageSize, window.offset) as SuggestionRow[];
    return catalogPage(
      ctx.url,
      window,
      count,
      (group ? rows.map(presentGroupSuggestion) : rows.map(presentSuggestion)) as Row[],
    );
  };

  /** "Create or update": one suggestion per course and person (or group); a second POST changes it. */
  const upsert = (org: string, body: Row, target: { user_id: number } | { group_id: number }) => {
    const courseId = courseOf(db, org, body.course_id);
    const [column, value] = 'user_id' in target ? ['user_id', target.user_id] : ['group_id', target.group_id];
    const existing = db
      .prepare(
        `SELECT id, accepted, visible, metadata FROM learning_suggestions WHERE org = ? AND course_id = ? AND ${column} = ?`,
      )
      .get(org, courseId, value) as { id: number; accepted: number; visible: number; metadata: string } | undefined;
    const now = stamp();
    const accepted = flag(body.accepted, existing ? existing.accepted === 1 : false) ? 1 : 0;
    const visible = flag(body.visible, existing ? existing.visible === 1 : true) ? 1 : 0;
    const metadata = body.metadata === undefined && existing ? existing.metadata : metadataOf(body.metadata);
    const suggestedBy = typeof body.suggested_by === 'string' ? body.suggested_by : null;
    if (existing) {
      db.prepare(
        'UPDATE learning_suggestions SET accepted = ?, visible = ?, metadata = ?, modified = ? WHERE id = ?',
      ).run(accepted, visible, metadata, now, existing.id);
      return existing.id;
    }
    return Number(
      db
        .prepare(
          `INSERT INTO learning_suggestions (org, course_id, ${column}, accepted, visible, metadata, suggested_by, created, modified)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(org, courseId, value, accepted, visible, metadata, suggestedBy, now, now).lastInsertRowid,
    );
  };
  const one = (id: number) => db.prepare(`${SUGGESTION_SELECT} WHERE s.id = ?`).get(id) as SuggestionRow;

  /** The person a suggestion names: `user_id` (the spec's required field), else `username` or `email`. */
  const personFor = (org: string, body: Row) => {
    const person = personOf(db, org, { user_id: body.user_id, username: body.username, email: body.email });
    if (!person) throw notFound(USER_MISSING);
    return person;
  };

  const remove = (ctx: RequestContext, group: boolean) => {
    const org = tenant(ctx, ctx.query.get('platform_key'));
    const raw = ctx.query.get('suggestion_id') ?? '';
    if (!/^\d+$/.test(raw)) throw badRequest('suggestion_id is required');
    const gone = db
      .prepare(
        `DELETE FROM learning_suggestions WHERE id = ? AND org = ? AND ${group ? 'group_id' : 'user_id'} IS NOT NULL`,
      )
      .run(Number(raw), org);
    if (!gone.changes) throw notFound(SUGGESTION_MISSING);
    return { status: 200, body: { message: 'Suggestion deleted' } };
  };

  router.get(SUGGESTIONS, (ctx) => ({ status: 200, body: list(ctx, false) }), { auth: 'admin' });
  router.post(
    SUGGESTIONS,
    async (ctx) => {
      const body = await bodyOf(ctx);
      const org = tenant(ctx, body.platform_key ?? ctx.query.get('platform_key'));
      if (body.user_id === undefined && (body.username || body.email)) body.user_id = '';
      required(body, ['course_id']);
      if (body.user_id === undefined) required(body, ['user_id']);
      const person = personFor(org, body);
      return { status: 200, body: presentSuggestion(one(upsert(org, body, { user_id: person.id }))) };
    },
    { auth: 'admin' },
  );
  router.delete(SUGGESTIONS, (ctx) => remove(ctx, false), { auth: 'admin' });

  router.post(
    BULK_SUGGESTIONS,
    async (ctx) => {
      const body = await bodyOf(ctx);
      required(body, ['platform_key']);
      const org = tenant(ctx, body.platform_key);
      if (!Array.isArray(body.suggestion_data)) throw fieldErrors({ suggestion_data: ['This field is required.'] });
      let successes = 0;
      const errorCodes: string[] = [];
      db.transaction(() => {
        for (const [index, item] of (body.suggestion_data as unknown[]).entries()) {
          try {
            if (!item || typeof item !== 'object' || Array.isArray(item)) throw badRequest('Invalid suggestion');
            const row = item as Row;
            required(row, ['course_id']);
            upsert(org, row, { user_id: personFor(org, row).id });
            successes++;
          } catch (error) {
            const detail = error instanceof Error ? error.message : String(error);
            errorCodes.push(`${index}: ${detail}`);
          }
        }
      })();
      return { status: 200, body: { successes, error_codes: errorCodes } };
    },
    { auth: 'admin' },
  );

  router.get(GROUP_SUGGESTIONS, (ctx) => ({ status: 200, body: list(ctx, true) }), { auth: 'admin' });
  router.post(
    GROUP_SUGGESTIONS,
    async (ctx) => {
      const body = await bodyOf(ctx);
      const org = tenant(ctx, body.platform_key ?? ctx.query.get('platform_key'));
      required(body, ['course_id', 'group_id']);
      const group = db
        .prepare('SELECT id FROM user_groups WHERE org = ? AND id = ?')
        .pluck()
        .get(org, Number(body.group_id)) as number | undefined;
      if (group === undefined) throw notFound(GROUP_MISSING);
      return { status: 200, body: presentGroupSuggestion(one(upsert(org, body, { group_id: group }))) };
    },
    { auth: 'admin' },
  );
  router.delete(GROUP_SUGGESTIONS, (ctx) => remove(ctx, true), { auth: 'admin' });
}

interface ReviewRow {
  item: string;
  user_id: number;
  username: string;
  rating: number | null;
  title: string;
  content: string;
  visible: number;
  metadata: string | null;
  created: string;
  modified: string;
}

const REVIEW_SELECT = `SELECT r.*, u.username FROM learning_reviews r JOIN users u ON u.id = r.user_id`;

/** Reviews of courses and of programs: the same calls under `reviews/course/` and `reviews/program/`. */
export function reviewRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const families = [
    { type: 'course', base: '/api/catalog/reviews/course/', key: 'course_id', filter: 'course_id' },
    { type: 'program', base: '/api/catalog/reviews/program/', key: 'program_key', filter: 'program_id' },
  ] as const;
  for (const family of families) {
    /** The item a request names, as the tenant has it (a program by its key or id). */
    const itemOf = (org: string, given: unknown): string => {
      if (family.type === 'course') return courseOf(db, org, given);
      const program = programRow(db, org, String(given));
      if (!program) throw notFound("Not found - program doesn't exist");
      return program.program_key;
    };
    const present = (row: ReviewRow) => ({
      user_id: row.user_id,
      [family.key]: row.item,
      username: row.username,
      content: row.content,
      rating: row.rating,
      title: row.title,
      visible: row.visible === 1,
      created: row.created,
      modified: row.modified,
      ...(family.type === 'course' && { metadata: row.metadata ? (JSON.parse(row.metadata) as unknown) : null }),
    });
    const tenantOfQuery = (ctx: RequestContext) => {
      for (const name of ['platform_key', 'org', 'platform_org']) {
        const given = ctx.query.get(name);
        if (given) return requirePlatformKey(ctx, given);
      }
      return ctx.caller!.org;
    };

    router.get(family.base, (ctx) => {
      const org = tenantOfQuery(ctx);
      const window = pageWindow(ctx.query, 10);
      const clauses = ['r.org = ?', 'r.item_type = ?'];
      const args: unknown[] = [org, family.type];
      const item = ctx.query.get(family.filter);
      if (item) {
        clauses.push('r.item = ?');
        args.push(itemOf(org, item));
      }
      const userId = ctx.query.get('user_id');
      if (userId) {
        if (!/^\d+$/.test(userId)) throw badRequest('Invalid parameters');
        clauses.push('r.user_id = ?');
        args.push(Number(userId));
      }
      // The spec's default is '-id': a review's id is not answered, its creation order is.
      const sort = ctx.query.get('sort') || '-id';
      const given = sort.replace(/^-/, '');
      const field = given === 'id' ? 'created' : given;
      if (!['modified', 'created', 'rating'].includes(field)) throw badRequest('Invalid parameters');
      const where = `WHERE ${clauses.join(' AND ')}`;
      const count = db
        .prepare(`SELECT count(*) FROM learning_reviews r ${where}`)
        .pluck()
        .get(...args) as number;
      const rows = db
        .prepare(
          `${REVIEW_SELECT} ${where} ORDER BY r.${field} ${sort.startsWith('-') ? 'DESC' : 'ASC'}, r.user_id LIMIT ? OFFSET ?`,
        )
        .all(...args, window.pageSize, window.offset) as ReviewRow[];
      const last = Math.max(1, Math.ceil(count / window.pageSize));
      return {
        status: 200,
        body: {
          count,
          next_page: window.page < last ? window.page + 1 : null,
          previous_page: window.page > 1 ? window.page - 1 : null,
          results: rows.map(present),
        },
      };
    });

    // The spec's info: a course's or program's average rating and count, over its visible reviews.
    router.get(`${family.base}info/`, (ctx) => {
      const given = ctx.query.get(family.key);
      if (!given) throw badRequest(`${family.key} is required`);
      const item = itemOf(ctx.caller!.org, given);
      const info = db
        .prepare(
          `SELECT avg(rating) AS avg_rating, count(*) AS count FROM learning_reviews
           WHERE item_type = ? AND item = ? AND org = ? AND visible = 1`,
        )
        .get(family.type, item, ctx.caller!.org) as { avg_rating: number | null; count: number };
      return { status: 200, body: { [family.key]: item, avg_rating: info.avg_rating, count: info.count } };
    });

    /** Whom a review belongs to; a learner may write only their own, an administrator anyone's. */
    const reviewer = (ctx: RequestContext, by: { username?: unknown; user_id?: unknown }) => {
      const person = personOf(db, ctx.caller!.org, by);
      if (!person) throw notFound(USER_MISSING);
      if (ctx.caller!.role !== 'admin' && person.username !== ctx.caller!.username)
        throw forbidden('Permission denied');
      return person;
    };

    router.post(`${family.base}update/`, async (ctx) => {
      const body = await bodyOf(ctx);
      required(body, [family.key, 'username']);
      if (body.rating !== undefined && body.rating !== null && typeof body.rating !== 'number')
        throw fieldErrors({ rating: ['A valid number is required.'] });
      const org = ctx.caller!.org;
      const item = itemOf(org, body[family.key]);
      const person = reviewer(ctx, { username: body.username });
      const now = deps.now().toISOString();
      const existing = db
        .prepare('SELECT * FROM learning_reviews WHERE item_type = ? AND item = ? AND user_id = ?')
        .get(family.type, item, person.id) as ReviewRow | undefined;
      const text = (name: 'title' | 'content') =>
        typeof body[name] === 'string' ? (body[name] as string) : (existing?.[name] ?? '');
      const values = {
        rating: body.rating !== undefined ? (body.rating as number | null) : (existing?.rating ?? null),
        title: text('title'),
        content: text('content'),
        // The spec's default (true) for a new review; a change that does not name it leaves it as it is.
        visible: flag(body.visible, existing ? existing.visible === 1 : true) ? 1 : 0,
        metadata: body.metadata !== undefined ? JSON.stringify(body.metadata) : (existing?.metadata ?? null),
      };
      db.prepare(
        `INSERT INTO learning_reviews (item_type, item, org, user_id, rating, title, content, visible, metadata, created, modified)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (item_type, item, user_id) DO UPDATE SET rating = excluded.rating, title = excluded.title,
           content = excluded.content, visible = excluded.visible, metadata = excluded.metadata, modified = excluded.modified`,
      ).run(
        family.type,
        item,
        org,
        person.id,
        values.rating,
        values.title,
        values.content,
        values.visible,
        values.metadata,
        now,
        now,
      );
      const row = db
        .prepare(`${REVIEW_SELECT} WHERE r.item_type = ? AND r.item = ? AND r.user_id = ?`)
        .get(family.type, item, person.id) as ReviewRow;
      return { status: existing ? 200 : 201, body: present(row) };
    });

    router.delete(`${family.base}update/`, (ctx) => {
      const given = ctx.query.get(family.key);
      const username = ctx.query.get('username');
      if (!given || !username) throw badRequest('Invalid parameters');
      const org = ctx.caller!.org;
      const item = itemOf(org, given);
      const person = reviewer(ctx, { username });
      const gone = db
        .prepare('DELETE FROM learning_reviews WHERE item_type = ? AND item = ? AND user_id = ?')
        .run(family.type, item, person.id);
      if (!gone.changes) throw notFound('Review not found');
      return { status: 200, body: { message: 'Review successfully deleted' } };
    });
  }
}
