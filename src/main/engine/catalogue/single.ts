/**
 * The catalogue's calls beside the kit and the enrolment job: a course's or a program's metadata (read whole, one
 * field written through `metadata/{scope}/{field}/` and read back from the same path), and one person enrolled in or
 * unenrolled from a program or a pathway with the job's own finder and enrolment call, and the programs and pathways
 * that contain a course (how people get into it: the spec has no call that enrols in a course).
 */
import { z } from 'zod';
import type { catalogueCalls, EnrolmentChange, MetadataScope } from '../../../shared/contract';
import type { EngineServices } from '../context';
import type { HandlersOf } from '../dispatch';
import { EngineError, invalid } from '../errors';
import { ApiError, classifyFailure, platformWords, type PlatformClient } from '../platform';
import { userScope } from '../tenants';
import {
  catalogueFinder,
  courseHolders,
  courseRowMessage,
  enrol,
  pathwayEnrolled,
  programEnrolled,
  type CatalogueItem,
} from './enrol-import';

type Services = Pick<EngineServices, 'platform' | 'profiles' | 'emit' | 'tenant'>;
type Enrollable = Exclude<CatalogueItem, { type: 'course' }>;

const Metadata = z.record(z.string(), z.unknown());
const People = z.object({
  results: z.array(z.object({ username: z.string().nullish(), email: z.string().nullish() }).loose()),
});

/** The query that names the item: a course by `course_id`; a program by `program_id` and the tenant. */
const itemQuery = (scope: MetadataScope, id: string, org: string) =>
  scope === 'course' ? { course_id: id } : { program_id: id, org };

/** A 4xx of the platform as an error the screens show; a 400 is put at `path` (the form's field). */
function refused(error: unknown, path: string): never {
  if (error instanceof ApiError && classifyFailure(error) === 'final' && ![401, 403].includes(error.status)) {
    const words = platformWords(error);
    if (error.status === 400) throw invalid(path, words);
    throw new EngineError(error.status === 404 ? 'not_found' : 'api', words);
  }
  throw error;
}

/** The username of the tenant's person named by username or email (the platform's user search, matched exactly). */
async function usernameOf(client: PlatformClient, org: string, person: string): Promise<string> {
  const wanted = person.trim().toLowerCase();
  const { data } = await client.api.GET('/api/core/platform/users/', {
    params: { query: { platform_key: org, query: person.trim(), page: 1, page_size: 50 } },
  });
  const found = People.parse(data).results.find(
    (user) => user.username?.toLowerCase() === wanted || user.email?.toLowerCase() === wanted,
  );
  if (!found?.username) throw invalid('person', `No one on this tenant has the username or email "${person.trim()}"`);
  return found.username;
}

const RatingInfo = z.object({ avg_rating: z.number().nullish(), count: z.number().int() }).loose();

export function catalogueHandlers(services: Services): HandlersOf<typeof catalogueCalls> {
  const open = async (given?: string) => {
    const profileId = services.tenant(given);
    const client = await services.platform(profileId);
    const { org } = await userScope(services.profiles, profileId);
    return { profileId, client, org };
  };
  const itemOf = async (client: PlatformClient, org: string, named: string): Promise<Enrollable> => {
    const found = (await catalogueFinder(client, org, {}))(named);
    if ('course' in found) throw invalid('item', courseRowMessage(found.course, null));
    if ('outcome' in found) throw invalid('item', found.message);
    return found.item as Enrollable;
  };
  const enrolledNow = async (client: PlatformClient, org: string, item: Enrollable, username: string) =>
    item.type === 'program'
      ? (await programEnrolled(client, org, item.programId, {})).has(username)
      : pathwayEnrolled(client, org, item.pathwayId, username, {});
  const change = (outcome: EnrolmentChange['outcome'], item: Enrollable, username: string): EnrolmentChange => {
    const what = { type: item.type, id: item.type === 'program' ? item.programId : item.pathwayId, name: item.name };
    const message = {
      enrolled: `${username} is enrolled in ${item.name}`,
      already: `${username} was already enrolled in ${item.name}`,
      unenrolled: `${username} is no longer enrolled in ${item.name}`,
      notEnrolled: `${username} was not enrolled in ${item.name}`,
    }[outcome];
    return { outcome, item: what, username, message };
  };
  const changed = (profileId: string) => {
    services.emit('resources.changed', { profileId, kind: 'program-enrollments' });
    services.emit('resources.changed', { profileId, kind: 'enrollments' });
  };

  return {
    'catalogue.metadata': async ({ profileId: given, scope, id }) => {
      const { client, org } = await open(given);
      try {
        const { data } = await client.api.GET(`/api/catalog/metadata/${scope}/`, {
          params: { query: itemQuery(scope, id, org) as never },
        });
        const parsed = Metadata.safeParse(data ?? {});
        if (!parsed.success)
          throw new EngineError('api', `The platform answered the ${scope}’s metadata in an unexpected shape`);
        return { metadata: parsed.data };
      } catch (error) {
        return refused(error, 'id');
      }
    },
    'catalogue.rating': async ({ profileId: given, scope, id }) => {
      const { client } = await open(given);
      try {
        // The spec's info answers the item's average rating and count of reviews (CourseReviewInfoResponse).
        const { data } =
          scope === 'course'
            ? await client.api.GET('/api/catalog/reviews/course/info/', { params: { query: { course_id: id } } })
            : await client.api.GET('/api/catalog/reviews/program/info/', { params: { query: { program_key: id } } });
        const parsed = RatingInfo.safeParse(data ?? {});
        if (!parsed.success)
          throw new EngineError('api', `The platform answered the ${scope}’s rating in an unexpected shape`);
        return { average: parsed.data.avg_rating ?? null, count: parsed.data.count };
      } catch (error) {
        return refused(error, 'id');
      }
    },
    'catalogue.setMetadataField': async ({ profileId: given, scope, id, field, value }) => {
      const { profileId, client, org } = await open(given);
      const query = itemQuery(scope, id, org);
      const path = `/api/catalog/metadata/${scope}/{field}/` as const;
      try {
        // The spec's update body names the item again beside the value (`course_id` is required in it).
        await client.api.POST(path, {
          params: { path: { field }, query: query as never },
          body: { ...query, metadata: value } as never,
        });
      } catch (error) {
        // The platform refuses a field name its `^\w+$` does not match ("Invalid query parameters"): the name's.
        return refused(
          error,
          error instanceof ApiError && /quer|field/i.test(platformWords(error)) ? 'field' : 'value',
        );
      }
      const { data } = await client.api.GET(path, { params: { path: { field }, query: query as never } });
      const back = Metadata.parse(data ?? {});
      services.emit('resources.changed', { profileId, kind: scope === 'course' ? 'courses' : 'programs' });
      return { field, value: back[field] };
    },
    'catalogue.courseHolders': async ({ profileId: given, courseId }) => {
      const { client, org } = await open(given);
      try {
        return await courseHolders(client, org, courseId, {});
      } catch (error) {
        return refused(error, 'courseId');
      }
    },
    'catalogue.enrol': async ({ profileId: given, item: named, person }) => {
      const { profileId, client, org } = await open(given);
      const [item, username] = await Promise.all([itemOf(client, org, named), usernameOf(client, org, person)]);
      if (await enrolledNow(client, org, item, username)) return change('already', item, username);
      try {
        await enrol(client, org, item, username, {});
      } catch (error) {
        return refused(error, 'person');
      }
      changed(profileId);
      return change('enrolled', item, username);
    },
    'catalogue.unenrol': async ({ profileId: given, item: named, person }) => {
      const { profileId, client, org } = await open(given);
      const [item, username] = await Promise.all([itemOf(client, org, named), usernameOf(client, org, person)]);
      if (!(await enrolledNow(client, org, item, username))) return change('notEnrolled', item, username);
      const query =
        item.type === 'program'
          ? { platform_key: org, program_id: item.programId, username }
          : { platform_key: org, pathway_id: item.pathwayId, username };
      try {
        await client.api.DELETE(`/api/catalog/enrollment/${item.type}s/`, { params: { query: query as never } });
      } catch (error) {
        return refused(error, 'person');
      }
      changed(profileId);
      return change('unenrolled', item, username);
    },
  };
}
