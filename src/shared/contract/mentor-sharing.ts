/**
 * Sharing a mentor and making new ones from others (issue 16): its sharable link (the spec's `sharable-link`: read,
 * create, revoke) and what the platform's public check (`public-sharable-link/`, no credentials) answers about it;
 * forking a mentor (`fork/`); the tenant's template mentors (`available-template-mentors/`) and a new mentor through
 * the create-mentor wizard (`create-mentor-wizard/`).
 */
import { z } from 'zod';
import { call, event, Ok } from './kit';
import { Mentor, MentorRef, MentorVisibility } from './mentors';

const Tenant = { profileId: z.string().min(1).optional() };

/** The spec's `ShareableMentorLink`: the token the link carries and whether the link is on. */
export const SharableLink = z.object({
  token: z.string(),
  enabled: z.boolean(),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type SharableLink = z.infer<typeof SharableLink>;

export const MentorSharing = z.object({
  /** The mentor's sharable link; null when it has none. */
  link: SharableLink.nullable(),
  /**
   * What the platform tells anyone, without credentials, about the mentor's link (`public-sharable-link/`): whether
   * it works. Null when the public check knows no link; `error` when it could not be asked.
   */
  publicCheck: z.object({ enabled: z.boolean().nullable(), error: z.string().nullable() }),
});
export type MentorSharing = z.infer<typeof MentorSharing>;

/** The spec's `TemplateMentor`: a mentor new ones can be made from. */
export const TemplateMentor = z.object({
  id: z.number().int(),
  name: z.string(),
  /** What a mentor's `template_name` setting names it by. */
  slug: z.string().nullable(),
  uniqueId: z.string().nullable(),
  description: z.string().nullable(),
  systemPrompt: z.string().nullable(),
  platform: z.string().nullable(),
});
export type TemplateMentor = z.infer<typeof TemplateMentor>;

/** The spec's `MentorWizard`: a name of at most 100 characters and a description of 20 to 1000. */
export const WizardFields = z.object({
  name: z.string().trim().min(1, 'Name is required').max(100, 'Name is at most 100 characters'),
  description: z
    .string()
    .trim()
    .min(20, 'Describe the mentor in at least 20 characters')
    .max(1000, 'Description is at most 1000 characters'),
});

export const mentorSharingCalls = {
  'mentors.sharing': call(MentorRef, MentorSharing, "A mentor's sharable link and what the public check says of it"),
  'mentors.share': call(
    MentorRef,
    SharableLink,
    "Create the mentor's sharable link (a link that is off is turned back on; one that is on is kept)",
  ),
  'mentors.unshare': call(MentorRef, Ok, "Revoke the mentor's sharable link: its token stops working"),
  'mentors.fork': call(
    z
      .object({
        ...Tenant,
        mentor: z.string().min(1),
        // The spec's `MentorFork.new_mentor_name`; a mentor's name is at most 255 characters (`Mentor.name`).
        name: z.string().trim().min(1, 'Name is required').max(255, 'Name is at most 255 characters'),
        /** `clone_documents`: the platform copies the mentor's documents too (its default: no). */
        cloneDocuments: z.boolean().default(false),
      })
      .strict(),
    Mentor,
    'Fork (clone) a mentor on the same tenant under a new name',
  ),
  'mentors.templates': call(
    z.object(Tenant).strict().optional(),
    z.object({ templates: z.array(TemplateMentor) }),
    "The tenant's template mentors",
  ),
  'mentors.createWithWizard': call(
    z
      .object({
        ...Tenant,
        ...WizardFields.shape,
        /** A template's slug: saved as the new mentor's `template_name` setting. */
        template: z.string().min(1).optional(),
        /** Saved as its `mentor_visibility` setting (the wizard itself takes only a name and a description). */
        visibility: MentorVisibility.optional(),
      })
      .strict(),
    Mentor,
    'Create a mentor through the create-mentor wizard, optionally from a template',
  ),
} as const;

export const mentorSharingEvents = {
  /** A mentor's sharable link was created or revoked. */
  'mentors.sharingChanged': event(z.object({ profileId: z.string(), mentor: z.string() }), {
    invalidates: [{ call: 'mentors.sharing', by: ['profileId', 'mentor'] }],
  }),
} as const;
