import { actionLabel } from '../../shared/access';
import type { ResourceDeclaration } from '../../shared/resources';

/**
 * A record value as a person reads it: a list of words or numbers as "a, b, c", a record the platform nests (a
 * policy's role, a group's owner) by its name, a list of such records by their names. Anything else stays JSON
 * (shown as code), and nothing is dropped: an object without a name is its JSON.
 */
const named = (value: unknown): string | null => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const { name, username } = value as { name?: unknown; username?: unknown };
  if (typeof name === 'string' && name) return name;
  if (typeof username === 'string' && username) return username;
  return null;
};

const isPlain = (value: unknown) => ['string', 'number', 'boolean'].includes(typeof value);

export function readableValue(value: unknown): { text: string; structured: boolean } {
  if (value === null || value === undefined || value === '') return { text: '—', structured: false };
  if (isPlain(value)) return { text: String(value), structured: false };
  if (Array.isArray(value)) {
    if (!value.length) return { text: 'None', structured: false };
    if (value.every(isPlain)) return { text: value.map(String).join(', '), structured: false };
    const names = value.map(named);
    if (names.every((name): name is string => name !== null)) return { text: names.join(', '), structured: false };
  }
  const name = named(value);
  if (name !== null) return { text: name, structured: false };
  return { text: JSON.stringify(value, null, 2), structured: true };
}

/**
 * A select field's value as its option's label ("Streamable HTTP" for `streamable_http`), RBAC actions by what they
 * allow ("Roles: read"), else the value itself.
 */
export function shownValue(declaration: ResourceDeclaration, field: string, value: unknown): unknown {
  const format = declaration.columns.find((column) => column.field === field)?.format;
  if (format === 'actions' && Array.isArray(value)) {
    return value.map((action) => (typeof action === 'string' ? actionLabel(action) : action));
  }
  if (typeof value !== 'string') return value;
  const options = declaration.fields.find((declared) => declared.name === field)?.options;
  return options?.find((option) => option.value === value)?.label ?? value;
}
