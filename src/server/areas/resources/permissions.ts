/**
 * `POST /api/core/rbac/permissions/check/`: what the caller may do over each resource path it names. The spec takes
 * `{platform_key, resources}` (paths that "must start and end with '/'") and declares no answer body; the sandbox
 * answers, for each path, the actions the caller holds there (a tenant admin: every guarded action over it, and what
 * policies grant).
 */
import { accessState } from '../../access';
import type { Db } from '../../db';
import { fieldErrors, forbidden } from '../../http/errors';
import type { Router } from '../../http/router';
import { covers, effectivePermissions, GUARDED_RESOURCES, VERBS } from '../../../shared/access';

type Row = Record<string, unknown>;

function checked(body: unknown): { platform_key: string; resources: string[] } {
  const given = body && typeof body === 'object' && !Array.isArray(body) ? (body as Row) : {};
  const errors: Record<string, string[]> = {};
  if (given.platform_key === undefined) errors.platform_key = ['This field is required.'];
  else if (typeof given.platform_key !== 'string') errors.platform_key = ['Not a valid string.'];
  if (given.resources === undefined) errors.resources = ['This field is required.'];
  else if (!Array.isArray(given.resources)) errors.resources = ['Expected a list of items.'];
  else {
    const bad = (given.resources as unknown[]).filter(
      (r) => typeof r !== 'string' || !r.startsWith('/') || !r.endsWith('/'),
    );
    if (bad.length) errors.resources = ["Resource paths must start and end with '/'."];
  }
  if (Object.keys(errors).length) throw fieldErrors(errors);
  return given as { platform_key: string; resources: string[] };
}

export function permissionCheckRoutes(db: Db, router: Router): void {
  router.post(
    '/api/core/rbac/permissions/check/',
    async (ctx) => {
      const body = checked(await ctx.json().catch(() => null));
      const caller = ctx.caller!;
      // Another tenant's permissions are not the caller's to ask about.
      if (body.platform_key !== caller.org) throw forbidden();
      const state = accessState(db, caller.org);
      const grants = effectivePermissions(state, caller.userId);
      const answer: Record<string, { actions: string[] }> = {};
      for (const resource of body.resources) {
        const actions = new Set(
          grants.filter((g) => covers(g.resource, resource, state.platformId)).map((g) => g.action),
        );
        if (caller.role === 'admin') {
          for (const guarded of GUARDED_RESOURCES) {
            if (!covers(guarded.path.slice('/api/core'.length), resource, state.platformId)) continue;
            for (const verb of VERBS) actions.add(`${guarded.action}/${verb}`);
          }
        }
        answer[resource] = { actions: [...actions].sort() };
      }
      return { status: 200, body: answer };
    },
    { auth: 'user' },
  );
}
