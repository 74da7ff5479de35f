/**
 * Text searches through an FTS5 trigram index (migrations 018 and 026): which rows contain a text, read from the
 * index rather than by a substring test of every row. The index may answer more rows than hold the text (it folds
 * case further than SQLite's lower()), never fewer, so callers keep their instr() test and answer what a scan would.
 */

/** The most rows a search reads through the index; a text more rows hold is as quick to find by the scan. */
export const INDEXED_SEARCH_MOST = 2_000;

/**
 * The FTS5 string matching `search` as a literal substring (every character literal, `""` a quote, whatever syntax
 * was typed), or null when it is shorter than a trigram (the scan then).
 */
export function trigramMatch(search: string): string | null {
  return [...search].length >= 3 ? `"${search.replaceAll('"', '""')}"` : null;
}
