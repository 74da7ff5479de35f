import { describe, expect, it } from 'vitest';
import { cursorIndex } from '../../src/renderer/screens/tickets/cursor';

/** A ticket window as the queue reads it: rows by index, and an id's index among the rows loaded. */
const windowOf = (ids: number[]) => ({ indexOf: (id: number) => ids.indexOf(id) });

describe("the ticket queue's cursor", () => {
  it('follows its ticket when a refresh moved the rows before the next render (Esc e, then r at once)', () => {
    // Closing 11 moved the cursor to 12 (index 2 while 11 was still listed)…
    const beforeRefresh = windowOf([10, 11, 12, 13]);
    expect(cursorIndex(beforeRefresh, 12, 2)).toBe(2);
    // …then the refresh lands and 11 leaves the view: index 2 is now 13, but the cursor is still on 12.
    const afterRefresh = windowOf([10, 12, 13]);
    expect(cursorIndex(afterRefresh, 12, 2)).toBe(1);
  });

  it('keeps the last index when its ticket is not loaded, or when there is no ticket under it yet', () => {
    expect(cursorIndex(windowOf([10, 12, 13]), 99, 2)).toBe(2);
    expect(cursorIndex(windowOf([10, 12, 13]), null, 1)).toBe(1);
  });
});
