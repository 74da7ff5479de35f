/**
 * Column matching for any CSV import: which column of the file fills which field. Remembered choices of the tenant
 * come first, then the field's own name and its synonyms, then the importer's guess from the values (a column of
 * addresses is the email column, say). One field per column and one column per field.
 */

/** Lower case, accents and punctuation gone: "E-Mail Address " → "emailaddress". */
export function normaliseHeader(header: string): string {
  return header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** A field an import fills, with the header spellings seen in spreadsheets for it. */
export interface ImportField<F extends string = string> {
  name: F;
  synonyms?: readonly string[];
}

export interface MatchedColumn<F extends string = string> {
  index: number;
  header: string;
  field: F | null;
  remembered: boolean;
}

/** After headers matched: may name a field for a column no header matched, from its sample values. */
export type ColumnGuess<F extends string> = (
  columns: MatchedColumn<F>[],
  samples: readonly (readonly string[])[],
  taken: ReadonlySet<F>,
) => void;

export interface ColumnMatcher<F extends string = string> {
  fields: readonly F[];
  fieldForHeader(header: string): F | null;
  /**
   * `memory` maps a normalised header to what the admin chose for it before ('' = ignore); `samples` are a few
   * values per column.
   */
  matchColumns(
    headers: readonly string[],
    memory: ReadonlyMap<string, string>,
    samples: readonly (readonly string[])[],
  ): MatchedColumn<F>[];
}

export function columnMatcher<F extends string>(
  fields: readonly ImportField<F>[],
  guess?: ColumnGuess<F>,
): ColumnMatcher<F> {
  const names = fields.map((field) => field.name);
  const index = new Map<string, F>();
  for (const field of fields) {
    index.set(normaliseHeader(field.name), field.name);
    for (const name of field.synonyms ?? []) index.set(normaliseHeader(name), field.name);
  }
  const fieldForHeader = (header: string): F | null => index.get(normaliseHeader(header)) ?? null;
  return {
    fields: names,
    fieldForHeader,
    matchColumns(headers, memory, samples) {
      const taken = new Set<F>();
      const columns: MatchedColumn<F>[] = headers.map((header, i) => ({
        index: i,
        header,
        field: null,
        remembered: false,
      }));
      for (const column of columns) {
        const remembered = memory.get(normaliseHeader(column.header));
        if (remembered === undefined) continue;
        column.remembered = true;
        const field = (names as readonly string[]).includes(remembered) ? (remembered as F) : null;
        if (field && !taken.has(field)) {
          column.field = field;
          taken.add(field);
        }
      }
      for (const column of columns) {
        if (column.remembered) continue;
        const field = fieldForHeader(column.header);
        if (field && !taken.has(field)) {
          column.field = field;
          taken.add(field);
        }
      }
      guess?.(columns, samples, taken);
      return columns;
    },
  };
}
