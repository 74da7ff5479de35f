import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { toCsv, writeCsvAtomically } from '../../src/main/engine/csv';
import { tempDir } from '../helpers/temp';

describe('CSV written by the app', () => {
  it.each([
    '=1+1',
    '+1',
    '-1',
    '@SUM(A1)',
    '\tx',
    '\rx',
    '=HYPERLINK("http://evil","x")',
    // Line breaks inside the cell (papaparse's own pattern misses these).
    '=HYPERLINK("http://evil","x")\nsecond line',
    '@a\r\nb',
    '-x\ny',
    '\r\n=2',
  ])('neutralises a cell starting with %j', (cell) => {
    const text = toCsv([[cell, 'plain']]);
    const [row] = Papa.parse<string[]>(text).data;
    expect(row![0]!.startsWith("'")).toBe(true);
    expect(row![0]!.slice(1)).toBe(cell);
    expect(row![1]).toBe('plain');
  });

  it('keeps quotes, delimiters, newlines, emoji and right-to-left text intact', () => {
    const cells = ['a,b', 'say "hi"', 'two\nlines', 'ünïcödé 🎓', 'مرحبا', 42, null];
    const [row] = Papa.parse<string[]>(toCsv([cells])).data;
    expect(row).toEqual(['a,b', 'say "hi"', 'two\nlines', 'ünïcödé 🎓', 'مرحبا', '42', '']);
  });

  it('writes through a temporary file and renames it into place, with a BOM by default', async () => {
    const dir = tempDir();
    const path = join(dir, 'report.csv');
    const result = await writeCsvAtomically(path, ['a', 'b'], [[[1, 2]], [[3, 4]]]);
    expect(result).toEqual({ path, rows: 2 });
    const text = readFileSync(path, 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text.slice(1)).toBe('a,b\r\n1,2\r\n3,4\r\n');
    expect(readdirSync(dir)).toEqual(['report.csv']);
  });

  it('leaves no file at all when writing fails midway', async () => {
    const dir = tempDir();
    const path = join(dir, 'report.csv');
    async function* failing() {
      yield [[1, 2]];
      throw new Error('the API failed');
    }
    await expect(writeCsvAtomically(path, ['a', 'b'], failing())).rejects.toThrow('the API failed');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('reports an unwritable folder and leaves nothing behind', async () => {
    const dir = join(tempDir(), 'missing', 'folder');
    await expect(writeCsvAtomically(join(dir, 'x.csv'), ['a'], [[[1]]])).rejects.toThrow(/ENOENT/);
    expect(existsSync(dir)).toBe(false);
    const readOnly = join(tempDir(), 'ro');
    mkdirSync(readOnly);
    chmodSync(readOnly, 0o500);
    // As root the folder stays writable; the ENOENT case above covers the failure path either way.
    if (process.getuid?.() !== 0) {
      await expect(writeCsvAtomically(join(readOnly, 'x.csv'), ['a'], [[[1]]])).rejects.toThrow(/EACCES/);
    }
  });
});
