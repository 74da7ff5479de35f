/**
 * Whether a tenant's mentors use the platform's default LLM key and the free trial, with their meters. The spec
 * gives the bodies in its descriptions only (`enable`/`disable` booleans; the use-default-llm-key body schema names a
 * `message`, which is its answer's field) and no schema for the default key's usage: the sandbox answers
 * `{use_main_credentials, usage, limit}` there, and the app shows whatever fields come back.
 */
import type { Db } from '../../db';
import { fieldErrors } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';

export const llmAccessSchema = `
CREATE TABLE IF NOT EXISTS llm_access (
  org TEXT PRIMARY KEY REFERENCES orgs(key),
  use_main_credentials INTEGER NOT NULL DEFAULT 0,
  free_trial INTEGER NOT NULL DEFAULT 0,
  free_trial_metadata TEXT,
  usage INTEGER NOT NULL DEFAULT 0,
  usage_limit INTEGER NOT NULL DEFAULT 10000
);
`;

const ORG = '/api/ai-account/orgs/{org}';

interface AccessRow {
  use_main_credentials: number;
  free_trial: number;
  usage: number;
  usage_limit: number;
}

/** `enable: true` or `disable: true`, as the descriptions say; neither is the ValidationError they name. */
function switched(body: unknown): boolean {
  const given = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  if (given.enable === true) return true;
  if (given.disable === true) return false;
  throw fieldErrors({ non_field_errors: ['Either enable or disable must be true.'] });
}

export function llmAccessRoutes(db: Db, router: Router): void {
  const row = (org: string): AccessRow => {
    db.prepare('INSERT OR IGNORE INTO llm_access (org) VALUES (?)').run(org);
    return db.prepare('SELECT * FROM llm_access WHERE org = ?').get(org) as AccessRow;
  };
  const set = (org: string, column: 'use_main_credentials' | 'free_trial', on: boolean) => {
    row(org);
    db.prepare(`UPDATE llm_access SET ${column} = ? WHERE org = ?`).run(on ? 1 : 0, org);
  };
  const org = (ctx: RequestContext) => ctx.params.org!;

  router.post(
    `${ORG}/use-default-llm-key/`,
    async (ctx) => {
      const on = switched(await ctx.json().catch(() => null));
      set(org(ctx), 'use_main_credentials', on);
      return {
        status: 200,
        body: { message: on ? 'Tenant is now using the main credentials' : 'Tenant is not using the main credentials' },
      };
    },
    { auth: 'admin' },
  );
  router.post(
    `${ORG}/use-free-trial/`,
    async (ctx) => {
      const body = (await ctx.json().catch(() => null)) as { metadata?: unknown } | null;
      set(org(ctx), 'free_trial', switched(body));
      if (body?.metadata !== undefined) {
        db.prepare('UPDATE llm_access SET free_trial_metadata = ? WHERE org = ?').run(
          JSON.stringify(body.metadata),
          org(ctx),
        );
      }
      return { status: 200 };
    },
    { auth: 'admin' },
  );
  router.get(
    `${ORG}/users/{user_id}/default-llm-key-usage`,
    (ctx) => {
      const access = row(org(ctx));
      return {
        status: 200,
        body: {
          use_main_credentials: access.use_main_credentials === 1,
          usage: access.usage,
          limit: access.usage_limit,
        },
      };
    },
    { auth: 'admin' },
  );
  router.get(
    `${ORG}/users/{user_id}/free-trial`,
    (ctx) => ({ status: 200, body: { is_in_free_trial: row(org(ctx)).free_trial === 1 } }),
    { auth: 'admin' },
  );
}

/** The demo tenant starts on the default key and the free trial, with some of the key's allowance used. */
export function seedLlmAccess(db: Db, org: string): void {
  db.prepare(
    `INSERT INTO llm_access (org, use_main_credentials, free_trial, usage, usage_limit) VALUES (?, 1, 1, 1840, 10000)
     ON CONFLICT (org) DO NOTHING`,
  ).run(org);
}
