import type { AreaDeps } from '../area';
import type { Rng } from '../rng';
import { ADMIN_USER, MAIN_ORG, OTHER_ORG } from './core';

/**
 * The mentors table, shared by every area that refers to mentors (documents, chat analytics, tickets). The mentors
 * area owns its routes; this module owns its rows so other areas can rely on them while seeding.
 */
export const mentorSchema = `
CREATE TABLE IF NOT EXISTS mentors (
  id INTEGER PRIMARY KEY,
  unique_id TEXT NOT NULL UNIQUE,
  org TEXT NOT NULL REFERENCES orgs(key),
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  visibility TEXT NOT NULL DEFAULT 'viewable_by_tenant_students'
    CHECK (visibility IN ('viewable_by_tenant_admins', 'viewable_by_tenant_students', 'viewable_by_anyone')),
  created_by TEXT,
  is_featured INTEGER NOT NULL DEFAULT 0,
  is_deleted INTEGER NOT NULL DEFAULT 0,
  metadata TEXT CHECK (metadata IS NULL OR json_valid(metadata)),
  settings TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS mentors_org_name ON mentors(org, name) WHERE is_deleted = 0;
CREATE INDEX IF NOT EXISTS mentors_org ON mentors(org, is_deleted, created_at);
`;

export interface MentorRow {
  id: number;
  unique_id: string;
  org: string;
  name: string;
  slug: string;
  description: string;
  visibility: string;
  created_by: string | null;
  is_featured: number;
  is_deleted: number;
  metadata: string | null;
  settings: string;
  created_at: string;
  updated_at: string;
}

export const DEMO_MENTORS: readonly { name: string; description: string }[] = [
  { name: 'Calculus Coach', description: 'Limits, derivatives and integrals, step by step.' },
  { name: 'Academic Writing Tutor', description: 'Thesis statements, structure and citations.' },
  { name: 'Intro to Python', description: 'First programs, data types and debugging.' },
  { name: 'Organic Chemistry Helper', description: 'Reaction mechanisms and nomenclature.' },
  { name: 'Career Advisor', description: 'CVs, interviews and internships.' },
  { name: 'Statistics Buddy', description: 'Distributions, tests and regression.' },
  { name: 'Financial Accounting', description: 'Ledgers, statements and ratios.' },
  { name: 'Anatomy Review', description: 'Systems, structures and terminology.' },
  { name: 'Spanish Conversation', description: 'Practice everyday Spanish.' },
  { name: 'Research Methods', description: 'Designing studies and reading papers.' },
  { name: 'Study Skills', description: 'Planning, memory and exam preparation.' },
  { name: 'Campus Help Desk', description: 'Enrolment, fees, housing and IT questions.' },
];

export const slugify = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200) || 'mentor';

/** The 12 demo mentors of the main tenant and one of the other tenant (for isolation tests). */
export function seedMentors(deps: AreaDeps, rng: Rng): void {
  const insert = deps.db.prepare(
    `INSERT INTO mentors (unique_id, org, name, slug, description, visibility, created_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const anchor = deps.now().getTime();
  for (const mentor of DEMO_MENTORS) {
    const created = new Date(anchor - rng.int(200, 400) * 86_400_000).toISOString();
    const visibility = rng.pick([
      'viewable_by_tenant_students',
      'viewable_by_tenant_students',
      'viewable_by_anyone',
      'viewable_by_tenant_admins',
    ]);
    insert.run(
      rng.uuid(),
      MAIN_ORG,
      mentor.name,
      slugify(mentor.name),
      mentor.description,
      visibility,
      ADMIN_USER,
      created,
      created,
    );
  }
  const created = new Date(anchor - 300 * 86_400_000).toISOString();
  insert.run(
    rng.uuid(),
    OTHER_ORG,
    'Riverside Tutor',
    'riverside-tutor',
    'Another tenant’s mentor.',
    'viewable_by_tenant_students',
    'riverside-admin',
    created,
    created,
  );
}

export function activeMentors(deps: Pick<AreaDeps, 'db'>, org: string): MentorRow[] {
  return deps.db.prepare('SELECT * FROM mentors WHERE org = ? AND is_deleted = 0 ORDER BY id').all(org) as MentorRow[];
}
