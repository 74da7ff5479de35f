/** Mentors and their documents, for the active (or a given) tenant. Lists come from the cache, then refresh. */
import { z } from 'zod';
import { call, event, Ok } from './kit';

export const MENTOR_VISIBILITIES = [
  'viewable_by_tenant_admins',
  'viewable_by_tenant_students',
  'viewable_by_anyone',
] as const;
export const MentorVisibility = z.enum(MENTOR_VISIBILITIES);
export type MentorVisibility = z.infer<typeof MentorVisibility>;

/** Which tenant a call is about; the active one when absent. */
const Tenant = { profileId: z.string().min(1).optional() };

export const Mentor = z.object({
  uniqueId: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  visibility: MentorVisibility.nullable(),
  featured: z.boolean(),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type Mentor = z.infer<typeof Mentor>;

/** A cached answer: when it was fetched and whether a refresh is under way or failed. */
export const Freshness = z.object({
  asOf: z.string().nullable(),
  source: z.enum(['cache', 'api']),
  /** Set when the tenant could not be reached: the screen shows the cache with this message. */
  offline: z.string().nullable(),
});
export type Freshness = z.infer<typeof Freshness>;

export const MentorRef = z.object({ ...Tenant, mentor: z.string().min(1) }).strict();

/**
 * Without defaults: an update changes only the fields it names (a default would reset the others). The limits are
 * the platform's own: `Mentor.name` is at most 255 characters, `mentor_description` has none.
 */
const MentorFieldsToChange = z.object({
  name: z.string().trim().min(1, 'Name is required').max(255, 'Name is at most 255 characters'),
  description: z.string().trim(),
  visibility: MentorVisibility,
});

export const MentorFields = MentorFieldsToChange.extend({
  description: MentorFieldsToChange.shape.description.default(''),
  visibility: MentorVisibility.default('viewable_by_tenant_students'),
});

export const DOCUMENT_STATUSES = ['trained', 'failed', 'pending', 'untrained'] as const;
export const DocumentStatus = z.enum(DOCUMENT_STATUSES);
export type DocumentStatus = z.infer<typeof DocumentStatus>;

export const MentorDocument = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  status: DocumentStatus,
  tokens: z.number().nullable(),
  access: z.enum(['public', 'private']).nullable(),
  lastTrainedAt: z.string().nullable(),
  createdAt: z.string().nullable(),
  retrainIntervalDays: z.number().nullable(),
  contentHash: z.string().nullable(),
  failureReason: z.string().nullable(),
  size: z.number().nullable(),
});
export type MentorDocument = z.infer<typeof MentorDocument>;

export const Passage = z.object({
  documentId: z.string().nullable(),
  documentName: z.string(),
  text: z.string(),
  score: z.number().nullable(),
});
export type Passage = z.infer<typeof Passage>;

export const mentorCalls = {
  'mentors.list': call(
    z
      .object({ ...Tenant, search: z.string().max(200).optional(), refresh: z.boolean().optional() })
      .strict()
      .optional(),
    z.object({ mentors: z.array(Mentor), freshness: Freshness }),
    "The tenant's mentors from the cache at once; a refresh follows and announces itself with mentors.changed",
  ),
  'mentors.get': call(MentorRef, Mentor, 'One mentor, by unique id or name'),
  'mentors.create': call(z.object({ ...Tenant, ...MentorFields.shape }).strict(), Mentor, 'Create a mentor'),
  'mentors.update': call(
    z.object({ ...Tenant, mentor: z.string().min(1), ...MentorFieldsToChange.partial().shape }).strict(),
    Mentor,
    "Change a mentor's name, description or visibility",
  ),
  'mentors.delete': call(MentorRef, Ok, 'Delete a mentor (the platform keeps it soft-deleted)'),

  'documents.list': call(
    z
      .object({
        ...Tenant,
        mentor: z.string().min(1),
        status: DocumentStatus.optional(),
        search: z.string().max(200).optional(),
        refresh: z.boolean().optional(),
      })
      .strict(),
    z.object({ documents: z.array(MentorDocument), freshness: Freshness }),
    "A mentor's documents (cached, then refreshed)",
  ),
  'documents.setTraining': call(
    z.object({ ...Tenant, mentor: z.string().min(1), documentId: z.string().min(1), train: z.boolean() }).strict(),
    MentorDocument,
    'Train or untrain a document',
  ),
  'documents.setAccess': call(
    z
      .object({
        ...Tenant,
        mentor: z.string().min(1),
        documentId: z.string().min(1),
        access: z.enum(['public', 'private']),
      })
      .strict(),
    MentorDocument,
    'Make a document public or private',
  ),
  'documents.setRetrain': call(
    z
      .object({
        ...Tenant,
        mentor: z.string().min(1),
        documentId: z.string().min(1),
        /** The platform's `retrain_interval_days` is any integer; 0 or null turn retraining off. */
        retrainIntervalDays: z.number().int().min(0).nullable(),
      })
      .strict(),
    MentorDocument,
    'Set how often a document is retrained (days; null for never)',
  ),
  'documents.delete': call(
    z.object({ ...Tenant, mentor: z.string().min(1), documentId: z.string().min(1) }).strict(),
    Ok,
    'Delete (and untrain) a document',
  ),
  'documents.search': call(
    z
      .object({
        ...Tenant,
        mentor: z.string().min(1),
        query: z.string().trim().min(1, 'Type something to search for'),
        limit: z.number().int().min(1).max(50).default(8),
      })
      .strict(),
    z.object({ passages: z.array(Passage) }),
    "Test a mentor's knowledge: the passages its documents return for a question",
  ),
} as const;

export const mentorEvents = {
  'mentors.changed': event(z.object({ profileId: z.string() }), {
    invalidates: [
      { call: 'mentors.list', by: ['profileId'] },
      { call: 'mentors.get', by: ['profileId'] },
    ],
  }),
  /** A mentor's documents changed (edited here, or training uploaded or finished some). */
  'documents.changed': event(z.object({ profileId: z.string(), mentor: z.string() }), {
    invalidates: [{ call: 'documents.list', by: ['profileId', 'mentor'] }],
  }),
} as const;
