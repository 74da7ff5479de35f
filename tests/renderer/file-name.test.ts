import { describe, expect, it } from 'vitest';
import { splitForMiddleCut } from '../../src/renderer/lib/fileName';

describe('a file name split for cutting in the middle', () => {
  it('keeps the last word and the extension whole, and the rest gives way', () => {
    expect(splitForMiddleCut('Northbridge Student Services glossary.csv')).toEqual({
      head: 'Northbridge Student Services',
      tail: ' glossary.csv',
    });
    // Files that differ only at the end stay told apart.
    expect(splitForMiddleCut('Lecture recording week 2.mp4').tail).toBe(' 2.mp4');
    expect(splitForMiddleCut('syllabus_2026-fall.pdf').tail).toBe('-fall.pdf');
  });

  it('keeps the last few characters when the last word is long or there is none', () => {
    expect(splitForMiddleCut('Northbridge Student Services internationalisation.csv').tail).toBe('sation.csv');
    expect(splitForMiddleCut('NorthbridgeStudentServicesGlossary.csv').tail).toBe('ossary.csv');
  });

  it('gives back the whole name in its two parts, whatever it is', () => {
    for (const name of ['a.pdf', 'README', '.env', 'archive.tar.gz', 'notes. final draft', 'Résumé 😀 2026.docx', '']) {
      const { head, tail } = splitForMiddleCut(name);
      expect(head + tail).toBe(name);
    }
  });

  it('does not cut a short name, a dot file or a letter made of two code units', () => {
    expect(splitForMiddleCut('a.pdf')).toEqual({ head: '', tail: 'a.pdf' });
    expect(splitForMiddleCut('.env')).toEqual({ head: '', tail: '.env' });
    // "notes. final draft": what follows the dot has a space, so it is no extension.
    expect(splitForMiddleCut('notes. final draft').tail).toBe(' draft');
    expect(splitForMiddleCut('Report😀😀😀😀😀😀😀😀.pdf')).toEqual({ head: 'Report😀😀', tail: '😀😀😀😀😀😀.pdf' });
  });
});
