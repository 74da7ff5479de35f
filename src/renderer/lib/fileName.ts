/**
 * A file's name split for cutting in the middle when it does not fit: the head gives way (ending in "…") and the
 * tail, the last few characters and the extension, always shows: "Northbridge Stud…ssary.csv". Cut at the start the
 * name lost what tells files apart ("…rthbridge Student Services glossary.csv"); cut at the end, its type.
 */
export function splitForMiddleCut(name: string, keep = 6): { head: string; tail: string } {
  const dot = name.lastIndexOf('.');
  // An extension is a short run after the last dot with something before it (".env" alone is a name).
  const extension = dot > 0 && name.length - dot <= 9 && !/\s/.test(name.slice(dot)) ? name.slice(dot) : '';
  const stem = name.slice(0, name.length - extension.length);
  // Characters, not UTF-16 units: a cut must not split an emoji or an accented letter written as two.
  const letters = Array.from(stem);
  if (letters.length <= keep) return { head: '', tail: name };
  return { head: letters.slice(0, -keep).join(''), tail: letters.slice(-keep).join('') + extension };
}
