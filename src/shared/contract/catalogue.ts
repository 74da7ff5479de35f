/**
 * The catalogue beside the resource kit's verbs: a course's or a program's metadata read and one field of it written
 * (`metadata/course|program/` and `{field}/`), and one person enrolled in or unenrolled from a program or a pathway
 * (`enrollment/programs/`, `enrollment/pathways/`; the spec has no call that enrols in a course).
 */
import { z } from 'zod';
import { call } from './kit';

const Tenant = { profileId: z.string().min(1).optional() };

/** Whose metadata: a course (by `course_id`) or a program (by its `program_id`). */
export const MetadataScope = z.enum(['course', 'program']);
export type MetadataScope = z.infer<typeof MetadataScope>;

/** What one enrolment call did; `already` and `notEnrolled` sent nothing that changed anything. */
export const EnrolmentChange = z.object({
  outcome: z.enum(['enrolled', 'already', 'unenrolled', 'notEnrolled']),
  item: z.object({ type: z.enum(['program', 'pathway']), id: z.string(), name: z.string() }),
  username: z.string(),
  message: z.string(),
});
export type EnrolmentChange = z.infer<typeof EnrolmentChange>;

const Enrolment = z
  .object({
    ...Tenant,
    /** The program or pathway: its id, key, slug or name (as a CSV row names it). */
    item: z.string().trim().min(1),
    /** The person: username or email. */
    person: z.string().trim().min(1),
  })
  .strict();

/** A program (by the `id` it is listed under) or a pathway (by its `pathway_id`), and its name. */
const Named = z.object({ id: z.string(), name: z.string() });

export const catalogueCalls = {
  'catalogue.metadata': call(
    z.object({ ...Tenant, scope: MetadataScope, id: z.string().min(1) }).strict(),
    z.object({ metadata: z.record(z.string(), z.unknown()) }),
    "A course's or a program's metadata as the platform keeps it (a dictionary of fields)",
  ),
  'catalogue.setMetadataField': call(
    z
      .object({ ...Tenant, scope: MetadataScope, id: z.string().min(1), field: z.string(), value: z.unknown() })
      .strict(),
    z.object({ field: z.string(), value: z.unknown() }),
    "Writes one field of a course's or a program's metadata, then reads it back; the platform's refusal is the field's",
  ),
  'catalogue.rating': call(
    z.object({ ...Tenant, scope: MetadataScope, id: z.string().min(1) }).strict(),
    z.object({ average: z.number().nullable(), count: z.number().int() }),
    "A course's or a program's rating over its visible reviews (`reviews/{course,program}/info/`), read-only",
  ),
  'catalogue.courseHolders': call(
    z.object({ ...Tenant, courseId: z.string().trim().min(1) }).strict(),
    z.object({ programs: z.array(Named), pathways: z.array(Named) }),
    'The programs and pathways of the tenant that contain a course (`programs/?course_id=`, `pathways/?item_id=`)',
  ),
  'catalogue.enrol': call(Enrolment, EnrolmentChange, 'Enrols one person in a program or a pathway'),
  'catalogue.unenrol': call(Enrolment, EnrolmentChange, 'Ends one person’s enrolment in a program or a pathway'),
} as const;
