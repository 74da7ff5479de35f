/**
 * The shared way people-file imports find repeated rows and say what a run came to (shared/import-summary.ts): the
 * row a repeat names is the first with its key, and a dry run's parts add up to the file's rows in the kind's words.
 */
import { describe, expect, it } from 'vitest';
import {
  IMPORT_WORDS,
  importSummary,
  outcomeWords,
  repeatedMessage,
  repeatedRows,
  sameCell,
} from '../../src/shared/import-summary';

describe('repeatedRows', () => {
  const rows = [
    { line: 2, person: 'Ann@x.org', group: 'Nursing' },
    { line: 3, person: 'bob', group: 'Nursing' },
    { line: 4, person: 'ann@x.org ', group: 'nursing' },
    { line: 5, person: 'ann@x.org', group: 'Surgery' },
    { line: 6, person: '', group: 'Nursing' },
    { line: 7, person: '', group: 'Nursing' },
    { line: 8, person: 'ANN@X.ORG', group: 'Nursing' },
  ];
  const repeats = repeatedRows(
    rows,
    (row) => (sameCell(row.person) ? `${sameCell(row.person)}\n${sameCell(row.group)}` : null),
    (row) => row.line,
  );

  it('names the first row with the same key for every later one, whatever the case and spaces', () => {
    expect([...repeats].map(([row, first]) => [row.line, first])).toEqual([
      [4, 2],
      [8, 2],
    ]);
  });

  it('another target is no repeat, and rows with nothing to compare repeat nothing', () => {
    expect(repeats.has(rows[3]!)).toBe(false);
    expect(repeats.has(rows[5]!)).toBe(false);
  });

  it('says the repeat with the first row', () => {
    expect(repeatedMessage(2)).toBe('Repeated in the file (row 2)');
  });
});

describe('importSummary', () => {
  it('a seats dry run of 48 rows with one free seat adds up, past the seats counted once', () => {
    const counts = { wouldAdd: 1, already: 1, repeated: 1, overSeats: 44, unknown: 1 };
    const summary = importSummary(counts, IMPORT_WORDS.seats, true);
    expect(summary.rows).toBe(48);
    expect(summary.sentence).toBe(
      '1 would get a seat · 1 already holds a seat · 1 repeated in the file · 44 won’t fit · 1 with problems',
    );
  });

  it('uses the kind’s nouns, one and many', () => {
    expect(importSummary({ wouldAdd: 1, already: 2 }, IMPORT_WORDS.members, true).sentence).toBe(
      '1 would be added · 2 already members',
    );
    expect(importSummary({ added: 0, already: 1 }, IMPORT_WORDS.members, false).sentence).toBe(
      '0 added · 1 already a member',
    );
    expect(importSummary({ added: 3, already: 2 }, IMPORT_WORDS.enrolments, false).sentence).toBe(
      '3 enrolled · 2 already enrolled',
    );
    expect(importSummary({ wouldAdd: 2, already: 2 }, IMPORT_WORDS.seats, true).sentence).toBe(
      '2 would get a seat · 2 already hold a seat',
    );
  });

  it('problems are unknown, invalid and failed together; left out apart; the lead part is always said', () => {
    const summary = importSummary({ unknown: 2, invalid: 1, failed: 1, dropped: 3 }, IMPORT_WORDS.members, false);
    expect(summary.parts.map((part) => [part.key, part.count])).toEqual([
      ['added', 0],
      ['problems', 4],
      ['dropped', 3],
    ]);
    expect(summary.rows).toBe(7);
  });

  it('a run that sends counts seats past the free ones among those given, not as a part of their own', () => {
    const summary = importSummary({ added: 3, overSeats: 1 }, IMPORT_WORDS.seats, false);
    expect(summary.rows).toBe(3);
    expect(summary.parts.map((part) => part.key)).toEqual(['added']);
  });
});

describe('outcomeWords', () => {
  it('says one row’s step in its kind’s words, and nothing for a step these imports do not have', () => {
    const steps = ['wouldAdd', 'added', 'already', 'repeated', 'overSeats', 'unknown', 'dropped'];
    expect(steps.map((step) => outcomeWords(step, IMPORT_WORDS.enrolments))).toEqual([
      'would be enrolled',
      'enrolled',
      'already enrolled',
      'repeated in the file',
      'won’t fit',
      'no such person',
      'left out',
    ]);
    expect(outcomeWords('already', IMPORT_WORDS.seats)).toBe('already holds a seat');
    expect(outcomeWords('upload', IMPORT_WORDS.seats)).toBeUndefined();
    expect(outcomeWords('toString', IMPORT_WORDS.seats)).toBeUndefined();
  });
});
