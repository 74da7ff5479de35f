/**
 * Declared operations sent through the tenant's typed API. Every declared path and method is one of the platform
 * operations of operations.ts (the compiler checks it below), so each is sent with its own retry rule; answers are
 * parsed with zod schemas made from the spec's response schemas.
 */
import { z } from 'zod';
import {
  type RESOURCES,
  pagingOf,
  recordSchemaOf,
  specOperation,
  type OperationRef,
  type RecordOperation,
  type ResourceDeclaration,
  type TenantValue,
} from '../../../shared/resources';
import type { CallOptions, DeclaredPath, OPERATIONS, PlatformClient } from '../platform';

// ---- every declared operation is a declared platform operation (a compile error otherwise) ----------------------
type Declarations = (typeof RESOURCES)[keyof typeof RESOURCES];
type OperationsOf<D> = D extends { operations: infer O } ? O[keyof O] : never;
type ActionsOf<D> = D extends { actions: infer A } ? A[keyof A] : never;
type Declared<O> = O extends { path: infer P; method: infer M }
  ? P extends DeclaredPath
    ? M extends keyof (typeof OPERATIONS)[P]
      ? true
      : ['not declared in operations.ts', P, M]
    : ['not declared in operations.ts', P]
  : true;
type AllDeclared = [Declared<OperationsOf<Declarations> | ActionsOf<Declarations>>] extends [true] ? true : false;
export const EVERY_OPERATION_DECLARED: AllDeclared = true;

/** Records asked for per DRF page: few requests for a long list, each answered in well under a second. */
export const DRF_PAGE_SIZE = 100;

interface DrfPage {
  count: number;
  next?: string | null;
  results: Row[];
}

/** A 2xx answer whose shape the spec does not allow. */
export class UnexpectedAnswerError extends Error {
  override readonly name = 'UnexpectedAnswerError';
}

export interface Scope {
  org: string;
  username: string;
}

type Row = Record<string, unknown>;
type Send = (
  path: string,
  init: { params: { path: Record<string, string>; query: Record<string, unknown> }; body?: unknown } & CallOptions,
) => Promise<{ data?: unknown; response: Response }>;

/** Names the connection fills in when an operation has them, besides the declaration's own. */
const CONNECTION_FIELDS: Record<string, TenantValue> = { org: 'org', user_id: 'username' };

const schemas = new Map<string, z.ZodType>();
/** The zod schema of an operation's answer (a record, or a list of them), made once from the spec's schema. */
function answerSchema(operation: OperationRef): z.ZodType | null {
  const key = `${operation.method} ${operation.path}`;
  if (!schemas.has(key)) {
    const schema = specOperation(operation).response.schema;
    schemas.set(key, schema ? z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]) : null!);
  }
  return schemas.get(key) ?? null;
}

export class ResourceApi {
  constructor(
    private readonly client: PlatformClient,
    private readonly scope: Scope,
  ) {}

  /** Sends one declared operation: the record's id, the connection's own values and the body where the spec has them. */
  async send(
    declaration: ResourceDeclaration,
    operation: OperationRef | RecordOperation,
    request: { id?: string; values?: Row; query?: Record<string, unknown> } = {},
    options: CallOptions = {},
  ): Promise<unknown> {
    const spec = specOperation(operation);
    const path: Record<string, string> = {};
    const query: Record<string, unknown> = { ...request.query };
    const bound = { ...CONNECTION_FIELDS, ...declaration.tenant };
    for (const parameter of spec.parameters) {
      const value = bound[parameter.name];
      if (!value) continue;
      if (parameter.in === 'path') path[parameter.name] = this.scope[value];
      else query[parameter.name] = this.scope[value];
    }
    if ('id' in operation && request.id !== undefined) {
      if (operation.id.in === 'path') path[operation.id.name] = request.id;
      else query[operation.id.name] = request.id;
    }
    let body: Row | undefined;
    if (spec.body) {
      body = { ...request.values };
      for (const name of Object.keys(spec.body.schema.properties ?? {})) {
        const value = bound[name];
        if (value) body[name] = this.scope[value];
      }
    }
    const method = operation.method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    const send = (this.client.api as unknown as Record<typeof method, Send>)[method];
    const { data } = await send(operation.path, {
      params: { path, query },
      ...(body !== undefined && { body }),
      ...options,
    });
    const schema = answerSchema(operation);
    if (!schema) return data;
    const parsed = schema.safeParse(data);
    if (parsed.success) return parsed.data;
    // The platform's answer, not the admin's input, is wrong: said as such, never as a field error of the form.
    const first = parsed.error.issues[0];
    throw new UnexpectedAnswerError(
      `The platform's answer to ${operation.method.toUpperCase()} ${operation.path} does not match its spec` +
        (first ? ` (${first.path.join('.') || 'the answer'}: ${first.message})` : ''),
    );
  }

  /**
   * Every record of a kind: one JSON array, or DRF's pages one after another (`onPage` hears each as it comes, so a
   * long list can be stored and shown before its last page has arrived).
   */
  async list(
    declaration: ResourceDeclaration,
    options: CallOptions & { onPage?(records: Row[], page: { index: number; count: number }): void } = {},
  ): Promise<Row[]> {
    const { onPage, ...callOptions } = options;
    const operation = declaration.operations.list;
    if (!operation) throw new Error(`${declaration.kind} has no list operation`);
    if (declaration.envelope === 'drf') return this.listPages(declaration, operation, callOptions, onPage);
    const answer = await this.send(declaration, operation, {}, callOptions);
    if (!Array.isArray(answer)) throw new Error(`The platform's list of ${declaration.label} is not an array`);
    onPage?.(answer as Row[], { index: 0, count: answer.length });
    return answer as Row[];
  }

  /** DRF's pages, by page number or by offset as the spec asks, until the platform says there is no next one. */
  private async listPages(
    declaration: ResourceDeclaration,
    operation: OperationRef,
    options: CallOptions,
    onPage?: (records: Row[], page: { index: number; count: number }) => void,
  ): Promise<Row[]> {
    const paging = pagingOf(operation);
    const records: Row[] = [];
    for (let index = 0; ; index++) {
      const query =
        paging === 'offset'
          ? { limit: DRF_PAGE_SIZE, offset: records.length }
          : paging === 'page'
            ? { page: index + 1, page_size: DRF_PAGE_SIZE }
            : {};
      const answer = (await this.send(declaration, operation, { query }, options)) as DrfPage;
      records.push(...answer.results);
      onPage?.(answer.results, { index, count: answer.count });
      if (!answer.next || !answer.results.length || !paging || records.length >= answer.count) return records;
    }
  }

  /**
   * One record by id. Where the spec declares no answer for the get (the whitelist's check), the platform's 2xx
   * says the record exists: its answer is taken when it is an object, else the record is its id.
   */
  async get(declaration: ResourceDeclaration, id: string, options: CallOptions = {}): Promise<Row> {
    const operation = declaration.operations.get;
    if (!operation) throw new Error(`${declaration.kind} has no get operation`);
    const answer = await this.send(declaration, operation, { id }, options);
    if (recordSchemaOf(operation)) return answer as Row;
    const given = answer && typeof answer === 'object' && !Array.isArray(answer) ? (answer as Row) : {};
    return { ...given, [declaration.idField]: given[declaration.idField] ?? id };
  }
}
