/**
 * A mentor's memory in the sandbox. Memory settings per mentor (`mentors/{mentor}/memory-settings/`: GET, POST for
 * admins); what mentors remember of a learner, as memory entries in the categories `memory-categories/` names
 * (knowledge gaps, lessons learned, help requests), read per mentor as the current memory, the history and the
 * progress, and deleted one entry or one category at a time (`memory-entries/{entry_unique_id}/`). `{user_id}` is
 * the learner: the router lets a tenant admin name any learner of the org and a learner only themself (the spec's
 * IsAdminUserOrStudent). Chats record memory on the real platform; here the demo seed and tests do (`remember`).
 */
import { randomUUID } from 'node:crypto';
import type { AreaDeps } from '../../area';
import type { Db } from '../../db';
import { fieldErrors, notFound } from '../../http/errors';
import { drfPage, pageWindow } from '../../http/pagination';
import type { RequestContext, Router } from '../../http/router';
import { Rng } from '../../rng';
import { MAIN_ORG } from '../core';
import { activeMentors } from '../mentor-store';
import { findMentor } from './store';
import { memoryFor, presentEntry } from './user-memories';

type Row = Record<string, unknown>;

const BASE = '/api/ai-mentor/orgs/{org}/users/{user_id}';
/** `memory-categories/` as the spec's example answers it; the first three are a mentor's memory components. */
export const MEMORY_CATEGORIES = ['lessons_learned', 'knowledge_gaps', 'help_requests', 'personal_information'];
/** The spec's KindEnum for each component category (historical memory's `kind`). */
const KIND_OF: Record<string, string> = {
  knowledge_gaps: 'KnowledgeGap',
  lessons_learned: 'LessonsLearned',
  help_requests: 'HelpRequest',
};

export interface MemoryEntry {
  unique_id: string;
  username: string;
  mentor: string;
  category: string;
  key: string;
  value: string;
  inserted_at: string;
  updated_at: string;
  expires_at: string | null;
  /** The UserMemory (user-memories.ts) the entry belongs to. */
  memory?: string;
}

export const entryRows = (db: Db, org: string, username: string): MemoryEntry[] =>
  (
    db
      .prepare("SELECT data FROM resource_store WHERE org = ? AND kind = 'memory-entries' ORDER BY rowid")
      .pluck()
      .all(org) as string[]
  )
    .map((text) => JSON.parse(text) as MemoryEntry)
    .filter((entry) => entry.username === username);

const dropEntry = (db: Db, org: string, id: string) =>
  db.prepare("DELETE FROM resource_store WHERE org = ? AND kind = 'memory-entries' AND id = ?").run(org, id);

/** What a chat leaves in a learner's memory of a mentor (the demo seed and tests record it this way). */
export function remember(
  db: Db,
  org: string,
  entry: { username: string; mentor: string; category: string; value: string; at: string; key?: string },
): MemoryEntry {
  const record: MemoryEntry = {
    unique_id: randomUUID(),
    username: entry.username,
    mentor: entry.mentor,
    category: entry.category,
    key: entry.key ?? entry.category,
    value: entry.value,
    inserted_at: entry.at,
    updated_at: entry.at,
    expires_at: null,
    memory: memoryFor(db, org, entry),
  };
  db.prepare("INSERT INTO resource_store (org, kind, id, data) VALUES (?, 'memory-entries', ?, ?)").run(
    org,
    record.unique_id,
    JSON.stringify(record),
  );
  return record;
}

const SETTINGS_FIELDS = [
  'item_type',
  'item_identifier',
  'learner_advance_correct_rate',
  'learner_advance_question_count',
] as const;

function readSettings(db: Db, org: string, mentor: string): Row {
  const text = db
    .prepare("SELECT data FROM resource_store WHERE org = ? AND kind = 'memory-settings' AND id = ?")
    .pluck()
    .get(org, mentor) as string | undefined;
  const stored = text ? (JSON.parse(text) as Row) : {};
  return Object.fromEntries(SETTINGS_FIELDS.map((name) => [name, stored[name] ?? null]));
}

/** DRF's words for a nullable FloatField / IntegerField / CharField given something else. */
function checkSettings(body: unknown): Row {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw fieldErrors({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
  }
  const given = body as Row;
  const errors: Record<string, string[]> = {};
  const out: Row = {};
  for (const name of SETTINGS_FIELDS) {
    if (!(name in given)) continue;
    const value = given[name];
    if (value === null) {
      out[name] = null;
      continue;
    }
    if (name === 'learner_advance_correct_rate') {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isFinite(number)) errors[name] = ['A valid number is required.'];
      else out[name] = number;
    } else if (name === 'learner_advance_question_count') {
      const number = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isInteger(number)) errors[name] = ['A valid integer is required.'];
      else out[name] = number;
    } else if (typeof value !== 'string') errors[name] = ['Not a valid string.'];
    else out[name] = value;
  }
  if (Object.keys(errors).length > 0) throw fieldErrors(errors);
  return out;
}

export function mentorMemoryRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const mentorOf = (ctx: RequestContext, message: string) => {
    const row = findMentor(db, ctx.params.org!, ctx.params.mentor!);
    if (!row) throw notFound(message);
    return row;
  };
  /** The learner named by `{user_id}`: one of the org's users. */
  const learnerOf = (ctx: RequestContext, message: string) => {
    const found = db
      .prepare('SELECT username FROM users WHERE org = ? AND username = ?')
      .pluck()
      .get(ctx.params.org!, ctx.params.user_id!) as string | undefined;
    if (!found) throw notFound(message);
    return found;
  };

  router.get(`${BASE}/mentors/{mentor}/memory-settings/`, (ctx) => {
    const mentor = mentorOf(ctx, 'Mentor or settings not found');
    return { status: 200, body: readSettings(db, ctx.params.org!, mentor.unique_id) };
  });
  router.post(
    `${BASE}/mentors/{mentor}/memory-settings/`,
    async (ctx) => {
      const mentor = mentorOf(ctx, 'Mentor not found');
      const changes = checkSettings(await ctx.json());
      const next = { ...readSettings(db, ctx.params.org!, mentor.unique_id), ...changes };
      db.prepare(
        `INSERT INTO resource_store (org, kind, id, data) VALUES (?, 'memory-settings', ?, ?)
         ON CONFLICT (org, kind, id) DO UPDATE SET data = excluded.data`,
      ).run(ctx.params.org!, mentor.unique_id, JSON.stringify(next));
      return { status: 200, body: next };
    },
    { auth: 'admin' },
  );

  router.get(`${BASE}/mentors/{mentor}/current-memory/`, (ctx) => {
    const mentor = mentorOf(ctx, 'Mentor or memory not found');
    const learner = learnerOf(ctx, 'Mentor or memory not found');
    const entries = entryRows(db, ctx.params.org!, learner).filter((e) => e.mentor === mentor.unique_id);
    const of = (category: string) => entries.filter((e) => e.category === category).map((e) => e.value);
    return {
      status: 200,
      body: {
        knowledge_gaps: of('knowledge_gaps'),
        lessons_learned: of('lessons_learned'),
        help_requests: of('help_requests'),
      },
    };
  });

  // The spec's schema is one MemoryComponentMemoryDetail, its example a list of them (one per recorded day):
  // answered as the example, newest first.
  router.get(`${BASE}/mentors/{mentor}/historical-memory/`, (ctx) => {
    const mentor = mentorOf(ctx, 'Mentor or memory history not found');
    const learner = learnerOf(ctx, 'Mentor or memory history not found');
    const byDay = new Map<string, MemoryEntry[]>();
    for (const entry of entryRows(db, ctx.params.org!, learner)) {
      if (entry.mentor !== mentor.unique_id || !KIND_OF[entry.category]) continue;
      const day = entry.inserted_at.slice(0, 10);
      byDay.set(day, [...(byDay.get(day) ?? []), entry]);
    }
    // The schema's catalog_item is a string (its example's null is not): the item the settings name, or ''.
    const item = readSettings(db, ctx.params.org!, mentor.unique_id).item_identifier;
    const history = [...byDay.entries()]
      .sort(([a], [b]) => b.localeCompare(a))
      .map(([, entries]) => ({
        data: entries.map((e) => ({ kind: KIND_OF[e.category], content: e.value })),
        catalog_item: typeof item === 'string' ? item : '',
        mentor_unique_id: mentor.unique_id,
        student: learner,
        inserted_at: entries[0]!.inserted_at.slice(0, 19).replace('T', ' '),
      }));
    return { status: 200, body: history };
  });

  // Progress through the item the mentor's memory settings name: its units, and the one the learner is on (one
  // unit further for every two lessons learned).
  router.get(`${BASE}/mentors/{mentor}/memory-progress/`, (ctx) => {
    const mentor = mentorOf(ctx, 'Mentor not found');
    const learner = learnerOf(ctx, 'User not found');
    const settings = readSettings(db, ctx.params.org!, mentor.unique_id);
    const item = typeof settings.item_identifier === 'string' ? settings.item_identifier : null;
    if (!item) {
      return {
        status: 200,
        body: {
          memory_type: 'none',
          all_units: null,
          all_unit_names: null,
          current_unit: null,
          current_unit_name: null,
          item_name: null,
        },
      };
    }
    const units = ['Getting started', 'Core ideas', 'Practice', 'Review'];
    const learned = entryRows(db, ctx.params.org!, learner).filter(
      (e) => e.mentor === mentor.unique_id && e.category === 'lessons_learned',
    ).length;
    const current = Math.min(units.length, 1 + Math.floor(learned / 2));
    return {
      status: 200,
      body: {
        memory_type: typeof settings.item_type === 'string' ? settings.item_type : 'course',
        all_units: units.length,
        all_unit_names: units,
        current_unit: current,
        current_unit_name: units[current - 1],
        item_name: item,
      },
    };
  });

  router.get(`${BASE}/memory-categories/`, () => ({ status: 200, body: { categories: MEMORY_CATEGORIES } }));

  const entryPath = `${BASE}/memory-entries/{entry_unique_id}/`;
  const present = presentEntry;
  router.get(entryPath, (ctx) => {
    const learner = learnerOf(ctx, 'Memory not found.');
    const entry = entryRows(db, ctx.params.org!, learner).find((e) => e.unique_id === ctx.params.entry_unique_id);
    if (!entry) throw notFound('Memory not found.');
    return { status: 200, body: present(entry) };
  });
  // "Delete a memory entry or a category of memories": a unique id, or a category name for every entry in it.
  router.delete(entryPath, (ctx) => {
    const learner = learnerOf(ctx, 'Memory not found.');
    const id = ctx.params.entry_unique_id!;
    const entries = entryRows(db, ctx.params.org!, learner).filter((e) =>
      MEMORY_CATEGORIES.includes(id) ? e.category === id : e.unique_id === id,
    );
    if (entries.length === 0) throw notFound('Memory not found.');
    for (const entry of entries) dropEntry(db, ctx.params.org!, entry.unique_id);
    return { status: 200, body: { detail: 'Memory deleted successfully.' } };
  });
}

/**
 * A learner's profile memory (`ai-user-profile-memory/`): what mentors know of them, one detail per tag. POST with a
 * tag already kept replaces its detail; DELETE `{tag}/` answers 204, or 404 when there is no such tag.
 */
export function profileMemoryRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const key = (username: string, tag: string) => `${username}\u0000${tag}`;
  const list = (org: string, username: string) =>
    (
      db
        .prepare("SELECT data FROM resource_store WHERE org = ? AND kind = 'profile-memory' ORDER BY rowid")
        .pluck()
        .all(org) as string[]
    )
      .map((text) => JSON.parse(text) as { username: string; tag: string; detail: string | null })
      .filter((entry) => entry.username === username);
  const learnerOf = (ctx: RequestContext) => {
    const found = db
      .prepare('SELECT username FROM users WHERE org = ? AND username = ?')
      .pluck()
      .get(ctx.params.org!, ctx.params.user_id!) as string | undefined;
    if (!found) throw notFound('User not found');
    return found;
  };
  const path = `${BASE}/ai-user-profile-memory/`;
  router.get(path, (ctx) => {
    const learner = learnerOf(ctx);
    return { status: 200, body: list(ctx.params.org!, learner).map(({ tag, detail }) => ({ tag, detail })) };
  });
  router.post(path, async (ctx) => {
    const learner = learnerOf(ctx);
    const body = (await ctx.json()) as Row | null;
    const errors: Record<string, string[]> = {};
    for (const name of ['tag', 'detail'] as const) {
      const value = body?.[name];
      if (value === undefined || value === null) errors[name] = ['This field is required.'];
      else if (typeof value !== 'string') errors[name] = ['Not a valid string.'];
      else if (!value.trim()) errors[name] = ['This field may not be blank.'];
    }
    if (Object.keys(errors).length > 0) throw fieldErrors(errors);
    const entry = { username: learner, tag: String(body!.tag).trim(), detail: String(body!.detail) };
    db.prepare(
      `INSERT INTO resource_store (org, kind, id, data) VALUES (?, 'profile-memory', ?, ?)
       ON CONFLICT (org, kind, id) DO UPDATE SET data = excluded.data`,
    ).run(ctx.params.org!, key(learner, entry.tag), JSON.stringify(entry));
    return { status: 200, body: { tag: entry.tag, detail: entry.detail } };
  });
  router.delete(`${path}{tag}/`, (ctx) => {
    const learner = learnerOf(ctx);
    const gone = db
      .prepare("DELETE FROM resource_store WHERE org = ? AND kind = 'profile-memory' AND id = ?")
      .run(ctx.params.org!, key(learner, ctx.params.tag!));
    if (gone.changes === 0) throw notFound('Not found.');
    return { status: 204 };
  });
}

/** What the platform keeps of a learner's place in an edX course (one per learner and course), for mentors. */
export function rememberCourse(
  db: Db,
  org: string,
  entry: { username: string; student: number; course_id: string; data: unknown; at: string },
): Row {
  const id = Number(
    (db.prepare("SELECT COUNT(*) FROM resource_store WHERE kind = 'edx-memory'").pluck().get() as number) + 1,
  );
  const record = { id, ...entry, date_created: entry.at, last_modified: entry.at };
  delete (record as Row).at;
  db.prepare("INSERT INTO resource_store (org, kind, id, data) VALUES (?, 'edx-memory', ?, ?)").run(
    org,
    String(id),
    JSON.stringify(record),
  );
  return record;
}

/**
 * A learner's edX memory (`edx-memory/`: DRF pages filtered by `course_id`, `student`, `username`, ordered by
 * `ordering`; `{id}/` read and deleted, 204). `{user_id}` is the learner whose records are listed.
 */
export function edxMemoryRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const mine = (ctx: RequestContext) => {
    const found = db
      .prepare('SELECT username FROM users WHERE org = ? AND username = ?')
      .pluck()
      .get(ctx.params.org!, ctx.params.user_id!) as string | undefined;
    if (!found) throw notFound('User not found');
    return (
      db
        .prepare("SELECT data FROM resource_store WHERE org = ? AND kind = 'edx-memory' ORDER BY rowid")
        .pluck()
        .all(ctx.params.org!) as string[]
    )
      .map((text) => JSON.parse(text) as Row)
      .filter((record) => record.username === found);
  };
  const path = `${BASE}/edx-memory/`;
  router.get(path, (ctx) => {
    const q = ctx.query;
    let records = mine(ctx);
    for (const name of ['course_id', 'username'] as const) {
      const value = q.get(name);
      if (value) records = records.filter((record) => record[name] === value);
    }
    const student = q.get('student');
    if (student) {
      if (!/^-?\d+$/.test(student)) throw fieldErrors({ student: ['Enter a number.'] });
      records = records.filter((record) => record.student === Number(student));
    }
    const ordering = q.get('ordering');
    const field = ordering?.replace(/^-/, '');
    if (field && records[0] && field in records[0]) {
      records.sort((a, b) => String(a[field]).localeCompare(String(b[field]), undefined, { numeric: true }));
      if (ordering!.startsWith('-')) records.reverse();
    }
    const window = pageWindow(q, 100);
    if (window.page > 1 && window.offset >= records.length) throw notFound('Invalid page.');
    return {
      status: 200,
      body: drfPage(ctx.url, window, records.length, records.slice(window.offset, window.offset + window.pageSize)),
    };
  });
  const one = (ctx: RequestContext) => {
    const record = mine(ctx).find((r) => String(r.id) === ctx.params.id);
    if (!record) throw notFound('No UserEdxMemory matches the given query.');
    return record;
  };
  router.get(`${path}{id}/`, (ctx) => ({ status: 200, body: one(ctx) }));
  router.delete(`${path}{id}/`, (ctx) => {
    const record = one(ctx);
    db.prepare("DELETE FROM resource_store WHERE org = ? AND kind = 'edx-memory' AND id = ?").run(
      ctx.params.org!,
      String(record.id),
    );
    return { status: 204 };
  });
}

/** Demo memory: a few learners' gaps, lessons and requests with three mentors, over a few days. */
export function seedMentorMemory(deps: AreaDeps): void {
  const { db } = deps;
  // Its own generator: the other areas' demo data stays what it was before memory was seeded.
  const rng = new Rng(16);
  const mentors = activeMentors(deps, MAIN_ORG).slice(0, 3);
  const learners = db
    .prepare("SELECT username FROM users WHERE org = ? AND role = 'student' ORDER BY id LIMIT 6")
    .pluck()
    .all(MAIN_ORG) as string[];
  const said: Record<string, string[]> = {
    knowledge_gaps: ['limits at infinity', 'the chain rule', 'citing secondary sources', 'list comprehensions'],
    lessons_learned: ['derivatives as rates of change', 'thesis statements', 'for loops', 'integration by parts'],
    help_requests: ['explain the epsilon-delta definition', 'check my essay outline', 'why my loop never ends'],
  };
  const now = deps.now().getTime();
  for (const learner of learners.slice(1)) {
    for (const mentor of mentors) {
      if (!rng.chance(0.7)) continue;
      for (const category of Object.keys(said)) {
        // Distinct values: the same lesson is not remembered twice.
        const values = [...said[category]!];
        for (let n = rng.int(0, 2); n > 0; n--) {
          const at = new Date(now - rng.int(0, 20) * 86_400_000 - rng.int(0, 86_000) * 1000).toISOString();
          const value = values.splice(rng.int(0, values.length - 1), 1)[0]!;
          remember(db, MAIN_ORG, { username: learner, mentor: mentor.unique_id, category, value, at });
        }
      }
    }
  }
}
