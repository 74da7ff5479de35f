import { describe, expect, it } from 'vitest';
import { RESOURCES, type ResourceDeclaration } from '../../src/shared/resources';
import { groupsOf } from '../../src/renderer/resources/naming';

const kind = (name: string, group?: string) => ({ kind: name, ...(group ? { group } : {}) }) as ResourceDeclaration;

describe('groupsOf (the tab rail of a kit area)', () => {
  it('files kinds under their group, groups in the order of their first kind, ungrouped kinds first', () => {
    const grouped = groupsOf([kind('a', 'Access'), kind('l', 'LTI'), kind('b', 'Access'), kind('x')]);
    expect(grouped.map(({ group, kinds }) => [group, kinds.map((k) => k.kind)])).toEqual([
      [undefined, ['x']],
      ['Access', ['a', 'b']],
      ['LTI', ['l']],
    ]);
  });

  it('gives every tenant-settings kind a group, so the rail has no stray tab', () => {
    const tenantSettings = Object.values(RESOURCES).filter((declaration) => declaration.area === 'tenant-settings');
    expect(groupsOf(tenantSettings).map(({ group, kinds }) => [group, kinds.map((k) => k.label)])).toEqual([
      ['Access', ['API tokens', 'Domain whitelist', 'Integration keys']],
      ['LTI', ['LTI keys', 'LTI tools']],
      ['Organisation', ['Org metadata', 'Branding', 'Site config', 'Billing']],
    ]);
  });
});
