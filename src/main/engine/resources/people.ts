/**
 * Taking a person off the tenant (`people.remove`): only once the admin has typed the person's username or email,
 * and with a report of what went with them (their department, user groups and RBAC policies as this app last read
 * them). The kit's cached rows of the person and of their memberships go at once; every list that showed them is
 * announced as changed.
 */
import type { HandlersOf } from '../dispatch';
import type { peopleCalls } from '../../../shared/contract';
import { RESOURCES, type ResourceKind } from '../../../shared/resources';
import { EngineError, invalid } from '../errors';
import { ApiError } from '../platform';
import { userScope } from '../tenants';
import { ResourceApi } from './api';
import type { ResourceCache } from './cache';
import { explain } from './explain';
import { z } from 'zod';
import type { ResourceServices } from './handlers';
import { readPersonCompletions } from './person/completions';

type Row = Record<string, unknown>;
const Named = z.object({ name: z.string().nullish(), slug: z.string().nullish() }).loose();
const Skills = z.object({ skills: z.array(Named.extend({ skill_id: z.number() })).default([]) }).loose();
const Roles = z.object({ roles: z.array(Named.extend({ id: z.number() })).default([]) }).loose();
/** The spec leaves the skill points answer open: its `skills` (name, points) and `total_points` where it has them. */
const Points = z
  .object({
    total_points: z.number().nullish(),
    skills: z
      .array(z.object({ skill_id: z.number().nullish(), name: z.string().nullish(), points: z.number() }).loose())
      .default([]),
  })
  .loose();
const named = (item: { name?: string | null; slug?: string | null }, id: number) => ({
  id,
  name: item.name || item.slug || `#${id}`,
});
const ALL = { page: 1, pageSize: 10_000 };

export function peopleHandlers(ctx: ResourceServices, cache: ResourceCache): HandlersOf<typeof peopleCalls> {
  const changed = (profileId: string, kind: ResourceKind) => ctx.emit('resources.changed', { profileId, kind });

  return {
    'people.learning': async ({ profileId: given, username }) => {
      const profileId = ctx.tenant(given);
      const client = await ctx.platform(profileId);
      const query = { params: { query: { username } }, maxAttempts: 2, timeoutMs: 15_000 };
      try {
        const [desiredSkills, reportedSkills, desiredRoles, reportedRoles, points] = await Promise.all([
          client.api.GET('/api/catalog/skills/desired/', query),
          client.api.GET('/api/catalog/skills/reported/', query),
          client.api.GET('/api/catalog/roles/desired/', query),
          client.api.GET('/api/catalog/roles/reported/', query),
          client.api.GET('/api/catalog/milestones/skill_points/user/', query),
        ]);
        const skills = (data: unknown) => Skills.parse(data ?? {}).skills.map((s) => named(s, s.skill_id));
        const roles = (data: unknown) => Roles.parse(data ?? {}).roles.map((r) => named(r, r.id));
        const earned = Points.parse(points.data ?? {});
        return {
          username,
          desiredSkills: skills(desiredSkills.data),
          reportedSkills: skills(reportedSkills.data),
          desiredRoles: roles(desiredRoles.data),
          reportedRoles: roles(reportedRoles.data),
          skillPoints: earned.skills.map((s) => ({
            id: s.skill_id ?? null,
            name: s.name || (s.skill_id ? `#${s.skill_id}` : 'Skill'),
            points: s.points,
          })),
          totalPoints: earned.total_points ?? null,
        };
      } catch (error) {
        if (error instanceof ApiError && error.status === 404)
          throw new EngineError('not_found', `The platform has no learning profile of ${username}`);
        throw error;
      }
    },
    'people.completions': async ({ profileId: given, username, userId }) => {
      const profileId = ctx.tenant(given);
      const client = await ctx.platform(profileId);
      const { org } = await userScope(ctx.profiles, profileId);
      return { username, courses: await readPersonCompletions(client, org, { username, userId }) };
    },
    'people.remove': async ({ profileId: given, id, confirm }) => {
      const profileId = ctx.tenant(given);
      const person = cache.find(profileId, 'users', id);
      if (!person) throw new EngineError('not_found', `No user "${id}" on this tenant (read the users list again)`);
      const username = String(person.username);
      const email = typeof person.email === 'string' && person.email ? person.email : null;
      const typed = confirm.trim();
      if (typed !== username && !(email && typed.toLowerCase() === email.toLowerCase())) {
        throw invalid('confirm', `Type ${username}${email ? ` or ${email}` : ''} to remove this person`);
      }

      const userId = Number(id);
      const mine = (kind: ResourceKind) =>
        cache.page(profileId, kind, { where: [{ field: 'user_id', value: userId }], ...ALL }).records;
      const departments = mine('department-members');
      const links = mine('user-group-members');
      const policies = cache
        .page(profileId, 'rbac-policies', ALL)
        .records.filter((policy) => ((policy.users as Row[] | undefined) ?? []).some((user) => user.id === userId));

      const api = new ResourceApi(await ctx.platform(profileId), await userScope(ctx.profiles, profileId));
      let message: string;
      try {
        message = await api.removeUser(username);
      } catch (error) {
        // The spec's refusal is `{error}`: said as the platform says it.
        const said = error instanceof ApiError ? (error.body as { error?: unknown } | null)?.error : undefined;
        if (typeof said === 'string') throw new EngineError('api', `The platform did not remove ${username}: ${said}`);
        throw explain(error, RESOURCES.users, id);
      }

      cache.remove(profileId, 'users', id);
      for (const row of departments) cache.remove(profileId, 'department-members', String(row.user_id));
      for (const row of links) cache.remove(profileId, 'user-group-members', String(row.id));
      for (const kind of ['users', 'department-members', 'user-group-members', 'rbac-policies'] as const)
        changed(profileId, kind);
      return {
        userId: id,
        username,
        email,
        message,
        departments: departments.map((row) => String(row.department_name ?? row.department_id)),
        groups: links.map((row) => String(row.group_name ?? row.group_id)),
        policies: policies.map((policy) => String(policy.name)),
      };
    },
  };
}
