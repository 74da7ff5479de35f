/**
 * Secrets an admin pastes: spaces and line breaks around a key are never part of it (a copy from a web page or a
 * terminal brings them along), so they are removed, and the form and the CLI say so at the field.
 */
import type { ResourceDeclaration } from './kit';

export const TRIMMED_NOTE = 'Removed the spaces or line breaks around the pasted value.';

export interface FieldNote {
  /** The field, dotted for a described one (`value.key`). */
  path: string;
  message: string;
}

/** The secret fields of a form's values, trimmed, and a note for each one that changed. */
export function trimSecrets(
  declaration: ResourceDeclaration,
  values: Record<string, unknown>,
): { values: Record<string, unknown>; notes: FieldNote[] } {
  const notes: FieldNote[] = [];
  const out = { ...values };
  const trim = (value: unknown, path: string) => {
    if (typeof value !== 'string' || value === value.trim()) return value;
    notes.push({ path, message: TRIMMED_NOTE });
    return value.trim();
  };
  for (const field of declaration.fields) {
    if (field.input === 'secret' && field.name in out) out[field.name] = trim(out[field.name], field.name);
  }
  const described = declaration.describedFields;
  const object = described?.secret ? out[described.field] : undefined;
  if (described && object && typeof object === 'object' && !Array.isArray(object)) {
    out[described.field] = Object.fromEntries(
      Object.entries(object).map(([name, value]) => [name, trim(value, `${described.field}.${name}`)]),
    );
  }
  return { values: out, notes };
}

/** A record without its secret fields (an answer other than the masked read may carry them in full). */
export function withoutSecrets(declaration: ResourceDeclaration, record: Record<string, unknown>) {
  const drop = new Set(declaration.secretFields ?? []);
  if (!drop.size) return record;
  return Object.fromEntries(Object.entries(record).filter(([field]) => !drop.has(field)));
}
