import type { ResourceRecord } from '../../shared/contract';
import type { ResourceDeclaration, ResourceKind } from '../../shared/resources';

/** A declaration as the screens hold it: its kind is one the contract knows. */
export type Declared = ResourceDeclaration & { kind: ResourceKind };

/** "API token" → "API token", "domain" → "Domain": the kind's singular at the start of a sentence or title. */
export const capitalized = (text: string) => (text ? `${text[0]!.toUpperCase()}${text.slice(1)}` : text);

/** What people call a record: its first column (a key's name), which is not always its id (an LTI key's number). */
export const titleOf = (declaration: ResourceDeclaration, record: ResourceRecord) =>
  String(record[declaration.columns[0]!.field] ?? record[declaration.idField]);

/** Abbreviations that read as words only in capitals. */
const ABBREVIATIONS = new Set(['id', 'jwk', 'url', 'lti', 'api', 'rsa']);

/** A field the declaration does not label, in sentence case: `public_jwk` → "Public JWK", `created_by` → "Created by". */
export const fieldLabel = (field: string) =>
  capitalized(
    field
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
