/**
 * Comparing two copies of a single record (a mentor's settings before and after a save) and turning a kept copy
 * back into what its update takes: the history's rules, shared by the engine, the CLI and the screens.
 */
import type { FieldDeclaration, ResourceDeclaration } from './kit';
import { fieldSchema, formSchema, recordSchema } from './spec';

type Row = Record<string, unknown>;

export interface FieldChange {
  field: string;
  label: string;
  before: unknown;
  after: unknown;
}

const stable = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Row).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  ) ?? 'undefined';

export const sameValue = (a: unknown, b: unknown) => stable(a ?? null) === stable(b ?? null);

/** Record fields that change with every save (the spec's date-times: updated_at), left out of a comparison. */
function stampFields(declaration: ResourceDeclaration): Set<string> {
  const properties = recordSchema(declaration)?.properties ?? {};
  return new Set(
    Object.entries(properties)
      .filter(([, schema]) => (schema as { format?: string }).format === 'date-time')
      .map(([name]) => name),
  );
}

const labelOf = (declaration: ResourceDeclaration, field: string) =>
  declaration.fields.find((f) => f.name === field)?.label ??
  field.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/**
 * Field by field, what differs between two copies of a record (timestamps aside), in the record's field order. A
 * field only one copy holds was not read into the other (a mentor's prompts before this app saved them): it is no
 * difference anyone made.
 */
export function recordDiff(declaration: ResourceDeclaration, before: Row, after: Row): FieldChange[] {
  const stamps = stampFields(declaration);
  const fields = Object.keys(after).filter((f) => f in before && !stamps.has(f));
  return fields
    .filter((field) => !sameValue(before[field], after[field]))
    .map((field) => ({ field, label: labelOf(declaration, field), before: before[field], after: after[field] }));
}

function atPath(value: unknown, parts: string[]): unknown {
  if (parts.length === 0) return value;
  const [head, ...rest] = parts;
  if (head === '*') return Array.isArray(value) ? value.map((item) => atPath(item, rest)) : undefined;
  return value && typeof value === 'object' && !Array.isArray(value) ? atPath((value as Row)[head!], rest) : undefined;
}

/** A form field's value in a record: under its own name, else where the declaration says the record answers it. */
export function fieldValue(field: FieldDeclaration, record: Row): unknown {
  if (field.name in record || !field.readAs) return record[field.name];
  return atPath(record, field.readAs.split('.'));
}

/**
 * A record field's value as its update takes it: a list of records the platform answers as objects (a mentor's
 * categories) goes back as their ids where the update's schema takes a list of integers.
 */
export function writtenValue(declaration: ResourceDeclaration, field: FieldDeclaration, value: unknown): unknown {
  const update = declaration.operations.update ?? null;
  const schema = fieldSchema(declaration, field, update);
  const items = (schema as { items?: { type?: unknown } } | null)?.items;
  if (Array.isArray(value) && items?.type === 'integer') {
    return value.map((item) =>
      item && typeof item === 'object' && typeof (item as Row).id === 'number' ? (item as Row).id : item,
    );
  }
  return value;
}

/**
 * What saving `snapshot` again changes on `current`: the update's fields the snapshot holds, in the update's own
 * shape, that differ from now. `skipped`: fields whose kept value the update does not take (the platform answered
 * them in another shape), named so the admin knows they stay as they are.
 */
export function revertValues(
  declaration: ResourceDeclaration,
  snapshot: Row,
  current: Row,
): { values: Row; skipped: string[] } {
  const update = declaration.operations.update ?? null;
  const rule = formSchema(declaration, update, 'update') as unknown as {
    shape?: Record<string, { safeParse(value: unknown): { success: boolean } }>;
  };
  const values: Row = {};
  const skipped: string[] = [];
  for (const field of declaration.fields) {
    const value = fieldValue(field, snapshot);
    if (value === undefined || field.own) continue;
    const kept = writtenValue(declaration, field, value);
    if (sameValue(kept, writtenValue(declaration, field, fieldValue(field, current)))) continue;
    if (rule.shape?.[field.name]?.safeParse(kept).success === false) skipped.push(field.label);
    else values[field.name] = kept;
  }
  return { values, skipped };
}
