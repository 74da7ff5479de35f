/**
 * How an invitations CSV is written: the shared detection (csv-import/detect.ts), with the header row found by the
 * invitation fields' names, and an address marking a row as data.
 */
import { detectHeaderRow as detectHeaderRowWith } from '../csv-import';
import { fieldForHeader } from './columns';

export { detectDelimiter, detectEncoding, detectNewline, refuseNonCsv } from '../csv-import';
export type { DetectedEncoding } from '../csv-import';

const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());

/** A known column name marks the header; an address marks a row as data. */
export const inviteHeaderClues = {
  isKnownHeader: (cell: string) => fieldForHeader(cell) !== null,
  isData: looksLikeEmail,
};

export function detectHeaderRow(records: readonly (readonly string[])[]): number | null {
  return detectHeaderRowWith(records, inviteHeaderClues);
}
