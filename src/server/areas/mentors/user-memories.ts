/**
 * A learner's memories as the spec's UserMemory records: a named memory (mode, mentor, session, catalogue item,
 * category) holding memory entries. What a chat remembers (`remember`) lands in the learner's auto-generated memory
 * for that mentor and category. Served: `memory-filter/` (the categories, and the users who have memories),
 * `filtered-memories/` (tenant admins only: a user's memories by category, mentor, mode, session and dates, DRF
 * pages), `memory/{memory_unique_id_or_name}/` (read, delete with its entries) and `memory-entries/{id}/` POST (an
 * entry's key and value changed). `{user_id}` of `memory/…` and `memory-entries/…` is the learner whose memory it is.
 */
import { randomUUID } from 'node:crypto';
import type { AreaDeps } from '../../area';
import type { Db } from '../../db';
import { fieldErrors, notFound } from '../../http/errors';
import { drfPage, pageWindow } from '../../http/pagination';
import type { RequestContext, Router } from '../../http/router';
import { entryRows, MEMORY_CATEGORIES, type MemoryEntry } from './memory';

const BASE = '/api/ai-mentor/orgs/{org}/users/{user_id}';
const KIND = 'user-memories';

/** The stored part of a UserMemory (its entries are the memory entries that name it). */
export interface StoredMemory {
  unique_id: string;
  name: string;
  mode: string;
  username: string;
  mentor: string | null;
  session_id: string | null;
  catalog_item_type: string | null;
  catalog_item_id: string | null;
  inserted_at: string;
  updated_at: string;
  is_auto_generated: boolean;
  category: string | null;
}

const memoriesOf = (db: Db, org: string): StoredMemory[] =>
  (
    db
      .prepare('SELECT data FROM resource_store WHERE org = ? AND kind = ? ORDER BY rowid')
      .pluck()
      .all(org, KIND) as string[]
  ).map((text) => JSON.parse(text) as StoredMemory);

function save(db: Db, org: string, memory: StoredMemory): void {
  db.prepare(
    `INSERT INTO resource_store (org, kind, id, data) VALUES (?, ?, ?, ?)
     ON CONFLICT (org, kind, id) DO UPDATE SET data = excluded.data`,
  ).run(org, KIND, memory.unique_id, JSON.stringify(memory));
}

/** The learner's auto-generated memory for a mentor and category, made when the first entry of it is remembered. */
export function memoryFor(
  db: Db,
  org: string,
  entry: { username: string; mentor: string; category: string; at: string },
) {
  const found = memoriesOf(db, org).find(
    (m) =>
      m.is_auto_generated &&
      m.username === entry.username &&
      m.mentor === entry.mentor &&
      m.category === entry.category,
  );
  if (found) {
    if (entry.at > found.updated_at) save(db, org, { ...found, updated_at: entry.at });
    return found.unique_id;
  }
  const memory: StoredMemory = {
    unique_id: randomUUID(),
    name: `${entry.category} ${entry.mentor.slice(0, 8)}`,
    mode: 'regular',
    username: entry.username,
    mentor: entry.mentor,
    session_id: null,
    catalog_item_type: null,
    catalog_item_id: null,
    inserted_at: entry.at,
    updated_at: entry.at,
    is_auto_generated: true,
    category: entry.category,
  };
  save(db, org, memory);
  return memory.unique_id;
}

const userOf = (db: Db, org: string, username: string) =>
  db.prepare('SELECT username, email FROM users WHERE org = ? AND username = ?').get(org, username) as
    { username: string; email: string | null } | undefined;

/** A memory as the spec's UserMemory: its entries and the learner's email. */
function present(db: Db, org: string, memory: StoredMemory) {
  const entries = entryRows(db, org, memory.username).filter((entry) => entry.memory === memory.unique_id);
  return {
    mode: memory.mode,
    name: memory.name,
    email: userOf(db, org, memory.username)?.email ?? null,
    unique_id: memory.unique_id,
    username: memory.username,
    platform: org,
    mentor: memory.mentor,
    session_id: memory.session_id,
    catalog_item_type: memory.catalog_item_type,
    catalog_item_id: memory.catalog_item_id,
    entries: entries.map(presentEntry),
    inserted_at: memory.inserted_at,
    updated_at: memory.updated_at,
    is_auto_generated: memory.is_auto_generated,
    category: memory.category,
  };
}

/** A learner's memories as UserMemory records, oldest first (what `memories/` lists across mentors). */
export const learnerMemories = (db: Db, org: string, username: string) =>
  memoriesOf(db, org)
    .filter((memory) => memory.username === username)
    .map((memory) => present(db, org, memory));

export function userMemoryRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;

  // The categories (as memory-categories/ answers them) and the users who have memories: every one of the org's for
  // an admin, only themself for a learner.
  router.get(`${BASE}/memory-filter/`, (ctx) => {
    const org = ctx.params.org!;
    const admin = ctx.caller?.role === 'admin';
    const names = [...new Set(memoriesOf(db, org).map((m) => m.username))].filter(
      (name) => admin || name === ctx.caller?.username,
    );
    const users = names
      .sort()
      .map((name) => ({ username: name, email: userOf(db, org, name)?.email ?? '', lti_email: '' }));
    return { status: 200, body: { categories: MEMORY_CATEGORIES, users } };
  });

  router.get(
    `${BASE}/filtered-memories/`,
    (ctx) => {
      const org = ctx.params.org!;
      const q = ctx.query;
      let memories = memoriesOf(db, org);
      const username = q.get('username');
      if (username) memories = memories.filter((m) => m.username === username);
      const category = q.get('category');
      if (category) memories = memories.filter((m) => m.category === category);
      const mentor = q.get('mentor');
      if (mentor) memories = memories.filter((m) => m.mentor === mentor);
      const session = q.get('session');
      if (session) memories = memories.filter((m) => m.session_id === session);
      const platform = q.get('platform');
      if (platform && platform !== org) memories = [];
      const mode = q.get('mode');
      if (mode && mode !== 'all') memories = memories.filter((m) => m.mode === mode);
      // ISO dates: a memory last changed within them (the end date's whole day).
      const start = q.get('start_date');
      if (start) memories = memories.filter((m) => m.updated_at.slice(0, start.length) >= start);
      const end = q.get('end_date');
      if (end) memories = memories.filter((m) => m.updated_at.slice(0, end.length) <= end);
      memories.sort((a, b) => b.updated_at.localeCompare(a.updated_at));
      const window = pageWindow(q, 20, 100);
      if (window.page > 1 && window.offset >= memories.length) throw notFound('Invalid page.');
      const shown = memories.slice(window.offset, window.offset + window.pageSize).map((m) => present(db, org, m));
      return { status: 200, body: drfPage(ctx.url, window, memories.length, shown) };
    },
    { auth: 'admin' },
  );

  /** The learner's memory named by its unique id or its name. */
  const one = (ctx: RequestContext) => {
    const key = ctx.params.memory_unique_id_or_name!;
    const found = memoriesOf(db, ctx.params.org!).find(
      (m) => m.username === ctx.params.user_id && (m.unique_id === key || m.name === key),
    );
    if (!found) throw notFound('Memory not found.');
    return found;
  };
  const memoryPath = `${BASE}/memory/{memory_unique_id_or_name}/`;
  router.get(memoryPath, (ctx) => ({ status: 200, body: present(db, ctx.params.org!, one(ctx)) }));
  router.delete(memoryPath, (ctx) => {
    const org = ctx.params.org!;
    const memory = one(ctx);
    db.transaction(() => {
      for (const entry of entryRows(db, org, memory.username)) {
        if (entry.memory === memory.unique_id) {
          db.prepare("DELETE FROM resource_store WHERE org = ? AND kind = 'memory-entries' AND id = ?").run(
            org,
            entry.unique_id,
          );
        }
      }
      db.prepare('DELETE FROM resource_store WHERE org = ? AND kind = ? AND id = ?').run(org, KIND, memory.unique_id);
    })();
    return { status: 200, body: { detail: 'Memory deleted successfully.' } };
  });

  // An entry's key and value changed (the spec's UserMemoryEntry as the body; its read-only fields are ignored).
  router.post(`${BASE}/memory-entries/{entry_unique_id}/`, async (ctx) => {
    const org = ctx.params.org!;
    const user = userOf(db, org, ctx.params.user_id!);
    const entry = user && entryRows(db, org, user.username).find((e) => e.unique_id === ctx.params.entry_unique_id);
    if (!entry) throw notFound('Memory not found.');
    const body = (await ctx.json()) as Record<string, unknown> | null;
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw fieldErrors({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
    }
    const errors: Record<string, string[]> = {};
    if (body.key === undefined || body.key === null) errors.key = ['This field is required.'];
    else if (typeof body.key !== 'string') errors.key = ['Not a valid string.'];
    else if (!body.key.trim()) errors.key = ['This field may not be blank.'];
    if (body.value !== undefined && body.value !== null && typeof body.value !== 'string')
      errors.value = ['Not a valid string.'];
    if (Object.keys(errors).length > 0) throw fieldErrors(errors);
    const changed: MemoryEntry = {
      ...entry,
      key: String(body.key).trim(),
      ...(body.value !== undefined && { value: body.value as string }),
      updated_at: deps.now().toISOString(),
    };
    db.prepare("UPDATE resource_store SET data = ? WHERE org = ? AND kind = 'memory-entries' AND id = ?").run(
      JSON.stringify(changed),
      org,
      entry.unique_id,
    );
    const memory = changed.memory && memoriesOf(db, org).find((m) => m.unique_id === changed.memory);
    if (memory) save(db, org, { ...memory, updated_at: changed.updated_at });
    return { status: 200, body: presentEntry(changed) };
  });
}

/** An entry as the spec's UserMemoryEntry. */
export const presentEntry = ({
  unique_id,
  key,
  value,
  inserted_at,
  updated_at,
  expires_at,
  category,
}: MemoryEntry) => ({
  unique_id,
  key,
  value,
  inserted_at,
  updated_at,
  expires_at,
  category,
});
