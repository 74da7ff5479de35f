/**
 * The access model alone (src/shared/access.ts): the one function the app and the sandbox decide with.
 */
import { describe, expect, it } from 'vitest';
import {
  accessMatrix,
  actionLabel,
  afterChange,
  covers,
  effectivePermissions,
  grantFor,
  noAdminLeft,
  NO_ADMIN_LEFT,
  requestNeed,
  roleChanges,
  type AccessState,
} from '../../src/shared/access';
import { RESOURCES } from '../../src/shared/resources';
import { shownValue } from '../../src/renderer/resources/readable';

const state: AccessState = {
  platformId: 3,
  roles: [
    { id: 1, name: 'Readers', actions: ['Ibl.Core/Roles/read', 'Ibl.Mentor/Settings/read'] },
    { id: 2, name: 'Admins', actions: ['Ibl.Core/Roles/write', 'Ibl.Core/Policies/write'] },
  ],
  policies: [
    // The policy's copy of its role is old: the role's record decides.
    {
      id: 10,
      name: 'Readers here',
      role: { id: 1, actions: [] },
      resources: ['/platforms/3/rbac'],
      users: [{ id: 7 }],
      groups: [],
    },
    { id: 11, name: 'Admins', role: { id: 2 }, resources: ['/'], users: [], groups: [{ id: 20 }] },
  ],
  groups: [{ id: 20, name: 'Owners', users: [{ id: 8, username: 'owner' }] }],
};

describe('the access model', () => {
  it('reads resources relative to the platform and covers what is below', () => {
    expect(covers('/platforms/3/rbac', '/rbac/roles/5/', 3)).toBe(true);
    expect(covers('/platforms/4/rbac', '/rbac/roles/5/', 3)).toBe(false);
    expect(covers('/rbac/roles', '/rbac/rolesx/', 3)).toBe(false);
    expect(requestNeed('GET', '/api/core/rbac/roles/5/')).toEqual({
      action: 'Ibl.Core/Roles/read',
      resource: '/rbac/roles/5/',
    });
    expect(requestNeed('DELETE', '/api/core/user_groups/')).toEqual({
      action: 'Ibl.Core/UserGroups/write',
      resource: '/user_groups/',
    });
    expect(requestNeed('GET', '/api/ai-mentor/orgs/x/')).toBeNull();
  });

  it('grants each action of the role as it is now, directly or through a group', () => {
    expect(effectivePermissions(state, 7).map((g) => `${g.action} ${g.resource} ${g.policy.name}`)).toEqual([
      'Ibl.Core/Roles/read /rbac/roles/ Readers here',
      'Ibl.Mentor/Settings/read /rbac/ Readers here',
    ]);
    expect(effectivePermissions(state, 8).every((g) => g.group?.name === 'Owners')).toBe(true);
    expect(effectivePermissions(state, 9)).toEqual([]);
  });

  it('answers only what enforcement would allow: an action over the part of a resource its requests reach', () => {
    const paired: AccessState = {
      platformId: 3,
      roles: [{ id: 1, name: 'Groups', actions: ['Ibl.Core/Departments/write', 'Ibl.Core/UserGroups/read'] }],
      policies: [
        { id: 10, name: 'Groups', role: { id: 1 }, resources: ['/user_groups/', '/'], users: [{ id: 7 }], groups: [] },
      ],
      groups: [],
    };
    expect(effectivePermissions(paired, 7).map((g) => `${g.action} ${g.resource}`)).toEqual([
      'Ibl.Core/Departments/write /departments/',
      'Ibl.Core/UserGroups/read /user_groups/',
      'Ibl.Core/UserGroups/read /user_groups/',
    ]);
    // Every answer is one the sandbox's check (grantFor over requestNeed) really allows, and nothing more.
    for (const grant of effectivePermissions(paired, 7)) {
      const method = grant.action.endsWith('/read') ? 'GET' : 'POST';
      expect(grantFor(paired, 7, requestNeed(method, `/api/core${grant.resource}`)!)).not.toBeNull();
    }
    expect(grantFor(paired, 7, requestNeed('POST', '/api/core/user_groups/')!)).toBeNull();
  });

  it('refuses a change that leaves no administrator, not one that keeps one or a tenant that never had one', () => {
    const emptied = afterChange(state, {
      kind: 'rbac-groups',
      op: 'update',
      id: '20',
      values: { users_to_remove: [8] },
    });
    expect(noAdminLeft(state, emptied)).toBe(NO_ADMIN_LEFT);
    const another = afterChange(state, {
      kind: 'rbac-policies',
      op: 'update',
      id: '11',
      values: { users_to_add: [7] },
    });
    expect(noAdminLeft(another, afterChange(another, { kind: 'rbac-groups', op: 'delete', id: '20' }))).toBeNull();
    expect(noAdminLeft(state, afterChange(state, { kind: 'rbac-roles', op: 'delete', id: '2' }))).toBe(NO_ADMIN_LEFT);
    const never = { ...state, policies: [] };
    expect(noAdminLeft(never, never)).toBeNull();
  });

  it('lays out the matrix and says what edits change', () => {
    const matrix = accessMatrix(state.roles);
    expect(matrix.resources.at(-1)).toEqual({
      name: 'Ibl.Mentor/Settings',
      label: 'Mentor / Settings',
      verbs: ['read', 'write'],
    });
    expect(matrix.roles.map((r) => r.name)).toEqual(['Admins', 'Readers']);
    expect(
      roleChanges(state.roles, [
        { id: 1, actions: ['Ibl.Core/Roles/read', 'Ibl.Core/Roles/write'] },
        { id: 2, actions: state.roles[1]!.actions as string[] },
      ]),
    ).toEqual([
      {
        id: 1,
        name: 'Readers',
        added: ['Ibl.Core/Roles/write'],
        removed: ['Ibl.Mentor/Settings/read'],
        actions: ['Ibl.Core/Roles/read', 'Ibl.Core/Roles/write'],
      },
    ]);
  });
});

describe('actions as an administrator reads them', () => {
  it('names a guarded action by its resource’s label and verb, any other by its path in words', () => {
    expect(actionLabel('Ibl.Core/Roles/read')).toBe('Roles: read');
    expect(actionLabel('Ibl.Core/UserGroups/write')).toBe('User groups: write');
    expect(actionLabel('Ibl.Mentor/Settings/read')).toBe('Mentor / Settings: read');
  });

  it('shows a role’s actions in its list by those labels', () => {
    expect(
      shownValue(RESOURCES['rbac-roles'], 'actions', ['Ibl.Core/Roles/read', 'Ibl.Analytics/Reports/write']),
    ).toEqual(['Roles: read', 'Analytics / Reports: write']);
  });
});
