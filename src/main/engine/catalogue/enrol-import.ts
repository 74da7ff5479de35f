/**
 * The `catalogue-enrol` job: a CSV file of people (email or username) and catalogue items (a program or a pathway, by
 * id, key, slug or name) read by the kit's import pipeline (resources/import.ts), one journal item per row, each row
 * enrolled by one `enrollment/programs/` or `enrollment/pathways/` POST (the spec has no bulk enrolment call, and none
 * that enrols in a course: a row naming a course says so and the others go on).
 *
 * Before anything is sent the job reads the tenant's people, programs, pathways and courses, and the programs'
 * enrolments: a row whose person or item is not the tenant's is settled as unknown (an item deleted since the file
 * was written included), one already enrolled as "already" (not an error). A dry run stops there, saying what each
 * row would do. Resumable: an item is marked `sending` before its request; the POST is idempotent (the platform
 * answers an existing enrolment again), so a row left `sending` by a killed run is sent again and enrols nobody twice.
 */
import { setMaxListeners } from 'node:events';
import { z } from 'zod';
import type { Job } from '../../../shared/contract';
import type { ResourceKind } from '../../../shared/resources';
import type { ItemReport, JobContext, JobKindRunner, NewItem, WorkItem } from '../jobs';
import { UNFINISHED_STATES } from '../jobs';
import { ApiError, isTransient, RequestAbortedError, type CallOptions, type PlatformClient } from '../platform';
import type { Profiles } from '../profiles';
import { userScope } from '../tenants';
import type { ImportServices, MembersRow } from '../resources';

type Row = Record<string, unknown>;
/** A row's outcome, named as the membership import names its own (the screens and the CLI read both alike). */
type Outcome = 'added' | 'wouldAdd' | 'already' | 'unknown' | 'invalid' | 'failed' | 'dropped';
const SENDING = 'sending';
/** Rows waiting in the tenant's limiter at once: more than it lets through, so it never waits for this job. */
const WAITING_ROWS = 32;

export interface EnrolmentImportParams {
  kind: ResourceKind;
  fileName: string;
  fileSha256: string;
  rows: number;
  mode: 'send' | 'dry-run';
}

export type EnrolmentItemData = { line: number; person: string; group: string; message?: string };

interface Work {
  id: number;
  phase: string;
  data: EnrolmentItemData;
}
interface Settled {
  item: Work;
  outcome: Outcome;
  message?: string;
}

/** Writes the job and its items (rows that will not be sent settled at once) and starts it; resumes the same one. */
export function startEnrolmentJob(
  ctx: Pick<ImportServices, 'journal' | 'runner'>,
  profileId: string,
  kind: ResourceKind,
  fileName: string,
  sha256: string,
  rows: readonly MembersRow[],
  mode: EnrolmentImportParams['mode'],
): { id: string; resumed: boolean } {
  const { journal, runner } = ctx;
  const [unfinished] = journal.find({
    kind: 'catalogue-enrol',
    profileId,
    states: UNFINISHED_STATES,
    params: { kind, fileSha256: sha256, mode },
  });
  if (unfinished) {
    runner.start(unfinished.id);
    return { id: unfinished.id, resumed: true };
  }
  const counts = { invalid: 0, dropped: 0 };
  function* items(): Generator<NewItem> {
    for (const row of rows) {
      const data: EnrolmentItemData = {
        line: row.line,
        person: row.values.person ?? '',
        group: row.values.group ?? '',
      };
      const base = { key: `line:${row.line}`, label: `${data.person || '?'} → ${data.group || '?'}` };
      if (row.dropped) {
        counts.dropped++;
        yield { ...base, state: 'skipped', phase: 'dropped', data: { ...data, message: 'Left out before the import' } };
      } else if (row.problems.length) {
        counts.invalid++;
        yield {
          ...base,
          state: 'skipped',
          phase: 'invalid',
          data: { ...data, message: row.problems.map((p) => p.message).join('; ') },
        };
      } else yield { ...base, state: 'pending', phase: '', data };
    }
  }
  const sent = rows.filter((row) => !row.dropped && !row.problems.length).length;
  const params: EnrolmentImportParams = { kind, fileName, fileSha256: sha256, rows: rows.length, mode };
  const who = `${sent.toLocaleString('en-US')} ${sent === 1 ? 'person' : 'people'}`;
  const id = journal.transaction(() => {
    const jobId = journal.create({
      kind: 'catalogue-enrol',
      profileId,
      title: `${mode === 'dry-run' ? 'Dry run: enrol' : 'Enrol'} ${who} (${fileName})`,
      params,
      items: items(),
    });
    journal.addCounts(jobId, counts);
    return jobId;
  });
  runner.start(id);
  return { id, resumed: false };
}

/** Errors that end this run (the runner waits for the tenant, or pauses for the admin); the rest fail their rows. */
function endsRun(error: unknown): boolean {
  return (
    error instanceof RequestAbortedError ||
    isTransient(error) ||
    (error instanceof ApiError && (error.status === 401 || error.status === 403))
  );
}

/** A catalogue item a row may name: what it is, and how the enrolment calls name it. */
export type CatalogueItem =
  | { type: 'program'; programId: string; name: string }
  | { type: 'pathway'; pathwayId: string; name: string }
  | { type: 'course'; courseId: string; name: string };

const Program = z
  .object({ id: z.number().optional(), name: z.string().nullish(), program_id: z.string().nullish() })
  .loose();
const Pathway = z.object({ pathway_id: z.string(), name: z.string().nullish(), slug: z.string().nullish() }).loose();
const Course = z.object({ course_id: z.string(), name: z.string().nullish(), slug: z.string().nullish() }).loose();
const People = z
  .object({
    count: z.number(),
    results: z.array(
      z.object({ username: z.string().nullish(), email: z.string().nullish(), user_id: z.number().nullish() }).loose(),
    ),
  })
  .loose();
const ProgramEnrolments = z
  .object({
    count: z.number(),
    next_page: z.unknown().optional(),
    results: z.array(z.object({ username: z.string().nullish() }).loose()),
  })
  .loose();

/** The program id the enrolment calls take: the spec's `program_id`, where the platform answers it. */
function programIdOf(program: Row): string | null {
  const data = (program.data ?? {}) as Row;
  for (const value of [program.program_id, data.program_id, program.slug, data.slug, program.program_key])
    if (typeof value === 'string' && value) return value;
  return null;
}

/** The tenant's catalogue as a finder of the item a cell names (ids and keys exactly, names and slugs without case). */
export async function catalogueFinder(client: PlatformClient, org: string, options: CallOptions) {
  const [programs, pathways, courses] = await Promise.all([
    client.api.GET('/api/catalog/programs/', { params: { query: { org } }, ...options }),
    client.api.GET('/api/catalog/pathways/', { params: { query: { platform_key: org } }, ...options }),
    client.api.GET('/api/catalog/courses/', { params: { query: { org } }, ...options }),
  ]);
  const byName = new Map<string, CatalogueItem[]>();
  const add = (names: unknown[], item: CatalogueItem) => {
    for (const name of new Set(
      names.filter((n): n is string => typeof n === 'string' && !!n).map((n) => n.toLowerCase()),
    ))
      byName.set(name, [...(byName.get(name) ?? []), item]);
  };
  for (const raw of z.array(Program).parse(programs.data ?? [])) {
    const programId = programIdOf(raw);
    if (!programId) continue;
    const data = (raw.data ?? {}) as Row;
    add([programId, raw.name, data.program_key, raw.program_key], {
      type: 'program',
      programId,
      name: raw.name ?? programId,
    });
  }
  for (const raw of z.array(Pathway).parse(pathways.data ?? []))
    add([raw.pathway_id, raw.name, raw.slug], {
      type: 'pathway',
      pathwayId: raw.pathway_id,
      name: raw.name ?? raw.pathway_id,
    });
  for (const raw of z.array(Course).parse(courses.data ?? []))
    add([raw.course_id, raw.name, raw.slug], {
      type: 'course',
      courseId: raw.course_id,
      name: raw.name ?? raw.course_id,
    });
  return (cell: string): { item: CatalogueItem } | { outcome: Outcome; message: string } => {
    const found = byName.get(cell.trim().toLowerCase()) ?? [];
    const enrollable = found.filter((item) => item.type !== 'course');
    if (enrollable.length > 1)
      return {
        outcome: 'invalid',
        message: `${enrollable.length} programs and pathways are named "${cell.trim()}": give the one's id`,
      };
    if (enrollable[0]) return { item: enrollable[0] };
    if (found[0])
      return {
        outcome: 'invalid',
        message: `"${found[0].name}" is a course: the platform has no call that enrols someone in a course; enrol them in a program or pathway that holds it`,
      };
    return {
      outcome: 'unknown',
      message: `No program or pathway "${cell.trim()}" on this tenant (removed, or never there)`,
    };
  };
}

export interface KnownPerson {
  username: string;
  userId: number | null;
}

/** The tenant's people, by username and by email (lower-cased, as the platform compares them). */
export async function peopleOf(
  client: PlatformClient,
  org: string,
  options: CallOptions,
): Promise<Map<string, KnownPerson>> {
  const known = new Map<string, KnownPerson>();
  const size = 500;
  for (let page = 1; ; page++) {
    const { data } = await client.api.GET('/api/core/platform/users/', {
      params: { query: { platform_key: org, page, page_size: size } },
      ...options,
    });
    const answer = People.parse(data);
    for (const user of answer.results) {
      if (!user.username) continue;
      const person = { username: user.username, userId: user.user_id ?? null };
      known.set(user.username, person);
      if (user.email) known.set(user.email.toLowerCase(), person);
    }
    if (!answer.results.length || page * size >= answer.count) return known;
  }
}

/** Who is enrolled in a program (every page of its enrolment search). */
export async function programEnrolled(
  client: PlatformClient,
  org: string,
  programId: string,
  options: CallOptions,
): Promise<Set<string>> {
  const enrolled = new Set<string>();
  const size = 1000;
  for (let page = 1; ; page++) {
    const { data } = await client.api.GET('/api/catalog/enrollment/programs/search/', {
      params: { query: { platform_key: org, program_id: programId, page, page_size: size } },
      ...options,
    });
    const answer = ProgramEnrolments.parse(data);
    for (const row of answer.results) if (row.username) enrolled.add(row.username);
    if (!answer.next_page || !answer.results.length || page * size >= answer.count) return enrolled;
  }
}

/** Whether a person follows a pathway now (the enrolment read answers 404 when they do not). */
export async function pathwayEnrolled(
  client: PlatformClient,
  org: string,
  pathwayId: string,
  username: string,
  options: CallOptions,
): Promise<boolean> {
  try {
    const { data } = await client.api.GET('/api/catalog/enrollment/pathways/', {
      params: { query: { platform_key: org, pathway_id: pathwayId, username, active: true, include_metadata: true } },
      ...options,
    });
    return (data as { active?: unknown } | undefined)?.active !== false;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return false;
    throw error;
  }
}

/** One enrolment, with the spec's defaults said out loud (`active` true, `include_metadata` true). */
export async function enrol(
  client: PlatformClient,
  org: string,
  item: Exclude<CatalogueItem, { type: 'course' }>,
  username: string,
  options: CallOptions,
): Promise<void> {
  if (item.type === 'program') {
    const query = {
      platform_key: org,
      program_id: item.programId,
      username,
      active: true,
      include_metadata: true,
      ignore_expiration: false,
    };
    await client.api.POST('/api/catalog/enrollment/programs/', { params: { query }, body: query as never, ...options });
  } else {
    const query = { platform_key: org, pathway_id: item.pathwayId, username, active: true, include_metadata: true };
    await client.api.POST('/api/catalog/enrollment/pathways/', { params: { query }, body: query as never, ...options });
  }
}

const keyOf = (item: CatalogueItem) =>
  item.type === 'program' ? `program:${item.programId}` : item.type === 'pathway' ? `pathway:${item.pathwayId}` : '';

export function enrolmentImportKind(deps: {
  profiles: Profiles;
  changed: (profileId: string, kind: ResourceKind) => void;
  finished?: (job: Job) => void;
}): JobKindRunner {
  return {
    kind: 'catalogue-enrol',
    bulkWrites: true,
    report: enrolmentReport,
    ...(deps.finished && { finished: deps.finished }),
    async run(ctx: JobContext) {
      const params = ctx.params as EnrolmentImportParams;
      const profileId = ctx.job.profile_id ?? '';
      const { journal } = ctx;
      const client = await ctx.client();
      const { org } = await userScope(deps.profiles, profileId);
      const options = { signal: ctx.signal };
      setMaxListeners(64, ctx.signal);

      const settle = (results: Settled[]) => {
        if (!results.length) return;
        const counts: Record<string, number> = {};
        const alike = new Map<string, { outcome: Outcome; message?: string; ids: number[] }>();
        for (const { item, outcome, message } of results) {
          counts[outcome] = (counts[outcome] ?? 0) + 1;
          const key = `${outcome}\n${message ?? ''}`;
          if (!alike.has(key)) alike.set(key, { outcome, ...(message !== undefined && { message }), ids: [] });
          alike.get(key)!.ids.push(item.id);
        }
        journal.transaction(() => {
          for (const { outcome, message, ids } of alike.values()) {
            journal.updateItems(ids, {
              state: outcome === 'failed' ? 'failed' : ['unknown', 'invalid'].includes(outcome) ? 'skipped' : 'done',
              phase: outcome,
              error: outcome === 'failed' ? (message ?? 'Failed') : null,
              ...(message !== undefined && outcome !== 'failed' && { data: { message } }),
            });
          }
          journal.addCounts(ctx.job.id, counts);
        });
      };

      ctx.progress('Reading the catalogue and the tenant’s people');
      const [findItem, people] = await Promise.all([
        catalogueFinder(client, org, options),
        peopleOf(client, org, options),
      ]);
      const pending = journal
        .workIn(ctx.job.id, ['pending', 'active'])
        .map(({ id, phase, data }: WorkItem): Work => ({ id, phase, data: JSON.parse(data) as EnrolmentItemData }));

      const unresolved: Settled[] = [];
      const toSend: { item: Work; target: Exclude<CatalogueItem, { type: 'course' }>; username: string }[] = [];
      const seen = new Map<string, number>();
      for (const item of pending) {
        const found = findItem(item.data.group);
        if ('outcome' in found) {
          unresolved.push({ item, outcome: found.outcome, message: found.message });
          continue;
        }
        const person = item.data.person.trim();
        const username = people.get(person.includes('@') ? person.toLowerCase() : person)?.username;
        if (!username) {
          unresolved.push({
            item,
            outcome: 'unknown',
            message: person.includes('@')
              ? `No person with the email ${person} on this tenant`
              : `No person "${person}" on this tenant`,
          });
          continue;
        }
        const target = found.item as Exclude<CatalogueItem, { type: 'course' }>;
        // The same person and item twice in one file: the second row is "already" (enrolled by the first).
        const pair = `${keyOf(target)}\n${username}`;
        const earlier = seen.get(pair);
        if (earlier !== undefined) {
          unresolved.push({ item, outcome: 'already', message: `Enrolled by line ${earlier} of this file` });
          continue;
        }
        seen.set(pair, item.data.line);
        toSend.push({ item, target, username });
      }
      settle(unresolved);

      ctx.progress('Reading who is enrolled already');
      const programIds = [
        ...new Set(
          toSend.filter((s) => s.target.type === 'program').map((s) => (s.target as { programId: string }).programId),
        ),
      ];
      const enrolledIn = new Map(
        await Promise.all(programIds.map(async (id) => [id, await programEnrolled(client, org, id, options)] as const)),
      );
      const isEnrolled = async (target: Exclude<CatalogueItem, { type: 'course' }>, username: string) =>
        target.type === 'program'
          ? !!enrolledIn.get(target.programId)?.has(username)
          : pathwayEnrolled(client, org, target.pathwayId, username, options);

      const dryRun = params.mode === 'dry-run';
      ctx.progress(dryRun ? 'Checking each row' : 'Enrolling');
      const send = async ({ item, target, username }: (typeof toSend)[number]): Promise<Settled> => {
        if (ctx.signal.aborted) throw new RequestAbortedError();
        const resumed = item.phase === SENDING;
        try {
          if (!resumed && (await isEnrolled(target, username)))
            return { item, outcome: 'already', message: `Already enrolled in ${target.name}` };
          if (dryRun) return { item, outcome: 'wouldAdd' };
          journal.updateItems([item.id], { phase: SENDING });
          await enrol(client, org, target, username, options);
          return resumed
            ? { item, outcome: 'added', message: 'Enrolled (sent again after the import was interrupted)' }
            : { item, outcome: 'added' };
        } catch (error) {
          if (endsRun(error)) throw error;
          // The platform's own words ("Not found - program doesn't exist"), as the spec gives them.
          const message =
            error instanceof ApiError
              ? (error.detail ?? error.message)
              : error instanceof Error
                ? error.message
                : String(error);
          if (error instanceof ApiError && error.status === 404) return { item, outcome: 'unknown', message };
          return { item, outcome: error instanceof ApiError && error.status === 400 ? 'invalid' : 'failed', message };
        }
      };

      // Settled a batch at a time: one transaction per few hundred rows, not per row.
      let batch: Settled[] = [];
      const flush = () => {
        settle(batch);
        batch = [];
        ctx.progress();
      };
      // A few rows in the tenant's limiter at a time (it lets through as many as the tenant takes): not one waiter,
      // and one abort listener, per row of a long file.
      let next = 0;
      const settled = await Promise.allSettled(
        Array.from({ length: WAITING_ROWS }, async () => {
          while (next < toSend.length) {
            const work = toSend[next++]!;
            await ctx.limiter.run(async () => {
              // Awaited first: `batch` is replaced by every flush, and a push must reach the one of its time.
              const result = await send(work);
              batch.push(result);
              if (batch.length >= 200) flush();
            }, ctx.signal);
          }
        }),
      );
      flush();
      if (!dryRun) for (const kind of [params.kind, 'program-enrollments'] as const) deps.changed(profileId, kind);
      const stop = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      // Rows that got no answer stay pending or `sending`: the next run sends them again, enrolling nobody twice.
      if (stop) throw stop.reason;
    },
  };
}

const RESULTS: Record<string, string> = {
  added: 'enrolled',
  wouldAdd: 'would enrol',
  already: 'already',
  unknown: 'unknown',
  invalid: 'invalid',
  dropped: 'dropped',
  failed: 'failed',
};

/** One line per input row, in file order (the journal's CSV writer makes every cell safe for spreadsheets). */
export const enrolmentReport: ItemReport = {
  header: ['row', 'person', 'enrolled in', 'result', 'message'],
  row(item) {
    const data = JSON.parse(item.data) as EnrolmentItemData;
    const result =
      item.state === 'pending' || item.state === 'active' ? 'not sent' : (RESULTS[item.phase] ?? item.phase);
    return [data.line, data.person, data.group, result, item.error ?? data.message ?? ''];
  },
};
