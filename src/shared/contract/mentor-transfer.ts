/**
 * A mentor's configuration moved between files and tenants (issue 16): exported as a versioned JSON file (no
 * secrets), imported into this or another tenant, or copied straight to another tenant. What the target tenant lacks
 * (a model it is not offered, a category or MCP server it does not have) is listed before anything is created, and
 * left out.
 */
import { z } from 'zod';
import { call } from './kit';
import { Job } from './jobs';
import { Mentor } from './mentors';

const Tenant = { profileId: z.string().min(1).optional() };

export const MENTOR_CONFIG_FORMAT = 'mentor-admin.mentor-config';
export const MENTOR_CONFIG_VERSION = 1;
/** A configuration file is a few kilobytes; anything near this is not one. */
export const MENTOR_CONFIG_MAX_CHARS = 2_000_000;

export const MentorConfig = z.object({
  format: z.literal(MENTOR_CONFIG_FORMAT),
  version: z.literal(MENTOR_CONFIG_VERSION),
  exportedAt: z.string(),
  source: z.object({ tenant: z.string(), mentor: z.string(), uniqueId: z.string() }),
  /** What a configuration never carries, in words (secrets, ids of the source tenant, documents). */
  manifest: z.object({ leftOut: z.array(z.string()) }),
  name: z.string().trim().min(1).max(255),
  /** The `mentor-settings` fields, as its update takes them (by name where the platform uses a tenant's ids). */
  settings: z.record(z.string(), z.unknown()),
  categories: z.array(z.object({ name: z.string(), audiences: z.array(z.string()) })),
  /** The MCP servers the mentor calls, by name; their credentials are write-only and never read. */
  mcpServers: z.array(z.object({ name: z.string(), url: z.string().nullable() })),
  /** How voice calls with it are handled (a call configuration's fields but its ids), if it has one. */
  callConfiguration: z.record(z.string(), z.unknown()).nullable(),
});
export type MentorConfig = z.infer<typeof MentorConfig>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/** Reads a configuration file's text; a message that says what is wrong with it otherwise. */
export function parseMentorConfig(text: string): { config: MentorConfig } | { problem: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { problem: `The file is not valid JSON (${(error as Error).message}).` };
  }
  if (!isObject(data) || data.format !== MENTOR_CONFIG_FORMAT) {
    return {
      problem: `This is not a mentor configuration exported by Mentor Admin: its "format" is not "${MENTOR_CONFIG_FORMAT}".`,
    };
  }
  if (data.version !== MENTOR_CONFIG_VERSION) {
    return {
      problem: `This mentor configuration is version ${JSON.stringify(data.version ?? null)}; this app reads version ${MENTOR_CONFIG_VERSION}. Export it again with this app.`,
    };
  }
  const parsed = MentorConfig.safeParse(data);
  if (!parsed.success) {
    return {
      problem: `The mentor configuration is damaged: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'file'}: ${i.message}`).join('; ')}.`,
    };
  }
  return { config: parsed.data };
}

/** Something of the configuration the target tenant cannot take: left out, with the reason. */
export const LeftOut = z.object({ field: z.string(), value: z.string(), reason: z.string() });
export type LeftOut = z.infer<typeof LeftOut>;

/** What an import (or a copy) will do on the target tenant, before anything is created. */
export const MentorImportPlan = z.object({
  action: z.enum(['create', 'update']),
  name: z.string(),
  /** The mentor updated (its unique id); null when one is created. */
  target: z.string().nullable(),
  /** The settings fields written. */
  settings: z.array(z.string()),
  categories: z.array(z.string()),
  mcpServers: z.array(z.string()),
  callConfiguration: z.boolean(),
  leftOut: z.array(LeftOut),
});
export type MentorImportPlan = z.infer<typeof MentorImportPlan>;

/**
 * A copy's documents: those it trains on the target (trained documents with a URL), and every other one with the
 * reason (the platform's API gives no way to read a document's file).
 */
export const MentorCopyDocuments = z.object({
  copied: z.array(z.object({ id: z.string(), name: z.string() })),
  notCopied: z.array(z.object({ id: z.string(), name: z.string(), reason: z.string() })),
});
export type MentorCopyDocuments = z.infer<typeof MentorCopyDocuments>;

const ImportInput = z
  .object({
    ...Tenant,
    text: z.string().max(MENTOR_CONFIG_MAX_CHARS, 'This file is too large to be a mentor configuration'),
    /** The mentor to create (or, when one has this name, to update); the file's own name when absent. */
    name: z.string().trim().min(1).max(255).optional(),
  })
  .strict();

export const mentorTransferCalls = {
  'mentors.exportConfig': call(
    z.object({ ...Tenant, mentor: z.string().min(1) }).strict(),
    z.object({ config: MentorConfig, fileName: z.string() }),
    "A mentor's configuration as a versioned file: its settings, categories, MCP servers and call configuration by name, never a secret",
  ),
  'mentors.planImport': call(
    ImportInput,
    MentorImportPlan,
    'What importing a configuration file would create or change, and what the tenant lacks (left out); nothing is written',
  ),
  'mentors.importConfig': call(
    ImportInput,
    z.object({ plan: MentorImportPlan, mentor: Mentor }),
    'Create (or update) a mentor from a configuration file, leaving out what the tenant lacks',
  ),
  'mentors.copy': call(
    z
      .object({
        ...Tenant,
        mentor: z.string().min(1),
        toProfileId: z.string().min(1),
        name: z.string().trim().min(1).max(255).optional(),
        /** Its trained documents too (those the platform gives a URL for; the others are listed, not copied). */
        withDocuments: z.boolean().optional(),
        dryRun: z.boolean().optional(),
      })
      .strict(),
    z.object({
      plan: MentorImportPlan,
      /** With documents: which are copied and which cannot be; null without. */
      documents: MentorCopyDocuments.nullable(),
      /** The `mentor-copy` job started (or resumed); null for a dry run. */
      job: Job.nullable(),
      resumed: z.boolean(),
    }),
    'Copy a mentor to another tenant (or this one) as a journalled job: its plan, and the job unless a dry run',
  ),
} as const;
