/**
 * The `catalogue-suggest` job: a CSV file of people (email or username) and courses (by id, slug or name) read by the
 * kit's import pipeline (resources/import.ts), one journal item per row, sent through the platform's bulk call
 * (`suggestions/course/manage/bulk/`) in batches.
 *
 * Before anything is sent the job reads the tenant's people, courses and suggestions: a row whose person or course is
 * not the tenant's is settled as unknown, one already suggested as "already" (not an error). A dry run stops there,
 * saying what each row would do. Resumable: a batch is marked `sending` before its request; the platform's call
 * creates or updates (one suggestion per person and course), so a batch sent again suggests nothing twice.
 */
import { z } from 'zod';
import type { Job } from '../../../shared/contract';
import type { ResourceKind } from '../../../shared/resources';
import type { ItemReport, JobContext, JobKindRunner, NewItem, WorkItem } from '../jobs';
import { UNFINISHED_STATES } from '../jobs';
import { ApiError, isTransient, RequestAbortedError, type CallOptions, type PlatformClient } from '../platform';
import type { Profiles } from '../profiles';
import { userScope } from '../tenants';
import type { ImportServices, MembersRow } from '../resources';
import { peopleOf, type KnownPerson } from './enrol-import';

type Outcome = 'added' | 'wouldAdd' | 'already' | 'unknown' | 'invalid' | 'failed' | 'dropped';
const SENDING = 'sending';
/** Suggestions per bulk request. */
const BATCH = 500;

export interface SuggestionImportParams {
  kind: ResourceKind;
  fileName: string;
  fileSha256: string;
  rows: number;
  mode: 'send' | 'dry-run';
}

export type SuggestionItemData = { line: number; person: string; group: string; message?: string };

interface Work {
  id: number;
  phase: string;
  data: SuggestionItemData;
}
interface Settled {
  item: Work;
  outcome: Outcome;
  message?: string;
}

/** Writes the job and its items (rows that will not be sent settled at once) and starts it; resumes the same one. */
export function startSuggestionJob(
  ctx: Pick<ImportServices, 'journal' | 'runner'>,
  profileId: string,
  kind: ResourceKind,
  fileName: string,
  sha256: string,
  rows: readonly MembersRow[],
  mode: SuggestionImportParams['mode'],
): { id: string; resumed: boolean } {
  const { journal, runner } = ctx;
  const [unfinished] = journal.find({
    kind: 'catalogue-suggest',
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
      const data: SuggestionItemData = {
        line: row.line,
        person: row.values.person ?? '',
        group: row.values.group ?? '',
      };
      const base = { key: `line:${row.line}`, label: `${data.group || '?'} → ${data.person || '?'}` };
      if (row.dropped) {
        counts.dropped++;
        yield { ...base, state: 'skipped', phase: 'dropped', data: { ...data, message: 'Left out before the import' } };
      } else if (row.problems.length) {
        counts.invalid++;
        const message = row.problems.map((p) => p.message).join('; ');
        yield { ...base, state: 'skipped', phase: 'invalid', data: { ...data, message } };
      } else yield { ...base, state: 'pending', phase: '', data };
    }
  }
  const sent = rows.filter((row) => !row.dropped && !row.problems.length).length;
  const params: SuggestionImportParams = { kind, fileName, fileSha256: sha256, rows: rows.length, mode };
  const who = `${sent.toLocaleString('en-US')} ${sent === 1 ? 'person' : 'people'}`;
  const id = journal.transaction(() => {
    const jobId = journal.create({
      kind: 'catalogue-suggest',
      profileId,
      title: `${mode === 'dry-run' ? 'Dry run: suggest courses to' : 'Suggest courses to'} ${who} (${fileName})`,
      params,
      items: items(),
    });
    journal.addCounts(jobId, counts);
    return jobId;
  });
  runner.start(id);
  return { id, resumed: false };
}

function endsRun(error: unknown): boolean {
  return (
    error instanceof RequestAbortedError ||
    isTransient(error) ||
    (error instanceof ApiError && (error.status === 401 || error.status === 403))
  );
}

const Course = z.object({ course_id: z.string(), name: z.string().nullish(), slug: z.string().nullish() }).loose();
const Suggestions = z
  .object({
    count: z.number(),
    next_page: z.unknown().optional(),
    results: z.array(z.object({ course_id: z.string(), username: z.string().nullish() }).loose()),
  })
  .loose();
const Bulk = z.object({ successes: z.number(), error_codes: z.array(z.string()) }).loose();

type Course = { courseId: string; name: string };

/** The tenant's courses as a finder of the one a cell names (the id exactly, a name or slug without case). */
async function courseFinder(client: PlatformClient, org: string, options: CallOptions) {
  const { data } = await client.api.GET('/api/catalog/courses/', { params: { query: { org } }, ...options });
  const byName = new Map<string, Course[]>();
  for (const raw of z.array(Course).parse(data ?? [])) {
    const course = { courseId: raw.course_id, name: raw.name ?? raw.course_id };
    for (const name of new Set(
      [raw.course_id, raw.name, raw.slug].filter((n): n is string => !!n).map((n) => n.toLowerCase()),
    ))
      byName.set(name, [...(byName.get(name) ?? []), course]);
  }
  return (cell: string): { course: Course } | { outcome: Outcome; message: string } => {
    const found = byName.get(cell.trim().toLowerCase()) ?? [];
    if (found.length > 1)
      return { outcome: 'invalid', message: `${found.length} courses are named "${cell.trim()}": give the one's id` };
    if (found[0]) return { course: found[0] };
    return { outcome: 'unknown', message: `No course "${cell.trim()}" on this tenant (removed, or never there)` };
  };
}

/** Every suggestion the tenant has, as `course_id\nusername` (every page of the manage list). */
async function suggested(client: PlatformClient, org: string, options: CallOptions): Promise<Set<string>> {
  const pairs = new Set<string>();
  const size = 1000;
  for (let page = 1; ; page++) {
    const { data } = await client.api.GET('/api/catalog/suggestions/course/manage/', {
      params: { query: { platform_key: org, page, page_size: size } },
      ...options,
    });
    const answer = Suggestions.parse(data);
    for (const row of answer.results) if (row.username) pairs.add(`${row.course_id}\n${row.username}`);
    if (!answer.next_page || !answer.results.length || page * size >= answer.count) return pairs;
  }
}

export function suggestionImportKind(deps: {
  profiles: Profiles;
  changed: (profileId: string, kind: ResourceKind) => void;
  finished?: (job: Job) => void;
}): JobKindRunner {
  return {
    kind: 'catalogue-suggest',
    bulkWrites: true,
    report: suggestionReport,
    ...(deps.finished && { finished: deps.finished }),
    async run(ctx: JobContext) {
      const params = ctx.params as SuggestionImportParams;
      const profileId = ctx.job.profile_id ?? '';
      const { journal } = ctx;
      const client = await ctx.client();
      const { org } = await userScope(deps.profiles, profileId);
      const options = { signal: ctx.signal };

      const settle = (results: Settled[]) => {
        if (!results.length) return;
        const counts: Record<string, number> = {};
        journal.transaction(() => {
          for (const { item, outcome, message } of results) {
            counts[outcome] = (counts[outcome] ?? 0) + 1;
            journal.updateItems([item.id], {
              state: outcome === 'failed' ? 'failed' : ['unknown', 'invalid'].includes(outcome) ? 'skipped' : 'done',
              phase: outcome,
              error: outcome === 'failed' ? (message ?? 'Failed') : null,
              ...(message !== undefined && outcome !== 'failed' && { data: { message } }),
            });
          }
          journal.addCounts(ctx.job.id, counts);
        });
      };

      ctx.progress('Reading the courses, the tenant’s people and their suggestions');
      const [findCourse, people, existing] = await Promise.all([
        courseFinder(client, org, options),
        peopleOf(client, org, options),
        suggested(client, org, options),
      ]);
      const pending = journal
        .workIn(ctx.job.id, ['pending', 'active'])
        .map(({ id, phase, data }: WorkItem): Work => ({ id, phase, data: JSON.parse(data) as SuggestionItemData }));

      const unresolved: Settled[] = [];
      const toSend: { item: Work; course: Course; person: KnownPerson }[] = [];
      const seen = new Map<string, number>();
      for (const item of pending) {
        const found = findCourse(item.data.group);
        if ('outcome' in found) {
          unresolved.push({ item, outcome: found.outcome, message: found.message });
          continue;
        }
        const cell = item.data.person.trim();
        const person = people.get(cell.includes('@') ? cell.toLowerCase() : cell);
        if (!person) {
          const message = cell.includes('@')
            ? `No person with the email ${cell} on this tenant`
            : `No person "${cell}" on this tenant`;
          unresolved.push({ item, outcome: 'unknown', message });
          continue;
        }
        const pair = `${found.course.courseId}\n${person.username}`;
        const earlier = seen.get(pair);
        if (earlier !== undefined) {
          unresolved.push({ item, outcome: 'already', message: `Suggested by line ${earlier} of this file` });
          continue;
        }
        seen.set(pair, item.data.line);
        // A row left `sending` by a killed run is sent again: the platform's call updates what it made then.
        if (item.phase !== SENDING && existing.has(pair)) {
          unresolved.push({ item, outcome: 'already', message: `${found.course.name} is already suggested to them` });
          continue;
        }
        toSend.push({ item, course: found.course, person });
      }
      settle(unresolved);

      if (params.mode === 'dry-run') {
        settle(toSend.map(({ item }) => ({ item, outcome: 'wouldAdd' as const })));
        ctx.progress();
        return;
      }
      ctx.progress('Suggesting');
      for (let start = 0; start < toSend.length; start += BATCH) {
        if (ctx.signal.aborted) throw new RequestAbortedError();
        const batch = toSend.slice(start, start + BATCH);
        journal.updateItems(
          batch.map(({ item }) => item.id),
          { phase: SENDING },
        );
        const suggestionData = batch.map(({ course, person }) => ({
          course_id: course.courseId,
          ...(person.userId !== null && { user_id: person.userId }),
          username: person.username,
          visible: true,
        }));
        let answer: z.infer<typeof Bulk>;
        try {
          const { data } = await ctx.limiter.run(
            () =>
              client.api.POST('/api/catalog/suggestions/course/manage/bulk/', {
                body: { platform_key: org, suggestion_data: suggestionData },
                ...options,
              }),
            ctx.signal,
          );
          answer = Bulk.parse(data);
        } catch (error) {
          if (endsRun(error)) throw error;
          const message = error instanceof ApiError ? (error.detail ?? error.message) : String(error);
          settle(batch.map(({ item }) => ({ item, outcome: 'failed' as const, message })));
          continue;
        }
        // The platform names a failed suggestion by its place in the batch where it says which ("2: …").
        const failed = new Map<number, string>();
        for (const code of answer.error_codes) {
          const match = /^(\d+)\s*:\s*(.*)$/.exec(code);
          if (match) failed.set(Number(match[1]), match[2]!);
        }
        const unplaced = answer.error_codes.filter((code) => !/^\d+\s*:/.test(code));
        settle(
          batch.map(({ item }, index) => {
            const why = failed.get(index);
            if (why !== undefined) return { item, outcome: 'failed' as const, message: why };
            // Errors the platform did not place: the batch's count of successes is all the app knows.
            if (unplaced.length && index >= answer.successes)
              return { item, outcome: 'failed' as const, message: unplaced.join('; ') };
            return { item, outcome: 'added' as const };
          }),
        );
        ctx.progress();
      }
      deps.changed(profileId, params.kind);
    },
  };
}

const RESULTS: Record<string, string> = {
  added: 'suggested',
  wouldAdd: 'would suggest',
  already: 'already',
  unknown: 'unknown',
  invalid: 'invalid',
  dropped: 'dropped',
  failed: 'failed',
};

/** One line per input row, in file order (the journal's CSV writer makes every cell safe for spreadsheets). */
export const suggestionReport: ItemReport = {
  header: ['row', 'person', 'course', 'result', 'message'],
  row(item) {
    const data = JSON.parse(item.data) as SuggestionItemData;
    const result =
      item.state === 'pending' || item.state === 'active' ? 'not sent' : (RESULTS[item.phase] ?? item.phase);
    return [data.line, data.person, data.group, result, item.error ?? data.message ?? ''];
  },
};
