/**
 * Where the queue's cursor is now. The ticket window's rows change the moment a refresh lands, before React renders
 * again, so the index of the last render may already name another ticket (a closed one left the view and every
 * row below moved up). The cursor's ticket id is the truth; the index is the fallback when that ticket is not loaded.
 */
export function cursorIndex(rows: { indexOf(id: number): number }, cursorId: number | null, lastIndex: number): number {
  if (cursorId !== null) {
    const at = rows.indexOf(cursorId);
    if (at !== -1) return at;
  }
  return lastIndex;
}
