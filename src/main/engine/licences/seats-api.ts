/**
 * The licence calls the seats job and the licences screens make besides the kit's generic ones: one licence read from
 * the list (the spec has no get by id), a licence's seats and group seats page by page (the platform lists them per
 * licence only), releasing them, and the tenant's people by email and user id (a dry run's "no account").
 */
import { z } from 'zod';
import {
  RESOURCES,
  specOperation,
  type ResourceDeclaration,
  type ResourceKind,
  type SeatKind,
} from '../../../shared/resources';
import type { CallOptions, PlatformClient } from '../platform';
import { EngineError } from '../errors';

/** Records asked for per page (the catalog's pages). */
const PAGE_SIZE = 500;

export const Licence = z
  .object({
    id: z.number().int(),
    name: z.string(),
    count: z.number().int(),
    usage_count: z.number().int().optional(),
    active: z.boolean(),
    started: z.string(),
    expired: z.string().nullable(),
    /** What a course or program licence gives seats of (the spec's course and program licences). */
    course_id: z.string().optional(),
    program_key: z.string().optional(),
  })
  .loose();
export type Licence = z.infer<typeof Licence>;

/** A seat; a program licence's email-only seat has no user (its `user_id` and `username` null). */
export const Seat = z
  .object({
    id: z.number().int(),
    user_id: z.number().int().nullable(),
    username: z.string().nullable(),
    email: z.string().nullable(),
    active: z.boolean(),
  })
  .loose();
export type Seat = z.infer<typeof Seat>;

/** A user group holding a licence; the program family's answer also counts its people and those holding seats. */
export const GroupSeat = z
  .object({
    id: z.number().int(),
    group_id: z.number().int(),
    group_name: z.string(),
    active: z.boolean(),
    user_count: z.number().int().optional(),
    assigned_count: z.number().int().optional(),
  })
  .loose();
export type GroupSeat = z.infer<typeof GroupSeat>;

const page = <T extends z.ZodType>(record: T) =>
  z.object({ count: z.number().int(), next_page: z.string().nullish(), results: z.array(record) }).loose();

function parsed<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  throw new EngineError(
    'api',
    `The platform answered ${what} in an unexpected shape` +
      (first ? ` (${first.path.join('.') || 'the answer'}: ${first.message})` : ''),
  );
}

type Get = (page: number) => Promise<unknown>;

async function allPages<T>(get: Get, record: z.ZodType<T>, what: string): Promise<T[]> {
  const out: T[] = [];
  for (let n = 1; ; n++) {
    const answer = parsed(page(record), await get(n), what);
    out.push(...(answer.results as T[]));
    if (!answer.next_page || !answer.results.length || out.length >= answer.count) return out;
  }
}

/** Where the removal of a group seat takes `remove_user_assignments` (the spec declares it for program licences). */
const KEEP_SEATS_PARAM = 'remove_user_assignments';

/** A seat kind's calls: its licences' list, its seats' list, give and release paths, and its group seats'. */
export function seatCalls(kind: SeatKind) {
  const declaration: ResourceDeclaration = RESOURCES[kind];
  const licenceKind = declaration.seats!.licenseKind as ResourceKind;
  const licences: ResourceDeclaration = RESOURCES[licenceKind];
  const groupKind = declaration.seats!.groupKind as ResourceKind;
  const groups: ResourceDeclaration = RESOURCES[groupKind];
  const releaseGroup = groups.calls!.release!;
  return {
    kind,
    licenceKind,
    licenceLabel: declaration.seats!.licenseLabel,
    emailOnly: declaration.seats!.emailOnly === true,
    /** Typed as the user licence's: the spec gives the three families the same queries and bodies. */
    licences: licences.operations.list!.path as '/api/catalog/licenses/user/',
    give: declaration.operations.create!.path as '/api/catalog/licenses/user/assignment/',
    seats: declaration.calls!.list!.path as '/api/catalog/licenses/user/assignment/',
    release: declaration.calls!.release!.path as '/api/catalog/licenses/user/assignment/',
    groupKind,
    /** Typed as the program family's, whose queries hold the others' (the spec's program calls take more filters). */
    groups: groups.calls!.list!.path as '/api/catalog/licenses/program/assignment/group/',
    giveGroup: groups.operations.create!.path as '/api/catalog/licenses/program/assignment/group/',
    releaseGroup: releaseGroup.path as '/api/catalog/licenses/program/assignment/group/',
    /** The spec lets this family's group removal keep the seats the group gave its people. */
    canKeepGroupSeats: specOperation(releaseGroup).parameters.some((p) => p.name === KEEP_SEATS_PARAM),
  };
}
export type SeatCalls = ReturnType<typeof seatCalls>;

/** One licence of the tenant, or null when it has none by that id. */
export async function readLicence(
  client: PlatformClient,
  org: string,
  id: number,
  options: CallOptions = {},
  calls: SeatCalls = seatCalls('license-assignments'),
): Promise<Licence | null> {
  const all = await allPages(
    async (n) =>
      (
        await client.api.GET(calls.licences, {
          params: { query: { platform_key: org, page: n, page_size: PAGE_SIZE } },
          ...options,
        })
      ).data,
    Licence,
    'the licence list',
  );
  return all.find((licence) => licence.id === id) ?? null;
}

export async function readSeats(
  client: PlatformClient,
  org: string,
  licenseId: number,
  options: CallOptions = {},
  calls: SeatCalls = seatCalls('license-assignments'),
): Promise<Seat[]> {
  return allPages(
    async (n) =>
      (
        await client.api.GET(calls.seats, {
          params: { query: { license_id: licenseId, platform_key: org, page: n, page_size: PAGE_SIZE } },
          ...options,
        })
      ).data,
    Seat,
    'the licence’s seats',
  );
}

export async function readGroupSeats(
  client: PlatformClient,
  org: string,
  licenseId: number,
  options: CallOptions = {},
  calls: SeatCalls = seatCalls('license-assignments'),
): Promise<GroupSeat[]> {
  return allPages(
    async (n) =>
      (
        await client.api.GET(calls.groups, {
          params: { query: { license_id: licenseId, platform_key: org, page: n, page_size: PAGE_SIZE } },
          ...options,
        })
      ).data,
    GroupSeat,
    'the licence’s group seats',
  );
}
