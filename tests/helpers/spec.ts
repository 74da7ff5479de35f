import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import YAML from 'yaml';

/**
 * Validates sandbox responses against the vendor spec (sdk_schema.yml in the pinned @iblai/iblai-api), so the app
 * built against the sandbox works against a real tenant.
 */
interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
type Spec = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

let cached: { spec: Spec; ajv: Ajv; validators: Map<string, ValidateFunction | null> } | null = null;

function load() {
  if (cached) return cached;
  // The package does not export the file, so it is read from its folder.
  const file = fileURLToPath(new URL('../../node_modules/@iblai/iblai-api/sdk_schema.yml', import.meta.url));
  const spec = YAML.parse(readFileSync(file, 'utf8')) as Spec;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  // OpenAPI 3.0 `nullable` is not JSON Schema: rewrite it to a type union before compiling.
  const schemas = JSON.parse(JSON.stringify(spec.components.schemas), (_key, value: unknown) =>
    nullable(value),
  ) as Record<string, unknown>;
  ajv.addSchema({ $id: 'spec', components: { schemas } });
  cached = { spec, ajv, validators: new Map() };
  return cached;
}

/** Rewrites OpenAPI 3.0 response schemas to JSON Schema: `nullable`, and writeOnly fields that responses omit. */
function nullable(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const node = value as Record<string, unknown>;
  if (Array.isArray(node.required) && node.properties && typeof node.properties === 'object') {
    const properties = node.properties as Record<string, { writeOnly?: boolean }>;
    node.required = (node.required as string[]).filter((name) => !properties[name]?.writeOnly);
  }
  if (node.nullable !== true) return value;
  const { nullable: _n, ...rest } = node;
  if (typeof rest.type === 'string')
    return { ...rest, type: [rest.type, 'null'], ...(rest.enum ? { enum: [...(rest.enum as unknown[]), null] } : {}) };
  return { anyOf: [rest, { type: 'null' }] };
}

function refsToSpec(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, v: unknown) =>
    key === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `spec${v}` : nullable(v),
  );
}

/** The spec's response schema for an operation and status, or null when the spec declares no body. */
export function responseValidator(method: string, pathTemplate: string, status: number): ValidateFunction | null {
  const { spec, ajv, validators } = load();
  const id = `${method.toUpperCase()} ${pathTemplate} ${status}`;
  if (validators.has(id)) return validators.get(id)!;
  const operation = spec.paths[pathTemplate]?.[method.toLowerCase()];
  if (!operation) throw new Error(`The spec has no operation ${method.toUpperCase()} ${pathTemplate}`);
  const response = operation.responses?.[String(status)];
  if (!response) throw new Error(`The spec declares no ${status} response for ${method.toUpperCase()} ${pathTemplate}`);
  const schema = response.content?.['application/json']?.schema;
  const validator = schema ? ajv.compile(refsToSpec(schema) as object) : null;
  validators.set(id, validator);
  return validator;
}

/** Throws with readable errors when `body` does not match the spec's response for (method, path, status). */
export function expectSpecValid(method: string, pathTemplate: string, status: number, body: unknown): void {
  const validate = responseValidator(method, pathTemplate, status);
  if (!validate) return;
  if (!validate(body)) {
    const errors = (validate.errors ?? [])
      .slice(0, 8)
      .map((e) => `${e.instancePath || '/'} ${e.message}`)
      .join('; ');
    throw new Error(`${method.toUpperCase()} ${pathTemplate} ${status} does not match the spec: ${errors}`);
  }
}
