/** The resource declarations against the vendor spec, and the spec slice the app ships (spec.generated.json). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildResourceSpec, OUTPUT_FILE, resourceSpecText, SPEC_FILE } from '../../scripts/resource-spec';
import { formSchema, RESOURCES, type ResourceDeclaration } from '../../src/shared/resources';

const specText = readFileSync(SPEC_FILE, 'utf8');
/** The problems of one declaration; the kinds its fields pick from (a call configuration's voices) come along. */
const problemsOf = (declaration: ResourceDeclaration) =>
  buildResourceSpec(specText, [declaration, RESOURCES.voices]).problems;

describe('resource declarations', () => {
  it('name only paths, methods, parameters and fields the spec has, and the shipped slice is what the spec gives', async () => {
    const { spec, problems } = buildResourceSpec(specText, Object.values(RESOURCES));
    expect(problems).toEqual([]);
    expect(readFileSync(OUTPUT_FILE, 'utf8')).toBe(await resourceSpecText(spec));
  });

  it('fail on a path, method, id parameter, form field, column, filter or tenant field the spec does not have', () => {
    const tokens: ResourceDeclaration = RESOURCES['api-tokens'];
    expect(
      problemsOf({
        ...tokens,
        operations: { ...tokens.operations, list: { method: 'get', path: '/api/core/platform/api-token/' } },
      }),
    ).toEqual(['api-tokens: list is GET /api/core/platform/api-token/, which the spec does not have']);
    expect(
      problemsOf({
        ...tokens,
        operations: { ...tokens.operations, create: { method: 'put', path: '/api/core/platform/api-tokens/' } },
      }),
    ).toContain('api-tokens: create is PUT /api/core/platform/api-tokens/, which the spec does not have');
    expect(
      problemsOf({
        ...tokens,
        operations: {
          ...tokens.operations,
          delete: { method: 'delete', path: '/api/core/platform/api-tokens/{name}', id: { in: 'path', name: 'id' } },
        },
      }),
    ).toEqual([
      "api-tokens: delete takes the id as path parameter 'id', which DELETE /api/core/platform/api-tokens/{name} does not have",
    ]);
    expect(
      problemsOf({ ...tokens, fields: [...tokens.fields, { name: 'scope', label: 'Scope', input: 'text' }] }),
    ).toEqual(["api-tokens: form field 'scope' is not in the request body of its create or update operation"]);
    expect(problemsOf({ ...tokens, columns: [{ field: 'owner', label: 'Owner' }] })).toEqual([
      "api-tokens: column 'owner' is not a field of the spec's answer",
    ]);
    expect(problemsOf({ ...tokens, tenant: { org_key: 'org' } })).toEqual([
      "api-tokens: tenant field 'org_key' is neither a parameter nor a body field of its operations",
    ]);
    const domains: ResourceDeclaration = RESOURCES.domains;
    const callConfigurations: ResourceDeclaration = RESOURCES['call-configurations'];
    expect(
      problemsOf({ ...domains, filters: [{ field: 'is_active', label: 'Active', input: 'switch', param: 'active' }] }),
    ).toEqual(["domains: filter parameter 'active' is not a query parameter of its list or get operation"]);
    expect(
      problemsOf({
        ...callConfigurations,
        filters: [
          {
            field: 'mode',
            label: 'Mode',
            input: 'select',
            options: [{ value: 'telepathy', label: 'telepathy' }],
            param: 'mode',
          },
        ],
      }),
    ).toEqual(["call-configurations: filter 'mode' offers 'telepathy', which its parameter's enum does not allow"]);
    expect(problemsOf({ ...domains, csv: [{ field: 'website' }] })).toEqual([
      "domains: CSV column 'website' is neither the id nor a field of the create request body",
    ]);
    expect(problemsOf({ ...domains, revealOnce: ['secret'] })).toEqual([
      "domains: 'secret' is not a field of the create answer",
    ]);
  });

  it('check an id sent in the body, and the operation that describes a form’s fields', () => {
    const credentials = RESOURCES.credentials;
    // The DELETE declares no body, but its description says it "must include 'name'": the name may go there.
    expect(problemsOf(credentials)).toEqual([]);
    expect(
      problemsOf({
        ...credentials,
        operations: {
          ...credentials.operations,
          delete: { ...credentials.operations.delete, id: { in: 'body', name: 'provider' } },
        },
      }),
    ).toEqual([
      "credentials: delete takes the id as body parameter 'provider', which DELETE /api/ai-account/orgs/{org}/credential/ does not have",
    ]);
    expect(
      problemsOf({
        ...credentials,
        describedFields: {
          ...credentials.describedFields,
          operation: { method: 'get', path: '/api/ai-account/orgs/{org}/credential/schemas/' },
        },
      }),
    ).toEqual([
      'credentials: describe is GET /api/ai-account/orgs/{org}/credential/schemas/, which the spec does not have',
    ]);
    // A credential's value is an object of the described fields, required on create as the spec requires it.
    const create = formSchema(credentials, RESOURCES.credentials.operations.create, 'create');
    expect(create.safeParse({ name: 'openai', value: { key: 'k' } }).success).toBe(true);
    expect(create.safeParse({ name: 'openai' }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'value: This field is required.',
    ]);
  });

  it("derive each form's rules from the spec: required, pattern, length, type; empty optional text is not sent", () => {
    const tokens = RESOURCES['api-tokens'];
    const create = formSchema(tokens, tokens.operations.create, 'create');
    expect(create.safeParse({ name: 'ci-token', expires_in: '' })).toEqual({
      success: true,
      data: { name: 'ci-token' },
    });
    const issues = (value: unknown) =>
      (create.safeParse(value).error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.code}`);
    expect(issues({ name: 'has space' })).toEqual(['name: invalid_format']);
    expect(issues({ name: 'x'.repeat(256) })).toEqual(['name: too_big']);
    expect(issues({})).toEqual(['name: invalid_type']);
    // In the platform's own words, so a form says what the platform would.
    const messages = (value: unknown) => (create.safeParse(value).error?.issues ?? []).map((issue) => issue.message);
    expect(messages({})).toEqual(['This field is required.']);
    expect(messages({ name: 'has space' })).toEqual([
      'Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.',
    ]);
    expect(messages({ name: 'x'.repeat(256) })).toEqual(['Ensure this field has no more than 255 characters.']);
    expect(create.safeParse({ name: 'ok', expires_in: null }).success).toBe(true);
    // The platform's own field, filled from the connection, is not the admin's to give.
    expect(issues({ name: 'a', platform_key: 'other' })).toEqual([': unrecognized_keys']);
    const domains = RESOURCES.domains;
    const domain = formSchema(domains, domains.operations.create, 'create');
    expect(domain.safeParse({ url: 'learn.example.edu', is_active: 'yes' }).error?.issues[0]?.message).toBe(
      'Must be a valid boolean.',
    );
    expect(domain.safeParse({ url: 'learn.example.edu', is_active: false }).success).toBe(true);
  });
});
