/**
 * The vendor spec's schemas for the declared operations (`spec.generated.json`, written by `npm run gen:resources`
 * from sdk_schema.yml: references resolved, OpenAPI's `nullable` turned into JSON Schema, readOnly fields left out of
 * request bodies and writeOnly ones out of answers). Forms, the engine and the sandbox all validate with these, so a
 * rule is the platform's own or it is not checked at all.
 */
import { z } from 'zod';
import generated from './spec.generated.json';
import { checkImage } from './images';
import { operationKey, type FieldDeclaration, type OperationRef, type ResourceDeclaration } from './kit';

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  format?: string;
  description?: string;
  [keyword: string]: unknown;
};

export interface SpecParameter {
  name: string;
  in: 'query' | 'path';
  required: boolean;
  schema: JsonSchema;
}

export interface SpecOperation {
  parameters: SpecParameter[];
  /** The JSON request body, as the spec declares it for requests. */
  body: { required: boolean; schema: JsonSchema } | null;
  /** The spec's success answer: its status and, when it declares one, its JSON schema. */
  response: { status: number; schema: JsonSchema | null };
  /** What the spec does not declare and a declaration's `inferred` supplied (see InferredShapes). */
  inferred?: string[];
}

export interface ResourceSpec {
  source: string;
  operations: Record<string, SpecOperation>;
}

export const RESOURCE_SPEC = generated as ResourceSpec;

export function specOperation(operation: OperationRef): SpecOperation {
  const found = RESOURCE_SPEC.operations[operationKey(operation)];
  if (!found) throw new Error(`${operationKey(operation)} is not in spec.generated.json: run npm run gen:resources`);
  return found;
}

/** The schema of one record in an answer: a list's items, a DRF page's `results` items, or the answer itself. */
export function recordSchemaOf(operation: OperationRef): JsonSchema | null {
  const schema = specOperation(operation).response.schema;
  if (!schema) return null;
  if (schema.type === 'array' && schema.items) return schema.items;
  const results = schema.properties?.results;
  if (isDrfPage(schema) && results?.items) return results.items;
  return schema;
}

/** DRF's paginated answer: `{count, next, previous, results: [...]}`. */
export function isDrfPage(schema: JsonSchema | null | undefined): boolean {
  const properties = schema?.properties;
  return !!properties && 'count' in properties && 'results' in properties && !!properties.results?.items;
}

/** How the spec asks a list operation for one page: DRF's page numbers, or its limit and offset. */
export function pagingOf(operation: OperationRef): 'page' | 'offset' | null {
  const names = new Set(
    specOperation(operation)
      .parameters.filter((p) => p.in === 'query')
      .map((p) => p.name),
  );
  if (names.has('page')) return 'page';
  if (names.has('limit') && names.has('offset')) return 'offset';
  return null;
}

/** A record as the spec answers it: from the list, else the get, else the create answer (the first that has one). */
export function recordSchema(declaration: ResourceDeclaration): JsonSchema | null {
  const { list, get, create } = declaration.operations;
  for (const operation of [list, get, create]) {
    const schema = operation && recordSchemaOf(operation);
    if (schema) return schema;
  }
  return null;
}

/** The properties of a request body that the admin fills in: those the connection fills in are left out. */
export function editableBody(declaration: ResourceDeclaration, operation: OperationRef): JsonSchema | null {
  const body = specOperation(operation).body?.schema;
  if (!body?.properties && !openBody(body)) return null;
  const bound = new Set(
    Object.entries(declaration.tenant ?? {})
      .filter(([, value]) => value !== 'none')
      .map(([name]) => name),
  );
  const properties = Object.fromEntries(Object.entries(body!.properties ?? {}).filter(([name]) => !bound.has(name)));
  return { ...body, properties, required: (body!.required ?? []).filter((name) => !bound.has(name)) };
}

/** A body the spec leaves open ("Unspecified request body": any field), or null. */
export function openBody(body: JsonSchema | null | undefined): JsonSchema | null {
  const extra = body?.additionalProperties;
  if (extra === undefined || extra === false) return null;
  return extra === true ? {} : (extra as JsonSchema);
}

/**
 * The zod schema of a form: the declared fields of the operation's request body, each with the spec's rules. In an
 * update every field is optional (a change names only what it changes). An empty text of a field the spec does not
 * require means "not given", as a form cannot leave a text box out. A field of its own (a logo) takes the rules of
 * its own write's body field; `operation` is null for a kind whose every field is written by its own call.
 */
export function formSchema(
  declaration: ResourceDeclaration,
  operation: OperationRef | null,
  mode: 'create' | 'update',
): z.ZodType<Record<string, unknown>> {
  // Made once per declaration, operation and mode (a schema of 69 settings takes milliseconds to build).
  const made = (formSchemas.get(declaration) ?? formSchemas.set(declaration, new Map()).get(declaration))!;
  const key = `${mode} ${operation ? `${operation.method} ${operation.path}` : ''}`;
  let schema = made.get(key);
  if (!schema) made.set(key, (schema = buildFormSchema(declaration, operation, mode)));
  return schema;
}

const formSchemas = new WeakMap<ResourceDeclaration, Map<string, z.ZodType<Record<string, unknown>>>>();

function buildFormSchema(
  declaration: ResourceDeclaration,
  operation: OperationRef | null,
  mode: 'create' | 'update',
): z.ZodType<Record<string, unknown>> {
  const body = operation && editableBody(declaration, operation);
  const required = new Set(mode === 'create' ? (body?.required ?? []) : []);
  const shape: Record<string, z.ZodType> = {};
  for (const field of declaration.fields) {
    if (mode === 'update' && field.createOnly) continue;
    const property = fieldSchema(declaration, field, operation);
    if (!property) continue;
    const rule = field.input === 'image' ? imageRule() : fieldRule(property);
    shape[field.name] = required.has(field.name)
      ? rule
      : z.preprocess((value) => (value === '' ? undefined : value), rule.optional());
  }
  // The described object (a credential's value): its fields are the platform's to check, its presence the spec's.
  const described = declaration.describedFields?.field;
  if (described && body?.properties?.[described]) {
    const entries = z.record(z.string(), z.unknown(), { error: 'Expected a dictionary of items.' });
    shape[described] = required.has(described)
      ? z
          .unknown()
          .refine((value) => value !== undefined, 'This field is required.')
          .pipe(entries)
      : entries.optional();
  }
  return z.object(shape).strict() as unknown as z.ZodType<Record<string, unknown>>;
}

/** A field's spec schema: its own write's body field, or the property of the operation's body. */
export function fieldSchema(
  declaration: ResourceDeclaration,
  field: FieldDeclaration,
  operation: OperationRef | null,
): JsonSchema | null {
  if (field.own) return specOperation(field.own.write).body?.schema.properties?.[field.own.bodyField] ?? null;
  if (!operation) return null;
  const body = editableBody(declaration, operation);
  return body?.properties?.[field.name] ?? openBody(body);
}

/** An image to upload: a file read as a data: URL, refused when its bytes are no image. */
function imageRule(): z.ZodType {
  return z.string({ error: 'Choose an image file.' }).superRefine((value, ctx) => {
    const checked = checkImage(value);
    if (!checked.ok) ctx.addIssue({ code: 'custom', message: checked.message });
  });
}

const SLUG = '^[-a-zA-Z0-9_]+$';
const typeOf = (schema: JsonSchema) =>
  Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;

/**
 * One field's rule from its spec schema, in the platform's (DRF's) words so a form says the same as the platform
 * would. Strings, booleans, numbers and enums are read here; anything else is left to zod's own JSON Schema reader.
 */
export function fieldRule(schema: JsonSchema): z.ZodType {
  const nullable = Array.isArray(schema.type) && schema.type.includes('null');
  const missing = (message: string) => (issue: { input: unknown }) =>
    issue.input === undefined
      ? 'This field is required.'
      : issue.input === null
        ? 'This field may not be null.'
        : message;
  let rule: z.ZodType;
  if (schema.enum) {
    const values = schema.enum.filter((v): v is string => typeof v === 'string');
    rule = z.enum(values as [string, ...string[]], { error: missing('Select a valid choice.') });
  } else if (typeOf(schema) === 'string') {
    let text = z.string({ error: missing('Not a valid string.') });
    const { minLength, maxLength, pattern } = schema as { minLength?: number; maxLength?: number; pattern?: string };
    if (minLength) {
      text = text.min(
        minLength,
        minLength === 1 ? 'This field may not be blank.' : `Ensure this field has at least ${minLength} characters.`,
      );
    }
    if (maxLength !== undefined)
      text = text.max(maxLength, `Ensure this field has no more than ${maxLength} characters.`);
    if (pattern) {
      text = text.regex(
        new RegExp(pattern),
        pattern === SLUG
          ? 'Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.'
          : 'This value does not match the required pattern.',
      );
    }
    rule = withFormat(text, schema.format);
  } else if (typeOf(schema) === 'boolean') rule = z.boolean({ error: missing('Must be a valid boolean.') });
  else if (typeOf(schema) === 'integer')
    rule = bounded(z.int({ error: missing('A valid integer is required.') }), schema);
  else if (typeOf(schema) === 'number')
    rule = bounded(z.number({ error: missing('A valid number is required.') }), schema);
  else return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  return nullable ? rule.nullable() : rule;
}

/** The spec's minimum and maximum of a number, in DRF's words. */
function bounded(rule: z.ZodNumber, schema: JsonSchema): z.ZodNumber {
  const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
  let out = rule;
  if (minimum !== undefined) out = out.min(minimum, `Ensure this value is greater than or equal to ${minimum}.`);
  if (maximum !== undefined) out = out.max(maximum, `Ensure this value is less than or equal to ${maximum}.`);
  return out;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The spec's string formats the platform (DRF) checks, with its words. */
function withFormat(text: z.ZodString, format: string | undefined): z.ZodType {
  const check = (ok: (value: string) => boolean, message: string) =>
    text.refine((value) => value === '' || ok(value), message);
  switch (format) {
    case 'date-time':
      return check(
        (value) => DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)),
        'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
      );
    case 'date':
      return check(
        (value) => DATE.test(value) && !Number.isNaN(Date.parse(value)),
        'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
      );
    case 'uri':
      return check((value) => /^[a-z][a-z0-9+.-]*:/i.test(value) && URL.canParse(value), 'Enter a valid URL.');
    case 'email':
      return check((value) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value), 'Enter a valid email address.');
    default:
      return text;
  }
}

/** The type the spec gives a record field, for turning CLI text (`--set is_active=true`) into a value. */
export function fieldType(schema: JsonSchema | null | undefined, field: string): string | undefined {
  const type = schema?.properties?.[field]?.type;
  return Array.isArray(type) ? type.find((t) => t !== 'null') : type;
}
