/**
 * Badges (the spec's "credentials", `/api/credentials/orgs/{org}/users/{user_id}/…`): define one with its image,
 * issue it to the people who completed a course or to a list, revoke an assertion, and see issuance over time.
 */
import { z } from 'zod';
import { call } from './kit';
import { Freshness } from './mentors';

const Tenant = { profileId: z.string().min(1).optional() };

export const Badge = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** The image the badge shows (a URL the platform answered for its upload). */
  image: z.string(),
  criteria: z.string(),
  issuer: z.string().nullable(),
  /** The course the badge is for, when it names one. */
  course: z.string().nullable(),
  /** Assertions standing (not revoked), when the platform says. */
  issued: z.number().int().nullable(),
});
export type Badge = z.infer<typeof Badge>;

export const BadgeAssertion = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  issuedOn: z.string(),
  revoked: z.boolean(),
  revocationReason: z.string(),
});
export type BadgeAssertion = z.infer<typeof BadgeAssertion>;

export const CourseCompleter = z.object({
  username: z.string(),
  /** The person's name in the tenant's directory, when it gives one. */
  name: z.string().nullable(),
  /** The person's id in the directory (their page is `#/people-and-access/users/<id>`). */
  userId: z.number().int(),
  email: z.string(),
  completedAt: z.string().nullable(),
});
export type CourseCompleter = z.infer<typeof CourseCompleter>;

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'A date as YYYY-MM-DD');

export const badgeCalls = {
  'badges.list': call(
    z.object(Tenant).strict(),
    z.object({ badges: z.array(Badge), freshness: Freshness }),
    "The tenant's badges (the saved copy, marked offline, when the tenant cannot be reached)",
  ),
  'badges.define': call(
    z
      .object({
        ...Tenant,
        name: z.string().trim().min(1, 'Enter a name').max(255),
        description: z.string().trim().max(5000).default(''),
        criteria: z.string().trim().max(5000).default(''),
        course: z.string().trim().max(300).optional(),
        /** The badge's image as a `data:` URL; checked for its type before it is uploaded. */
        image: z.string().min(1, 'Choose an image').optional(),
      })
      .strict(),
    z.object({ badge: Badge, warning: z.string().nullable() }),
    'Define a badge: its image is uploaded first, then the badge names it',
  ),
  'badges.update': call(
    z
      .object({
        ...Tenant,
        badge: z.string().min(1),
        name: z.string().trim().min(1, 'Enter a name').max(255),
        description: z.string().trim().max(5000),
        criteria: z.string().trim().max(5000),
        /** A new image as a `data:` URL (checked before it is uploaded); left out, the badge keeps its image. */
        image: z.string().min(1, 'Choose an image').optional(),
      })
      .strict(),
    z.object({ badge: Badge, warning: z.string().nullable() }),
    'Edit a badge: its name, description, criteria and (uploaded first) its image',
  ),
  'badges.delete': call(
    z.object({ ...Tenant, badge: z.string().min(1) }).strict(),
    z.object({ id: z.string() }),
    'Delete a badge',
  ),
  'badges.assertions': call(
    z.object({ ...Tenant, badge: z.string().min(1) }).strict(),
    z.object({ assertions: z.array(BadgeAssertion), freshness: Freshness }),
    "A badge's assertions, revoked ones included (every page; the saved copy when the tenant cannot be reached)",
  ),
  'badges.completers': call(
    z.object({ ...Tenant, course: z.string().trim().min(1, 'Pick a course') }).strict(),
    z.object({ course: z.string(), completers: z.array(CourseCompleter) }),
    "The people who completed a course (the course's completion milestones)",
  ),
  'badges.issue': call(
    z
      .object({
        ...Tenant,
        badge: z.string().min(1),
        people: z.array(z.string().trim().min(1)).min(1, 'Nobody to issue it to').max(100_000),
      })
      .strict(),
    z.object({
      issued: z.array(z.string()),
      /** Everyone the platform did not issue it to (`already` and `failed` together). */
      skipped: z.array(z.string()),
      /** Held it already (a standing assertion before or after the issue). */
      already: z.array(z.string()),
      /** Not issued, each with why. */
      failed: z.array(z.object({ person: z.string(), reason: z.string() })),
    }),
    'Issue a badge to people by username or email (in bulk; those who have it already are skipped), with a report',
  ),
  'badges.revoke': call(
    z
      .object({ ...Tenant, assertion: z.string().min(1), reason: z.string().trim().min(1, 'Give a reason').max(1000) })
      .strict(),
    BadgeAssertion,
    'Revoke one assertion, with the reason the platform asks for',
  ),
  'badges.import': call(
    z
      .object({
        ...Tenant,
        badge: z.string().min(1, 'Name the badge'),
        /** A CSV file with a column of emails or usernames. */
        path: z.string().min(1),
        dryRun: z.boolean().default(false),
      })
      .strict(),
    z.object({
      job: z.object({ id: z.string(), resumed: z.boolean() }),
      rows: z.number().int(),
      empty: z.number().int(),
    }),
    'Issue a badge to the people of a CSV file, as a journalled job (a dry run says what each row would do)',
    { localPaths: { path: 'read' } },
  ),
  'badges.overTime': call(
    z.object({ ...Tenant, startDate: Day, endDate: Day }).strict(),
    z.object({ series: z.array(z.object({ date: z.string(), issued: z.number() })), total: z.number() }),
    'Badges issued per day (assertions-over-time)',
  ),
};
