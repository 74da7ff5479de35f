import type { Db } from '../../db';

/** Mentor audiences and categories of a tenant, and the categories each mentor belongs to. */

export interface AudienceRow {
  id: number;
  name: string;
  description: string | null;
}

interface CategoryRow {
  id: number;
  name: string;
  description: string | null;
  category_group: number | null;
  audience_id: number;
}

export const presentAudience = (row: AudienceRow) => ({ id: row.id, name: row.name, description: row.description });

/** The audience a category falls back to when none is given: the spec requires every category to have one. */
export const DEFAULT_AUDIENCE = 'General';

export function listAudiences(db: Db, org: string): AudienceRow[] {
  return db
    .prepare('SELECT id, name, description FROM mentor_audiences WHERE org = ? ORDER BY id')
    .all(org) as AudienceRow[];
}

export function findAudience(db: Db, org: string, name: string): AudienceRow | undefined {
  return db.prepare('SELECT id, name, description FROM mentor_audiences WHERE org = ? AND name = ?').get(org, name) as
    AudienceRow | undefined;
}

export function createAudience(
  db: Db,
  org: string,
  name: string,
  description: string | null,
  now: string,
): AudienceRow {
  const id = Number(
    db
      .prepare('INSERT INTO mentor_audiences (org, name, description, created_at) VALUES (?, ?, ?, ?)')
      .run(org, name, description, now).lastInsertRowid,
  );
  return { id, name, description };
}

export function ensureDefaultAudience(db: Db, org: string, now: string): number {
  return (
    findAudience(db, org, DEFAULT_AUDIENCE) ?? createAudience(db, org, DEFAULT_AUDIENCE, 'Everyone in the tenant', now)
  ).id;
}

/**
 * Deletes an audience; categories that used it as their main audience move to another of theirs, or to the default
 * audience. Returns false (nothing deleted) when the default audience itself is the only audience of a category.
 */
export function deleteAudience(db: Db, org: string, audience: AudienceRow, now: string): boolean {
  const inUse = new Error('the default audience is in use');
  const remove = db.transaction(() => {
    const orphans = db.prepare('SELECT id FROM mentor_categories WHERE audience_id = ?').all(audience.id) as {
      id: number;
    }[];
    for (const { id } of orphans) {
      const other = db
        .prepare('SELECT audience_id FROM mentor_category_audiences WHERE category_id = ? AND audience_id != ? LIMIT 1')
        .get(id, audience.id) as { audience_id: number } | undefined;
      // Throwing rolls back the categories already moved.
      if (!other && audience.name === DEFAULT_AUDIENCE) throw inUse;
      const next = other?.audience_id ?? ensureDefaultAudience(db, org, now);
      db.prepare('UPDATE mentor_categories SET audience_id = ? WHERE id = ?').run(next, id);
      db.prepare('INSERT OR IGNORE INTO mentor_category_audiences (category_id, audience_id) VALUES (?, ?)').run(
        id,
        next,
      );
    }
    db.prepare('DELETE FROM mentor_category_audiences WHERE audience_id = ?').run(audience.id);
    db.prepare('DELETE FROM mentor_audiences WHERE id = ?').run(audience.id);
  });
  try {
    remove();
    return true;
  } catch (error) {
    if (error === inUse) return false;
    throw error;
  }
}

/** Audience ids of the tenant among `ids`; the ones that do not exist are reported. */
export function missingAudiences(db: Db, org: string, ids: number[]): number[] {
  const known = new Set(
    (
      db
        .prepare('SELECT id FROM mentor_audiences WHERE org = ? AND id IN (SELECT value FROM json_each(?))')
        .all(org, JSON.stringify(ids)) as {
        id: number;
      }[]
    ).map((r) => r.id),
  );
  return ids.filter((id) => !known.has(id));
}

export function missingCategories(db: Db, org: string, ids: number[]): number[] {
  const known = new Set(
    (
      db
        .prepare('SELECT id FROM mentor_categories WHERE org = ? AND id IN (SELECT value FROM json_each(?))')
        .all(org, JSON.stringify(ids)) as {
        id: number;
      }[]
    ).map((r) => r.id),
  );
  return ids.filter((id) => !known.has(id));
}

export interface NewCategory {
  name: string;
  description: string | null;
  categoryGroup: number | null;
  audience: number | null;
  audiences: number[];
}

export function createCategory(db: Db, org: string, input: NewCategory, now: string): number {
  return db.transaction(() => {
    const main = input.audience ?? input.audiences[0] ?? ensureDefaultAudience(db, org, now);
    const id = Number(
      db
        .prepare(
          'INSERT INTO mentor_categories (org, name, description, category_group, audience_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(org, input.name, input.description, input.categoryGroup, main, now).lastInsertRowid,
    );
    const link = db.prepare('INSERT OR IGNORE INTO mentor_category_audiences (category_id, audience_id) VALUES (?, ?)');
    for (const audience of new Set([main, ...input.audiences])) link.run(id, audience);
    return id;
  })();
}

export function findCategory(db: Db, org: string, key: { name?: string; id?: number }): { id: number } | undefined {
  return db
    .prepare('SELECT id FROM mentor_categories WHERE org = ? AND (name = ? OR id = ?)')
    .get(org, key.name ?? null, key.id ?? null) as { id: number } | undefined;
}

export function deleteCategory(db: Db, id: number): void {
  db.transaction(() => {
    db.prepare('DELETE FROM mentor_category_links WHERE category_id = ?').run(id);
    db.prepare('DELETE FROM mentor_category_audiences WHERE category_id = ?').run(id);
    db.prepare('DELETE FROM mentor_categories WHERE id = ?').run(id);
  })();
}

export type MentorCategory = ReturnType<typeof presentCategories>[number];

/** Categories as `MentorCategory` (with their audience and audiences), in id order. */
export function presentCategories(db: Db, rows: CategoryRow[]) {
  if (!rows.length) return [];
  const ids = JSON.stringify(rows.map((r) => r.id));
  const audiences = db
    .prepare(
      `SELECT l.category_id, a.id, a.name, a.description FROM mentor_category_audiences l
       JOIN mentor_audiences a ON a.id = l.audience_id WHERE l.category_id IN (SELECT value FROM json_each(?)) ORDER BY a.id`,
    )
    .all(ids) as (AudienceRow & { category_id: number })[];
  const mains = db
    .prepare(
      `SELECT a.id, a.name, a.description FROM mentor_audiences a
       WHERE a.id IN (SELECT audience_id FROM mentor_categories WHERE id IN (SELECT value FROM json_each(?)))`,
    )
    .all(ids) as AudienceRow[];
  const mainById = new Map(mains.map((a) => [a.id, a]));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    category_group: row.category_group,
    audience: presentAudience(mainById.get(row.audience_id)!),
    audiences: audiences.filter((a) => a.category_id === row.id).map(presentAudience),
  }));
}

export function listCategories(db: Db, org: string) {
  return presentCategories(
    db,
    db.prepare('SELECT * FROM mentor_categories WHERE org = ? ORDER BY id').all(org) as CategoryRow[],
  );
}

export function categoryById(db: Db, id: number) {
  return presentCategories(db, db.prepare('SELECT * FROM mentor_categories WHERE id = ?').all(id) as CategoryRow[])[0]!;
}

/** The categories of each of `mentorIds`, presented. */
export function categoriesOfMentors(db: Db, mentorIds: number[]): Map<number, MentorCategory[]> {
  const out = new Map<number, MentorCategory[]>(mentorIds.map((id) => [id, []]));
  if (!mentorIds.length) return out;
  const links = db
    .prepare(
      `SELECT l.mentor_id, c.* FROM mentor_category_links l JOIN mentor_categories c ON c.id = l.category_id
       WHERE l.mentor_id IN (SELECT value FROM json_each(?)) ORDER BY c.id`,
    )
    .all(JSON.stringify(mentorIds)) as (CategoryRow & { mentor_id: number })[];
  const presented = new Map(presentCategories(db, links).map((c) => [c.id, c]));
  for (const link of links) out.get(link.mentor_id)!.push(presented.get(link.id)!);
  return out;
}

export function setMentorCategories(db: Db, mentorId: number, categoryIds: number[]): void {
  db.prepare('DELETE FROM mentor_category_links WHERE mentor_id = ?').run(mentorId);
  const link = db.prepare('INSERT INTO mentor_category_links (mentor_id, category_id) VALUES (?, ?)');
  for (const id of categoryIds) link.run(mentorId, id);
}

export function categoryIdsOf(db: Db, mentorId: number): number[] {
  return (
    db
      .prepare('SELECT category_id FROM mentor_category_links WHERE mentor_id = ? ORDER BY category_id')
      .all(mentorId) as {
      category_id: number;
    }[]
  ).map((r) => r.category_id);
}

/** The categories a category group holds. */
export function categoriesOfGroup(db: Db, org: string, groupId: number) {
  return presentCategories(
    db,
    db
      .prepare('SELECT * FROM mentor_categories WHERE org = ? AND category_group = ? ORDER BY id')
      .all(org, groupId) as CategoryRow[],
  );
}

/** A deleted group's categories stay, ungrouped. */
export function ungroupCategories(db: Db, org: string, groupId: number): void {
  db.prepare('UPDATE mentor_categories SET category_group = NULL WHERE org = ? AND category_group = ?').run(
    org,
    groupId,
  );
}

export function audiencesByIds(db: Db, org: string, ids: number[]): AudienceRow[] {
  return db
    .prepare(
      'SELECT id, name, description FROM mentor_audiences WHERE org = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY id',
    )
    .all(org, JSON.stringify(ids)) as AudienceRow[];
}
