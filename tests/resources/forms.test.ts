/**
 * The kit's field inputs and single-record kinds, as declarations and rules: number, date, JSON and image fields
 * take their rules from the spec (an image is refused by its bytes before anything is sent), and a single-record
 * kind or a field with calls of its own is checked against the spec like any other operation.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildResourceSpec, SPEC_FILE } from '../../scripts/resource-spec';
import {
  checkImage,
  fieldRule,
  formSchema,
  RESOURCES,
  toDataUrl,
  TYPICAL_IMAGE_LIMIT_BYTES,
  verbsOf,
  type ResourceDeclaration,
} from '../../src/shared/resources';

const specText = readFileSync(SPEC_FILE, 'utf8');
const problemsOf = (declaration: ResourceDeclaration) => buildResourceSpec(specText, [declaration]).problems;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const png = toDataUrl('image/png', PNG);
const messages = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);

describe('field inputs', () => {
  it('number, URL and JSON fields of LTI tools take the spec types, in the platform words', () => {
    const tools = RESOURCES['lti-tools'];
    const create = formSchema(tools, tools.operations.create, 'create');
    const valid = {
      title: 'Canvas',
      issuer: 'https://lms.example.edu',
      client_id: 'c',
      auth_login_url: 'https://lms.example.edu/a',
      auth_token_url: 'https://lms.example.edu/t',
      tool_key: 3,
      deployment_ids: ['1'],
      launch_gate: { allowed_keys: [], allowed_courses: [], allow_all_within_org: true },
    };
    expect(create.safeParse(valid).success).toBe(true);
    expect(messages(create.safeParse({ ...valid, tool_key: 'three', issuer: 'lms' }))).toEqual([
      'issuer: Enter a valid URL.',
      'tool_key: A valid integer is required.',
    ]);
    expect(messages(create.safeParse({ ...valid, deployment_ids: '1' }))[0]).toMatch(/^deployment_ids: /);
    expect(create.safeParse({ ...valid, launch_gate: { allow_all_within_org: 'yes' } }).success).toBe(false);
    // Optional and nullable as the spec says: no rule of the kit's own.
    expect(create.safeParse({ ...valid, auth_audience: null, key_set: { keys: [] } }).success).toBe(true);
  });

  it('date and date-time strings are checked as the spec formats them', () => {
    const when = fieldRule({ type: 'string', format: 'date-time' });
    expect(when.safeParse('2026-11-26T10:00:00Z').success).toBe(true);
    expect(when.safeParse('2026-11-26T10:00+01:00').success).toBe(true);
    expect(when.safeParse('26/11/2026').error?.issues[0]?.message).toBe(
      'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
    );
    const day = fieldRule({ type: 'string', format: 'date' });
    expect(day.safeParse('2026-11-26').success).toBe(true);
    expect(day.safeParse('2026-13-45').error?.issues[0]?.message).toBe(
      'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
    );
  });

  it('an image field refuses, before any upload, what is not an image by its bytes', () => {
    const brand = RESOURCES.branding;
    const update = formSchema(brand, null, 'update');
    expect(update.safeParse({ logo: png, favicon: png }).success).toBe(true);
    const pdf = toDataUrl('image/png', new TextEncoder().encode('%PDF-1.7 not an image'));
    expect(messages(update.safeParse({ logo: pdf }))).toEqual([
      'logo: Not an image: the file is none of PNG, JPEG, GIF, WebP, ICO, BMP, AVIF, SVG.',
    ]);
    expect(messages(update.safeParse({ thumbnail: 'https://example.edu/t.png' }))).toEqual([
      'thumbnail: Choose an image file (the value is not a file the app read).',
    ]);
    expect(messages(update.safeParse({ favicon: 'data:image/x-icon;base64,' }))).toEqual([
      'favicon: The file is empty: choose an image.',
    ]);
    expect(update.safeParse({ banner: png }).success).toBe(false);
  });

  it('warns, without refusing, where the platform may still refuse an image (size, SVG)', () => {
    expect(checkImage(png)).toMatchObject({ ok: true, format: 'PNG', size: PNG.length, warning: null });
    const svg = toDataUrl('image/svg+xml', new TextEncoder().encode('<?xml version="1.0"?>\n<svg xmlns="x"></svg>'));
    expect(checkImage(svg)).toMatchObject({ ok: true, format: 'SVG', warning: expect.stringMatching(/SVG/) });
    const big = new Uint8Array(TYPICAL_IMAGE_LIMIT_BYTES + 1);
    big.set(PNG);
    expect(checkImage(toDataUrl('image/png', big))).toMatchObject({
      ok: true,
      // The app's one byte format (shared/bytes.ts), as the train preview's warning writes it.
      warning: expect.stringMatching(/^25 MB: above the 25 MB many tenants accept/),
    });
  });
});

describe('single-record kinds', () => {
  it('offer get, and update where the platform has a write', () => {
    expect(verbsOf(RESOURCES['org-metadata'])).toEqual(['get', 'update']);
    expect(verbsOf(RESOURCES.branding)).toEqual(['get', 'update']);
    expect(verbsOf(RESOURCES['site-config'])).toEqual(['get', 'update']);
    expect(verbsOf(RESOURCES.billing)).toEqual(['get']);
  });

  it('fail the spec check on a field of its own written under a body field its call lacks, or a list', () => {
    const brand: ResourceDeclaration = RESOURCES.branding;
    const [logo, ...rest] = brand.fields;
    expect(
      problemsOf({ ...brand, fields: [{ ...logo!, own: { ...logo!.own!, bodyField: 'image' } }, ...rest] }),
    ).toEqual(["branding: field 'logo' is written as 'image', which its write's body does not have"]);
    expect(
      problemsOf({
        ...brand,
        fields: [
          { ...logo!, own: { ...logo!.own!, write: { method: 'put', path: '/api/core/orgs/{org}/logo/create/' } } },
        ],
      }),
    ).toEqual(['branding: write:logo is PUT /api/core/orgs/{org}/logo/create/, which the spec does not have']);
    const metadata: ResourceDeclaration = RESOURCES['org-metadata'];
    expect(
      problemsOf({
        ...metadata,
        operations: { ...metadata.operations, list: { method: 'get', path: '/api/core/orgs/{org}/metadata/' } },
      }),
    ).toEqual(['org-metadata: a single-record kind has no list or delete']);
  });

  it('take open bodies whole where the spec gives no schema (site config), and the metadata as any JSON', () => {
    const site = RESOURCES['site-config'];
    expect(formSchema(site, site.operations.update, 'update').safeParse({ field_key: 'a', value: { b: 1 } })).toEqual({
      success: true,
      data: { field_key: 'a', value: { b: 1 } },
    });
    const metadata = RESOURCES['org-metadata'];
    const patch = formSchema(metadata, metadata.operations.update, 'update');
    expect(patch.safeParse({ metadata: [1, 'two'] }).success).toBe(true);
    expect(patch.safeParse({ platform_name: 'x' }).success).toBe(false);
  });
});

describe('form values', () => {
  it('are sent as the engine takes them: JSON parsed, a local date-time as an instant, bad JSON said at its field', async () => {
    const { toBody, initialValue } = await import('../../src/renderer/resources/fields/values');
    const fields = [
      { name: 'meta', label: 'Meta', input: 'json' },
      { name: 'when', label: 'When', input: 'date' },
      { name: 'count', label: 'Count', input: 'number' },
      { name: 'empty', label: 'Empty', input: 'json' },
    ] as const;
    const local = '2026-11-26T09:30';
    expect(toBody(fields, { meta: '{"a": [1]}', when: local, count: 3, empty: '  ' })).toEqual({
      body: { meta: { a: [1] }, when: new Date(local).toISOString(), count: 3, empty: '' },
      errors: {},
    });
    expect(toBody(fields, { meta: '{a: 1}' }).errors.meta).toMatch(/^Not valid JSON: /);
    expect(initialValue(fields[0], { meta: { a: 1 } })).toBe('{\n  "a": 1\n}');
    expect(initialValue(fields[2], {})).toBe('');
  });
});
