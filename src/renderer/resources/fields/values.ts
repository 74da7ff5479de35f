/**
 * A form's values as its inputs hold them (a JSON field's text, a date input's local time, an image's data: URL)
 * and as the engine takes them: the one conversion between the two, so the form checks with the spec's rules what
 * will really be sent.
 */
import type { ResourceRecord } from '../../../shared/contract';
import type { FieldDeclaration } from '../../../shared/resources';

/** An input's value; an object is a described field's (a credential's `value`), one text per described name. */
export type FormValue = string | boolean | number | Record<string, string> | readonly (string | number)[];
export type FormValues = Record<string, FormValue>;

/** What the input shows first: the record's value, or the declaration's initial one. */
export function initialValue(field: FieldDeclaration, record: ResourceRecord | null): FormValue {
  const current = record?.[field.name];
  switch (field.input) {
    case 'switch':
      return typeof current === 'boolean' ? current : field.initial === true;
    case 'secret':
    case 'image':
      // Never filled in: an empty box keeps what the platform has (a secret, an uploaded image).
      return '';
    case 'number':
      return typeof current === 'number' ? current : '';
    case 'reference':
      // Another record's id (or a list of them), as the platform types it (an LTI key's is a number).
      if (field.multiple) return referencedIds(current);
      return typeof current === 'number' || typeof current === 'string' ? current : '';
    case 'json':
      return current === undefined || current === null ? '' : JSON.stringify(current, null, 2);
    case 'date':
      return typeof current === 'string' ? localDateTime(current) : '';
    default:
      return typeof current === 'string' ? current : typeof field.initial === 'string' ? field.initial : '';
  }
}

/** A list of ids as a multiple reference holds it: ids as they are, records (`{id, name}`) by their id. */
export function referencedIds(value: unknown): (string | number)[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    const id = item && typeof item === 'object' ? (item as { id?: unknown }).id : item;
    return typeof id === 'number' || typeof id === 'string' ? [id] : [];
  });
}

/** An ISO date-time as a datetime-local input shows it (the admin's own clock). */
function localDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime()) || !iso.includes('T')) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A JSON field's text as its value, or why it is not JSON. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: `Not valid JSON: ${(error as Error).message}` };
  }
}

/**
 * The values as the engine takes them: JSON text parsed, a local date-time as an ISO instant, empty boxes as
 * "not given". Errors: fields whose text cannot be converted (JSON that does not parse), by field.
 */
export function toBody(
  fields: readonly FieldDeclaration[],
  values: FormValues,
): { body: Record<string, unknown>; errors: Record<string, string> } {
  const body: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (value === undefined) continue;
    if (field.input === 'json') {
      const text = String(value).trim();
      if (!text) {
        body[field.name] = '';
        continue;
      }
      const parsed = parseJson(text);
      if (parsed.ok) body[field.name] = parsed.value;
      else errors[field.name] = parsed.message;
    } else if (field.input === 'date' && typeof value === 'string' && /T\d{2}:\d{2}$/.test(value)) {
      // A datetime-local value has no zone: it is the admin's local time.
      body[field.name] = new Date(value).toISOString();
    } else body[field.name] = value;
  }
  return { body, errors };
}
