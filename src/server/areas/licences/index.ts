/**
 * Licences, their seats and course access requests in the sandbox (`/api/catalog/licenses/user/…`,
 * `/api/catalog/access_requests/course/manage/`), over tables of their own. Every call but the open email check is a
 * tenant administrator's; bodies and queries are checked against the spec's schemas and answers carry its fields
 * only, with the catalog's page envelope `{count, next_page, previous_page, results}` and its 404 messages.
 *
 * What the spec leaves open, the sandbox does the plain way and refuses nothing more: a user or course licence may be
 * given to more people than it has seats (the app warns; a program licence's seats are refused past its count and
 * kept for an email with no account, as the spec's notes on its request say), the same person given the same licence twice gets their one seat back,
 * and an access request already reviewed may be reviewed again (the app looks first, see engine/licences/).
 */
import type { Area, AreaDeps } from '../../area';
import type { Db } from '../../db';
import { fieldErrors, notFound } from '../../http/errors';
import type { Reply, RequestContext, Router } from '../../http/router';
import {
  accessRequests,
  courseLicenseAssignments,
  courseLicenseGroupAssignments,
  courseLicenses,
  licenseAssignments,
  licenseGroupAssignments,
  licenses,
  platformLicenses,
  programLicenseAssignments,
  programLicenseGroupAssignments,
  programLicenses,
  recordSchemaOf,
  specOperation,
  type OperationRef,
} from '../../../shared/resources';
import { checkBody, checkQuery, present } from '../resources/validate';
import { MAIN_ORG } from '../core';

type Row = Record<string, unknown>;

/** A group seat's times and redirect live beside its row (license_group_details): sandboxes made before keep working. */
export const licencesSchema = `
CREATE TABLE IF NOT EXISTS licenses (
  id INTEGER PRIMARY KEY, org TEXT NOT NULL REFERENCES orgs(key), name TEXT NOT NULL DEFAULT '',
  count INTEGER NOT NULL DEFAULT 0, started TEXT NOT NULL, expired TEXT, active INTEGER NOT NULL DEFAULT 1,
  metadata TEXT NOT NULL DEFAULT '{}', source TEXT NOT NULL DEFAULT '', external_id TEXT, created TEXT NOT NULL,
  family TEXT NOT NULL DEFAULT 'user' CHECK (family IN ('user', 'course', 'program', 'platform')),
  course_id TEXT, program_key TEXT
);
CREATE TABLE IF NOT EXISTS license_group_assignments (
  id INTEGER PRIMARY KEY, license_id INTEGER NOT NULL REFERENCES licenses(id) ON DELETE CASCADE,
  group_id INTEGER NOT NULL, active INTEGER NOT NULL DEFAULT 1, fulfilled INTEGER NOT NULL DEFAULT 0,
  metadata TEXT NOT NULL DEFAULT '{}', UNIQUE (license_id, group_id)
);
CREATE TABLE IF NOT EXISTS license_group_details (
  group_assignment_id INTEGER PRIMARY KEY REFERENCES license_group_assignments(id) ON DELETE CASCADE,
  created TEXT NOT NULL, modified TEXT NOT NULL, redirect_to TEXT
);
CREATE TABLE IF NOT EXISTS license_assignments (
  id INTEGER PRIMARY KEY, license_id INTEGER NOT NULL REFERENCES licenses(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id), active INTEGER NOT NULL DEFAULT 1,
  fulfilled INTEGER NOT NULL DEFAULT 0, metadata TEXT NOT NULL DEFAULT '{}',
  group_assignment_id INTEGER REFERENCES license_group_assignments(id) ON DELETE CASCADE,
  UNIQUE (license_id, user_id)
);
CREATE TABLE IF NOT EXISTS license_email_seats (
  id INTEGER PRIMARY KEY, license_id INTEGER NOT NULL REFERENCES licenses(id) ON DELETE CASCADE,
  email TEXT NOT NULL COLLATE NOCASE, active INTEGER NOT NULL DEFAULT 1, fulfilled INTEGER NOT NULL DEFAULT 0,
  metadata TEXT NOT NULL DEFAULT '{}', created TEXT NOT NULL, UNIQUE (license_id, email)
);
CREATE TABLE IF NOT EXISTS access_requests (
  id INTEGER PRIMARY KEY, org TEXT NOT NULL REFERENCES orgs(key), user_id INTEGER NOT NULL REFERENCES users(id),
  course_id TEXT NOT NULL, approved INTEGER, reviewed INTEGER NOT NULL DEFAULT 0, active INTEGER NOT NULL DEFAULT 1,
  created TEXT NOT NULL, modified TEXT NOT NULL, metadata TEXT NOT NULL DEFAULT '{}',
  UNIQUE (org, user_id, course_id)
);
`;

const NO_LICENSE = "Not found - license doesn't exist";
const NO_LICENSE_OR_USER = "Not found - license or user doesn't exist";
const NO_LICENSE_OR_GROUP = "Not found - license or group doesn't exist";
const NO_ASSIGNMENT = "Not found - assignment doesn't exist";
const NO_REQUEST = "Not found - platform or access request doesn't exist";
const NO_ACTIVE_FOR_EMAIL = 'No active license assignment exists for the email';
/** The spec's note on a program seat ("The license must have available seats"); its words for the refusal are ours. */
const NO_FREE_SEAT = 'The license has no available seats.';
/** The spec's note on a program group ("If the license doesn't have enough seats, the operation will fail"); ours. */
const NO_SEATS_FOR_GROUP = 'The license does not have enough available seats for all users in the group.';
/** Email-only seats take ids far above the people's seats: one DELETE by `assignment_id` finds either. */
const EMAIL_SEAT_IDS = 1_000_000_000;

const calls = licenseAssignments.calls;
type Family = 'user' | 'course' | 'program' | 'platform';
const bool = (value: unknown) => value === 1 || value === true;

/** The catalog's page envelope, by page number (DRF's 404 "Invalid page." past the last one). */
export function catalogPage(rows: Row[], query: Row, url: URL) {
  const size = Math.max(1, Number(query.page_size ?? 10));
  const page = Number(query.page ?? 1);
  const pages = Math.max(1, Math.ceil(rows.length / size));
  if (!Number.isInteger(page) || page < 1 || page > pages) throw notFound('Invalid page.');
  const link = (n: number) => {
    const next = new URL(url);
    next.searchParams.set('page', String(n));
    next.searchParams.set('page_size', String(size));
    return next.toString();
  };
  return {
    count: rows.length,
    next_page: page < pages ? link(page + 1) : null,
    previous_page: page > 1 ? link(page - 1) : null,
    results: rows.slice((page - 1) * size, page * size),
  };
}

/** `sort` as the catalog takes it: a field, `-` first for descending. */
function sorted(rows: Row[], sort: unknown): Row[] {
  const text = typeof sort === 'string' && sort ? sort : '-id';
  const field = text.replace(/^-/, '');
  const sign = text.startsWith('-') ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = a[field] as number | string;
    const y = b[field] as number | string;
    return x === y ? 0 : (x > y ? 1 : -1) * sign;
  });
}

/** The tenant a call is about: a `platform_key` it names must be the caller's own, as the platform scopes them. */
function orgOf(ctx: RequestContext, given: Row): string {
  const org = ctx.caller!.org;
  for (const name of ['platform_key', 'platform_org']) {
    if (given[name] !== undefined && given[name] !== org) throw notFound('Organization not found');
  }
  return org;
}

function handler(
  operation: OperationRef,
  run: (ctx: RequestContext, query: Row, body: Row) => { status?: number; body?: unknown } | unknown,
) {
  const spec = specOperation(operation);
  const record = recordSchemaOf(operation);
  return async (ctx: RequestContext): Promise<Reply> => {
    const query = checkQuery(spec, ctx.query);
    const body = spec.body ? checkBody(spec, await ctx.json().catch(() => null)) : {};
    const answer = run(ctx, query, body);
    if (answer === undefined) return { status: spec.response.status };
    const isPage = !!answer && typeof answer === 'object' && 'results' in answer;
    return {
      status: spec.response.status,
      body: isPage
        ? { ...(answer as Row), results: ((answer as Row).results as Row[]).map((row) => present(record, row)) }
        : present(record, answer as Row),
    };
  };
}

export function licenceStore(db: Db) {
  const licenceRow = (row: Row): Row => ({
    id: row.id,
    created: row.created,
    started: row.started,
    expired: row.expired ?? null,
    name: row.name,
    count: row.count,
    active: bool(row.active),
    metadata: JSON.parse(String(row.metadata)) as Row,
    source: row.source,
    external_id: row.external_id ?? null,
    platform_key: row.org,
    usage_count: row.usage_count ?? 0,
    ...(row.course_id ? { course_id: row.course_id } : {}),
    ...(row.program_key ? { program_key: row.program_key } : {}),
  });
  const licenceSelect = `SELECT l.*, (SELECT count(*) FROM license_assignments a WHERE a.license_id = l.id AND a.active = 1)
    + (SELECT count(*) FROM license_email_seats e WHERE e.license_id = l.id AND e.active = 1)
    AS usage_count FROM licenses l`;
  const licence = (org: string, id: unknown, family: Family = 'user'): Row | null => {
    const row = db
      .prepare(`${licenceSelect} WHERE l.org = ? AND l.id = ? AND l.family = ?`)
      .get(org, Number(id), family) as Row | undefined;
    return row ? licenceRow(row) : null;
  };
  const assignmentSelect = `SELECT a.id, a.license_id, a.user_id, a.active, a.fulfilled, a.metadata, u.username,
    u.email, trim(u.first_name || ' ' || u.last_name) AS name, l.name AS license_name, l.org AS platform_key,
    l.course_id, l.program_key, a.group_assignment_id IS NULL AS direct
    FROM license_assignments a JOIN users u ON u.id = a.user_id JOIN licenses l ON l.id = a.license_id`;
  const emailSeatSelect = `SELECT e.id, e.license_id, NULL AS user_id, e.active, e.fulfilled, e.metadata,
    NULL AS username, e.email, NULL AS name, l.name AS license_name, l.org AS platform_key, l.course_id, l.program_key,
    1 AS direct FROM license_email_seats e JOIN licenses l ON l.id = e.license_id`;
  const assignmentRow = (row: Row): Row => ({
    id: row.id,
    user_id: row.user_id,
    username: row.username,
    name: row.user_id === null ? null : row.name || row.username,
    email: row.email,
    direct: bool(row.direct),
    ...(row.course_id ? { course_id: row.course_id } : {}),
    ...(row.program_key ? { program_key: row.program_key } : {}),
    active: bool(row.active),
    fulfilled: bool(row.fulfilled),
    metadata: JSON.parse(String(row.metadata)) as Row,
    license_id: row.license_id,
    license_name: row.license_name,
    platform_key: row.platform_key,
  });
  const groupSelect = `SELECT g.*, ug.name AS group_name, l.name AS license_name, l.org AS platform_key, l.family,
    l.course_id, l.program_key, coalesce(d.created, l.created) AS created,
    coalesce(d.modified, d.created, l.created) AS modified, d.redirect_to,
    (SELECT count(*) FROM user_group_members m WHERE m.group_id = g.group_id) AS user_count,
    (SELECT count(*) FROM user_group_members m JOIN license_assignments a ON a.user_id = m.user_id
      WHERE m.group_id = g.group_id AND a.license_id = g.license_id AND a.active = 1) AS assigned_count
    FROM license_group_assignments g JOIN user_groups ug ON ug.id = g.group_id JOIN licenses l ON l.id = g.license_id
    LEFT JOIN license_group_details d ON d.group_assignment_id = g.id`;
  const hasPrograms = !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'programs'").get();
  const programName = (key: unknown): string =>
    ((hasPrograms ? db.prepare('SELECT name FROM programs WHERE program_key = ?').pluck().get(key) : undefined) as
      string | undefined) ?? String(key ?? '');
  const groupRow = (row: Row): Row => ({
    id: row.id,
    group_id: row.group_id,
    group_name: row.group_name,
    active: bool(row.active),
    fulfilled: bool(row.fulfilled),
    redirect_to: row.redirect_to ?? null,
    metadata: JSON.parse(String(row.metadata)) as Row,
    license_id: row.license_id,
    license_name: row.license_name,
    platform_key: row.platform_key,
    ...(row.family === 'course' && { course_id: row.course_id ?? '' }),
    ...(row.family === 'program' && {
      program_key: row.program_key ?? '',
      program_name: programName(row.program_key),
      created: row.created,
      modified: row.modified,
      user_count: row.user_count,
      assigned_count: row.assigned_count,
    }),
  });
  const personOf = (org: string, body: Row) =>
    (body.user_id !== undefined
      ? db.prepare('SELECT id FROM users WHERE org = ? AND id = ? AND is_active = 1').get(org, body.user_id)
      : db
          .prepare('SELECT id FROM users WHERE org = ? AND email = ? COLLATE NOCASE AND is_active = 1')
          .get(org, String(body.email))) as { id: number } | undefined;
  const insertAssignment = db.prepare(
    `INSERT INTO license_assignments (license_id, user_id, active, fulfilled, metadata, group_assignment_id)
     VALUES (@license, @user, @active, @fulfilled, @metadata, @group)
     ON CONFLICT (license_id, user_id) DO UPDATE SET active = excluded.active RETURNING id`,
  );

  return {
    licence,
    listLicences(org: string, query: Row, family: Family = 'user'): Row[] {
      const rows = (db.prepare(`${licenceSelect} WHERE l.org = ? AND l.family = ?`).all(org, family) as Row[]).map(
        licenceRow,
      );
      const text = typeof query.query === 'string' ? query.query.toLowerCase() : '';
      return sorted(
        rows.filter(
          (row) =>
            (query.active === undefined || row.active === query.active) &&
            (query.name === undefined || row.name === query.name) &&
            (query.external_id === undefined || row.external_id === query.external_id) &&
            (query.source === undefined || row.source === query.source) &&
            (query.course_id === undefined || row.course_id === query.course_id) &&
            (!text || String(row.name).toLowerCase().includes(text)),
        ),
        query.sort,
      );
    },
    createLicence(org: string, body: Row, now: string, family: Family = 'user'): Row {
      const id = db
        .prepare(
          `INSERT INTO licenses (org, name, count, started, expired, active, metadata, source, external_id, created,
             family, course_id, program_key)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          org,
          body.name ?? '',
          body.count ?? 0,
          body.started ?? now,
          body.expired ?? null,
          body.active === false ? 0 : 1,
          JSON.stringify(body.metadata ?? {}),
          body.source ?? '',
          body.external_id ?? null,
          now,
          family,
          body.course_id ?? null,
          body.program_key ?? null,
        ).lastInsertRowid;
      return licence(org, id, family)!;
    },
    updateLicence(org: string, body: Row, family: Family = 'user'): Row | null {
      const row = (
        body.license_id !== undefined
          ? db
              .prepare('SELECT id FROM licenses WHERE org = ? AND id = ? AND family = ?')
              .get(org, body.license_id, family)
          : body.external_id !== undefined
            ? db
                .prepare('SELECT id FROM licenses WHERE org = ? AND external_id = ? AND family = ?')
                .get(org, body.external_id, family)
            : undefined
      ) as { id: number } | undefined;
      if (!row) return null;
      const sets: string[] = [];
      const values: unknown[] = [];
      for (const field of ['name', 'count', 'started', 'expired', 'active', 'metadata', 'source'] as const) {
        if (body[field] === undefined) continue;
        sets.push(`${field} = ?`);
        const value = body[field];
        values.push(field === 'metadata' ? JSON.stringify(value) : typeof value === 'boolean' ? Number(value) : value);
      }
      if (sets.length) db.prepare(`UPDATE licenses SET ${sets.join(', ')} WHERE id = ?`).run(...values, row.id);
      return licence(org, row.id, family);
    },
    assignments(org: string, licenseId: unknown, query: Row, family: Family = 'user'): Row[] {
      const rows = [
        ...(db
          .prepare(`${assignmentSelect} WHERE l.org = ? AND a.license_id = ? AND l.family = ?`)
          .all(org, Number(licenseId), family) as Row[]),
        ...(db
          .prepare(`${emailSeatSelect} WHERE l.org = ? AND e.license_id = ? AND l.family = ?`)
          .all(org, Number(licenseId), family) as Row[]),
      ];
      return sorted(rows.map(assignmentRow), query.sort ?? 'id');
    },
    assign(org: string, body: Row, family: Family = 'user'): Row {
      const held = licence(org, body.license_id, family);
      const person = held ? personOf(org, body) : undefined;
      // A program licence keeps a seat for an email with no account, and gives none past its count (the spec's notes).
      if (held && family === 'program') {
        const holds = person
          ? db.prepare('SELECT 1 FROM license_assignments WHERE license_id = ? AND user_id = ? AND active = 1')
          : db.prepare('SELECT 1 FROM license_email_seats WHERE license_id = ? AND email = ? AND active = 1');
        if (
          !holds.get(held.id, person ? person.id : String(body.email)) &&
          Number(held.usage_count) >= Number(held.count)
        )
          throw fieldErrors({ non_field_errors: [NO_FREE_SEAT] });
        if (!person && body.user_id === undefined && body.email !== undefined) {
          const id = db
            .prepare(
              `INSERT INTO license_email_seats (id, license_id, email, active, fulfilled, metadata, created)
               VALUES ((SELECT max(coalesce(max(id), 0), ?) + 1 FROM license_email_seats), ?, ?, ?, ?, ?, ?)
               ON CONFLICT (license_id, email) DO UPDATE SET active = excluded.active RETURNING id`,
            )
            .pluck()
            .get(
              EMAIL_SEAT_IDS,
              held.id,
              String(body.email),
              body.active === false ? 0 : 1,
              body.fulfilled === true ? 1 : 0,
              JSON.stringify(body.metadata ?? {}),
              new Date().toISOString(),
            );
          return assignmentRow(db.prepare(`${emailSeatSelect} WHERE e.id = ?`).get(id) as Row);
        }
      }
      if (!held || !person) throw notFound(NO_LICENSE_OR_USER);
      const id = insertAssignment.pluck().get({
        license: held.id,
        user: person.id,
        active: body.active === false ? 0 : 1,
        fulfilled: body.fulfilled === true ? 1 : 0,
        metadata: JSON.stringify(body.metadata ?? {}),
        group: null,
      });
      return assignmentRow(db.prepare(`${assignmentSelect} WHERE a.id = ?`).get(id) as Row);
    },
    release(org: string, licenseId: unknown, assignmentId: unknown, family: Family = 'user'): boolean {
      const table = Number(assignmentId) > EMAIL_SEAT_IDS ? 'license_email_seats' : 'license_assignments';
      return (
        db
          .prepare(
            `DELETE FROM ${table} WHERE id = ? AND license_id = ?
             AND license_id IN (SELECT id FROM licenses WHERE org = ? AND family = ?)`,
          )
          .run(Number(assignmentId), Number(licenseId), org, family).changes > 0
      );
    },
    groups(org: string, licenseId: unknown, query: Row, family: Family = 'user'): Row[] {
      const rows = (
        db
          .prepare(`${groupSelect} WHERE l.org = ? AND g.license_id = ? AND l.family = ?`)
          .all(org, Number(licenseId), family) as Row[]
      ).map(groupRow);
      // The program family's list filters (the spec declares them there only).
      const kept = rows.filter(
        (row) =>
          (query.active === undefined || row.active === query.active) &&
          (query.fulfilled === undefined || row.fulfilled === query.fulfilled) &&
          (query.group_id === undefined || row.group_id === query.group_id),
      );
      return sorted(kept, query.sort ?? 'id');
    },
    /**
     * Everyone in the group takes a seat; a seat they held already stays theirs. A program licence gives them only
     * when its free seats are enough for all who need one (the spec's notes on its request), else nothing.
     */
    assignGroup(org: string, body: Row, family: Family = 'user'): Row {
      const held = licence(org, body.license_id, family);
      const group = db.prepare('SELECT id FROM user_groups WHERE org = ? AND id = ?').get(org, body.group_id);
      if (!held || !group) throw notFound(NO_LICENSE_OR_GROUP);
      return db.transaction(() => {
        const members = db
          .prepare(
            `SELECT m.user_id FROM user_group_members m JOIN users u ON u.id = m.user_id
             WHERE m.group_id = ? AND u.is_active = 1
             AND NOT EXISTS (SELECT 1 FROM license_assignments a WHERE a.license_id = ? AND a.user_id = m.user_id)`,
          )
          .pluck()
          .all(body.group_id, held.id) as number[];
        if (family === 'program' && Number(held.usage_count) + members.length > Number(held.count))
          throw fieldErrors({ non_field_errors: [NO_SEATS_FOR_GROUP] });
        const now = new Date().toISOString();
        const id = db
          .prepare(
            `INSERT INTO license_group_assignments (license_id, group_id, active, fulfilled, metadata)
             VALUES (?, ?, ?, ?, ?) ON CONFLICT (license_id, group_id) DO UPDATE SET active = excluded.active
             RETURNING id`,
          )
          .pluck()
          .get(
            held.id,
            body.group_id,
            body.active === false ? 0 : 1,
            body.fulfilled === true ? 1 : 0,
            JSON.stringify(body.metadata ?? {}),
          ) as number;
        db.prepare(
          `INSERT INTO license_group_details (group_assignment_id, created, modified, redirect_to) VALUES (?, ?, ?, ?)
           ON CONFLICT (group_assignment_id) DO UPDATE SET modified = excluded.modified,
             redirect_to = coalesce(excluded.redirect_to, redirect_to)`,
        ).run(id, now, now, typeof body.redirect_to === 'string' ? body.redirect_to : null);
        const add = db.prepare(
          `INSERT OR IGNORE INTO license_assignments (license_id, user_id, group_assignment_id) VALUES (?, ?, ?)`,
        );
        for (const user of members) add.run(held.id, user, id);
        return groupRow(db.prepare(`${groupSelect} WHERE g.id = ?`).get(id) as Row);
      })();
    },
    /**
     * Takes a group's licence back. The seats it gave its people go with it unless `keepSeats` (the program family's
     * `remove_user_assignments=false`; the user and course families' removals declare no such flag): kept, they are
     * the people's own seats from then on.
     */
    releaseGroup(
      org: string,
      licenseId: unknown,
      assignmentId: unknown,
      family: Family = 'user',
      keepSeats = false,
    ): boolean {
      return db.transaction(() => {
        const found = db
          .prepare(
            `SELECT g.id FROM license_group_assignments g JOIN licenses l ON l.id = g.license_id
             WHERE g.id = ? AND g.license_id = ? AND l.org = ? AND l.family = ?`,
          )
          .pluck()
          .get(Number(assignmentId), Number(licenseId), org, family) as number | undefined;
        if (found === undefined) return false;
        if (keepSeats)
          db.prepare('UPDATE license_assignments SET group_assignment_id = NULL WHERE group_assignment_id = ?').run(
            found,
          );
        db.prepare('DELETE FROM license_group_assignments WHERE id = ?').run(found);
        return true;
      })();
    },
    /**
     * Whether the email holds an active seat of an active, unexpired licence: a seat of the person with that email, or
     * a program licence's email-only seat kept for it (someone with no account yet, or who signed up since).
     */
    hasActive(email: string): boolean {
      const now = new Date().toISOString();
      return !!db
        .prepare(
          `SELECT 1 FROM license_assignments a JOIN users u ON u.id = a.user_id JOIN licenses l ON l.id = a.license_id
           WHERE u.email = ? COLLATE NOCASE AND a.active = 1 AND l.active = 1 AND (l.expired IS NULL OR l.expired > ?)
           UNION ALL
           SELECT 1 FROM license_email_seats e JOIN licenses l ON l.id = e.license_id
           WHERE e.email = ? COLLATE NOCASE AND e.active = 1 AND l.active = 1 AND (l.expired IS NULL OR l.expired > ?)
           LIMIT 1`,
        )
        .get(email, now, email, now);
    },
  };
}

export function accessRequestStore(db: Db) {
  const select = `SELECT r.*, u.username, trim(u.first_name || ' ' || u.last_name) AS name
    FROM access_requests r JOIN users u ON u.id = r.user_id`;
  const present = (row: Row): Row => ({
    id: row.id,
    user_id: row.user_id,
    username: row.username,
    name: row.name || row.username,
    approved: row.approved === null ? null : bool(row.approved),
    reviewed: bool(row.reviewed),
    created: row.created,
    modified: row.modified,
    metadata: JSON.parse(String(row.metadata)) as Row,
    platform_key: row.org,
    course_id: row.course_id,
  });
  return {
    list(org: string, query: Row): Row[] {
      const rows = (db.prepare(`${select} WHERE r.org = ?`).all(org) as Row[]).map(present);
      return sorted(
        rows.filter((row) => query.reviewed === undefined || row.reviewed === query.reviewed),
        query.sort,
      );
    },
    review(org: string, body: Row, now: string): Row {
      const found = db.prepare('SELECT id FROM access_requests WHERE org = ? AND id = ?').get(org, body.request_id);
      if (!found) throw notFound(NO_REQUEST);
      db.prepare(
        `UPDATE access_requests SET reviewed = 1, modified = @now,
           approved = coalesce(@approved, approved), active = coalesce(@active, active) WHERE id = @id`,
      ).run({
        id: body.request_id,
        now,
        approved: typeof body.approved === 'boolean' ? Number(body.approved) : null,
        active: typeof body.active === 'boolean' ? Number(body.active) : null,
      });
      return present(db.prepare(`${select} WHERE r.id = ?`).get(body.request_id) as Row);
    },
    /**
     * A person's request for a course. The platform keeps one per person and course (its request check answers
     * whether "an access request exists for this user and course"), so asking again leaves the one there is.
     */
    add(org: string, userId: number, courseId: string, at: string): void {
      db.prepare(
        `INSERT INTO access_requests (org, user_id, course_id, created, modified) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (org, user_id, course_id) DO NOTHING`,
      ).run(org, userId, courseId, at, at);
    },
  };
}

function routes(router: Router, deps: AreaDeps) {
  const store = licenceStore(deps.db);
  const requests = accessRequestStore(deps.db);
  const now = () => new Date().toISOString();
  const admin = { auth: 'admin' as const };
  const ops = licenses.operations;
  router.get(
    ops.list.path,
    handler(ops.list, (ctx, query) => catalogPage(store.listLicences(orgOf(ctx, query), query), query, ctx.url)),
    admin,
  );
  router.post(
    ops.create.path,
    handler(ops.create, (ctx, _query, body) => store.createLicence(orgOf(ctx, body), body, now())),
    admin,
  );
  router.post(
    ops.update.path,
    handler(ops.update, (ctx, _query, body) => {
      if (body.license_id === undefined && body.external_id === undefined)
        throw fieldErrors({ license_id: ['Either license_id or external_id is required.'] });
      const updated = store.updateLicence(orgOf(ctx, body), body);
      if (!updated) throw notFound(NO_LICENSE);
      return updated;
    }),
    admin,
  );
  // Course, program and platform licences: listed, made and changed as user licences are (seats: below).
  for (const [family, declaration, missing] of [
    ['course', courseLicenses, NO_LICENSE],
    ['program', programLicenses, 'Not found - license does not exist'],
    ['platform', platformLicenses, NO_LICENSE],
  ] as const) {
    const own = declaration.operations;
    router.get(
      own.list.path,
      handler(own.list, (ctx, query) =>
        catalogPage(store.listLicences(orgOf(ctx, query), query, family), query, ctx.url),
      ),
      admin,
    );
    router.post(
      own.create.path,
      handler(own.create, (ctx, _query, body) => store.createLicence(orgOf(ctx, body), body, now(), family)),
      admin,
    );
    router.post(
      own.update.path,
      handler(own.update, (ctx, _query, body) => {
        if (body.license_id === undefined && body.external_id === undefined)
          throw fieldErrors({ license_id: ['Either license_id or external_id is required.'] });
        const updated = store.updateLicence(orgOf(ctx, body), body, family);
        if (!updated) throw notFound(missing);
        return updated;
      }),
      admin,
    );
  }
  router.get(
    calls.list.path,
    handler(calls.list, (ctx, query) =>
      catalogPage(store.assignments(orgOf(ctx, query), query.license_id, query), query, ctx.url),
    ),
    admin,
  );
  router.post(
    licenseAssignments.operations.create.path,
    handler(licenseAssignments.operations.create, (ctx, query, body) => {
      if (body.user_id === undefined && body.email === undefined)
        throw fieldErrors({ non_field_errors: ['Either user_id or email is required.'] });
      return store.assign(orgOf(ctx, { ...query, ...body }), body);
    }),
    admin,
  );
  router.delete(
    calls.release.path,
    handler(calls.release, (ctx, query) => {
      if (!store.release(orgOf(ctx, query), query.license_id, query.assignment_id)) throw notFound(NO_ASSIGNMENT);
      return undefined;
    }),
    admin,
  );
  // Course and program licences' seats: the user licence's calls on their own paths.
  for (const [family, declaration] of [
    ['course', courseLicenseAssignments],
    ['program', programLicenseAssignments],
  ] as const) {
    const own = declaration.calls;
    router.get(
      own.list.path,
      handler(own.list, (ctx, query) =>
        catalogPage(store.assignments(orgOf(ctx, query), query.license_id, query, family), query, ctx.url),
      ),
      admin,
    );
    router.post(
      declaration.operations.create.path,
      handler(declaration.operations.create, (ctx, query, body) => {
        if (body.user_id === undefined && body.email === undefined)
          throw fieldErrors({ non_field_errors: ['Either user_id or email is required.'] });
        return store.assign(orgOf(ctx, { ...query, ...body }), body, family);
      }),
      admin,
    );
    router.delete(
      own.release.path,
      handler(own.release, (ctx, query) => {
        if (!store.release(orgOf(ctx, query), query.license_id, query.assignment_id, family))
          throw notFound(NO_ASSIGNMENT);
        return undefined;
      }),
      admin,
    );
  }
  // A user group holding a licence, per family; only the program family's removal declares remove_user_assignments.
  for (const [family, declaration] of [
    ['user', licenseGroupAssignments],
    ['course', courseLicenseGroupAssignments],
    ['program', programLicenseGroupAssignments],
  ] as const) {
    const own = declaration.calls;
    router.get(
      own.list.path,
      handler(own.list, (ctx, query) =>
        catalogPage(store.groups(orgOf(ctx, query), query.license_id, query, family), query, ctx.url),
      ),
      admin,
    );
    router.post(
      declaration.operations.create.path,
      handler(declaration.operations.create, (ctx, query, body) =>
        store.assignGroup(orgOf(ctx, { ...query, ...body }), body, family),
      ),
      admin,
    );
    router.delete(
      own.release.path,
      handler(own.release, (ctx, query) => {
        const keepSeats = query.remove_user_assignments === false;
        if (!store.releaseGroup(orgOf(ctx, query), query.license_id, query.assignment_id, family, keepSeats))
          throw notFound(NO_ASSIGNMENT);
        return undefined;
      }),
      admin,
    );
  }
  router.get(
    calls.check.path,
    handler(calls.check, (_ctx, query) => {
      if (!store.hasActive(String(query.email))) throw notFound(NO_ACTIVE_FOR_EMAIL);
      return undefined;
    }),
    { auth: 'none' },
  );
  const manage = accessRequests.operations;
  router.get(
    manage.list.path,
    handler(manage.list, (ctx, query) => catalogPage(requests.list(orgOf(ctx, query), query), query, ctx.url)),
    admin,
  );
  router.post(
    manage.update.path,
    handler(manage.update, (ctx, query, body) => requests.review(orgOf(ctx, { ...query, ...body }), body, now())),
    admin,
  );
}

const COURSES = [
  'course-v1:main+DS101+2026',
  'course-v1:main+ML201+2026',
  'course-v1:main+WRITE110+2026',
  'course-v1:main+STATS150+2026',
];

export const licencesArea: Area = {
  name: 'licences',
  schema: licencesSchema,
  routes,
  seed(deps, _size, rng) {
    const { db } = deps;
    const at = deps.now();
    const day = 86_400_000;
    const iso = (offsetDays: number) => new Date(at.getTime() + offsetDays * day).toISOString();
    const store = licenceStore(db);
    const requests = accessRequestStore(db);
    const people = db
      .prepare("SELECT id, email FROM users WHERE org = ? AND role = 'student' AND is_active = 1 ORDER BY id")
      .all(MAIN_ORG) as { id: number; email: string }[];
    const made = [
      store.createLicence(
        MAIN_ORG,
        { name: 'Campus seats 2026', count: 50, started: iso(-60), expired: iso(300) },
        iso(-60),
      ),
      store.createLicence(MAIN_ORG, { name: 'Pilot cohort', count: 12, started: iso(-90), expired: iso(9) }, iso(-90)),
      store.createLicence(
        MAIN_ORG,
        { name: 'Summer school 2026', count: 8, started: iso(-200), expired: iso(-20) },
        iso(-200),
      ),
    ];
    const take = [20, 11, 8];
    made.forEach((held, index) => {
      for (const person of people.slice(index * 3, index * 3 + take[index]!)) {
        store.assign(MAIN_ORG, { license_id: held.id, user_id: person.id });
      }
    });
    // The tenant's own courses where the analytics area made them, else a few of the same shape.
    const hasCourses = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'courses'").get();
    const courses = hasCourses
      ? (db
          .prepare('SELECT course_id FROM courses WHERE org = ? ORDER BY id LIMIT 6')
          .pluck()
          .all(MAIN_ORG) as string[])
      : [];
    const course = courses[0] ?? COURSES[0]!;
    store.createLicence(
      MAIN_ORG,
      { name: 'Data science seats', count: 30, course_id: course, expired: iso(120) },
      iso(-30),
      'course',
    );
    // One of the tenant's own programs (the invitations area seeds them first), so the licence names a program the
    // catalogue lists; without that area, a key of the same shape as the catalogue's.
    const hasPrograms = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'programs'").get();
    const program = (
      hasPrograms
        ? db.prepare('SELECT program_key AS key, name FROM programs WHERE org = ? ORDER BY id LIMIT 1').get(MAIN_ORG)
        : undefined
    ) as { key: string; name: string } | undefined;
    store.createLicence(
      MAIN_ORG,
      {
        name: `${program?.name ?? 'Data Science Certificate'} seats`,
        count: 15,
        program_key: program?.key ?? `${MAIN_ORG}+data-science`,
        started: iso(-10),
      },
      iso(-10),
      'program',
    );
    store.createLicence(
      MAIN_ORG,
      { name: 'Tenant plan', count: 500, started: iso(-365), expired: iso(25) },
      iso(-365),
      'platform',
    );
    // Nine requests from four people, each asking for a course at most once (as on the platform).
    const asked = new Map<number, Set<string>>();
    for (let i = 0; i < Math.min(9, people.length); i++) {
      const person = people[(i * 5) % Math.min(people.length, 20)]!.id;
      const theirs = asked.get(person) ?? new Set<string>();
      const open = (courses.length ? courses : COURSES).filter((id) => !theirs.has(id));
      if (!open.length) continue;
      const course = rng.pick(open);
      theirs.add(course);
      asked.set(person, theirs);
      requests.add(MAIN_ORG, person, course, iso(-9 + i));
    }
  },
};
