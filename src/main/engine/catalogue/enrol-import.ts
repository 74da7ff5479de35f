/**
 * The `catalogue-enrol` job: a CSV file of people (email or username) and catalogue items (a program or a pathway, by
 * id, key, slug or name) on the people-file import job (people-import/), each row enrolled by one
 * `enrollment/programs/` or `enrollment/pathways/` POST (the spec has no bulk enrolment call, and none that enrols in a
 * course: a row naming a course says so, naming the programs and pathways that contain it, and the others go on).
 *
 * Before anything is sent the job reads the tenant's people, programs, pathways and courses, and the programs'
 * enrolments: a row whose person or item is not the tenant's is settled as unknown (an item deleted since the file
 * was written included), one already enrolled as "already" (not an error). A dry run stops there, saying what each
 * row would do. The POST is idempotent (the platform answers an existing enrolment again), so a row a killed run left
 * in flight is sent again and enrols nobody twice.
 */
import { z } from 'zod';
import type { Job } from '../../../shared/contract';
import type { ResourceKind } from '../../../shared/resources';
import type { JobKindRunner } from '../jobs';
import {
  eachInLimiter,
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
} from '../people-import';
import { ApiError, type CallOptions, type PlatformClient } from '../platform';
import type { Profiles } from '../profiles';
import type { ImportServices } from '../resources';

type Row = Record<string, unknown>;

export type EnrolmentImportParams = KitImportParams;
export type EnrolmentItemData = PairItemData;

/** Writes the job and its items (rows that will not be sent settled at once) and starts it; resumes the same one. */
export function startEnrolmentJob(
  ctx: Pick<ImportServices, 'journal' | 'runner'>,
  profileId: string,
  kind: ResourceKind,
  fileName: string,
  sha256: string,
  rows: readonly PeopleRow[],
  mode: EnrolmentImportParams['mode'],
): { id: string; resumed: boolean } {
  return startKitImport(
    ctx,
    'catalogue-enrol',
    { profileId, kind, fileName, sha256, rows, mode },
    {
      label: (data) => `${data.person || '?'} → ${data.group || '?'}`,
      title: (sent) => `${mode === 'dry-run' ? 'Dry run: enrol' : 'Enrol'} ${peopleCount(sent)} (${fileName})`,
    },
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
  return (cell: string): { item: CatalogueItem } | { outcome: Outcome; message: string } | { course: CourseItem } => {
    const found = byName.get(cell.trim().toLowerCase()) ?? [];
    const enrollable = found.filter((item) => item.type !== 'course');
    if (enrollable.length > 1)
      return {
        outcome: 'invalid',
        message: `${enrollable.length} programs and pathways are named "${cell.trim()}": give the one's id`,
      };
    if (enrollable[0]) return { item: enrollable[0] };
    if (found[0]?.type === 'course') return { course: found[0] };
    return {
      outcome: 'unknown',
      message: `No program or pathway "${cell.trim()}" on this tenant (removed, or never there)`,
    };
  };
}

type CourseItem = Extract<CatalogueItem, { type: 'course' }>;

/** The tenant's programs and pathways that contain a course (the spec's `course_id` and `item_id` list filters). */
export async function courseHolders(
  client: PlatformClient,
  org: string,
  courseId: string,
  options: CallOptions,
): Promise<{ programs: { id: string; name: string }[]; pathways: { id: string; name: string }[] }> {
  const [programs, pathways] = await Promise.all([
    client.api.GET('/api/catalog/programs/', { params: { query: { org, course_id: courseId } }, ...options }),
    client.api.GET('/api/catalog/pathways/', {
      params: { query: { platform_key: org, item_id: courseId } },
      ...options,
    }),
  ]);
  return {
    // A program is addressed in the app by its listed `id`; its name is what people know it by.
    programs: z
      .array(Program)
      .parse(programs.data ?? [])
      .flatMap((raw) => {
        const id = raw.id ?? programIdOf(raw);
        return id === null || id === undefined ? [] : [{ id: String(id), name: raw.name || programIdOf(raw) || '' }];
      }),
    pathways: z
      .array(Pathway)
      .parse(pathways.data ?? [])
      .map((raw) => ({ id: raw.pathway_id, name: raw.name || raw.pathway_id })),
  };
}

/** Why a row naming a course is not sent, in an administrator's words, with where the course can be found. */
export function courseRowMessage(
  course: CourseItem,
  holders: Awaited<ReturnType<typeof courseHolders>> | null,
): string {
  const reason = 'Courses can’t be enrolled directly; enrol in a program or pathway that contains it';
  if (!holders) return `${reason} (“${course.name}” is a course)`;
  const names = [
    ...holders.programs.map((p) => `the program “${p.name}”`),
    ...holders.pathways.map((p) => `the pathway “${p.name}”`),
  ];
  if (!names.length) return `${reason} (no program or pathway contains “${course.name}” yet)`;
  const shown = names.length > 3 ? [...names.slice(0, 3), `${names.length - 3} more`] : names;
  return `${reason} (“${course.name}” is in ${shown.slice(0, -1).join(', ')}${shown.length > 1 ? ' and ' : ''}${shown.at(-1)})`;
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

type Enrollable = Exclude<CatalogueItem, { type: 'course' }>;
/** How many distinct courses a file may name and still have each row say which programs and pathways hold it. */
const COURSES_LOOKED_UP = 20;
/** A row's enrolment, and how to learn whether the person has it already (one check shared by the run's rows). */
type Target = {
  item: Enrollable;
  username: string;
  isEnrolled: (item: Enrollable, username: string) => Promise<boolean>;
};

export function enrolmentImportKind(deps: {
  profiles: Profiles;
  changed: (profileId: string, kind: ResourceKind) => void;
  finished?: (job: Job) => void;
}): JobKindRunner {
  type Tenant = {
    findItem: Awaited<ReturnType<typeof catalogueFinder>>;
    people: Awaited<ReturnType<typeof readTenantPeople>>;
  };
  const kind: PeopleImport<EnrolmentImportParams, EnrolmentItemData, Target, Tenant> = {
    job: 'catalogue-enrol',
    columns: PAIR_COLUMNS,
    report: {
      header: ['row', 'person', 'enrolled in', 'result', 'message'],
      words: { added: 'enrolled', wouldAdd: 'would enrol' },
    },
    async read({ ctx, client, org, options }) {
      ctx.progress('Reading the catalogue and the tenant’s people');
      const [findItem, people] = await Promise.all([
        catalogueFinder(client, org, options),
        readTenantPeople(client, org, options),
      ]);
      return { findItem, people };
    },
    async resolve({ ctx, client, org, options }, { findItem, people }, work) {
      const settled: Settled[] = [];
      let send: Sendable<EnrolmentItemData, Omit<Target, 'isEnrolled'>>[] = [];
      const courseRows: { item: (typeof work)[number]; course: CourseItem; person: string | null }[] = [];
      for (const item of work) {
        const found = findItem(item.data.group);
        const username = people.find(item.data.person)?.username;
        if ('course' in found) {
          // Said once per row, after the file's courses are looked up: the person's own problem stays on the row.
          courseRows.push({ item, course: found.course, person: username ? null : noSuchPerson(item.data.person) });
          continue;
        }
        if ('outcome' in found) {
          settled.push({ item, outcome: found.outcome, message: found.message });
          continue;
        }
        if (!username) {
          settled.push({ item, outcome: 'unknown', message: noSuchPerson(item.data.person) });
          continue;
        }
        send.push({ item, target: { item: found.item as Enrollable, username } });
      }
      // The same person and item twice in one file: enrolled once, the later rows are repeats.
      const repeats = settleRepeats(send, ({ target }) => `${keyOf(target.item)}\n${target.username}`);
      settled.push(...repeats.repeated);
      send = repeats.send;

      if (courseRows.length) {
        ctx.progress('Looking up the programs and pathways that contain the file’s courses');
        const courses = [...new Map(courseRows.map(({ course }) => [course.courseId, course])).values()];
        // A file naming many courses is told the reason alone rather than read every course's programs.
        const holders = new Map(
          courses.length > COURSES_LOOKED_UP
            ? []
            : await Promise.all(
                courses.map(async (c) => [c.courseId, await courseHolders(client, org, c.courseId, options)] as const),
              ),
        );
        for (const { item, course, person } of courseRows) {
          const why = courseRowMessage(course, holders.get(course.courseId) ?? null);
          settled.push(
            person
              ? { item, outcome: 'unknown', message: `${person}. ${why}`, tally: 'courses' }
              : { item, outcome: 'invalid', message: why, tally: 'courses' },
          );
        }
      }

      ctx.progress('Reading who is enrolled already');
      const programIds = [
        ...new Set(send.flatMap(({ target }) => (target.item.type === 'program' ? [target.item.programId] : []))),
      ];
      const enrolledIn = new Map(
        await Promise.all(programIds.map(async (id) => [id, await programEnrolled(client, org, id, options)] as const)),
      );
      // A program's enrolments are read once; a pathway's, per person.
      const isEnrolled = async (item: Enrollable, username: string) =>
        item.type === 'program'
          ? !!enrolledIn.get(item.programId)?.has(username)
          : pathwayEnrolled(client, org, item.pathwayId, username, options);
      return { settled, send: send.map((row) => ({ ...row, target: { ...row.target, isEnrolled } })) };
    },
    async dryRun({ ctx }, _tenant, send) {
      ctx.progress('Checking each row');
      return eachInLimiter(ctx, send, async ({ item, target }) =>
        (await target.isEnrolled(target.item, target.username))
          ? { item, outcome: 'already', message: `Already enrolled in ${target.item.name}` }
          : { item, outcome: 'wouldAdd' },
      );
    },
    sending: () => 'Enrolling',
    sender: {
      batch: 200,
      async each({ client, org, options }, { item, target }) {
        // A row a killed run left in flight is sent again (the POST answers an existing enrolment again).
        if (!item.resumed && (await target.isEnrolled(target.item, target.username)))
          return { item, outcome: 'already', message: `Already enrolled in ${target.item.name}` };
        await enrol(client, org, target.item, target.username, options);
        return item.resumed
          ? { item, outcome: 'added', message: 'Enrolled (sent again after the import was interrupted)' }
          : { item, outcome: 'added' };
      },
    },
    refused(_run, error) {
      // The platform's own words ("Not found - program doesn't exist"), as the spec gives them.
      const message =
        error instanceof ApiError
          ? (error.detail ?? error.message)
          : error instanceof Error
            ? error.message
            : String(error);
      const status = error instanceof ApiError ? error.status : 0;
      return { outcome: status === 404 ? 'unknown' : status === 400 ? 'invalid' : 'failed', message };
    },
    changed({ profileId, params }) {
      // A program's enrolment may bring its courses' with it on the platform: the course enrolments are read again.
      for (const kind of new Set([params.kind, 'program-enrollments', 'enrollments'] as const))
        deps.changed(profileId, kind);
    },
  };
  return peopleImportJob(kind, deps);
}
