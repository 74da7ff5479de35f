import type { Caller } from '../../auth';
import type { Db } from '../../db';
import type { MentorRow } from '../mentor-store';
import { stmt } from './sql';

/** Mentor lookups shared by the mentors and documents areas. */

/** A live mentor of `org` by name, slug or unique_id (the spec's `{name}` and `{mentor}` accept all three). */
export function findMentor(db: Db, org: string, key: string): MentorRow | undefined {
  return stmt(
    db,
    `SELECT * FROM mentors WHERE org = @org AND is_deleted = 0 AND (unique_id = @key OR slug = @key OR name = @key)
       ORDER BY unique_id = @key DESC, slug = @key DESC, id LIMIT 1`,
  ).get({ org, key }) as MentorRow | undefined;
}

/** A live mentor of `org` by unique_id only: the `pathway` of document calls. */
export function mentorByPathway(db: Db, org: string, pathway: string): MentorRow | undefined {
  return stmt(db, 'SELECT * FROM mentors WHERE unique_id = ? AND org = ? AND is_deleted = 0').get(pathway, org) as
    MentorRow | undefined;
}

/** Visibility levels: admins see every mentor; students the ones for students or anyone; strangers only public ones. */
export function canSeeMentor(row: MentorRow, caller: Caller | null): boolean {
  if (row.visibility === 'viewable_by_anyone') return true;
  if (!caller || caller.org !== row.org) return false;
  return caller.role === 'admin' || row.visibility === 'viewable_by_tenant_students';
}

export const STUDENT_VISIBLE = ['viewable_by_tenant_students', 'viewable_by_anyone'] as const;
