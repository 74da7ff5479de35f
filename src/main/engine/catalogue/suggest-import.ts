/**
 * The `catalogue-suggest` job: a CSV file of people (email or username) and courses (by id, slug or name) on the
 * people-file import job (people-import/), sent through the platform's bulk call (`suggestions/course/manage/bulk/`)
 * in batches.
 *
 * Before anything is sent the job reads the tenant's people, courses and suggestions: a row whose person or course is
 * not the tenant's is settled as unknown, one already suggested as "already" (not an error). A dry run stops there,
 * saying what each row would do. The platform's call creates or updates (one suggestion per person and course), so a
 * batch a killed run left in flight is sent again and suggests nothing twice.
 */
import { z } from 'zod';
import type { Job } from '../../../shared/contract';
import type { ResourceKind } from '../../../shared/resources';
import type { JobKindRunner } from '../jobs';
import {
  noSuchPerson,
  peopleImportJob,
  readTenantPeople,
  settleRepeats,
  startKitImport,
  PAIR_COLUMNS,
  peopleCount,
  type KitImportParams,
  type PairItemData,
  type Outcome,
  type PeopleImport,
  type PeopleRow,
  type Sendable,
  type Settled,
  type TenantPerson,
} from '../people-import';
import { ApiError, type CallOptions, type PlatformClient } from '../platform';
import type { Profiles } from '../profiles';
import type { ImportServices } from '../resources';

/** Suggestions per bulk request. */
const BATCH = 500;

export type SuggestionImportParams = KitImportParams;
export type SuggestionItemData = PairItemData;

/** Writes the job and its items (rows that will not be sent settled at once) and starts it; resumes the same one. */
export function startSuggestionJob(
  ctx: Pick<ImportServices, 'journal' | 'runner'>,
  profileId: string,
  kind: ResourceKind,
  fileName: string,
  sha256: string,
  rows: readonly PeopleRow[],
  mode: SuggestionImportParams['mode'],
): { id: string; resumed: boolean } {
  const what = mode === 'dry-run' ? 'Dry run: suggest courses to' : 'Suggest courses to';
  return startKitImport(
    ctx,
    'catalogue-suggest',
    { profileId, kind, fileName, sha256, rows, mode },
    {
      label: (data) => `${data.group || '?'} → ${data.person || '?'}`,
      title: (sent) => `${what} ${peopleCount(sent)} (${fileName})`,
    },
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

type Target = { course: Course; person: TenantPerson };

export function suggestionImportKind(deps: {
  profiles: Profiles;
  changed: (profileId: string, kind: ResourceKind) => void;
  finished?: (job: Job) => void;
}): JobKindRunner {
  type Tenant = {
    findCourse: Awaited<ReturnType<typeof courseFinder>>;
    people: Awaited<ReturnType<typeof readTenantPeople>>;
    existing: Set<string>;
  };
  const kind: PeopleImport<SuggestionImportParams, SuggestionItemData, Target, Tenant> = {
    job: 'catalogue-suggest',
    columns: PAIR_COLUMNS,
    report: {
      header: ['row', 'person', 'course', 'result', 'message'],
      words: { added: 'suggested', wouldAdd: 'would suggest' },
    },
    async read({ ctx, client, org, options }) {
      ctx.progress('Reading the courses, the tenant’s people and their suggestions');
      const [findCourse, people, existing] = await Promise.all([
        courseFinder(client, org, options),
        readTenantPeople(client, org, options),
        suggested(client, org, options),
      ]);
      return { findCourse, people, existing };
    },
    resolve(_run, { findCourse, people, existing }, work) {
      const settled: Settled[] = [];
      const found: Sendable<SuggestionItemData, Target>[] = [];
      for (const item of work) {
        const answer = findCourse(item.data.group);
        if ('outcome' in answer) {
          settled.push({ item, outcome: answer.outcome, message: answer.message });
          continue;
        }
        const person = people.find(item.data.person);
        if (!person?.username) {
          settled.push({ item, outcome: 'unknown', message: noSuchPerson(item.data.person) });
          continue;
        }
        found.push({ item, target: { course: answer.course, person } });
      }
      // The same person and course twice in one file: suggested once, the later rows are repeats.
      const pairOf = ({ target }: { target: Target }) => `${target.course.courseId}\n${target.person.username}`;
      const { send: once, repeated } = settleRepeats(found, pairOf);
      settled.push(...repeated);
      const send: Sendable<SuggestionItemData, Target>[] = [];
      for (const row of once) {
        // A row a killed run left in flight is sent again: the platform's call updates what it made then.
        if (!row.item.resumed && existing.has(pairOf(row))) {
          const message = `${row.target.course.name} is already suggested to them`;
          settled.push({ item: row.item, outcome: 'already', message });
        } else send.push(row);
      }
      return { settled, send };
    },
    dryRun: (_run, _tenant, send) => send.map(({ item }) => ({ item, outcome: 'wouldAdd' })),
    sending: () => 'Suggesting',
    sender: {
      batch: BATCH,
      async bulk({ client, org, options }, batch) {
        const suggestionData = batch.map(({ target: { course, person } }) => ({
          course_id: course.courseId,
          ...(person.userId !== null && { user_id: person.userId }),
          username: person.username,
          visible: true,
        }));
        const { data } = await client.api.POST('/api/catalog/suggestions/course/manage/bulk/', {
          body: { platform_key: org, suggestion_data: suggestionData },
          ...options,
        });
        const answer = Bulk.parse(data);
        // The platform names a failed suggestion by its place in the batch where it says which ("2: …").
        const failed = new Map<number, string>();
        for (const code of answer.error_codes) {
          const match = /^(\d+)\s*:\s*(.*)$/.exec(code);
          if (match) failed.set(Number(match[1]), match[2]!);
        }
        const unplaced = answer.error_codes.filter((code) => !/^\d+\s*:/.test(code));
        return batch.map(({ item }, index): Settled => {
          const why = failed.get(index);
          if (why !== undefined) return { item, outcome: 'failed', message: why };
          // Errors the platform did not place: the batch's count of successes is all the app knows.
          if (unplaced.length && index >= answer.successes)
            return { item, outcome: 'failed', message: unplaced.join('; ') };
          return { item, outcome: 'added' };
        });
      },
    },
    refused: (_run, error) => ({
      outcome: 'failed',
      message: error instanceof ApiError ? (error.detail ?? error.message) : String(error),
    }),
    changed: ({ profileId, params }) => deps.changed(profileId, params.kind),
  };
  return peopleImportJob(kind, deps);
}
