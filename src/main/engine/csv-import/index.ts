/**
 * The CSV import pipeline every importer shares (invitations, the resource kit): detecting how a file is written,
 * matching its columns to fields with synonyms, sniffing its head for the preview, and streaming its records.
 */
export { normaliseHeader, columnMatcher } from './columns';
export type { ColumnGuess, ColumnMatcher, ImportField, MatchedColumn } from './columns';
export { detectDelimiter, detectEncoding, detectHeaderRow, detectNewline, refuseNonCsv } from './detect';
export type { DetectedEncoding, HeaderClues } from './detect';
export { readHead, sniffWith } from './sniff';
export type { CsvSettings, Head, SniffChoices } from './sniff';
export { CHUNK_BYTES, streamRecords } from './stream';
export type { RecordChunk, StreamSettings, StreamStats } from './stream';
