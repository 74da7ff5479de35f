import { randomBytes, randomUUID } from 'node:crypto';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AreaDeps } from '../../area';
import type { Db } from '../../db';
import { HttpError, notFound } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import { slugify, type MentorRow } from '../mentor-store';
import { insertChunks } from '../documents/fts';
import { filesDir } from '../documents/source';
import { freeSlug, MENTORS_BASE, readBody } from './crud';
import { FieldError, parseBool } from './fields';
import { presentMentor } from './present';
import { findMentor } from './store';
import { categoriesOfMentors } from './taxonomy';

/**
 * Sharing a mentor and making new mentors from others: `mentors/{mentor}/sharable-link` (no trailing slash, as the
 * spec has it; tenant admins), `mentors/{mentor}/public-sharable-link/` (no credentials), `mentors/{mentor}/fork/`,
 * `available-template-mentors/` and `create-mentor-wizard/`.
 */

/** The template mentors every tenant may start from; `ai-mentor` is the spec's example and the settings' default. */
export const TEMPLATE_MENTORS = [
  {
    id: 1,
    name: 'mentorAI',
    slug: 'ai-mentor',
    unique_id: '8485a252-eecf-436b-ba25-3f4ea3e7cda9',
    description:
      'Upbeat, encouraging tutor helping students understand concepts by explaining ideas and asking questions.',
    system_prompt: 'Wrap all responses in MARKDOWN formatted text.',
    platform_key: 'main',
  },
  {
    id: 2,
    name: 'Socratic Tutor',
    slug: 'socratic-tutor',
    unique_id: '0f2b8c51-6a0e-4c53-9f1e-2d7c4b1a9e30',
    description: 'Answers questions with questions, leading students to work things out for themselves.',
    system_prompt: 'Never give the answer outright; ask one guiding question at a time.',
    platform_key: 'main',
  },
  {
    id: 3,
    name: 'Course Assistant',
    slug: 'course-assistant',
    unique_id: '5c1d7e3a-2b49-4f8e-8a61-93e0d4c2b7f5',
    description: "Answers questions about a course's content, schedule and assignments from its documents.",
    system_prompt: 'Only answer from the provided course documents; say so when they do not cover a question.',
    platform_key: 'main',
  },
] as const;

const ADMIN = { auth: 'admin' } as const;
const WIZARD_INVALID = 'Invalid data';
const FORK_FAILED = 'Invalid data or fork failed';

interface LinkRow {
  id: number;
  mentor_id: number;
  token: string;
  enabled: number;
  inserted_at: string;
  updated_at: string;
}

const presentLink = (row: LinkRow) => ({
  id: row.id,
  mentor: row.mentor_id,
  token: row.token,
  enabled: row.enabled === 1,
  inserted_at: row.inserted_at,
  updated_at: row.updated_at,
});

/** DRF's field errors under the catalogue's detail for the call. */
const refused = (detail: string, errors: Record<string, string[]>) =>
  new HttpError(400, detail, {}, { detail, ...errors });

/** A required, non-blank string of at most `max` (and at least `min`) characters, in DRF's words. */
function requiredText(body: Record<string, unknown>, field: string, limits: { min?: number; max?: number } = {}) {
  const value = body[field];
  if (value === undefined || value === null) throw new FieldError(field, 'This field is required.');
  if (typeof value !== 'string') throw new FieldError(field, 'Not a valid string.');
  const text = value.trim();
  if (!text) throw new FieldError(field, 'This field may not be blank.');
  if (limits.max !== undefined && text.length > limits.max)
    throw new FieldError(field, `Ensure this field has no more than ${limits.max} characters.`);
  if (limits.min !== undefined && text.length < limits.min)
    throw new FieldError(field, `Ensure this field has at least ${limits.min} characters.`);
  return text;
}

export function mentorSharingRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const link = `${MENTORS_BASE}mentors/{mentor}/sharable-link`;

  const mentorOr404 = (ctx: RequestContext): MentorRow => {
    const row = findMentor(db, ctx.params.org!, ctx.params.mentor!);
    if (!row) throw notFound('Mentor not found');
    return row;
  };
  const linkOf = (mentor: MentorRow) =>
    db.prepare('SELECT * FROM mentor_sharable_links WHERE mentor_id = ?').get(mentor.id) as LinkRow | undefined;
  const linkOr404 = (mentor: MentorRow) => {
    const row = linkOf(mentor);
    if (!row) throw notFound();
    return row;
  };
  const enabledOf = (body: Record<string, unknown>, fallback: boolean) => {
    if (body.enabled === undefined) return fallback;
    try {
      return parseBool('enabled', body.enabled);
    } catch {
      throw refused('Invalid data', { enabled: ['Must be a valid boolean.'] });
    }
  };
  const present = (row: MentorRow) => presentMentor(row, categoriesOfMentors(db, [row.id]).get(row.id)!);

  router.get(link, (ctx) => ({ status: 200, body: presentLink(linkOr404(mentorOr404(ctx))) }), ADMIN);

  router.post(
    link,
    async (ctx) => {
      const mentor = mentorOr404(ctx);
      const enabled = enabledOf(await readBody(ctx), true);
      if (linkOf(mentor)) {
        throw refused('Invalid data', { mentor: ['shareable mentor link with this mentor already exists.'] });
      }
      const now = new Date().toISOString();
      const id = db
        .prepare(
          'INSERT INTO mentor_sharable_links (mentor_id, token, enabled, inserted_at, updated_at) VALUES (?, ?, ?, ?, ?)',
        )
        .run(mentor.id, randomBytes(24).toString('base64url'), enabled ? 1 : 0, now, now).lastInsertRowid;
      const row = db.prepare('SELECT * FROM mentor_sharable_links WHERE id = ?').get(id) as LinkRow;
      return { status: 201, body: presentLink(row) };
    },
    ADMIN,
  );

  router.put(
    link,
    async (ctx) => {
      const current = linkOr404(mentorOr404(ctx));
      const enabled = enabledOf(await readBody(ctx), current.enabled === 1);
      db.prepare('UPDATE mentor_sharable_links SET enabled = ?, updated_at = ? WHERE id = ?').run(
        enabled ? 1 : 0,
        new Date().toISOString(),
        current.id,
      );
      const row = db.prepare('SELECT * FROM mentor_sharable_links WHERE id = ?').get(current.id) as LinkRow;
      return { status: 200, body: presentLink(row) };
    },
    ADMIN,
  );

  router.delete(
    link,
    (ctx) => {
      const current = linkOr404(mentorOr404(ctx));
      db.prepare('DELETE FROM mentor_sharable_links WHERE id = ?').run(current.id);
      return { status: 204 };
    },
    ADMIN,
  );

  // The spec declares no credentials: what the platform tells anyone about the mentor's link.
  router.get(
    `${MENTORS_BASE}mentors/{mentor}/public-sharable-link/`,
    (ctx) => ({ status: 200, body: presentLink(linkOr404(mentorOr404(ctx))) }),
    { auth: 'none' },
  );

  router.get(`${MENTORS_BASE}available-template-mentors/`, () => ({ status: 200, body: TEMPLATE_MENTORS }));

  router.post(
    `${MENTORS_BASE}create-mentor-wizard/`,
    async (ctx) => {
      const body = await readBody(ctx);
      const org = ctx.params.org!;
      const errors: Record<string, string[]> = {};
      const take = <T>(read: () => T): T | undefined => {
        try {
          return read();
        } catch (error) {
          if (!(error instanceof FieldError)) throw error;
          errors[error.field] = [error.problem];
          return undefined;
        }
      };
      const name = take(() => requiredText(body, 'name', { max: 100 })) ?? '';
      const description = take(() => requiredText(body, 'description', { min: 20, max: 1000 })) ?? '';
      if (!errors.name && nameTaken(db, org, name)) errors.name = ['a mentor with this name already exists'];
      if (Object.keys(errors).length) throw refused(WIZARD_INVALID, errors);
      const row = insertMentor(db, {
        org,
        name,
        description,
        createdBy: ctx.caller!.username,
        visibility: 'viewable_by_tenant_students',
        isFeatured: 0,
        metadata: null,
        settings: '{}',
      });
      return { status: 201, body: present(row) };
    },
    ADMIN,
  );

  router.post(
    `${MENTORS_BASE}mentors/{mentor}/fork/`,
    async (ctx) => {
      const source = mentorOr404(ctx);
      const body = await readBody(ctx);
      let name = '';
      let destination = '';
      let cloneDocuments = false;
      try {
        name = requiredText(body, 'new_mentor_name');
        destination = requiredText(body, 'destination_platform_key');
        if (body.clone_documents !== undefined) cloneDocuments = parseBool('clone_documents', body.clone_documents);
      } catch (error) {
        if (error instanceof FieldError) {
          const problem = error.problem === 'must be a boolean' ? 'Must be a valid boolean.' : error.problem;
          throw refused(FORK_FAILED, { [error.field]: [problem] });
        }
        throw error;
      }
      // A key acts for its own tenant: a fork lands there, never in another tenant.
      if (destination !== source.org) {
        throw refused(FORK_FAILED, {
          destination_platform_key: [`You cannot create mentors on platform '${destination}'.`],
        });
      }
      if (nameTaken(db, destination, name)) {
        throw refused(FORK_FAILED, { new_mentor_name: ['a mentor with this name already exists'] });
      }
      const forked = db.transaction(() => {
        const row = insertMentor(db, {
          org: destination,
          name,
          description: source.description,
          createdBy: ctx.caller!.username,
          visibility: source.visibility,
          isFeatured: source.is_featured,
          metadata: source.metadata,
          settings: source.settings,
        });
        db.prepare(
          'INSERT INTO mentor_category_links (mentor_id, category_id) SELECT ?, category_id FROM mentor_category_links WHERE mentor_id = ?',
        ).run(row.id, source.id);
        if (cloneDocuments) cloneDocumentsOf(deps, source, row);
        return row;
      })();
      return { status: 200, body: present(forked) };
    },
    ADMIN,
  );
}

function nameTaken(db: Db, org: string, name: string): boolean {
  return !!db.prepare('SELECT 1 FROM mentors WHERE org = ? AND name = ? AND is_deleted = 0').get(org, name);
}

interface NewMentor {
  org: string;
  name: string;
  description: string;
  createdBy: string;
  visibility: string;
  isFeatured: number;
  metadata: string | null;
  settings: string;
}

function insertMentor(db: Db, mentor: NewMentor): MentorRow {
  const now = new Date().toISOString();
  const id = db
    .prepare(
      `INSERT INTO mentors (unique_id, org, name, slug, description, visibility, created_by, is_featured, metadata, settings, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      randomUUID(),
      mentor.org,
      mentor.name,
      freeSlug(db, mentor.org, slugify(mentor.name)),
      mentor.description,
      mentor.visibility,
      mentor.createdBy,
      mentor.isFeatured,
      mentor.metadata,
      mentor.settings,
      now,
      now,
    ).lastInsertRowid;
  return db.prepare('SELECT * FROM mentors WHERE id = ?').get(id) as MentorRow;
}

/** `clone_documents`: the fork gets its own copy of each document, its stored file and its indexed passages. */
function cloneDocumentsOf({ db, config }: AreaDeps, source: MentorRow, fork: MentorRow): void {
  const documents = db
    .prepare('SELECT * FROM documents WHERE mentor_id = ? AND org = ? ORDER BY id')
    .all(source.id, source.org) as Record<string, unknown>[];
  const files = filesDir(config.dataDir);
  for (const document of documents) {
    const { id: oldId, ...rest } = document;
    const copy: Record<string, unknown> = {
      ...rest,
      pathway: fork.unique_id,
      mentor_id: fork.id,
      task_id: null,
      indexed_chunks: 0,
    };
    const columns = Object.keys(copy);
    const newId = Number(
      db
        .prepare(`INSERT INTO documents (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`)
        .run(copy).lastInsertRowid,
    );
    if (typeof rest.file_path === 'string' && existsSync(join(files, rest.file_path))) {
      const filePath = `${rest.file_path}.fork-${newId}`;
      copyFileSync(join(files, rest.file_path), join(files, filePath));
      db.prepare('UPDATE documents SET file_path = ? WHERE id = ?').run(filePath, newId);
    }
    const chunks = db
      .prepare('SELECT content FROM document_chunks WHERE document_id = ? ORDER BY chunk_index')
      .pluck()
      .all(oldId) as string[];
    insertChunks(db, newId, chunks);
  }
}
