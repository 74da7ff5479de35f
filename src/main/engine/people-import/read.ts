/**
 * A file of people alone (an email or username a row), read with the CSV pipeline every import shares (encoding,
 * delimiter, header and the person column detected as in a membership import): one row per record below the header,
 * its line as the file counts it; a row with no person is invalid, said on its line.
 */
import { stat } from 'node:fs/promises';
import { PERSON_SYNONYMS } from '../../../shared/resources';
import { columnMatcher, readHead, sniffWith, streamRecords } from '../csv-import';
import type { PeopleRow } from './job';

export interface PeopleFile {
  rows: PeopleRow[];
  sha256: string;
  fileName: string;
}

export async function readPeopleFile(path: string): Promise<PeopleFile> {
  const size = (await stat(path)).size;
  const matcher = columnMatcher([{ name: 'person' as const, synonyms: PERSON_SYNONYMS }]);
  const head = await readHead(path, size);
  const settings = sniffWith(
    matcher,
    { isKnownHeader: (cell) => matcher.fieldForHeader(cell) !== null, isData: (cell) => cell.includes('@') },
    head,
    {},
    new Map(),
  );
  const column = settings.mapping.indexOf('person');
  const index = column >= 0 ? column : 0;
  const rows: PeopleRow[] = [];
  const read = await streamRecords(path, settings, ({ records, first }) => {
    records.forEach((record, i) => {
      const at = first + i;
      if (settings.headerRow !== null && at <= settings.headerRow) return;
      if (record.every((cell) => !cell.trim())) return;
      const person = (record[index] ?? '').trim();
      const problems = person ? [] : [{ field: 'person', message: 'No email or username' }];
      rows.push({ line: at + 1, values: { person }, problems, dropped: false });
    });
  });
  return { rows, sha256: read.sha256, fileName: path.split(/[\\/]/).pop() ?? path };
}
