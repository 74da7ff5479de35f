/**
 * The licences area's engine part beside the resource kit: a licence's seats (licences.seats), releasing seats,
 * group seats, the seat import job, and reviewing an access request after looking that it is still open.
 */
import { z } from 'zod';
import { accessRequests, type ResourceKind, type SeatKind } from '../../../shared/resources';
import { expiryOf, type licenceCalls } from '../../../shared/contract';
import type { EngineServices } from '../context';
import type { HandlersOf } from '../dispatch';
import { EngineError } from '../errors';
import { ApiError, classifyFailure, platformWords, type PlatformClient } from '../platform';
import { withSavedCopy } from '../saved-copy';
import type { AnswerCache } from '../store';
import { userScope } from '../tenants';
import { seatsImportKind } from './seat-import';

export { seatColumns, seatRow, startSeatsJob } from './seat-import';
import { readGroupSeats, readLicence, readSeats, seatCalls } from './seats-api';

type Services = Pick<EngineServices, 'platform' | 'profiles' | 'emit' | 'tenant' | 'runner'>;

const Request = z.object({ id: z.number().int(), reviewed: z.boolean(), approved: z.boolean().nullable() }).loose();
const RequestPage = z.object({ count: z.number().int(), next_page: z.string().nullish(), results: z.array(Request) });
const PAGE_SIZE = 500;

/**
 * The platform's refusal in its own words, as an error the screens and the CLI show (a final answer other than a
 * refused key; one the tenant may take later goes on as it is, for the retry policy's words).
 */
function refused(error: unknown): never {
  if (error instanceof ApiError && classifyFailure(error) === 'final' && ![401, 403].includes(error.status)) {
    throw new EngineError(error.status === 404 ? 'not_found' : 'api', platformWords(error));
  }
  throw error;
}

/** A licence's page as the platform answers it now: the licence, its seats and the user groups holding it. */
async function readLicencePage(client: PlatformClient, org: string, licenseId: number, kind: SeatKind) {
  const calls = seatCalls(kind);
  const [licence, seats, groups] = await Promise.all([
    readLicence(client, org, licenseId, {}, calls),
    readSeats(client, org, licenseId, {}, calls),
    readGroupSeats(client, org, licenseId, {}, calls),
  ]);
  if (!licence) {
    throw new EngineError('not_found', `No ${calls.licenceLabel.toLowerCase()} ${licenseId} on this tenant`);
  }
  const used = licence.usage_count ?? seats.filter((seat) => seat.active).length;
  return {
    licence: {
      id: licence.id,
      name: licence.name,
      count: licence.count,
      used,
      free: Math.max(0, licence.count - used),
      over: Math.max(0, used - licence.count),
      active: licence.active,
      started: licence.started,
      expired: licence.expired,
      expiry: expiryOf(licence.expired),
      of: licence.course_id ?? licence.program_key ?? null,
    },
    seats: seats.map((seat) => ({
      id: seat.id,
      userId: seat.user_id,
      username: seat.username,
      email: seat.email,
      active: seat.active,
    })),
    groups: groups.map((group) => ({
      id: group.id,
      groupId: group.group_id,
      name: group.group_name,
      active: group.active,
      people: group.user_count ?? null,
      holding: group.assigned_count ?? null,
    })),
    canKeepGroupSeats: calls.canKeepGroupSeats,
  };
}

/** `answers` keeps each licence page's last answer, the saved copy shown when the tenant cannot be reached. */
export function licencesArea(services: Services, answers: AnswerCache): HandlersOf<typeof licenceCalls> {
  const changed = (profileId: string, ...kinds: ResourceKind[]) => {
    for (const kind of kinds) services.emit('resources.changed', { profileId, kind });
  };
  services.runner.register(seatsImportKind({ profiles: services.profiles, changed: (p, kind) => changed(p, kind) }));
  const open = async (given?: string) => {
    const profileId = services.tenant(given);
    const client = await services.platform(profileId);
    const { org, username } = await userScope(services.profiles, profileId);
    return { profileId, client, org, username };
  };

  /** Every access request with the given `reviewed`, page by page. */
  const requests = async (client: Awaited<ReturnType<typeof open>>['client'], org: string, reviewed: boolean) => {
    const out: z.infer<typeof Request>[] = [];
    for (let page = 1; ; page++) {
      const { data } = await client.api.GET(accessRequests.operations.list.path, {
        params: { query: { platform_key: org, reviewed, page, page_size: PAGE_SIZE } },
      });
      const parsed = RequestPage.safeParse(data);
      if (!parsed.success)
        throw new EngineError('api', 'The platform answered the access requests in an unexpected shape');
      out.push(...parsed.data.results);
      if (!parsed.data.next_page || !parsed.data.results.length || out.length >= parsed.data.count) return out;
    }
  };

  return {
    'licences.seats': async ({ profileId: given, licenseId, kind }) => {
      const { profileId, client, org, username } = await open(given);
      // Keyed by the connection's org and user too: a profile pointed at another tenant never shows the first one's.
      const key = { profileId, call: 'licences.seats', params: { org, username, kind, licenseId } };
      const { value, freshness } = await withSavedCopy(answers, key, () =>
        readLicencePage(client, org, licenseId, kind),
      );
      return { ...value, freshness };
    },
    'licences.release': async ({ profileId: given, licenseId, assignmentId, kind }) => {
      const { profileId, client, org } = await open(given);
      await client.api
        .DELETE(seatCalls(kind).release, {
          params: { query: { license_id: licenseId, assignment_id: assignmentId, platform_key: org } },
        })
        .catch(refused);
      changed(profileId, seatCalls(kind).licenceKind);
      return { released: true as const };
    },
    'licences.assignGroup': async ({ profileId: given, licenseId, groupId, kind }) => {
      const { profileId, client, org } = await open(given);
      const calls = seatCalls(kind);
      const { data } = await client.api
        .POST(calls.giveGroup, {
          params: { query: { license_id: licenseId, platform_key: org } },
          body: { license_id: licenseId, group_id: groupId, platform_key: org },
        })
        .catch(refused);
      changed(profileId, calls.licenceKind, calls.groupKind, kind);
      return { id: data!.id, name: data!.group_name };
    },
    'licences.releaseGroup': async ({ profileId: given, licenseId, assignmentId, kind, keepSeats }) => {
      const calls = seatCalls(kind);
      if (keepSeats && !calls.canKeepGroupSeats) {
        throw new EngineError(
          'validation',
          `A ${calls.licenceLabel.toLowerCase()}'s group removal cannot keep the people's seats: the platform's call takes no remove_user_assignments`,
        );
      }
      const { profileId, client, org } = await open(given);
      await client.api
        .DELETE(calls.releaseGroup, {
          params: {
            query: {
              license_id: licenseId,
              assignment_id: assignmentId,
              platform_key: org,
              // Sent only where the spec declares it; its default (true) removes the seats the group gave.
              ...(calls.canKeepGroupSeats && { remove_user_assignments: !keepSeats }),
            },
          },
        })
        .catch(refused);
      changed(profileId, calls.licenceKind, calls.groupKind, kind);
      return { released: true as const };
    },
    'accessRequests.review': async ({ profileId: given, id, approved }) => {
      const { profileId, client, org } = await open(given);
      // The platform reviews a request again without a word: whether it is still open is asked first.
      const pending = await requests(client, org, false);
      if (!pending.some((request) => request.id === id)) {
        const done = (await requests(client, org, true)).find((request) => request.id === id);
        changed(profileId, 'access-requests');
        if (!done) throw new EngineError('not_found', `No access request ${id} on this tenant`);
        const how = done.approved === true ? 'approved' : done.approved === false ? 'denied' : 'reviewed';
        return {
          outcome: 'handled' as const,
          approved: done.approved,
          message: `Someone else already ${how} this request; the queue was read again`,
        };
      }
      const { data } = await client.api
        .POST(accessRequests.operations.update.path, {
          params: { query: { platform_key: org } },
          body: { request_id: id, approved, platform_key: org },
        })
        .catch(refused);
      changed(profileId, 'access-requests');
      return {
        outcome: 'done' as const,
        approved: data?.approved ?? approved,
        message: approved ? 'Approved' : 'Denied',
      };
    },
  };
}
