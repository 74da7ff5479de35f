/**
 * The admin resource kit's declarations: one plain object per platform resource says which spec operations serve it
 * and how people see it. The engine, the CLI, the screens and the sandbox are all driven by these objects; nothing
 * else is written per resource. `spec.generated.json` beside this file holds the spec's own schemas for every
 * declared operation (`npm run gen:resources`), and tests/resources/declarations.test.ts fails when a declared path,
 * method, parameter or field is not in the vendor spec.
 */

import type { MembershipImport } from './membership';
import type { JsonSchema, SpecParameter } from './spec';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** One operation of the vendor spec, named exactly as the spec names it (its path, trailing slash or not). */
export interface OperationRef {
  method: HttpMethod;
  path: string;
}

/** An operation about one record: where the record's id goes (a `{param}` of the path, or a query parameter). */
export interface RecordOperation extends OperationRef {
  /**
   * `body`: the record is named by a field of the request body (the credentials' PATCH and DELETE, whose descriptions
   * say the request "must include 'name'" although the spec declares no parameter for it).
   */
  id: {
    in: 'path' | 'query' | 'body';
    name: string;
    /**
     * The record's field whose value names it in this call, where the platform addresses it by another key than the
     * kind's `idField` (a program: listed by its numeric `id`, updated and deleted by its `program_id`).
     */
    field?: string;
  };
}

/**
 * How a field is entered. `color` is text with a swatch and a picker (any text may still be typed). `number`, `date`
 * (a date-time when the spec's format says so), `json` (an editor checked
 * against the field's spec schema) and `image` (a file checked for its type before it is sent, with a preview) take
 * their rules from the spec like every other input; `reference` picks another kind's record (see `relations`).
 */
export type FieldInput =
  'text' | 'textarea' | 'switch' | 'select' | 'secret' | 'number' | 'date' | 'json' | 'image' | 'reference' | 'color';

/** A form field: a property of the operation's request body (its rules come from the spec, not from here). */
export interface FieldDeclaration {
  name: string;
  label: string;
  input: FieldInput;
  description?: string;
  placeholder?: string;
  /** For `select`: the values offered (the spec's enum when it has one). */
  options?: readonly { value: string; label: string }[];
  /**
   * For `text`: values offered as you type, where the spec's request takes any string but its answer names a few
   * (a mentor's theme): any other value may still be typed and is sent as it is.
   */
  suggestions?: readonly string[];
  /** Shown filled in on a new record's form. */
  initial?: string | boolean;
  /** Part of the create form only (the id of a record is never changed). */
  createOnly?: boolean;
  /**
   * A field the platform reads and writes through calls of its own (a tenant's logo): `read` answers it (its
   * `answerField` holds the value), `write` takes it as the body field `bodyField`. Such a field is saved by its own
   * call, apart from the record's update.
   */
  own?: { read: OperationRef; write: OperationRef; answerField: string; bodyField: string };
  /** An image made to be shown on dark backgrounds (a dark-mode logo): previewed on one. */
  darkPreview?: boolean;
  /**
   * For `reference`: the kind whose records the picker offers (the field takes the chosen record's id), or `mentors`:
   * the tenant's mentors, from the mentors area's own list (the field takes the mentor's unique id).
   */
  references?: string;
  /**
   * For `reference`: the referred record's field the value is, when not its id field (an audience is named by its
   * name to be deleted, by its `id` where a category lists it).
   */
  referencesField?: string;
  /** For `reference`: the field holds a list of such ids (a mentor's categories), several picked. */
  multiple?: boolean;
  /**
   * For `reference`: the kind (this field's own) whose records each name a different one, so one already named there
   * is not offered (each mentor has one call configuration); the value the form holds stays offered.
   */
  uniqueIn?: string;
  /**
   * Where the record answers this field when it lacks it under its own name: a dotted path (`llm_config.temperature`),
   * `*` for each item of a list (`mentor_tools.*.slug`). The spec's read and write shapes differ for some fields.
   */
  readAs?: string;
  /** The heading a long form shows it under (a mentor's settings: "Identity", "Display"…). */
  group?: string;
  /**
   * For `json`: a list whose items each name a record of `kind` by their `key` (a pathway's items by `item_id`, which
   * the platform answers as JSON text): the record's panel lists them in order by name, each linked to its record.
   */
  lists?: { kind: string; key: string };
}

/**
 * A record field that holds the id of another kind's record (an LTI tool's key): the form picks it from that kind's
 * records, and that record's details list the records that refer to it.
 */
export interface RelationDeclaration {
  field: string;
  /** The kind referred to. */
  kind: string;
  /** The heading of the referring records in the referred record's details (default: "<plural> that use it"). */
  heading?: string;
  /**
   * The field holds resource paths (a policy's `resources`): a record refers when one of them is this path with the
   * id put in for `{id}` (`/departments/{id}/`), or a path below it.
   */
  path?: string;
  /** The field holds an object that names the record by this key (a policy's `role: {id, name}`). */
  key?: string;
  /** The platform deletes the referring records with the record (a role's policies): the cache drops them too. */
  removedWith?: boolean;
  /**
   * Many may refer to one record (a department's members): a delete's confirmation says how many, asked of the
   * platform (the list filtered by this field, its DRF count), rather than naming each.
   */
  counted?: boolean;
  /**
   * With `counted`: the referred kind's list shows how many refer to each record, in a column of this label (a
   * department's "Members"), counted from the engine's saved copy of this kind (where the platform gives no count).
   */
  column?: string;
}

export interface ColumnDeclaration {
  field: string;
  label: string;
  /**
   * `entries`: an object's entries on one line (`key: ****3456`), for masked credential values; `mentor`: a mentor's
   * unique id, shown by the mentor's name; `expiry`: a date that ends something (a licence), flagged when it is near
   * or past; `actions`: RBAC action ids, shown by what they allow ("Roles: read"); `grant`: an RBAC policy's role
   * (this field) and whom it grants it to (the record's `users` and `groups`), "Editors · 2 people, 1 group", every
   * name with its id in the tooltip (src/shared/resources/grant.ts).
   */
  format?: 'text' | 'datetime' | 'boolean' | 'entries' | 'mentor' | 'expiry' | 'actions' | 'grant';
  /**
   * The column holds the id of a record of this kind (a review's course): shown by that record's name, the id kept
   * in the cell's tooltip. `referencesField`: the referred record's field the value is, when not its id field.
   */
  references?: string;
  referencesField?: string;
}

/**
 * Form fields the platform describes at run time (a credential's fields per provider). The `operation` answers a
 * list of `{name, schema: {field: type}}`; the record's `by` field picks one entry, whose fields are the properties of
 * the object field `field`. Every described field is a write-only secret when `secret` is set: filled in, trimmed,
 * replaced, never shown again.
 */
export interface DescribedFields {
  operation: OperationRef;
  field: string;
  by: string;
  secret: boolean;
}

/** A column of the kind's CSV files: a field of the create body, and other header spellings that mean it. */
export interface CsvColumnDeclaration {
  field: string;
  /** The header written on export (default: the form field's label). */
  label?: string;
  /** Headers that also name this column on import, compared without case, accents or punctuation. */
  synonyms?: readonly string[];
}

/**
 * A filter chip: a record field, with the spec's query parameter of the same meaning when the platform has one.
 * `switch`: a yes/no field; `select`: one of `options`; `text`: a value typed in, matched exactly; `reference`: a
 * record picked by name (as the form's field of that name picks it), matched by the id it holds.
 */
export interface FilterDeclaration {
  field: string;
  label: string;
  input: 'switch' | 'select' | 'text' | 'reference';
  /** For `select`: the values offered (the spec's enum). */
  options?: readonly { value: string; label: string }[];
  /** For `reference`: the kind whose records are offered, or `mentors` (as a field's `references`). */
  references?: string;
  /** The spec's query parameter that filters by this field (checked against the spec). */
  param?: string;
}

export interface NamedAction extends RecordOperation {
  label: string;
  /** Asked before the action runs; `{id}` is replaced by the record's id. */
  confirm?: string;
  destructive?: boolean;
  /** Offered on a selection of records too, run as one bulk job (resources.bulk). */
  bulk?: boolean;
}

/**
 * How the list operation answers: a plain JSON array of every record (`array`); DRF's pages (`drf`:
 * `{count, next, previous, results}`, asked for by the spec's `page`/`page_size` or `limit`/`offset` parameters,
 * read page by page into the cache); or no list at all (`none`: the platform offers no way to list them, so the kit
 * lists the records this app created or looked up, and says so).
 */
export type Envelope = 'array' | 'drf' | 'none';

/**
 * Where the connection's own values go: request parameters or body fields filled in from the tenant connection.
 * `none`: a field the connection would fill by its usual name (`user_id`) that is the record's here (the person a
 * course is suggested to), left to the form.
 */
export type TenantValue = 'org' | 'username' | 'none';

export interface ResourceDeclaration {
  /** Kebab-case plural: `api-tokens`. */
  kind: string;
  label: string;
  /** One record, in running text: "API token". */
  singular: string;
  /** Several, in running text, when it is not the label: "domains" (the label is "Domain whitelist"). */
  plural?: string;
  area: ResourceArea;
  /** The heading the area's screen files it under ("Access", "LTI"): kinds of one group sit together. */
  group?: string;
  description: string;
  /** The field that identifies a record in the spec (an API token's name). */
  idField: string;
  /**
   * A record the spec gives no id of its own (an enrolment: a person in a course): it is kept under these fields'
   * values joined by ` @ ` (`idField` is the first of them).
   */
  compositeId?: readonly string[];
  operations: {
    list?: OperationRef;
    /** A single-record kind's get and update name no record: they are the tenant's one record. */
    get?: RecordOperation | OperationRef;
    /** A keyed single record's create names its parent (`id`), as its get and update do. */
    create?: RecordOperation | OperationRef;
    update?: RecordOperation | OperationRef;
    delete?: RecordOperation;
  };
  actions?: Readonly<Record<string, NamedAction>>;
  envelope: Envelope;
  /**
   * `one`: the spec declares a single record as the answer of a list that takes `page` and `page_size` (the catalog's
   * enrolment search). The kit reads it as DRF pages, as the catalog's other lists answer, and an answer of one
   * record as a page holding it.
   */
  listAnswerDeclared?: 'one';
  /** Parameters and body fields that the connection fills in, by name (e.g. `platform_key` takes the org). */
  tenant?: Readonly<Record<string, TenantValue>>;
  columns: readonly ColumnDeclaration[];
  /** Record fields a search looks in. */
  search: readonly string[];
  filters?: readonly FilterDeclaration[];
  fields: readonly FieldDeclaration[];
  /**
   * Fields the platform answers once, in the answer to the create that made them (a new API token's key): handed to
   * the caller of that create only, never cached, listed, logged or answered again.
   */
  revealOnce?: readonly string[];
  /**
   * A field whose value may be the key this app itself uses for the tenant (an API token's `key`): a delete's
   * confirmation says when it is, as the engine compares them (the key never leaves it).
   */
  appKeyField?: string;
  /** The word for delete in this resource's language ("Revoke"). */
  deleteLabel?: string;
  /** Asked before a delete; `{id}` is replaced by the record's id. */
  confirmDelete?: string;
  /** Said on the list screen or settings card (what the platform does not offer, say). */
  note?: string;
  /**
   * The record's panel: `hidden`, fields the platform answers that mean nothing to an administrator (an internal
   * uuid), left out; `labels`, fields named otherwise there than by their column or form field ("Updated").
   */
  details?: { hidden?: readonly string[]; labels?: Readonly<Record<string, string>> };
  /** Fields that refer to other kinds' records. */
  relations?: readonly RelationDeclaration[];
  /**
   * One record per tenant (its settings, say): read with `get` and written with `update` (or each field's own
   * calls), never listed, created or deleted. Screens show it as a settings card; the CLI reads it with `get KIND`
   * and writes it with `update KIND --set …` (no ID). Without an update and without fields of their own, read-only.
   * With a `create`, the record may not exist yet: its get's 404 reads as an empty record, and a save whose update
   * answers 404 makes it with the create.
   */
  single?: boolean;
  /**
   * A single record per parent rather than per tenant (a mentor's settings): the path parameter that names the
   * parent, and what people call it. The CLI takes it as the ID (`get mentor-settings MENTOR`).
   */
  keyedBy?: {
    param: string;
    label: string;
    /** Record fields that also name the parent (a mentor's slug and name): its record is kept under the id field. */
    aliases?: readonly string[];
  };
  /** Every save of a single record keeps a local snapshot (resources.history): diffed and reverted to. */
  history?: boolean;
  /** Form fields that the platform describes at run time (see DescribedFields). */
  describedFields?: DescribedFields;
  /**
   * Record fields that hold secrets. The list reads them masked; the copy any other answer carries (a create's echo
   * of the new key) is dropped before it is cached, answered to a screen or printed.
   */
  secretFields?: readonly string[];
  /**
   * Secret fields the platform answers in full in every answer, its list included (an MCP server's credentials): the
   * app writes them, and drops them from every answer before it is kept, shown or printed (as `revealOnce` fields).
   * A dotted path names a field inside the answer (`mcp_servers.*.credentials`, `*` for each item of a list).
   */
  writeOnly?: readonly string[];
  /** The columns of its CSV files (import creates or updates by `idField`); default: its form fields. */
  csv?: readonly CsvColumnDeclaration[];
  /** Shapes its operations need that the spec does not declare (see InferredShapes); none is invented elsewhere. */
  inferred?: InferredShapes;
  /** A membership kind: its CSV import puts people into groups through the platform's bulk call (membership.ts). */
  membership?: MembershipImport;
  /** A seat kind: its CSV import takes a licence's seats for the people it names, one request each (licences.ts). */
  seats?: {
    licenseKind: string;
    licenseLabel: string;
    /** The platform gives an email with no account a seat of its own (the spec's program licences). */
    emailOnly?: boolean;
    /** The kind of the licence family's group seats (a user group holding the licence). */
    groupKind?: string;
  };
  /**
   * Operations of the kind that its area's own code calls rather than the generic screens (a licence's seats, which
   * the platform lists per licence only): checked against the spec and served by the sandbox like the others.
   */
  calls?: Readonly<Record<string, OperationRef>>;
  /**
   * The platform lists these per record of another kind only (a licence's seats: `license_id` is required): the list
   * is that kind's records read, then the `call` (one of `calls`) for each of them with its id as `param`, each
   * record answered stamped with its parent's id (`param`) and name (`nameField`, from the parent's `name`).
   */
  listEach?: { kind: string; call: string; param: string; nameField: string };
  /**
   * An enrolment kind: its CSV import enrols people in catalogue items one call each (engine/catalogue/), the file's
   * two columns being the person and the item (the label and header spellings of the item's column here).
   */
  enrolment?: { groupLabel: string; groupSynonyms: readonly string[] };
  /**
   * A suggestion kind: its CSV import suggests courses to people through the platform's bulk call
   * (engine/catalogue/suggest-import.ts), the file's two columns being the person and the course.
   */
  suggestion?: { groupLabel: string; groupSynonyms: readonly string[] };
}

/**
 * What one operation takes and answers where the spec declares nothing (no parameters, no body, no answer schema):
 * the kit's inference, used only for what the spec leaves out.
 */
export interface InferredOperation {
  parameters?: readonly SpecParameter[];
  body?: JsonSchema;
  /** One record of the answer (a list answers an array of them). */
  record?: JsonSchema;
}

/** Shapes inferred for a kind whose operations the spec declares without them, and where they were read from. */
export type InferredShapes = { from: string } & Partial<
  Record<'list' | 'create' | 'update' | 'delete', InferredOperation>
>;

/** Navigation areas, in the order the sidebar shows them. */
export const RESOURCE_AREAS = {
  'tenant-settings': 'Tenant settings',
  'models-and-keys': 'Models and keys',
  'people-and-access': 'People and access',
  'mentor-configuration': 'Mentor configuration',
  mentors: 'Mentors',
  licences: 'Licences',
  catalogue: 'Catalogue',
} as const;
export type ResourceArea = keyof typeof RESOURCE_AREAS;

/** Whether the platform lists the kind (itself or per parent record): else its list is what this app made or checked. */
export function isListed(declaration: ResourceDeclaration): boolean {
  return declaration.envelope !== 'none' || declaration.listEach !== undefined;
}

/**
 * The fields a kind's list may be narrowed by (`where`, the CLI's `--where`, a link's `?field=value`): its id, columns,
 * search fields, filters, and the fields its related lists ask by.
 */
export function narrowingFields(declaration: ResourceDeclaration): Set<string> {
  return new Set([
    declaration.idField,
    ...declaration.columns.map((c) => c.field),
    ...declaration.search,
    ...(declaration.filters ?? []).map((f) => f.field),
    ...(declaration.relations ?? []).map((r) => r.field),
  ]);
}

/** The verbs a declaration offers (the CLI's `kinds`, the screens' buttons). */
export function verbsOf(declaration: ResourceDeclaration): string[] {
  const { operations, envelope } = declaration;
  if (declaration.single) return ['get', ...(isWritable(declaration) ? ['update'] : [])];
  return [
    ...(operations.list || envelope === 'none' ? ['list'] : []),
    ...(operations.get ? ['get'] : []),
    ...(operations.create ? ['create'] : []),
    ...(operations.update ? ['update'] : []),
    ...(operations.delete ? ['delete'] : []),
    ...Object.keys(declaration.actions ?? {}),
  ];
}

/** Every operation a declaration names, with what it is for. */
export function operationsOf(declaration: ResourceDeclaration): { role: string; operation: OperationRef }[] {
  const out: { role: string; operation: OperationRef }[] = [];
  for (const [role, operation] of Object.entries(declaration.operations)) if (operation) out.push({ role, operation });
  for (const [name, action] of Object.entries(declaration.actions ?? {}))
    out.push({ role: `action:${name}`, operation: action });
  for (const field of declaration.fields) {
    if (!field.own) continue;
    out.push({ role: `read:${field.name}`, operation: field.own.read });
    out.push({ role: `write:${field.name}`, operation: field.own.write });
  }
  if (declaration.describedFields) out.push({ role: 'describe', operation: declaration.describedFields.operation });
  for (const [name, operation] of Object.entries(declaration.calls ?? {}))
    out.push({ role: `call:${name}`, operation });
  return out;
}

/** Where records of other kinds refer to records of `kind`: each referring kind and the field that does. */
export function referrersOf(
  kind: string,
  declarations: readonly ResourceDeclaration[],
): {
  declaration: ResourceDeclaration;
  field: string;
  heading?: string;
  path?: string;
  key?: string;
  removedWith?: boolean;
  counted?: boolean;
  column?: string;
}[] {
  return declarations.flatMap((declaration) =>
    (declaration.relations ?? [])
      .filter((r) => r.kind === kind)
      .map((r) => ({
        declaration,
        field: r.field,
        heading: r.heading,
        path: r.path,
        key: r.key,
        removedWith: r.removedWith,
        ...(r.counted && { counted: true }),
        ...(r.column && { column: r.column }),
      })),
  );
}

/** Whether a single-record kind can be changed: by its update, or by the calls of fields of their own. */
export function isWritable(declaration: ResourceDeclaration): boolean {
  return !!declaration.operations.update || declaration.fields.some((field) => field.own);
}

/** The record id a single-record kind is kept under (it has no id of its own). */
export const SINGLE_RECORD_ID = '@tenant';

/** Several records, in running text: "API tokens", "domains". */
/**
 * The id a record is kept and addressed by: its id field, or for a kind with no id of its own (an enrolment, a
 * review) its fields' values joined with ' @ ' — what the engine's cache keys it by and its writes take apart again.
 */
export function recordIdOf(
  declaration: Pick<ResourceDeclaration, 'idField' | 'compositeId'>,
  record: Record<string, unknown>,
): string {
  if (declaration.compositeId) return declaration.compositeId.map((field) => String(record[field] ?? '')).join(' @ ');
  return String(record[declaration.idField] ?? '');
}

export const pluralOf = (declaration: ResourceDeclaration) => declaration.plural ?? declaration.label;

export const operationKey = (operation: OperationRef) => `${operation.method.toUpperCase()} ${operation.path}`;
