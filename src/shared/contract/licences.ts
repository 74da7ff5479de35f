/**
 * Licences and access requests beside the resource kit's verbs: a licence's seats read from the platform (it lists
 * them per licence only) with seats used and free and its expiry, releasing a seat, giving a whole user group seats
 * and taking them back, and reviewing one access request after looking that no one else has.
 */
import { z } from 'zod';
import { call } from './kit';
import { Freshness } from './mentors';
import { SEAT_KINDS } from '../resources/licences';

const Tenant = { profileId: z.string().min(1).optional() };
const Id = z.number().int().positive();
/** Whose seats: a user licence's (the default), a course licence's or a program licence's. */
const Kind = { kind: z.enum(SEAT_KINDS).default('license-assignments') };

/** Days before a licence's expiry from which it is flagged as ending soon. */
export const EXPIRY_WARNING_DAYS = 30;

export const LicenceExpiry = z.enum(['none', 'ok', 'soon', 'past']);
export type LicenceExpiry = z.infer<typeof LicenceExpiry>;

/** Where a licence stands by its expiry date (null: it never expires), as of `now`. */
export function expiryOf(expired: string | null | undefined, now: Date = new Date()): LicenceExpiry {
  if (!expired) return 'none';
  const at = Date.parse(expired);
  if (Number.isNaN(at)) return 'none';
  if (at <= now.getTime()) return 'past';
  return at - now.getTime() <= EXPIRY_WARNING_DAYS * 86_400_000 ? 'soon' : 'ok';
}

export const LicenceSeats = z.object({
  licence: z.object({
    id: z.number().int(),
    name: z.string(),
    count: z.number().int(),
    used: z.number().int(),
    /** Never below zero: a licence given past its seats has none free (and `over` says by how many). */
    free: z.number().int(),
    over: z.number().int(),
    active: z.boolean(),
    started: z.string(),
    expired: z.string().nullable(),
    expiry: LicenceExpiry,
    /**
     * The course's id or the program's key a course or program licence gives seats of; null for a user licence
     * (absent from a copy saved before it was kept).
     */
    of: z.string().nullable().optional(),
  }),
  seats: z.array(
    z.object({
      id: z.number().int(),
      /** Null on a program licence's email-only seat (someone with no account yet). */
      userId: z.number().int().nullable(),
      username: z.string().nullable(),
      email: z.string().nullable(),
      active: z.boolean(),
    }),
  ),
  groups: z.array(
    z.object({
      id: z.number().int(),
      groupId: z.number().int(),
      name: z.string(),
      active: z.boolean(),
      /** The group's people and how many of them hold a seat (program licences' answers say; null elsewhere). */
      people: z.number().int().nullable(),
      holding: z.number().int().nullable(),
    }),
  ),
  /** This family's group removal may keep the seats the group gave (the spec's `remove_user_assignments`). */
  canKeepGroupSeats: z.boolean(),
  /** Read now, or the saved copy (marked offline) when the tenant cannot be reached. */
  freshness: Freshness,
});
export type LicenceSeats = z.infer<typeof LicenceSeats>;

export const AccessReview = z.object({
  /** `handled`: someone else reviewed it first; nothing was sent, and the queue is read again. */
  outcome: z.enum(['done', 'handled']),
  approved: z.boolean().nullable(),
  message: z.string(),
});
export type AccessReview = z.infer<typeof AccessReview>;

export const licenceCalls = {
  'licences.seats': call(
    z.object({ ...Tenant, ...Kind, licenseId: Id }).strict(),
    LicenceSeats,
    "A licence's seats and the user groups holding it from the platform, with seats used and free and its expiry (the saved copy, marked offline, when the tenant cannot be reached)",
  ),
  'licences.release': call(
    z.object({ ...Tenant, ...Kind, licenseId: Id, assignmentId: Id }).strict(),
    z.object({ released: z.literal(true) }),
    'Takes one seat back from the person who holds it',
  ),
  'licences.assignGroup': call(
    z.object({ ...Tenant, ...Kind, licenseId: Id, groupId: Id }).strict(),
    z.object({ id: z.number().int(), name: z.string() }),
    'Gives everyone in a user group a seat of the licence (a program licence only when its free seats are enough for all)',
  ),
  'licences.releaseGroup': call(
    z
      .object({
        ...Tenant,
        ...Kind,
        licenseId: Id,
        assignmentId: Id,
        /** Keep the seats the group gave its people (only where the spec declares `remove_user_assignments`). */
        keepSeats: z.boolean().optional(),
      })
      .strict(),
    z.object({ released: z.literal(true) }),
    "Takes a user group's licence back; the seats it gave its people go with it unless kept (where the platform allows)",
  ),
  'accessRequests.review': call(
    z.object({ ...Tenant, id: Id, approved: z.boolean() }).strict(),
    AccessReview,
    'Approves or denies one course access request, once the platform says no one has reviewed it yet',
  ),
} as const;
