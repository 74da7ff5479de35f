/**
 * The catalogue's rows beyond the invitations area's `courses`, `programs` and `catalog_enrollments`: a course's slug
 * and metadata, a program's course list and metadata, pathways and who follows them. Course enrolments are read from
 * both stores the sandbox keeps them in (`catalog_enrollments`, and the analytics area's `learning_enrollments` when it
 * is served).
 */
import type { Db } from '../../db';
import { hasLearningEnrollments } from '../invitations/catalog';

export const catalogueSchema = `
CREATE TABLE IF NOT EXISTS catalogue_course_extras (
  course_id TEXT PRIMARY KEY,
  slug TEXT,
  data TEXT CHECK (data IS NULL OR json_valid(data)),
  metadata TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata))
);
CREATE TABLE IF NOT EXISTS catalogue_program_extras (
  program_key TEXT PRIMARY KEY,
  enabled INTEGER NOT NULL DEFAULT 1,
  duration INTEGER NOT NULL DEFAULT 12,
  description TEXT,
  course_list TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(course_list)),
  metadata TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata))
);
CREATE TABLE IF NOT EXISTS catalogue_pathways (
  id INTEGER PRIMARY KEY,
  org TEXT NOT NULL,
  pathway_id TEXT NOT NULL,
  pathway_uuid TEXT NOT NULL,
  name TEXT,
  slug TEXT,
  visible INTEGER NOT NULL DEFAULT 1,
  user_id INTEGER,
  path TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(path)),
  data TEXT CHECK (data IS NULL OR json_valid(data)),
  UNIQUE (org, pathway_id)
);
CREATE TABLE IF NOT EXISTS catalogue_pathway_enrollments (
  pathway_pk INTEGER NOT NULL REFERENCES catalogue_pathways(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL,
  active INTEGER NOT NULL DEFAULT 1,
  created TEXT NOT NULL,
  ended TEXT,
  PRIMARY KEY (pathway_pk, user_id)
) WITHOUT ROWID;
`;

export interface Person {
  id: number;
  username: string;
  email: string;
  name: string;
}

/** A person of the org by username, user id or email (as the enrolment calls name one). */
export function personOf(db: Db, org: string, by: { username?: unknown; user_id?: unknown; email?: unknown }) {
  const select = `SELECT id, username, email, trim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')) AS name
    FROM users WHERE org = ? AND is_active = 1 AND `;
  if (typeof by.username === 'string' && by.username)
    return db.prepare(`${select} username = ?`).get(org, by.username) as Person | undefined;
  if (by.user_id !== undefined && by.user_id !== null && by.user_id !== '')
    return db.prepare(`${select} id = ?`).get(org, Number(by.user_id)) as Person | undefined;
  if (typeof by.email === 'string' && by.email)
    return db.prepare(`${select} email = ? COLLATE NOCASE`).get(org, by.email) as Person | undefined;
  return undefined;
}

export interface CourseEnrollmentRow {
  user_id: number;
  username: string;
  email: string;
  name: string;
  course_id: string;
  course_name: string;
  active: number;
  created: string;
}

/** Every course enrolment of an org, newest first, from both stores. */
export function courseEnrollments(db: Db, org: string): CourseEnrollmentRow[] {
  const person = `u.id AS user_id, u.username, u.email,
    trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) AS name, c.course_id, c.name AS course_name`;
  const own = `SELECT ${person}, 1 AS active, e.created_at AS created FROM catalog_enrollments e
    JOIN courses c ON c.course_id = e.target JOIN users u ON u.id = e.user_id
    WHERE e.kind = 'course' AND c.org = ?`;
  const learning = `SELECT ${person}, l.is_active AS active, l.enrolled_at AS created FROM learning_enrollments l
    JOIN courses c ON c.id = l.course_pk JOIN users u ON u.id = l.user_id WHERE c.org = ?`;
  const both = hasLearningEnrollments(db);
  return db
    .prepare(`SELECT * FROM (${own}${both ? ` UNION ALL ${learning}` : ''}) ORDER BY created DESC, user_id DESC`)
    .all(...(both ? [org, org] : [org])) as CourseEnrollmentRow[];
}
