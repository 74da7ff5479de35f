/**
 * Relations between kinds: a field that holds another kind's record id (an LTI tool's `tool_key` → an LTI key) is
 * declared as data, checked against the spec like every declared field, and read both ways: the form picks from the
 * other kind's records, and a record's details list the records that refer to it. No first resource on this branch
 * has one (LTI tools come with the forms work), so a test declaration of LTI tools shows it here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildResourceSpec, SPEC_FILE } from '../../scripts/resource-spec';
import { RESOURCES, referrersOf, type ResourceDeclaration } from '../../src/shared/resources';

const ltiTools = {
  kind: 'lti-tools',
  label: 'LTI tools',
  singular: 'LTI tool',
  area: 'tenant-settings',
  description: 'LMS registrations that launch into the platform.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: '/api/core/lti/1p3/provider/lti-tools/' },
    create: { method: 'post', path: '/api/core/lti/1p3/provider/lti-tools/' },
  },
  envelope: 'array',
  tenant: { platform_key: 'org' },
  columns: [{ field: 'title', label: 'Title' }],
  search: ['title'],
  fields: [{ name: 'tool_key', label: 'LTI key', input: 'reference', references: 'lti-keys' }],
  relations: [{ field: 'tool_key', kind: 'lti-keys' }],
} as const satisfies ResourceDeclaration;

const declared = [...(Object.values(RESOURCES) as ResourceDeclaration[]), ltiTools];
const problemsOf = (declarations: ResourceDeclaration[]) =>
  buildResourceSpec(readFileSync(SPEC_FILE, 'utf8'), declarations).problems;

describe('relations between kinds', () => {
  it('an LTI key’s details list the tools that use it; kinds nothing refers to list none', () => {
    expect(referrersOf('lti-keys', declared).map(({ declaration, field }) => [declaration.kind, field])).toEqual([
      ['lti-tools', 'tool_key'],
    ]);
    expect(referrersOf('api-tokens', declared)).toEqual([]);
  });

  it('are checked against the spec and the declared kinds, like every declared field', () => {
    expect(problemsOf(declared)).toEqual([]);
    expect(
      problemsOf([...declared.slice(0, -1), { ...ltiTools, relations: [{ field: 'tool_key', kind: 'lti-keyz' }] }]),
    ).toEqual(["lti-tools: relation 'tool_key' refers to kind 'lti-keyz', which is not declared"]);
    expect(
      problemsOf([...declared.slice(0, -1), { ...ltiTools, relations: [{ field: 'key_id', kind: 'lti-keys' }] }]),
    ).toEqual(["lti-tools: relation field 'key_id' is not a field of the spec's answer"]);
    expect(
      problemsOf([
        ...declared.slice(0, -1),
        { ...ltiTools, fields: [{ name: 'tool_key', label: 'LTI key', input: 'reference', references: 'keys' }] },
      ]),
    ).toContain("lti-tools: field 'tool_key' picks from kind 'keys', which is not declared");
  });
});
