/**
 * Relations between kinds: a field that holds another kind's record id (an LTI tool's `tool_key` → an LTI key) is
 * declared as data, checked against the spec like every declared field, and read both ways: the form picks from the
 * other kind's records, and a record's details list the records that refer to it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildResourceSpec, SPEC_FILE } from '../../scripts/resource-spec';
import { RESOURCES, referrersOf, type ResourceDeclaration } from '../../src/shared/resources';

const ltiTools: ResourceDeclaration = RESOURCES['lti-tools'];
const declared = Object.values(RESOURCES) as ResourceDeclaration[];
const others = declared.filter((declaration) => declaration.kind !== 'lti-tools');
const problemsOf = (declarations: ResourceDeclaration[]) =>
  buildResourceSpec(readFileSync(SPEC_FILE, 'utf8'), declarations).problems;

describe('relations between kinds', () => {
  it('an LTI tool picks its LTI key from the LTI keys', () => {
    expect(ltiTools.relations).toEqual([{ field: 'tool_key', kind: 'lti-keys' }]);
    expect(ltiTools.fields.find((field) => field.name === 'tool_key')).toMatchObject({
      input: 'reference',
      references: 'lti-keys',
    });
  });

  it('an LTI key’s details list the tools that use it; kinds nothing refers to list none', () => {
    expect(referrersOf('lti-keys', declared).map(({ declaration, field }) => [declaration.kind, field])).toEqual([
      ['lti-tools', 'tool_key'],
    ]);
    expect(referrersOf('api-tokens', declared)).toEqual([]);
  });

  it('are checked against the spec and the declared kinds, like every declared field', () => {
    expect(problemsOf(declared)).toEqual([]);
    expect(problemsOf([...others, { ...ltiTools, relations: [{ field: 'tool_key', kind: 'lti-keyz' }] }])).toEqual([
      "lti-tools: relation 'tool_key' refers to kind 'lti-keyz', which is not declared",
    ]);
    expect(problemsOf([...others, { ...ltiTools, relations: [{ field: 'key_id', kind: 'lti-keys' }] }])).toEqual([
      "lti-tools: relation field 'key_id' is not a field of the spec's answer",
    ]);
    expect(
      problemsOf([
        ...others,
        {
          ...ltiTools,
          fields: ltiTools.fields.map((field) =>
            field.name === 'tool_key' ? { ...field, references: 'keys' } : field,
          ),
        },
      ]),
    ).toContain("lti-tools: field 'tool_key' picks from kind 'keys', which is not declared");
    const calls = RESOURCES['call-configurations'] as ResourceDeclaration;
    expect(calls.filters?.find((filter) => filter.field === 'mentor')).toMatchObject({
      input: 'reference',
      references: 'mentors',
    });
    expect(
      problemsOf([
        ...declared.filter((declaration) => declaration.kind !== 'call-configurations'),
        {
          ...calls,
          filters: [{ field: 'mentor', label: 'Mentor', input: 'reference', references: 'mentorz', param: 'mentor' }],
        },
      ]),
    ).toEqual(["call-configurations: filter 'mentor' picks from kind 'mentorz', which is not declared"]);
  });
});
