/**
 * Declared operations sent through the tenant's client. Each is sent with its rule in operations.ts, or its method's
 * where it has none (`ruleOf`); answers are parsed with zod schemas made from the spec's response schemas.
 */
import { z } from 'zod';
import {
  declarationOf,
  openBody,
  pagingOf,
  recordSchemaOf,
  specOperation,
  type OperationRef,
  type RecordOperation,
  type ResourceDeclaration,
  type ResourceKind,
  type TenantValue,
} from '../../../shared/resources';
import { toMultipart, type CallOptions, type PlatformClient } from '../platform';

/** Records asked for per DRF page: few requests for a long list, each answered in well under a second. */
export const DRF_PAGE_SIZE = 100;
/** Pages of one list asked for at once once its count is known: fewer round trips, and the tenant not flooded. */
const PAGES_AT_ONCE = 4;

interface DrfPage {
  count: number;
  next?: string | null;
  /** The core user lists' envelope: the next page's number (0 or absent when there is none). */
  next_page?: number | null;
  results: Row[];
}

/** A DRF page, or the one record the spec declares some paged lists to answer (listAnswerDeclared), as a page. */
function pageOf(answer: unknown): DrfPage {
  const given = answer as Partial<DrfPage> | null;
  if (given && typeof given === 'object' && Array.isArray(given.results)) return given as DrfPage;
  if (given && typeof given === 'object' && !Array.isArray(given)) return { count: 1, results: [given as Row] };
  throw new UnexpectedAnswerError('The platform answered a list with neither a page nor a record');
}

/** A 2xx answer whose shape the spec does not allow. */
export class UnexpectedAnswerError extends Error {
  override readonly name = 'UnexpectedAnswerError';
}

/** A file sent in a multipart body. */
export interface UploadFile {
  name: string;
  type: string;
  bytes: Uint8Array;
}

/** Where a read of many requests takes its places in the tenant's concurrency (the job runner's slots). */
export interface ReadSlots {
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
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
/**
 * The zod schema of an operation's answer (a record, or a list of them), made once from the spec's schema. `many`:
 * the answer is a list, also where the spec types it as one record (the credentials' GETs are described as "List
 * of … credentials" and answer a list, but their schema is one credential); one record alone is a list of one.
 */
function answerSchema(operation: OperationRef, many = false, paged = false): z.ZodType | null {
  const key = `${operation.method} ${operation.path} ${many} ${paged}`;
  if (!schemas.has(key)) {
    const schema = specOperation(operation).response.schema;
    let zod = schema ? z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]) : null;
    if (zod && many && schema?.type !== 'array') {
      const one = zod;
      zod = z.union([z.array(one), one.transform((record) => [record])]);
    }
    // A paged list whose spec declares one record as its answer (listAnswerDeclared): a page of them, or that record.
    if (zod && paged) zod = z.union([z.object({ count: z.number(), results: z.array(zod) }).loose(), zod]);
    schemas.set(key, zod!);
  }
  return schemas.get(key) ?? null;
}

const boundFields = new WeakMap<ResourceDeclaration, Map<string, [string, Exclude<TenantValue, 'none'>][]>>();
/**
 * The body fields the connection fills in (org, username…) with what fills them, found once per kind and operation:
 * a settings body declares some 90 fields, looked through on every request of a bulk job otherwise. An open body (no
 * schema) takes the declaration's own connection fields.
 */
function boundBodyFields(
  declaration: ResourceDeclaration,
  operation: OperationRef,
  spec: ReturnType<typeof specOperation>,
  bound: Record<string, Exclude<TenantValue, 'none'>>,
): [string, Exclude<TenantValue, 'none'>][] {
  const byOperation = boundFields.get(declaration) ?? boundFields.set(declaration, new Map()).get(declaration)!;
  const key = `${operation.method} ${operation.path}`;
  let fields = byOperation.get(key);
  if (!fields) {
    const names = spec.body && openBody(spec.body.schema) ? Object.keys(declaration.tenant ?? {}) : [];
    fields = [...Object.keys(spec.body?.schema.properties ?? {}), ...names].flatMap((name) => {
      const value = bound[name];
      return value ? [[name, value] as [string, Exclude<TenantValue, 'none'>]] : [];
    });
    byOperation.set(key, fields);
  }
  return fields;
}

/** A composite id (`course-v1:… @ ada`) as its fields' values, or undefined for a kind with one id field. */
export function compositeParts(declaration: ResourceDeclaration, id: string): Record<string, string> | undefined {
  const fields = declaration.compositeId;
  if (!fields) return undefined;
  const parts = id.split(' @ ');
  if (parts.length !== fields.length) return undefined;
  return Object.fromEntries(fields.map((field, index) => [field, parts[index]!]));
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
    request: {
      id?: string;
      values?: Row;
      /** The record as this computer has it: a required query parameter it carries (a pathway's owner) is sent. */
      record?: Row;
      query?: Record<string, unknown>;
      many?: boolean;
      /** The answer may be a page of the spec's one declared record (listAnswerDeclared). */
      paged?: boolean;
      files?: Record<string, UploadFile>;
    } = {},
    options: CallOptions = {},
  ): Promise<unknown> {
    const spec = specOperation(operation);
    const path: Record<string, string> = {};
    const query: Record<string, unknown> = { ...request.query };
    const bound = Object.fromEntries(
      Object.entries({ ...CONNECTION_FIELDS, ...declaration.tenant }).filter(([, value]) => value !== 'none'),
    ) as Record<string, Exclude<TenantValue, 'none'>>;
    for (const parameter of spec.parameters) {
      // The connection's usual names (org, user_id) fill a path or a required parameter; an optional query
      // parameter of the same name (site config's numeric user_id) is another thing, left to the declaration.
      const declared = declaration.tenant?.[parameter.name];
      const value =
        declared === 'none'
          ? undefined
          : (declared ?? (parameter.in === 'path' || parameter.required ? bound[parameter.name] : undefined));
      if (value) {
        if (parameter.in === 'path') path[parameter.name] = this.scope[value];
        else query[parameter.name] = this.scope[value];
      } else if (parameter.in === 'query' && parameter.required && query[parameter.name] === undefined) {
        // A required query parameter the body or the record carries too (a seat's `license_id`, a pathway's owner
        // `user_id`) takes its value.
        const given = request.values?.[parameter.name] ?? request.record?.[parameter.name];
        if (given !== undefined && given !== null) query[parameter.name] = given;
      }
    }
    const idInBody = 'id' in operation && operation.id.in === 'body' && request.id !== undefined;
    // A record kept under several fields' values (a review: course and reviewer) is named by all of them.
    const idParts = 'id' in operation && request.id !== undefined ? compositeParts(declaration, request.id) : undefined;
    if ('id' in operation && request.id !== undefined && !idParts) {
      if (operation.id.in === 'path') path[operation.id.name] = request.id;
      else if (operation.id.in === 'query') query[operation.id.name] = request.id;
    }
    if (idParts && 'id' in operation && operation.id.in === 'query') Object.assign(query, idParts);
    let body: Row | undefined;
    if (spec.body || idInBody) {
      body = { ...request.values };
      if (idInBody && idParts) Object.assign(body, idParts);
      else if (idInBody) {
        const name = (operation as RecordOperation).id.name;
        // Ids are kept as text; a body field the schema types as a number takes it as one.
        const numeric = ['integer', 'number'].includes(String(spec.body?.schema.properties?.[name]?.type));
        body[name] = numeric && /^\d+$/.test(request.id!) ? Number(request.id) : request.id;
      }
      for (const [name, value] of boundBodyFields(declaration, operation, spec, bound)) body[name] = this.scope[value];
    }
    const method = operation.method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    const send = (this.client.api as unknown as Record<typeof method, Send>)[method];
    const files = request.files ?? {};
    const { data } = await send(operation.path, {
      params: { path, query },
      ...(body !== undefined && { body }),
      // A file goes as the platform takes uploads: multipart, the file under its body field.
      ...(Object.keys(files).length > 0 && {
        bodySerializer: (fields: unknown) => {
          const form = toMultipart(fields as object);
          for (const [name, file] of Object.entries(files)) {
            form.set(name, new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type }), file.name);
          }
          return form;
        },
      }),
      ...options,
    });
    const schema = answerSchema(operation, request.many, request.paged);
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
    const answer = await this.send(declaration, operation, { many: true }, callOptions);
    if (!Array.isArray(answer)) throw new Error(`The platform's list of ${declaration.label} is not an array`);
    onPage?.(answer as Row[], { index: 0, count: answer.length });
    return answer as Row[];
  }

  /**
   * Every record of a kind the platform lists per parent record only (listEach): the parents' list, then each
   * parent's records, each stamped with its parent's id and name. The parents are read a few at a time through the
   * tenant's `slots` (the jobs' shared limit); the records come in the parents' order, and a failure is the first
   * failed parent's in that order, as reading them one after another would have it.
   */
  async listEach(declaration: ResourceDeclaration, slots: ReadSlots, options: CallOptions = {}): Promise<Row[]> {
    const each = declaration.listEach;
    const operation = each && declaration.calls?.[each.call];
    if (!each || !operation) throw new Error(`${declaration.kind} is not listed per parent record`);
    const parentKind = declarationOf(each.kind as ResourceKind);
    const parents = await this.list(parentKind, options);
    const read = (parent: Row) =>
      slots.run(async () => {
        const id = parent[parentKind.idField];
        const stamp = { [each.param]: id, [each.nameField]: parent.name ?? id };
        const own = await this.listPages(declaration, operation, options, undefined, { [each.param]: id });
        return own.map((record) => ({ ...record, ...stamp }));
      }, options.signal);
    const settled = await Promise.allSettled(parents.map(read));
    return settled.flatMap((result) => {
      if (result.status === 'rejected') throw result.reason;
      return result.value;
    });
  }

  /**
   * How many records of a paged kind match `query`: the count of a page of one. A kind whose spec declares one record
   * as its list's answer (listAnswerDeclared) is read as the page it really is.
   */
  async count(declaration: ResourceDeclaration, query: Record<string, unknown>, options: CallOptions = {}) {
    const operation = declaration.operations.list;
    if (!operation || declaration.envelope !== 'drf') throw new Error(`${declaration.kind} has no paged list`);
    const paging = pagingOf(operation);
    const one = paging === 'offset' ? { limit: 1, offset: 0 } : paging === 'page' ? { page: 1, page_size: 1 } : {};
    const paged = declaration.listAnswerDeclared === 'one';
    return pageOf(await this.send(declaration, operation, { query: { ...query, ...one }, paged }, options)).count;
  }

  /**
   * DRF's pages, by page number or by offset as the spec asks, until the platform says there is no next one. The
   * pages the first one's count promises are asked for a few at once (a 2,000-person list is 20 pages: one after
   * another they took a second), each still taken in order; any the list grew by meanwhile are read after them.
   */
  private async listPages(
    declaration: ResourceDeclaration,
    operation: OperationRef,
    options: CallOptions,
    onPage?: (records: Row[], page: { index: number; count: number }) => void,
    given: Record<string, unknown> = {},
  ): Promise<Row[]> {
    const paging = pagingOf(operation);
    const paged = declaration.listAnswerDeclared === 'one';
    const read = async (index: number, size: number) => {
      const query =
        paging === 'offset'
          ? { limit: DRF_PAGE_SIZE, offset: index * size }
          : paging === 'page'
            ? { page: index + 1, page_size: DRF_PAGE_SIZE }
            : {};
      return pageOf(await this.send(declaration, operation, { query: { ...given, ...query }, paged }, options));
    };
    const records: Row[] = [];
    const last = (answer: DrfPage) =>
      !(answer.next ?? answer.next_page) || !answer.results.length || !paging || records.length >= answer.count;
    let answer = await read(0, DRF_PAGE_SIZE);
    records.push(...answer.results);
    onPage?.(answer.results, { index: 0, count: answer.count });
    if (last(answer)) return records;
    // The platform may give fewer per page than asked: its first page's size is the size of every page.
    const size = answer.results.length;
    const promised = Math.ceil(answer.count / size);
    const asked: Promise<DrfPage>[] = [];
    let next = 1;
    const ask = () => {
      while (next < promised && asked.length < PAGES_AT_ONCE) {
        const page = read(next++, size);
        // Its failure is heard where it is awaited; one left unawaited (the list ended first) is not unhandled.
        page.catch(() => undefined);
        asked.push(page);
      }
    };
    ask();
    for (let index = 1; ; index++) {
      const page = asked.shift();
      answer = await (page ?? read(index, size));
      ask();
      records.push(...answer.results);
      onPage?.(answer.results, { index, count: answer.count });
      if (last(answer)) return records;
    }
  }

  /** POST `users/delete/`: takes the person off the tenant; the platform's answer says so ("…initiated for …"). */
  async removeUser(username: string, options: CallOptions = {}): Promise<string> {
    const { data } = await this.client.api.POST('/api/core/users/delete/', { body: { username }, ...options });
    const message = (data as { message?: unknown } | undefined)?.message;
    return typeof message === 'string' ? message : `${username} removed`;
  }

  /** The default LLM key's usage and the free trial's state, as the platform answers them. */
  async llmAccess(options: CallOptions = {}): Promise<{ usage: unknown; freeTrial: unknown }> {
    const path = { org: this.scope.org, user_id: this.scope.username };
    const [usage, trial] = await Promise.all([
      this.client.api.GET('/api/ai-account/orgs/{org}/users/{user_id}/default-llm-key-usage', {
        params: { path },
        ...options,
      }),
      this.client.api.GET('/api/ai-account/orgs/{org}/users/{user_id}/free-trial', { params: { path }, ...options }),
    ]);
    return { usage: usage.data, freeTrial: trial.data };
  }

  /**
   * Switches the default key or the free trial. Their descriptions give the body (`enable` or `disable`, true); the
   * schema of use-default-llm-key's body names only `message`, its answer's field, so the typed body is set aside.
   */
  async switchLlmAccess(what: 'default-key' | 'free-trial', on: boolean, options: CallOptions = {}): Promise<string> {
    const body = { enable: on, disable: !on } as never;
    const params = { path: { org: this.scope.org } };
    if (what === 'default-key') {
      const { data } = await this.client.api.POST('/api/ai-account/orgs/{org}/use-default-llm-key/', {
        params,
        body,
        ...options,
      });
      const message = (data as { message?: unknown } | undefined)?.message;
      return typeof message === 'string' ? message : on ? 'Default key on' : 'Default key off';
    }
    await this.client.api.POST('/api/ai-account/orgs/{org}/use-free-trial/', { params, body, ...options });
    return on ? 'Free trial on' : 'Free trial off';
  }

  /** What the platform describes of a kind's form fields: `{name, schema: {field: type}}` per choice. */
  async describe(declaration: ResourceDeclaration, options: CallOptions = {}): Promise<Row[]> {
    const described = declaration.describedFields;
    if (!described) throw new Error(`${declaration.kind} has no described fields`);
    return (await this.send(declaration, described.operation, { many: true }, options)) as Row[];
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
