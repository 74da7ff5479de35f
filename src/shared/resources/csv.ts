/**
 * A kind's CSV columns (import and export): the declaration's own `csv` list, else its form fields. Each column is a
 * field of the create request body, with the header spellings that also name it in a spreadsheet.
 */
import type { ResourceDeclaration } from './kit';

export interface CsvColumn {
  field: string;
  label: string;
  synonyms: readonly string[];
}

export function csvColumnsOf(declaration: ResourceDeclaration): CsvColumn[] {
  if (declaration.csv) {
    return declaration.csv.map((column) => ({
      field: column.field,
      label: column.label ?? declaration.fields.find((f) => f.name === column.field)?.label ?? column.field,
      synonyms: column.synonyms ?? [],
    }));
  }
  return declaration.fields.map((field) => ({ field: field.name, label: field.label, synonyms: [field.label] }));
}
