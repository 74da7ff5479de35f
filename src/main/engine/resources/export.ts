/**
 * resources.export: a kind's records that match the list's search and filters, as the CSV the admin saves (the
 * screen's Export button). Read page by page through resources.list, so the file holds what the list shows, from the
 * same cache; written with the app's one injection-safe CSV writer.
 */
import type { z } from 'zod';
import type { CallOutput, ResourceExportInput, ResourceListInput, ResourceRecord } from '../../../shared/contract';
import { declarationOf } from '../../../shared/resources';
import { toCsv } from '../csv';
import { invalid } from '../errors';

const PAGE = 500;

const cell = (value: unknown) =>
  value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** A file name part without characters a file system refuses. */
const safe = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase() || 'tenant';

export async function exportResources(
  input: z.output<typeof ResourceExportInput>,
  deps: {
    list(
      input: z.output<typeof ResourceListInput>,
    ): Promise<CallOutput<'resources.list'>> | CallOutput<'resources.list'>;
    tenantName: string;
  },
): Promise<CallOutput<'resources.export'>> {
  const declaration = declarationOf(input.kind);
  const declared = declaration.columns.map((column) => column.field);
  const columns = input.columns ?? declared;
  const unknown = columns.filter((field) => !declared.includes(field));
  if (unknown.length) {
    throw invalid(
      'columns',
      `Not a column of ${declaration.label}: ${unknown.join(', ')} (columns: ${declared.join(', ')})`,
    );
  }
  const records: ResourceRecord[] = [];
  for (let page = 1; ; page++) {
    const answer = await deps.list({
      ...(input.profileId ? { profileId: input.profileId } : {}),
      kind: input.kind,
      ...(input.search ? { search: input.search } : {}),
      ...(input.where ? { where: input.where } : {}),
      page,
      pageSize: PAGE,
    });
    records.push(...answer.records);
    if (records.length >= answer.total || answer.records.length === 0) break;
  }
  const rows = [columns, ...records.map((record) => columns.map((field) => cell(record[field])))];
  const date = new Date().toISOString().slice(0, 10);
  return {
    fileName: `${safe(deps.tenantName)}-${declaration.kind}-${date}.csv`,
    csv: `${input.bom === false ? '' : '\uFEFF'}${toCsv(rows)}\r\n`,
    rows: records.length,
  };
}
