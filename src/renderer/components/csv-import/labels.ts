/** How a CSV import's reading choices are named on screen (every import: invitations, the resource kit). */
import type { CsvDelimiter, CsvEncoding } from '../../../shared/contract';

export const DELIMITER_LABELS: Record<CsvDelimiter, string> = {
  ',': 'Comma',
  ';': 'Semicolon',
  '\t': 'Tab',
  '|': 'Pipe',
};
export const ENCODING_LABELS: Record<CsvEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16 LE',
  'utf-16be': 'UTF-16 BE',
  'windows-1252': 'Windows-1252',
};

/** A record of the file's head as a choice of header row: "Row 2: Email · Name". */
export const rowLabel = (row: string[], index: number) =>
  `Row ${index + 1}: ${row.filter(Boolean).slice(0, 4).join(' · ').slice(0, 80) || '(empty)'}`;
