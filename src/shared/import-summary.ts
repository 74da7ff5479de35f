/**
 * What a people-file import (seats, department and group members, enrolments, suggestions) came to, said one way by
 * the engine, the CLI and the screens: rows repeated within the file (found once, reported with the row that came
 * first), and a run's counts as parts that add up to the file's rows, each in the kind's own words.
 */

/** The words a kind's outcomes take, for one row and for many. */
export interface ImportWords {
  added: readonly [one: string, many: string];
  wouldAdd: readonly [one: string, many: string];
  already: readonly [one: string, many: string];
}

export const IMPORT_WORDS = {
  seats: {
    added: ['given a seat', 'given a seat'],
    wouldAdd: ['would get a seat', 'would get a seat'],
    already: ['already holds a seat', 'already hold a seat'],
  },
  members: {
    added: ['added', 'added'],
    wouldAdd: ['would be added', 'would be added'],
    already: ['already a member', 'already members'],
  },
  enrolments: {
    added: ['enrolled', 'enrolled'],
    wouldAdd: ['would be enrolled', 'would be enrolled'],
    already: ['already enrolled', 'already enrolled'],
  },
  suggestions: {
    added: ['suggested', 'suggested'],
    wouldAdd: ['would be suggested', 'would be suggested'],
    already: ['already suggested', 'already suggested'],
  },
} as const satisfies Record<string, ImportWords>;

/** The people-file imports' job kinds and their words (the job's page says its counts as the import dialog does). */
export const IMPORT_WORDS_BY_JOB_KIND: Readonly<Record<string, ImportWords>> = {
  'licence-seats': IMPORT_WORDS.seats,
  'resource-members': IMPORT_WORDS.members,
  'catalogue-enrol': IMPORT_WORDS.enrolments,
  'catalogue-suggest': IMPORT_WORDS.suggestions,
};

/** A repeated row's words in the job's report and the preview: the row it repeats is the first with its key. */
export const repeatedMessage = (firstRow: number) => `Repeated in the file (row ${firstRow})`;

/**
 * The rows that repeat an earlier one: for each, the row number of the first with the same key. Rows whose key is
 * null (nothing to compare: an empty cell) repeat nothing.
 */
export function repeatedRows<R>(
  rows: Iterable<R>,
  keyOf: (row: R) => string | null,
  rowOf: (row: R) => number,
): Map<R, number> {
  const first = new Map<string, number>();
  const repeats = new Map<R, number>();
  for (const row of rows) {
    const key = keyOf(row);
    if (key === null) continue;
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, rowOf(row));
    else repeats.set(row, earlier);
  }
  return repeats;
}

/**
 * One row's outcome (a job item's step: "wouldAdd", "already", "overSeats"…) in its kind's words, for the job's page;
 * undefined for a step these imports do not have.
 */
export function outcomeWords(step: string, words: ImportWords): string | undefined {
  const said: Record<string, string> = {
    added: words.added[0],
    wouldAdd: words.wouldAdd[0],
    already: words.already[0],
    repeated: 'repeated in the file',
    overSeats: 'won’t fit',
    unknown: 'no such person',
    invalid: 'invalid',
    failed: 'failed',
    dropped: 'left out',
  };
  return Object.hasOwn(said, step) ? said[step] : undefined;
}

/** A cell as rows are compared: "Ann@X.org " and "ann@x.org" are the same person. */
export const sameCell = (cell: string | undefined) => (cell ?? '').trim().toLowerCase();

export type SummaryKey = 'added' | 'wouldAdd' | 'already' | 'repeated' | 'overSeats' | 'problems' | 'dropped';

export interface SummaryPart {
  key: SummaryKey;
  count: number;
  words: string;
  color: string;
}

/**
 * A people-file import's counts as parts that add up to its rows: sent (or would be), already there, repeated in the
 * file, past the licence's free seats (a dry run's: those rows are counted there only), with problems (unknown,
 * invalid, failed) and left out. The lead part is always there; the others when they count something.
 */
export function importSummary(
  counts: Readonly<Record<string, number>>,
  words: ImportWords,
  dryRun: boolean,
): { parts: SummaryPart[]; rows: number; sentence: string } {
  const n = (key: string) => counts[key] ?? 0;
  const said = (pair: readonly [string, string], count: number) => (count === 1 ? pair[0] : pair[1]);
  const lead = dryRun ? n('wouldAdd') : n('added');
  const problems = n('unknown') + n('invalid') + n('failed');
  const all: SummaryPart[] = [
    dryRun
      ? { key: 'wouldAdd', count: lead, words: said(words.wouldAdd, lead), color: 'teal' }
      : { key: 'added', count: lead, words: said(words.added, lead), color: 'teal' },
    { key: 'already', count: n('already'), words: said(words.already, n('already')), color: 'gray' },
    { key: 'repeated', count: n('repeated'), words: 'repeated in the file', color: 'yellow' },
    // A run that sends gives the seats past the free ones too (counted as given): only a dry run's are a part.
    ...(dryRun ? [{ key: 'overSeats' as const, count: n('overSeats'), words: 'won’t fit', color: 'orange' }] : []),
    { key: 'problems', count: problems, words: 'with problems', color: 'red' },
    { key: 'dropped', count: n('dropped'), words: 'left out', color: 'gray' },
  ];
  const parts = all.filter((part, index) => index === 0 || part.count > 0);
  const rows = parts.reduce((sum, part) => sum + part.count, 0);
  const sentence = parts.map((part) => `${part.count.toLocaleString('en-US')} ${part.words}`).join(' · ');
  return { parts, rows, sentence };
}
