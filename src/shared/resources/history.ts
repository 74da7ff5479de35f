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

/** Field by field, what differs between two copies of a record (timestamps aside), in the record's field order. */
export function recordDiff(declaration: ResourceDeclaration, before: Row, after: Row): FieldChange[] {
  const stamps = stampFields(declaration);
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((f) => !stamps.has(f));
  return fields
    .filter((field) => !sameValue(before[field], after[field]))
    .map((field) => ({ field, label: labelOf(declaration, field), before: before[field], after: after[field] }));
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
    if (!(field.name in snapshot) || field.own) continue;
    const kept = writtenValue(declaration, field, snapshot[field.name]);
    if (sameValue(kept, writtenValue(declaration, field, current[field.name]))) continue;
    if (rule.shape?.[field.name]?.safeParse(kept).success === false) skipped.push(field.label);
    else values[field.name] = kept;
  }
  return { values, skipped };
}
