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

/** What a kind's import file needs, said before a file is chosen (`groupName`: imported from that group's details). */
export function importColumnsHint(declaration: ResourceDeclaration, groupName?: string): string {
  if (declaration.seats) {
    return `A column with each person’s email or user ID: each takes a seat${groupName ? ` of ${groupName}` : ''}. A dry run says which rows will not fit.`;
  }
  const membership = declaration.membership;
  if (membership) {
    const group = membership.groupLabel.toLowerCase();
    const spellings = (names: readonly string[]) =>
      [...new Set([...names.slice(0, 2), names.find((name) => name.endsWith(' id')) ?? names[2]!])]
        .filter(Boolean)
        .map((name) => `“${name[0]!.toUpperCase()}${name.slice(1)}”`)
        .join(', ');
    const headers =
      `Headers are matched without case or punctuation, as in the invitations import: ` +
      `${spellings(['email', 'username', 'user'])} for the person; ${spellings(membership.groupSynonyms)} for the ${group}. ` +
      `Other columns are left out.`;
    return groupName
      ? `A column with each person’s email or username. A ${group} column (name or id) is optional: rows without one go into ${groupName}. ${headers}`
      : `Two columns: each person’s email or username, and the ${group}’s name or id. ${headers}`;
  }
  if (declaration.enrolment) {
    return groupName
      ? `A column with each person’s email or username: each is enrolled in ${groupName}. A program or pathway column (id or name) is optional: rows without one go into ${groupName}.`
      : 'Two columns: each person’s email or username, and the program or pathway (its id or name) to enrol them in. Courses can’t be enrolled directly: a row naming one is reported, and the other rows go on.';
  }
  const labels = csvColumnsOf(declaration).map((column) => column.label);
  return `Columns: ${labels.join(', ')}. Headers are matched without case or punctuation; the next step shows which column fills which field.`;
}

/**
 * Why a kind's records cannot come from a CSV file, or null when they can. A value the platform shows once, to the
 * call that creates the record (a new API token's key), would be shown to no one by an import: the records would be
 * made without anyone ever holding their keys. And a kind whose values are secrets (a provider's key) is not read
 * from a file: the app keeps secrets out of files, and a CSV of keys is one more copy to leak.
 */
export function importRefusal(declaration: ResourceDeclaration): string | null {
  const plural = declaration.plural ?? declaration.label;
  const capitalised = `${plural[0]!.toUpperCase()}${plural.slice(1)}`;
  if (!declaration.operations.create && !declaration.enrolment)
    return `${capitalised} cannot be imported: the platform has no call that creates one`;
  if (declaration.revealOnce?.length) {
    return (
      `${capitalised} cannot be imported: the platform shows each new ${declaration.singular}'s ` +
      `${declaration.revealOnce.join(', ')} once, to the call that creates it, and an import would show it to no one. ` +
      `Create them one at a time.`
    );
  }
  if (declaration.describedFields?.secret || declaration.fields.some((field) => field.input === 'secret')) {
    return `${capitalised} cannot be imported: their values are secrets, and a secret belongs in no file. Add them one at a time.`;
  }
  return null;
}
