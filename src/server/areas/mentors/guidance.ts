/**
 * What guides a mentor's conversations, in the sandbox: the course it is linked to (`mentors/{mentor}/link-course/`,
 * GET and POST for tenant admins: "link mentor with a course and enable guided mode"), its scenarios
 * (`scenarios/` to read, `edit-scenarios/` to replace) and its auto memory prompt (`auto-memory-prompt/`, GET and
 * POST "Set or reset"). Each is kept per org and mentor in the generic store.
 *
 * The spec's `MentorScenario` is one object (display, name, prompts) in its schemas but a list of them in every
 * example; the sandbox keeps and answers what the schema says. A mentor with none saved answers 404, as the spec's
 * description says ("If the specified mentor or scenarios do not exist").
 */
import type { AreaDeps } from '../../area';
import type { Db } from '../../db';
import { fieldErrors, notFound } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import { findMentor } from './store';

type Row = Record<string, unknown>;

const USER = '/api/ai-mentor/orgs/{org}/users/{user_id}';
/** The platform's words when an auto memory prompt was never set (the spec's example answers a sentence). */
export const DEFAULT_AUTO_MEMORY_PROMPT = 'Generate for me some entries of memory based on the chat history...';

const DICTIONARY_EXPECTED = (got: unknown) =>
  fieldErrors({
    non_field_errors: [`Invalid data. Expected a dictionary, but got ${Array.isArray(got) ? 'list' : typeof got}.`],
  });

function stored(db: Db, org: string, kind: string, id: string): Row | null {
  const text = db
    .prepare('SELECT data FROM resource_store WHERE org = ? AND kind = ? AND id = ?')
    .pluck()
    .get(org, kind, id) as string | undefined;
  return text ? (JSON.parse(text) as Row) : null;
}

function store(db: Db, org: string, kind: string, id: string, data: Row): void {
  db.prepare(
    `INSERT INTO resource_store (org, kind, id, data) VALUES (?, ?, ?, ?)
     ON CONFLICT (org, kind, id) DO UPDATE SET data = excluded.data`,
  ).run(org, kind, id, JSON.stringify(data));
}

/** DRF's words for a required CharField: missing, not text, or blank. */
function requiredText(errors: Record<string, string[]>, name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) errors[name] = ['This field is required.'];
  else if (typeof value !== 'string') errors[name] = ['Not a valid string.'];
  else if (!value.trim()) errors[name] = ['This field may not be blank.'];
  else return value;
  return undefined;
}

/** A `MentorScenario` as the schema has it: name and prompts required, each prompt's summary and content required. */
function checkScenario(body: unknown): Row {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw DICTIONARY_EXPECTED(body);
  const given = body as Row;
  const errors: Record<string, string[]> = {};
  const name = requiredText(errors, 'name', given.name);
  if (given.display !== undefined && given.display !== null && typeof given.display !== 'string') {
    errors.display = ['Not a valid string.'];
  }
  const prompts: Row[] = [];
  if (given.prompts === undefined || given.prompts === null) errors.prompts = ['This field is required.'];
  else if (!Array.isArray(given.prompts)) {
    errors.prompts = [`Expected a list of items but got type "${typeof given.prompts}".`];
  } else {
    given.prompts.forEach((prompt: unknown, index) => {
      if (!prompt || typeof prompt !== 'object' || Array.isArray(prompt)) {
        errors[`prompts.${index}`] = ['Invalid data. Expected a dictionary.'];
        return;
      }
      const inner: Record<string, string[]> = {};
      const p = prompt as Row;
      const summary = requiredText(inner, 'summary', p.summary);
      const content = requiredText(inner, 'content', p.content);
      if (p.icon !== undefined && typeof p.icon !== 'string') inner.icon = ['Not a valid string.'];
      for (const [field, messages] of Object.entries(inner)) errors[`prompts.${index}.${field}`] = messages;
      if (!Object.keys(inner).length) {
        prompts.push({ summary, content, ...(typeof p.icon === 'string' && { icon: p.icon }) });
      }
    });
  }
  if (Object.keys(errors).length > 0) throw fieldErrors(errors);
  return { display: typeof given.display === 'string' ? given.display : null, name, prompts };
}

export function mentorGuidanceRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const mentorOf = (ctx: RequestContext, message: string) => {
    const row = findMentor(db, ctx.params.org!, ctx.params.mentor!);
    if (!row) throw notFound(message);
    return row;
  };

  const linkPath = '/api/ai-mentor/orgs/{org}/mentors/{mentor}/link-course/';
  const linkOf = (org: string, mentor: string) => {
    const link = stored(db, org, 'course-link', mentor);
    return { mentor_unique_id: mentor, course_id: (link?.course_id as string | undefined) ?? null, is_linked: !!link };
  };
  router.get(
    linkPath,
    (ctx) => {
      const mentor = mentorOf(ctx, 'Mentor not found');
      return { status: 200, body: linkOf(ctx.params.org!, mentor.unique_id) };
    },
    { auth: 'admin' },
  );
  router.post(
    linkPath,
    async (ctx) => {
      const mentor = mentorOf(ctx, 'Mentor not found');
      const body = (await ctx.json()) as unknown;
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw DICTIONARY_EXPECTED(body);
      const errors: Record<string, string[]> = {};
      const course = requiredText(errors, 'course_id', (body as Row).course_id);
      if (Object.keys(errors).length > 0) throw fieldErrors(errors);
      store(db, ctx.params.org!, 'course-link', mentor.unique_id, { course_id: course!.trim() });
      return { status: 200, body: linkOf(ctx.params.org!, mentor.unique_id) };
    },
    { auth: 'admin' },
  );

  router.get(
    `${USER}/mentors/{mentor}/scenarios/`,
    (ctx) => {
      const mentor = mentorOf(ctx, 'Mentor or scenarios not found');
      const scenario = stored(db, ctx.params.org!, 'mentor-scenario', mentor.unique_id);
      if (!scenario) throw notFound('Mentor or scenarios not found');
      return { status: 200, body: scenario };
    },
    // The spec declares no security for reading them.
    { auth: 'none' },
  );
  router.put(
    `${USER}/mentors/{mentor}/edit-scenarios/`,
    async (ctx) => {
      const mentor = mentorOf(ctx, 'Mentor not found');
      const scenario = checkScenario(await ctx.json());
      store(db, ctx.params.org!, 'mentor-scenario', mentor.unique_id, scenario);
      return { status: 200, body: scenario };
    },
    { auth: 'admin' },
  );

  const promptPath = `${USER}/mentors/{mentor}/auto-memory-prompt/`;
  const promptOf = (org: string, mentor: string) => ({
    auto_memory_prompt:
      (stored(db, org, 'auto-memory-prompt', mentor)?.auto_memory_prompt as string | undefined) ??
      DEFAULT_AUTO_MEMORY_PROMPT,
  });
  router.get(
    promptPath,
    (ctx) => {
      const mentor = mentorOf(ctx, 'Mentor not found');
      return { status: 200, body: promptOf(ctx.params.org!, mentor.unique_id) };
    },
    { auth: 'admin' },
  );
  // "Set or reset": `reset: true` goes back to the platform's prompt; otherwise the text given is kept.
  router.post(
    promptPath,
    async (ctx) => {
      const mentor = mentorOf(ctx, 'Mentor not found');
      const body = (await ctx.json()) as unknown;
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw DICTIONARY_EXPECTED(body);
      const given = body as Row;
      const errors: Record<string, string[]> = {};
      if (given.reset !== undefined && typeof given.reset !== 'boolean') errors.reset = ['Must be a valid boolean.'];
      const org = ctx.params.org!;
      if (given.reset === true && !Object.keys(errors).length) {
        db.prepare("DELETE FROM resource_store WHERE org = ? AND kind = 'auto-memory-prompt' AND id = ?").run(
          org,
          mentor.unique_id,
        );
        return { status: 200, body: promptOf(org, mentor.unique_id) };
      }
      const text = requiredText(errors, 'auto_memory_prompt', given.auto_memory_prompt);
      if (Object.keys(errors).length > 0) throw fieldErrors(errors);
      store(db, org, 'auto-memory-prompt', mentor.unique_id, { auto_memory_prompt: text });
      return { status: 200, body: promptOf(org, mentor.unique_id) };
    },
    { auth: 'admin' },
  );
}
