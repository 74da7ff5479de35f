/**
 * A learner's data requests (issue 18): everything the tenant holds about a person exported as one zip (a CSV per
 * dataset and a JSON manifest), and erasing them — their chat history, memory, profile and edX memory, then the
 * person — with a preview of what goes, the person's name typed out, and a signed-off report kept here.
 */
import { z } from 'zod';
import { call } from './kit';

const Tenant = { profileId: z.string().min(1).optional() };
/** A person as the users list names them: their username (or numeric user id). */
const PersonRef = z.string().trim().min(1).max(320);

/** The datasets of an export, in the zip's order. */
export const PERSON_DATASETS = [
  'chat-history',
  'feedback',
  'memory',
  'historical-memory',
  'profile-memory',
  'edx-memory',
  'tickets',
  'invitations',
  'enrolments',
] as const;
export const PersonDataset = z.enum(PERSON_DATASETS);
export type PersonDataset = z.infer<typeof PersonDataset>;

/** What an erasure clears, in the order it clears it; the person goes last. */
export const ERASE_STEPS = ['chat-history', 'memory', 'profile-memory', 'edx-memory', 'user'] as const;
export const EraseStep = z.enum(ERASE_STEPS);
export type EraseStep = z.infer<typeof EraseStep>;

export const ERASE_STEP_LABELS: Record<EraseStep, string> = {
  'chat-history': 'Chat history (conversations)',
  memory: 'Memory entries',
  'profile-memory': 'Profile memory entries',
  'edx-memory': 'edX memory records',
  user: 'The person',
};

export const PersonPreview = z.object({
  userId: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  /** Why this person may not be erased (they administer the tenant's access), or null. */
  refusal: z.string().nullable(),
  /** What erasing would clear, counted on the platform now. */
  counts: z.array(z.object({ step: EraseStep, count: z.number().int() })),
  warnings: z.array(z.string()),
});
export type PersonPreview = z.infer<typeof PersonPreview>;

export const ErasureReport = z.object({
  id: z.string(),
  jobId: z.string(),
  userId: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  /** The admin who asked for it (the connection's username) and when. */
  requestedBy: z.string(),
  requestedAt: z.string(),
  finishedAt: z.string().nullable(),
  state: z.enum(['running', 'erased', 'failed']),
  /** Per step: what the preview counted and what was cleared. */
  steps: z.array(z.object({ step: EraseStep, planned: z.number().int(), erased: z.number().int().nullable() })),
  /** SHA-256 of the report's content as signed off (the fields above), so a later edit shows. */
  digest: z.string().nullable(),
});
export type ErasureReport = z.infer<typeof ErasureReport>;

export const personCalls = {
  'person.preview': call(
    z.object({ ...Tenant, user: PersonRef }).strict(),
    PersonPreview,
    'What erasing a person would clear (counts per dataset), and why they may not be erased',
  ),
  'person.export': call(
    /** `path`: where the zip goes (default: the export folder, named for the tenant, the person and the day). */
    z.object({ ...Tenant, user: PersonRef, path: z.string().min(1).max(4096).optional() }).strict(),
    z.object({ jobId: z.string(), path: z.string(), resumed: z.boolean() }),
    'Export everything the tenant holds about a person as one zip (a CSV per dataset, a JSON manifest): a job',
    { localPaths: { path: 'write' } },
  ),
  'person.erase': call(
    z.object({ ...Tenant, user: PersonRef, confirm: z.string().max(320) }).strict(),
    z.object({ jobId: z.string(), reportId: z.string(), resumed: z.boolean() }),
    'Erase a person (chat history, memory, profile and edX memory, then the person) once their username is typed: a job',
  ),
  'person.erasures': call(
    z.object({ ...Tenant }).strict(),
    z.object({ reports: z.array(ErasureReport) }),
    'The erasure reports kept on this computer for the tenant, newest first',
  ),
} as const;
