/**
 * What a reference picker offers: another kind's records by their names, each value the record's id as text (a
 * select's values are text) with the id as the platform types it kept beside, so a number goes back as a number.
 */

type Row = Record<string, unknown>;
type Id = string | number;

export interface PickOptions {
  data: { value: string; label: string }[];
  /** The id as the platform types it, by its text. */
  ids: ReadonlyMap<string, Id>;
}

/**
 * The records as options, then every chosen id they lack (a search shows others, a record not read yet) by its id,
 * so a choice never disappears from the box; ids in `taken` are left out unless chosen.
 */
export function pickOptions(
  records: readonly Row[],
  idField: string,
  labelOf: (record: Row) => string,
  chosen: readonly Id[],
  taken: ReadonlySet<string> = new Set(),
): PickOptions {
  const ids = new Map<string, Id>();
  const data: { value: string; label: string }[] = [];
  const wanted = new Set(chosen.map(String));
  for (const record of records) {
    const id = record[idField];
    if (typeof id !== 'string' && typeof id !== 'number') continue;
    const value = String(id);
    if (ids.has(value) || (taken.has(value) && !wanted.has(value))) continue;
    ids.set(value, id);
    data.push({ value, label: labelOf(record) });
  }
  for (const id of chosen) {
    const value = String(id);
    if (ids.has(value)) continue;
    ids.set(value, id);
    data.unshift({ value, label: value });
  }
  return { data, ids };
}

/** The values a field holds across a kind's records (the mentors that already have a call configuration). */
export function takenValues(records: readonly Row[], field: string): Set<string> {
  const taken = new Set<string>();
  for (const record of records) {
    const value = record[field];
    if (typeof value === 'string' || typeof value === 'number') taken.add(String(value));
  }
  return taken;
}

/** Picked values (text) back as ids as the platform types them. */
export function pickedIds(picked: readonly string[], ids: ReadonlyMap<string, Id>): Id[] {
  return picked.map((value) => ids.get(value) ?? value);
}

/**
 * How a picker that reads its records when opened opens. Mantine's Select, opened, looks for the option holding the
 * value a moment later (a timer); while the page is busy with what opening asked for, that look can land after the
 * first ArrowDown and clear the index it highlighted, so Enter picks nothing while the option still shows highlighted
 * (seen in e2e runs: "Realtime tu" stayed typed). Highlighting the first option at once takes no timer.
 */
export const KEYBOARD_SAFE_OPEN = { selectFirstOptionOnDropdownOpen: true } as const;
