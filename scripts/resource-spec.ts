/**
 * Writes src/shared/resources/spec.generated.json: the vendor spec's parameters and schemas for every operation the
 * resource declarations name, and checks the declarations against the spec (a path, method, parameter or field that
 * the spec does not have is an error, and nothing is written).
 *
 *   npm run gen:resources
 *
 * tests/resources/declarations.test.ts runs the same checks and fails when the committed file is not what this writes.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format } from 'prettier';
import YAML from 'yaml';
import { RESOURCES } from '../src/shared/resources';
import {
  isDrfPage,
  openBody,
  operationKey,
  operationsOf,
  type JsonSchema,
  type InferredOperation,
  type InferredShapes,
  type ResourceDeclaration,
  type ResourceSpec,
  type SpecOperation,
  type SpecParameter,
} from '../src/shared/resources';

export const SPEC_FILE = resolve('node_modules/@iblai/iblai-api/sdk_schema.yml');
export const OUTPUT_FILE = resolve('src/shared/resources/spec.generated.json');

type Node = Record<string, unknown>;
interface OpenApi {
  paths: Record<string, Record<string, Node>>;
  components: { schemas: Record<string, Node> };
}

/** The slice of the spec the declarations use, and every way they disagree with it. */
export function buildResourceSpec(
  specText: string,
  declarations: readonly ResourceDeclaration[],
): { spec: ResourceSpec; problems: string[] } {
  const openapi = parsed(specText);
  const problems: string[] = [];
  const operations: Record<string, SpecOperation> = {};

  for (const declaration of declarations) {
    const say = (text: string) => problems.push(`${declaration.kind}: ${text}`);
    const found = new Map<string, SpecOperation>();
    for (const { role, operation } of operationsOf(declaration)) {
      const key = operationKey(operation);
      const raw = openapi.paths[operation.path]?.[operation.method];
      if (!raw) {
        say(`${role} is ${key}, which the spec does not have`);
        continue;
      }
      const slice = (operations[key] ??= sliceOf(openapi, raw));
      inferInto(slice, declaration.inferred?.[role as keyof InferredShapes], operation.method);
      found.set(role, slice);
      if ('id' in operation && operation.id) {
        const { in: where, name } = operation.id as { in: string; name: string };
        // In the body: a field of the spec's body, or (no body declared) one its description says it must include.
        const inBody =
          !!slice.body?.schema.properties?.[name] ||
          (!slice.body && String(raw.description ?? '').includes(`must include '${name}'`));
        if (where === 'body' ? !inBody : !slice.parameters.some((p) => p.in === where && p.name === name)) {
          say(`${role} takes the id as ${where} parameter '${name}', which ${key} does not have`);
        }
      }
    }

    const record = [found.get('list'), found.get('get'), found.get('create')].map(recordOf).find((r) => r) ?? null;
    const recordFields = new Set(Object.keys(record?.properties ?? {}));
    const list = found.get('list');
    if (declaration.envelope === 'drf' && list) {
      if (!isDrfPage(list.response.schema) && declaration.listAnswerDeclared !== 'one')
        say(`the envelope is drf, but the list does not answer DRF pages`);
      const query = new Set(list.parameters.filter((p) => p.in === 'query').map((p) => p.name));
      if (!query.has('page') && !(query.has('limit') && query.has('offset')))
        say(`the envelope is drf, but the list takes neither page nor limit and offset`);
    }
    const check = (what: string, field: string) => {
      if (record && !recordFields.has(field)) say(`${what} '${field}' is not a field of the spec's answer`);
    };
    if (!declaration.single) check('the id field', declaration.idField);
    // A single record may be made by a create the first time (a user's custom instruction): never listed or deleted.
    else if (declaration.operations.list || declaration.operations.delete) {
      say('a single-record kind has no list or delete');
    }
    for (const column of declaration.columns) check('column', column.field);
    for (const field of declaration.search) check('search field', field);
    for (const relation of declaration.relations ?? []) {
      check('relation field', relation.field);
      if (!declarations.some((other) => other.kind === relation.kind))
        say(`relation '${relation.field}' refers to kind '${relation.kind}', which is not declared`);
    }
    for (const field of declaration.fields) {
      // `mentors` are the mentors area's own (its list, not a kit kind): see FieldDeclaration.references.
      if (
        field.input === 'reference' &&
        field.references !== 'mentors' &&
        !declarations.some((other) => other.kind === field.references)
      )
        say(`field '${field.name}' picks from kind '${String(field.references)}', which is not declared`);
    }
    for (const filter of declaration.filters ?? []) {
      check('filter', filter.field);
      if (
        filter.input === 'reference' &&
        filter.references !== 'mentors' &&
        !declarations.some((other) => other.kind === filter.references)
      )
        say(`filter '${filter.field}' picks from kind '${String(filter.references)}', which is not declared`);
      const reads = [found.get('list'), found.get('get')].filter((op): op is SpecOperation => !!op);
      if (filter.param && !reads.some((op) => op.parameters.some((p) => p.in === 'query' && p.name === filter.param))) {
        say(`filter parameter '${filter.param}' is not a query parameter of its list or get operation`);
      }
      // A select filter offers only values the spec's parameter allows.
      const allowed = reads.flatMap((op) => op.parameters).find((p) => p.in === 'query' && p.name === filter.param)
        ?.schema.enum;
      for (const option of filter.input === 'select' ? (filter.options ?? []) : []) {
        if (allowed && !allowed.includes(option.value)) {
          say(`filter '${filter.field}' offers '${option.value}', which its parameter's enum does not allow`);
        }
      }
    }
    const create = found.get('create');
    const update = found.get('update');
    for (const field of declaration.fields) {
      if (field.own) {
        const write = found.get(`write:${field.name}`);
        if (write && !write.body?.schema.properties?.[field.own.bodyField]) {
          say(`field '${field.name}' is written as '${field.own.bodyField}', which its write's body does not have`);
        }
        continue;
      }
      const bodies = [create, ...(field.createOnly ? [] : [update])].filter((op): op is SpecOperation => !!op);
      const takes = (op: SpecOperation) => !!op.body?.schema.properties?.[field.name] || !!openBody(op.body?.schema);
      if (!bodies.some(takes)) {
        say(`form field '${field.name}' is not in the request body of its create or update operation`);
      }
    }
    for (const column of declaration.csv ?? []) {
      // A CSV column fills a field of the create body; the id may be one the platform gives (it finds the record).
      if (column.field !== declaration.idField && !create?.body?.schema.properties?.[column.field]) {
        say(`CSV column '${column.field}' is neither the id nor a field of the create request body`);
      }
    }
    for (const field of declaration.revealOnce ?? []) {
      if (!recordOf(create)?.properties?.[field]) say(`'${field}' is not a field of the create answer`);
    }
    for (const name of Object.keys(declaration.tenant ?? {})) {
      const used = [...found.values()].some(
        (op) => op.parameters.some((p) => p.name === name) || !!op.body?.schema.properties?.[name],
      );
      if (!used) say(`tenant field '${name}' is neither a parameter nor a body field of its operations`);
    }
  }

  const source = `@iblai/iblai-api sdk_schema.yml sha256:${createHash('sha256').update(specText).digest('hex').slice(0, 16)}`;
  const sorted = Object.fromEntries(Object.entries(operations).sort(([a], [b]) => a.localeCompare(b)));
  return { spec: { source, operations: sorted }, problems };
}

let last: { text: string; openapi: OpenApi } | null = null;
/** The spec is 90,000 lines of YAML: parsed once for as many checks as a test makes. */
function parsed(text: string): OpenApi {
  if (last?.text !== text) last = { text, openapi: YAML.parse(text) as OpenApi };
  return last.openapi;
}

/** A declaration's inferred shapes, only where the spec declares none, noted in the slice as inferred. */
function inferInto(slice: SpecOperation, inferred: InferredOperation | string | undefined, method: string): void {
  if (!inferred || typeof inferred === 'string') return;
  const noted = new Set(slice.inferred ?? []);
  if (inferred.parameters && (slice.parameters.length === 0 || noted.has('parameters'))) {
    const names = new Set(slice.parameters.map((p) => p.name));
    slice.parameters.push(...inferred.parameters.filter((p) => !names.has(p.name)));
    noted.add('parameters');
  }
  if (inferred.body && !slice.body) {
    slice.body = { required: true, schema: inferred.body };
    noted.add('body');
  }
  if (inferred.record && !slice.response.schema) {
    // A list answers an array of records, unless the inferred record is a page of its own (DRF's).
    slice.response.schema =
      method === 'get' && !isDrfPage(inferred.record) ? { type: 'array', items: inferred.record } : inferred.record;
    noted.add('response');
  } else if (inferred.record && isDrfPage(slice.response.schema) && !hasFields(recordOf(slice))) {
    // A page whose records the spec leaves open (`additionalProperties: {}`): their fields as its examples show them.
    slice.response.schema!.properties!.results = { type: 'array', items: inferred.record };
    noted.add('record');
  }
  if (noted.size) slice.inferred = [...noted].sort();
}

const hasFields = (schema: JsonSchema | null) => Object.keys(schema?.properties ?? {}).length > 0;

function recordOf(operation: SpecOperation | undefined): JsonSchema | null {
  const schema = operation?.response.schema;
  if (!schema) return null;
  if (schema.type === 'array' && schema.items) return schema.items;
  return isDrfPage(schema) ? schema.properties!.results!.items! : schema;
}

function sliceOf(openapi: OpenApi, raw: Node): SpecOperation {
  const parameters: SpecParameter[] = ((raw.parameters as Node[] | undefined) ?? [])
    .map((parameter) => resolveRef(openapi, parameter))
    .filter((parameter) => parameter.in === 'query' || parameter.in === 'path')
    .map((parameter) => ({
      name: String(parameter.name),
      in: parameter.in as 'query' | 'path',
      required: parameter.required === true,
      schema: view(openapi, parameter.schema ?? {}, 'request'),
    }));
  const requestBody = raw.requestBody as
    { required?: boolean; content?: Record<string, { schema?: Node }> } | undefined;
  const bodySchema = requestBody?.content?.['application/json']?.schema;
  const responses = (raw.responses ?? {}) as Record<string, { content?: Record<string, { schema?: Node }> }>;
  const status = Object.keys(responses).find((code) => /^2\d\d$/.test(code)) ?? '200';
  const responseSchema = responses[status]?.content?.['application/json']?.schema;
  return {
    parameters,
    body: bodySchema
      ? { required: requestBody?.required === true, schema: view(openapi, bodySchema, 'request') }
      : null,
    response: { status: Number(status), schema: responseSchema ? view(openapi, responseSchema, 'response') : null },
  };
}

function resolveRef(openapi: OpenApi, node: Node, seen: string[] = []): Node {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  if (seen.includes(ref)) throw new Error(`The spec's ${ref} refers to itself; the kit cannot inline it`);
  const name = ref.replace('#/components/schemas/', '');
  const target = openapi.components.schemas[name];
  if (!target) throw new Error(`The spec has no ${ref}`);
  return resolveRef(openapi, target, [...seen, ref]);
}

/**
 * A schema as JSON Schema for one direction: references inlined, `nullable` as a type union, and in requests no
 * readOnly fields (the platform sets them), in answers no writeOnly ones (the platform never sends them).
 */
function view(openapi: OpenApi, schema: unknown, direction: 'request' | 'response', seen: string[] = []): JsonSchema {
  if (!schema || typeof schema !== 'object') return schema as JsonSchema;
  let node = schema as Node;
  if (typeof node.$ref === 'string') {
    if (seen.includes(node.$ref)) throw new Error(`The spec's ${node.$ref} refers to itself; the kit cannot inline it`);
    const ref = node.$ref;
    node = { ...resolveRef(openapi, node) };
    seen = [...seen, ref];
  }
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'nullable' || key === 'readOnly' || key === 'writeOnly') continue;
    if (key === 'properties' && value && typeof value === 'object') {
      const drop = direction === 'request' ? 'readOnly' : 'writeOnly';
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, Node>)
          .filter(([, property]) => !resolveRef(openapi, property)[drop])
          .map(([name, property]) => [name, view(openapi, property, direction, seen)]),
      );
    } else if (['items', 'additionalProperties', 'not'].includes(key) && value && typeof value === 'object') {
      out[key] = view(openapi, value, direction, seen);
    } else if (['allOf', 'anyOf', 'oneOf'].includes(key) && Array.isArray(value)) {
      out[key] = value.map((part) => view(openapi, part, direction, seen));
    } else out[key] = value;
  }
  if (Array.isArray(out.required) && out.properties) {
    const properties = out.properties as Record<string, unknown>;
    out.required = (out.required as string[]).filter((name) => name in properties);
  }
  if (node.nullable === true) {
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
    } else return { anyOf: [out, { type: 'null' }] };
  }
  return out as JsonSchema;
}

/** The file's text, formatted as the project formats JSON. */
export async function resourceSpecText(spec: ResourceSpec): Promise<string> {
  return format(JSON.stringify(spec), { parser: 'json', printWidth: 120 });
}

async function main(): Promise<void> {
  const { spec, problems } = buildResourceSpec(readFileSync(SPEC_FILE, 'utf8'), Object.values(RESOURCES));
  if (problems.length) {
    console.error(`gen:resources: the declarations do not match the spec:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  writeFileSync(OUTPUT_FILE, await resourceSpecText(spec));
  console.log(`gen:resources: wrote ${Object.keys(spec.operations).length} operations to ${OUTPUT_FILE}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
