import { narrowingFields, type ResourceDeclaration } from '../../shared/resources';

/** What the route's query narrows the list to, of the fields the kind may be narrowed by (others are ignored). */
export function narrowingOf(declaration: ResourceDeclaration, query: string): Record<string, string> {
  const fields = narrowingFields(declaration);
  const asked: Record<string, string> = {};
  for (const [field, value] of new URLSearchParams(query)) if (fields.has(field) && value) asked[field] = value;
  return asked;
}
