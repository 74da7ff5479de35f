/**
 * The platform's catalog invitations (`/api/catalog/invitations/{platform,course,program}/…`). Catalog calls carry
 * the tenant as `platform_key`, never in the path; the target of course and program invitations has a field of its
 * own (`course_id`, `program_key`).
 */
import { z } from 'zod';
import type { CatalogItem, Invitation, InviteTarget } from '../../../shared/contract';
import { EngineError } from '../errors';
import { jsonText, type CallOptions, type PlatformClient } from '../platform';

export const TARGET_FIELD = { platform: 'platform_key', course: 'course_id', program: 'program_key' } as const;

/** Each kind of target has its own endpoints (the spec's paths). */
const INVITATIONS = {
  platform: '/api/catalog/invitations/platform/',
  course: '/api/catalog/invitations/course/',
  program: '/api/catalog/invitations/program/',
} as const;
const BULK = {
  platform: '/api/catalog/invitations/platform/bulk/',
  course: '/api/catalog/invitations/course/bulk/',
  program: '/api/catalog/invitations/program/bulk/',
} as const;

type Query = Record<string, string | number | boolean | undefined>;

/** The value of the target field: the tenant itself for platform invitations. */
export const targetId = (target: InviteTarget, org: string) => (target.kind === 'platform' ? org : target.id);

/** The idempotency scope of an invitation: 'platform:<org>', 'course:<id>', 'program:<key>'. */
export const targetKey = (target: InviteTarget, org: string) => `${target.kind}:${targetId(target, org)}`;

/** Query that selects a target's invitations. */
export function targetQuery(target: InviteTarget, org: string): Record<string, string> {
  const query: Record<string, string> = { platform_key: org };
  if (target.kind !== 'platform') query[TARGET_FIELD[target.kind]] = target.id;
  return query;
}

export function describeTarget(target: InviteTarget): string {
  return target.kind === 'platform' ? 'the platform' : `${target.kind} ${target.id}`;
}

export const ApiInvitation = z
  .object({
    id: z.number(),
    email: z.string().nullable().optional(),
    username: z.string().nullable().optional(),
    source: z.string().nullable().optional(),
    redirect_to: z.string().nullable().optional(),
    active: z.boolean(),
    created: z.string().nullable().optional(),
    started: z.string().nullable().optional(),
    expired: z.string().nullable().optional(),
    metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  })
  .loose();
export type ApiInvitation = z.infer<typeof ApiInvitation>;

export const InvitationPage = z
  .object({
    count: z.number(),
    results: z.array(ApiInvitation),
  })
  .loose();

/** The answer of a bulk request: how many were created, and `code:index:email` for every refused row. */
export const BulkAnswer = z.object({ successes: z.number(), error_codes: z.array(z.string()) }).loose();
export type BulkAnswer = z.infer<typeof BulkAnswer>;

/** Parses an answer at the boundary: an unexpected shape is an error the admin can report, not a crash later. */
export function parseAnswer<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new EngineError(
      'api',
      `The platform answered ${what} in an unexpected shape: ${parsed.error.issues[0]?.message ?? ''}`,
    );
  }
  return parsed.data;
}

export function isLive(invitation: ApiInvitation, now = Date.now()): boolean {
  if (!invitation.active) return false;
  if (invitation.expired && Date.parse(invitation.expired) <= now) return false;
  return true;
}

/** "First Last" from an invitation's metadata, where the names of imported people are kept. */
export function nameOf(invitation: Pick<ApiInvitation, 'metadata'>): string | null {
  const meta = invitation.metadata ?? {};
  const part = (key: string) => (typeof meta[key] === 'string' ? (meta[key] as string).trim() : '');
  const name = [part('first_name'), part('last_name')].filter(Boolean).join(' ');
  return name || null;
}

/**
 * The state an admin reads: used (accepted) first; then a passed expiry date, whether or not the invitation was also
 * switched off (revoking stamps the expiry); then switched off; else waiting to be used.
 */
export function toInvitation(api: ApiInvitation, target: InviteTarget, now = Date.now()): Invitation {
  const state = api.started
    ? 'accepted'
    : api.expired && Date.parse(api.expired) <= now
      ? 'expired'
      : !api.active
        ? 'inactive'
        : 'pending';
  return {
    id: api.id,
    email: api.email ?? null,
    username: api.username ?? null,
    name: nameOf(api),
    target,
    source: api.source ?? null,
    redirectTo: api.redirect_to ?? null,
    active: api.active,
    state,
    createdAt: api.created ?? null,
    startedAt: api.started ?? null,
    expiresAt: api.expired ?? null,
    metadata: api.metadata ?? {},
  };
}

/** GET a target's invitations: one page of those the query selects. */
export async function readInvitations(
  client: PlatformClient,
  target: InviteTarget,
  query: Query,
  options: CallOptions = {},
): Promise<z.infer<typeof InvitationPage>> {
  const { data } = await client.api.GET(INVITATIONS[target.kind], { params: { query }, ...options });
  return parseAnswer(InvitationPage, data, 'the invitation list');
}

export function listInvitations(
  client: PlatformClient,
  org: string,
  input: { target: InviteTarget; active?: boolean; email?: string; source?: string; page: number; pageSize: number },
  signal?: AbortSignal,
) {
  const query = {
    ...targetQuery(input.target, org),
    active: input.active,
    email: input.email || undefined,
    source: input.source || undefined,
    page: input.page,
    page_size: input.pageSize,
    sort: '-id',
  };
  return readInvitations(client, input.target, query, signal ? { signal } : {});
}

/** What an invitation says beside its target (first and last name are the platform's CSV-only extras). */
export interface InvitationFields {
  email: string;
  source: string;
  active: boolean;
  redirect_to?: string;
  first_name?: string;
  last_name?: string;
}

/** POST one invitation: `PlatformInvitationCreate`, `CourseInvitationCreate` or `ProgramInvitationCreate`. */
export async function createInvitation(
  client: PlatformClient,
  org: string,
  target: InviteTarget,
  fields: InvitationFields,
): Promise<ApiInvitation> {
  // Catalog calls carry the tenant as platform_key; course and program invitations name their target as well.
  const { data } =
    target.kind === 'platform'
      ? await client.api.POST(INVITATIONS.platform, { body: { platform_key: org, ...fields } })
      : target.kind === 'course'
        ? await client.api.POST(INVITATIONS.course, { body: { platform_key: org, course_id: target.id, ...fields } })
        : await client.api.POST(INVITATIONS.program, {
            body: { platform_key: org, program_key: target.id, ...fields },
          });
  return parseAnswer(ApiInvitation, data, 'the new invitation');
}

/** DELETE the invitation the query selects (by id, within the target). */
export async function revokeInvitation(client: PlatformClient, target: InviteTarget, query: Query): Promise<void> {
  await client.api.DELETE(INVITATIONS[target.kind], { params: { query }, parseAs: 'text' });
}

/** POST `…/bulk/` with a body already serialised as JSON (see `bulkBody` in job.ts). */
export async function sendBulk(
  client: PlatformClient,
  target: InviteTarget,
  text: string,
  options: CallOptions = {},
): Promise<BulkAnswer> {
  const { data } = await client.api.POST(BULK[target.kind], { ...jsonText(text), ...options });
  return parseAnswer(BulkAnswer, data, 'the bulk invitation');
}

/** GET `/api/core/platform/users/`: one page of the tenant's users (the query narrows by address). */
export async function readUsers(client: PlatformClient, query: Query, options: CallOptions = {}) {
  const { data } = await client.api.GET('/api/core/platform/users/', { params: { query }, ...options });
  return parseAnswer(UserPage, data, 'the user list');
}

const UserPage = z
  .object({
    count: z.number(),
    results: z.array(z.object({ email: z.string().nullable().optional() }).loose()),
  })
  .loose();

const Course = z.object({ course_id: z.string(), name: z.string().nullable().optional() }).loose();
const Program = z
  .object({
    program_key: z.string().nullable().optional(),
    program_id: z.string().nullable().optional(),
    slug: z.string().nullable().optional(),
    name: z.string().nullable().optional(),
  })
  .loose();

export async function listCourses(client: PlatformClient, org: string): Promise<CatalogItem[]> {
  const { data } = await client.api.GET('/api/catalog/courses/', { params: { query: { org } } });
  const courses = parseAnswer(z.array(Course), data, 'the course list');
  return courses
    .map((course) => ({ id: course.course_id, name: course.name || course.course_id }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export async function listPrograms(client: PlatformClient, org: string): Promise<CatalogItem[]> {
  const { data } = await client.api.GET('/api/catalog/programs/', { params: { query: { org } } });
  const programs = parseAnswer(z.array(Program), data, 'the program list');
  return programs
    .map((program) => {
      const id = program.program_key || program.program_id || program.slug || '';
      return { id, name: program.name || id };
    })
    .filter((program) => program.id)
    .sort((a, b) => a.name.localeCompare(b.name));
}
