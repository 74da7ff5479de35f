import type { ResourceRecord } from '../../shared/contract';
import type { ResourceDeclaration, ResourceKind } from '../../shared/resources';

/** A declaration as the screens hold it: its kind is one the contract knows. */
export type Declared = ResourceDeclaration & { kind: ResourceKind };

/** "API token" → "API token", "domain" → "Domain": the kind's singular at the start of a sentence or title. */
export const capitalized = (text: string) => (text ? `${text[0]!.toUpperCase()}${text.slice(1)}` : text);

/** What people call a record: its first column (a key's name), which is not always its id (an LTI key's number). */
export const titleOf = (declaration: ResourceDeclaration, record: ResourceRecord) =>
  String(record[declaration.columns[0]!.field] ?? record[declaration.idField]);

/**
 * What a record is called among those of one parent (a course's reviews): its first column other than the field that
 * names the parent, which every one of them shares.
 */
export const titleBeside = (declaration: ResourceDeclaration, record: ResourceRecord, parentField: string) => {
  const column = declaration.columns.find((candidate) => candidate.field !== parentField);
  return column ? String(record[column.field] ?? record[declaration.idField]) : titleOf(declaration, record);
};

/** A field's label: its column's, else its form field's, else the field's name in words (never the raw name). */
export const labelOf = (declaration: ResourceDeclaration, field: string) =>
  declaration.columns.find((column) => column.field === field)?.label ??
  declaration.fields.find((declared) => declared.name === field)?.label ??
  fieldLabel(field);

/** "title, issuer or client id": the fields a search looks in, as a sentence says them. */
const OR_LIST = new Intl.ListFormat('en-GB', { type: 'disjunction' });

/** "Search by name, course or external ID": the searched fields by their labels, in lower case but abbreviations. */
export const searchPlaceholder = (declaration: ResourceDeclaration) =>
  `Search by ${OR_LIST.format([
    ...new Set(
      declaration.search.map((field) =>
        labelOf(declaration, field).replace(/\b[A-Z][a-z]+\b/g, (word) => word.toLowerCase()),
      ),
    ),
  ])}`;

/**
 * The columns of `declaration` that hold ids of `referred`'s records, and those records' names by that id (the
 * column's `referencesField`, else the referred kind's id field): a review's course id → the course's name.
 */
export function referredNames(
  declaration: ResourceDeclaration,
  referred: ResourceDeclaration | undefined,
  records: readonly ResourceRecord[],
): { fields: ReadonlySet<string>; names: ReadonlyMap<string, string> } {
  const columns = declaration.columns.filter((column) => column.references && column.references === referred?.kind);
  const names = new Map<string, string>();
  const key = columns[0]?.referencesField ?? referred?.idField;
  if (referred && key) {
    for (const record of records) {
      const id = record[key];
      if (typeof id === 'string' || typeof id === 'number') names.set(String(id), titleOf(referred, record));
    }
  }
  return { fields: new Set(columns.map((column) => column.field)), names };
}

/**
 * A referred record's id as a list shows it: its name where known; where the referred kind was read whole and has no
 * such record (a licence of a program the catalogue does not list), the id said plainly to be missing, never nothing.
 * An id not among a partial read (the first page only) stays as it is: it may well be on a later page.
 */
export function referredLabel(names: ReadonlyMap<string, string>, whole: boolean, id: string): string {
  return names.get(id) ?? (whole ? `${id} (not in this tenant’s catalogue)` : id);
}

/** Abbreviations that read as words only in capitals. */
const ABBREVIATIONS = new Set(['id', 'jwk', 'url', 'lti', 'api', 'rsa']);

/**
 * A field the declaration does not label, in sentence case: `public_jwk` → "Public JWK", `created_by` → "Created by",
 * a yes/no `is_linked` → "Linked" (its value says yes or no).
 */
export const fieldLabel = (field: string) =>
  capitalized(
    field
      .replace(/^is_(?=.)/, '')
      .split('_')
      .map((word) => (ABBREVIATIONS.has(word.toLowerCase()) ? word.toUpperCase() : word))
      .join(' '),
  );

/** The kinds under their group headings, groups in the order their first kind is declared; ungrouped ones first. */
export function groupsOf<D extends ResourceDeclaration>(
  kinds: readonly D[],
): { group: string | undefined; kinds: D[] }[] {
  const groups: { group: string | undefined; kinds: D[] }[] = [];
  for (const declaration of kinds) {
    const group = groups.find((entry) => entry.group === declaration.group);
    if (group) group.kinds.push(declaration);
    else if (declaration.group === undefined) groups.unshift({ group: undefined, kinds: [declaration] });
    else groups.push({ group: declaration.group, kinds: [declaration] });
  }
  return groups;
}
