/** Case- and accent-insensitive matching for the search boxes: "cafe" finds "Café", "ÉTUDE" finds "étude". */
export const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('en');

/** Whether every word of the query appears in one of the fields. An empty query matches everything. */
export function matches(query: string | undefined, ...fields: string[]): boolean {
  const words = fold(query ?? '')
    .split(/\s+/)
    .filter(Boolean);
  if (!words.length) return true;
  const haystack = fold(fields.join('\n'));
  return words.every((word) => haystack.includes(word));
}
