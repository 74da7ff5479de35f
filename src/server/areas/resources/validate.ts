/**
 * Requests to declared resources checked against the vendor spec's own schemas (the slice the declarations ship,
 * src/shared/resources/spec.generated.json), compiled once with ajv; what fails is answered as DRF answers it: 400
 * with the messages by field, in DRF's words.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { JsonSchema, SpecOperation } from '../../../shared/resources';
import { fieldErrors } from '../../http/errors';

// verbose: errors carry the value they are about (DRF names a refused choice).
const ajv = new Ajv({ strict: false, allErrors: true, verbose: true });
(addFormats as unknown as (instance: Ajv) => void)(ajv);

const compiled = new WeakMap<object, ValidateFunction>();
function validator(schema: JsonSchema): ValidateFunction {
  let found = compiled.get(schema);
  if (!found) {
    found = ajv.compile(schema);
    compiled.set(schema, found);
  }
  return found;
}

const SLUG = '^[-a-zA-Z0-9_]+$';

/** DRF's message for one failed keyword. */
function drfMessage(error: ErrorObject): string {
  const { params } = error;
  switch (error.keyword) {
    case 'required':
      return 'This field is required.';
    case 'maxLength':
      return `Ensure this field has no more than ${params.limit} characters.`;
    case 'minLength':
      return params.limit === 1
        ? 'This field may not be blank.'
        : `Ensure this field has at least ${params.limit} characters.`;
    case 'pattern':
      return params.pattern === SLUG
        ? 'Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.'
        : 'This value does not match the required pattern.';
    case 'enum':
      // DRF's ChoiceField names the value it was given.
      return `"${String(error.data)}" is not a valid choice.`;
    case 'format':
      if (params.format === 'date-time') {
        return 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].';
      }
      if (params.format === 'email') return 'Enter a valid email address.';
      if (params.format === 'uri') return 'Enter a valid URL.';
      if (params.format === 'uuid') return 'Must be a valid UUID.';
      return 'Enter a valid value.';
    case 'maximum':
      return `Ensure this value is less than or equal to ${params.limit}.`;
    case 'minimum':
      return `Ensure this value is greater than or equal to ${params.limit}.`;
    case 'type': {
      const type = String(params.type);
      if (type.includes('null') && error.data !== null) return drfType(type.split(',')[0]!);
      if (error.data === null) return 'This field may not be null.';
      return drfType(type);
    }
    default:
      return error.message ?? 'Invalid value.';
  }
}

function drfType(type: string): string {
  switch (type) {
    case 'boolean':
      return 'Must be a valid boolean.';
    case 'integer':
      return 'A valid integer is required.';
    case 'number':
      return 'A valid number is required.';
    case 'array':
      return 'Expected a list of items.';
    case 'object':
      return 'Expected a dictionary of items.';
    default:
      return 'Not a valid string.';
  }
}

/** ajv's errors as DRF's `{field: ["…"]}` (an error about the whole body goes under `non_field_errors`). */
function byField(errors: ErrorObject[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const error of errors) {
    const path = error.instancePath.split('/').filter(Boolean);
    const field =
      error.keyword === 'required' ? [...path, String(error.params.missingProperty)].join('.') : path.join('.');
    const messages = (out[field || 'non_field_errors'] ??= []);
    const message = drfMessage(error);
    if (!messages.includes(message)) messages.push(message);
  }
  return out;
}

/** The request body, checked against the operation's request schema (400 with DRF's field errors otherwise). */
export function checkBody(operation: SpecOperation, body: unknown): Record<string, unknown> {
  if (!operation.body) return {};
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    const got = Array.isArray(body)
      ? 'list'
      : body === null
        ? 'NoneType'
        : typeof body === 'string'
          ? 'str'
          : typeof body;
    throw fieldErrors({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${got}.`] });
  }
  const validate = validator(operation.body.schema);
  if (!validate(body)) throw fieldErrors(byField(validate.errors ?? []));
  // Like a DRF serializer, only the fields it declares are taken.
  const known = operation.body.schema.properties ?? {};
  return Object.fromEntries(Object.entries(body).filter(([name]) => name in known));
}

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

/** The query parameters the spec declares, typed; a missing required one or a wrong value is a 400 by field. */
export function checkQuery(operation: SpecOperation, query: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const errors: Record<string, string[]> = {};
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'query') continue;
    const text = query.get(parameter.name);
    if (text === null) {
      if (parameter.required) errors[parameter.name] = ['This field is required.'];
      continue;
    }
    const type = Array.isArray(parameter.schema.type) ? parameter.schema.type[0] : parameter.schema.type;
    let value: unknown = text;
    if (type === 'boolean') {
      const lower = text.toLowerCase();
      value = TRUE.has(lower) ? true : FALSE.has(lower) ? false : text;
    } else if ((type === 'integer' || type === 'number') && text.trim() !== '' && Number.isFinite(Number(text))) {
      value = Number(text);
    }
    const validate = validator(parameter.schema);
    if (!validate(value)) {
      errors[parameter.name] = [...new Set((validate.errors ?? []).map(drfMessage))];
      continue;
    }
    out[parameter.name] = value;
  }
  if (Object.keys(errors).length) throw fieldErrors(errors);
  return out;
}

/** A record as the spec answers it: only the fields of the response schema (never a write-only one). */
export function present(schema: JsonSchema | null, record: Record<string, unknown>): Record<string, unknown> {
  const properties = schema?.properties;
  if (!properties) return record;
  return Object.fromEntries(Object.entries(record).filter(([name]) => name in properties));
}
