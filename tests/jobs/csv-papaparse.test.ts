/**
 * The app's CSV writer (`toCsv`) writes papaparse's rules by hand (a large export spent most of its CSV time in the
 * general-purpose Papa.unparse). It must stay byte for byte what Papa.unparse writes with the same settings, for
 * every kind of cell: formulas (defused), quotes, delimiters, line breaks, byte order marks, edge spaces, numbers,
 * booleans, dates, null and undefined, objects, and empty rows, with each delimiter the app offers.
 */
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { csvRow, toCsv } from '../../src/main/engine/csv';

const CELLS: unknown[] = [
  'plain',
  '',
  ' leading',
  'trailing ',
  ' ',
  'a,b',
  'a;b',
  'a\tb',
  'say "hi"',
  '"',
  'line\nbreak',
  'cr\rhere',
  'crlf\r\nhere',
  '\uFEFFbom',
  'mid\uFEFFbom',
  '=SUM(A1:A2)',
  '+1',
  '-1',
  '@cmd',
  '\tTab',
  '\rCR',
  '=multi\nline',
  "'quoted",
  'ünïcödé 😀',
  0,
  -1,
  3.5,
  -0.25,
  1e21,
  NaN,
  10n,
  -10n,
  true,
  false,
  null,
  undefined,
  new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
  new Date(Number.NaN),
  { a: 1 },
  ['x', 'y'],
  '=',
  '-',
  // Plain text, formula characters and spaces past the first character (written as they are).
  'two words',
  'x=1',
  'a-b+c@d',
  "it's",
];

const papa = (rows: unknown[][], delimiter: string) =>
  Papa.unparse(rows, { delimiter, escapeFormulae: /^[=+\-@\t\r]/, newline: '\r\n', header: false });

describe('toCsv', () => {
  it('writes what Papa.unparse writes, cell by cell and over mixed rows, for every delimiter', () => {
    for (const delimiter of [',', ';', '\t', '|', '\n', '"']) {
      for (const cell of CELLS) expect(toCsv([[cell]], { delimiter }), String(cell)).toBe(papa([[cell]], delimiter));
      // Rows of varied length, an empty row among them, and a seeded shuffle of every cell.
      let seed = 7;
      const pick = () => CELLS[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % CELLS.length];
      const rows = Array.from({ length: 200 }, (_, r) => Array.from({ length: r % 9 }, pick));
      expect(toCsv(rows, { delimiter })).toBe(papa(rows, delimiter));
    }
    expect(toCsv([])).toBe(papa([], ','));
  });

  it('csvRow writes one row as toCsv does', () => {
    expect(csvRow(CELLS)).toBe(toCsv([CELLS]));
    expect(csvRow([])).toBe(toCsv([[]]));
  });
});
