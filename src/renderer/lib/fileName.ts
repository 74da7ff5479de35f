/**
 * A file's name split for cutting in the middle when it does not fit: the head gives way (ending in "…") and the
 * tail, the last word (or, when that is long, the last few characters) and the extension, always shows:
 * "Northbridge Stud… glossary.csv". Cut at the start the name lost its beginning ("…rthbridge Student Services
 * glossary.csv"); cut at the end, its type and what tells "week 2" from "week 3".
 */
export function splitForMiddleCut(name: string, keep = 6, longestWord = 12): { head: string; tail: string } {
  const dot = name.lastIndexOf('.');
  // An extension is a short run after the last dot with something before it (".env" alone is a name).
  const extension = dot > 0 && name.length - dot <= 9 && !/\s/.test(name.slice(dot)) ? name.slice(dot) : '';
  const stem = name.slice(0, name.length - extension.length);
  // Characters, not UTF-16 units: a cut must not split an emoji or an accented letter written as two.
  const letters = Array.from(stem);
  if (letters.length <= keep) return { head: '', tail: name };
  // From the last space, dash or underscore (kept in the tail: at the end of the head it would vanish in the cut).
  const wordStart = Math.max(letters.lastIndexOf(' '), letters.lastIndexOf('-'), letters.lastIndexOf('_'));
  const kept = wordStart > 0 && letters.length - wordStart <= longestWord ? letters.length - wordStart : keep;
  return { head: letters.slice(0, -kept).join(''), tail: letters.slice(-kept).join('') + extension };
}
