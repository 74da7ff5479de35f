/**
 * `resources.import`: a CSV file of a kind's records through the shared import pipeline (engine/csv-import/: encoding,
 * delimiter and header detection, column matching with the declaration's synonyms, streaming). Every row is checked
 * against the spec's request schema with the admin's in-place fixes and drops applied; nothing is sent. With `start`,
 * the rows become the items of a `resource-import` job (import-job.ts), written before anything is sent; an
 * unfinished job for the same tenant, kind and file is resumed instead of started twice.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { z } from 'zod';
import type { ResourceImportInput, ResourceImportPreview, ResourceImportRow } from '../../../shared/contract';
import { repeatedRows, sameCell } from '../../../shared/import-summary';
import type { SeatKind } from '../../../shared/resources';
import {
  csvColumnsOf,
  declarationOf,
  importRefusal,
  editableBody,
  fieldType,
  formSchema,
  pluralOf,
  PERSON_SYNONYMS,
  type CsvColumn,
  type MembershipImport,
  type ResourceKind,
} from '../../../shared/resources';
import type { EngineServices } from '../context';
import { columnMatcher } from '../csv-import';
import { readHead, sniffWith } from '../csv-import';
import { streamRecords } from '../csv-import';
import { EngineError, invalid } from '../errors';
import { UNFINISHED_STATES, type NewItem } from '../jobs';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files';
import type { ResourceImportParams, ImportItemData } from './import-job';
import { startMembersJob } from './members-import';
import { seatColumns, seatRow, startSeatsJob } from '../licences';
import { startEnrolmentJob, startSuggestionJob } from '../catalogue';

type Row = Record<string, unknown>;
type Problem = { field: string | null; message: string };

export type ImportServices = Pick<EngineServices, 'config' | 'tenant' | 'journal' | 'runner' | 'profiles'>;

interface ReadRow {
  line: number;
  values: Record<string, string>;
  problems: Problem[];
  dropped: boolean;
  /** The record's id as the row gives it, when the kind's id is one of its columns. */
  id: string | null;
  typed: Row;
}

const TRUE = new Set(['true', 't', 'yes', 'y', '1', 'on']);
const FALSE = new Set(['false', 'f', 'no', 'n', '0', 'off']);

/**
 * A cell as the spec types its field: DRF's spellings of booleans, numbers, JSON for an object or list field (an LTI
 * tool's deployment IDs); anything else, or JSON that does not parse, stays text for the check to refuse.
 */
function typedCell(type: string | undefined, text: string): unknown {
  if (type === 'object' || type === 'array') {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  if (type === 'boolean') {
    const word = text.toLowerCase();
    if (TRUE.has(word)) return true;
    if (FALSE.has(word)) return false;
  }
  if ((type === 'integer' || type === 'number') && Number.isFinite(Number(text))) return Number(text);
  return text;
}

const capital = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`;

/** The kind's columns as the shared matcher takes them: the field's name and label, and the declared synonyms. */
function matcherOf(columns: readonly CsvColumn[]) {
  return columnMatcher(columns.map((column) => ({ name: column.field, synonyms: [column.label, ...column.synonyms] })));
}

/** A file of people and what they go into: a membership kind's groups, or an enrolment kind's catalogue items. */
type PeopleFile = Pick<MembershipImport, 'groupLabel' | 'groupSynonyms'>;

/** A membership file's two columns: the person, and the group they go into. */
function membershipColumns(membership: PeopleFile): CsvColumn[] {
  return [
    { field: 'person', label: 'Email or username', synonyms: PERSON_SYNONYMS },
    { field: 'group', label: membership.groupLabel, synonyms: membership.groupSynonyms },
  ];
}

function membershipRow(membership: PeopleFile) {
  const group = membership.groupLabel.toLowerCase();
  return z.object({
    person: z.string({ error: 'Give the person’s email or username' }).min(1, 'Give the person’s email or username'),
    group: z.string({ error: `Give the ${group}’s name or id` }).min(1, `Give the ${group}’s name or id`),
  });
}

export async function resourceImport(
  ctx: ImportServices,
  input: z.infer<typeof ResourceImportInput>,
): Promise<ResourceImportPreview> {
  const profileId = ctx.tenant(input.profileId);
  const declaration = declarationOf(input.kind);
  const refusal = importRefusal(declaration);
  if (refusal) throw new EngineError('validation', refusal);
  const create = declaration.operations.create!;
  // A membership kind's file names people and groups, put together by the bulk job (members-import.ts).
  const { seats } = declaration;
  // An enrolment file is read the same way (a person and an item a row) and enrolled by its own job.
  const membership: PeopleFile | undefined = declaration.membership ?? declaration.enrolment ?? declaration.suggestion;
  // A seat kind's file names people, each given a seat of the licence the import names (licences/seat-import.ts).
  if (seats && input.licenseId === undefined) {
    throw invalid('licenseId', `Name the ${seats.licenseLabel.toLowerCase()} whose seats the file's people take`);
  }
  const columns = seats ? seatColumns() : membership ? membershipColumns(membership) : csvColumnsOf(declaration);
  const body = membership || seats ? null : editableBody(declaration, create);
  // Imported from a group's details, the group is that one wherever the file names none.
  const givenGroup = membership ? input.group : undefined;
  const required = new Set(
    seats ? ['person'] : membership ? ['person', ...(givenGroup ? [] : ['group'])] : (body?.required ?? []),
  );
  const schema = seats ? seatRow() : membership ? membershipRow(membership) : formSchema(declaration, create, 'create');
  const matcher = matcherOf(columns);

  let path: string;
  let name: string;
  let owned = false;
  if (input.path !== undefined) {
    path = resolve(input.path);
    name = input.name ?? basename(path);
  } else {
    const dir = join(ctx.config.dataDir, 'imports');
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    path = join(dir, `${randomUUID()}.csv`);
    name = input.name ?? 'pasted.csv';
    await writeFile(path, input.text ?? '', { encoding: 'utf8', mode: PRIVATE_FILE_MODE });
    owned = true;
  }
  try {
    const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
      throw new EngineError(
        'validation',
        error.code === 'ENOENT' ? `There is no file at ${path}` : `The file cannot be read: ${error.message}`,
      );
    });
    if (!info.isFile()) throw new EngineError('validation', `${path} is a folder, not a CSV file`);
    if (info.size === 0) throw new EngineError('validation', 'The file is empty: there is nothing to import.');

    const head = await readHead(path, info.size);
    const settings = sniffWith(
      matcher,
      { isKnownHeader: (cell) => matcher.fieldForHeader(cell) !== null },
      head,
      {
        ...(input.encoding && { encoding: input.encoding }),
        ...(input.delimiter && { delimiter: input.delimiter }),
        ...(input.headerRow !== undefined && { headerRow: input.headerRow }),
        ...(input.mapping && { mapping: input.mapping }),
      },
      new Map(),
    );
    const known = new Set(columns.map((c) => c.field));
    const seenFields = new Set<string>();
    settings.mapping.forEach((field, index) => {
      if (field === null) return;
      if (!known.has(field)) {
        throw invalid(
          'mapping',
          `${capital(pluralOf(declaration))} have no column '${field}' (columns: ${[...known].join(', ')})`,
        );
      }
      if (seenFields.has(field)) {
        throw invalid(
          'mapping',
          `${field} is chosen for two columns (${settings.headers[index]} and another): pick one`,
        );
      }
      seenFields.add(field);
    });

    const fixes = new Map<number, Record<string, string>>();
    for (const fix of input.fixes ?? []) {
      if (!known.has(fix.field))
        throw invalid('fixes', `${capital(pluralOf(declaration))} have no column '${fix.field}'`);
      fixes.set(fix.line, { ...fixes.get(fix.line), [fix.field]: fix.value });
    }
    const dropped = new Set(input.dropped ?? []);
    const idColumn = columns.some((c) => c.field === declaration.idField) ? declaration.idField : null;
    const idInBody = body?.properties?.[declaration.idField] !== undefined;
    const firstLineOf = new Map<string, number>();
    const rows: ReadRow[] = [];
    let short = 0;
    let long = 0;
    const width = settings.headers.length;

    const read = await streamRecords(path, settings, ({ records, first }) => {
      for (let i = 0; i < records.length; i++) {
        const index = first + i;
        if (settings.headerRow !== null && index <= settings.headerRow) continue;
        const record = records[i]!;
        if (record.every((cell) => cell.trim() === '')) continue;
        if (record.length < width) short++;
        else if (record.length > width && record.slice(width).some((cell) => cell.trim() !== '')) long++;
        const line = index + 1;
        const values: Record<string, string> = {};
        settings.mapping.forEach((field, column) => {
          if (field) values[field] = (record[column] ?? '').trim();
        });
        Object.assign(values, fixes.get(line));
        if (givenGroup !== undefined && !values.group) values.group = givenGroup;
        rows.push(checkRow(line, values));
      }
    });

    function checkRow(line: number, values: Record<string, string>): ReadRow {
      const typed: Row = {};
      for (const [field, text] of Object.entries(values)) {
        // An id the platform gives (an LTI key's number) finds the record to update; it is never sent.
        if (field === idColumn && !idInBody) continue;
        if (text !== '') typed[field] = typedCell(fieldType(body, field), text);
      }
      const problems: Problem[] = [];
      const parsed = schema.safeParse(typed);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          problems.push({ field: issue.path.map(String).join('.') || null, message: issue.message });
        }
      }
      const id = idColumn && values[idColumn] ? values[idColumn] : null;
      if (id !== null && !dropped.has(line)) {
        const earlier = firstLineOf.get(id);
        if (earlier === undefined) firstLineOf.set(id, line);
        else problems.push({ field: idColumn, message: `The same ${declaration.idField} as line ${earlier}` });
      }
      return { line, values, problems, dropped: dropped.has(line), id, typed: parsed.success ? parsed.data : typed };
    }

    const notices: string[] = [];
    const rowsHave = (n: number) => (n === 1 ? '1 row has' : `${n.toLocaleString('en-US')} rows have`);
    if (short) notices.push(`${rowsHave(short)} fewer cells than the header: the missing cells were left empty.`);
    if (long) notices.push(`${rowsHave(long)} more cells than the header: the extra cells were ignored.`);
    for (const field of required) {
      if (!settings.mapping.includes(field) && known.has(field)) {
        notices.push(
          `No column fills ${columns.find((c) => c.field === field)!.label} (required): choose the column that holds it.`,
        );
      }
    }
    if (!membership && !seats && (!idColumn || !idInBody)) {
      notices.push(
        idColumn
          ? `The platform numbers ${pluralOf(declaration)} itself: a row with an empty ${declaration.idField} creates a new ${declaration.singular}, one with an ${declaration.idField} updates that ${declaration.singular}.`
          : `The platform names ${pluralOf(declaration)} itself (by ${declaration.idField}): every row creates a new ${declaration.singular}.`,
      );
    }
    if (!rows.length) notices.push('The file has no rows below its header: there is nothing to import.');
    const unknownColumns =
      settings.headerRow === null
        ? []
        : settings.headers.filter((header, index) => settings.mapping[index] === null && header.trim() !== '');
    if (unknownColumns.length) {
      notices.push(
        `${unknownColumns.length === 1 ? 'A column names' : `${unknownColumns.length} columns name`} no field of ${pluralOf(declaration)} and ${unknownColumns.length === 1 ? 'is' : 'are'} ignored: ${unknownColumns.join(', ')}.`,
      );
    }

    const live = rows.filter((row) => !row.dropped);
    // A people file naming the same person for the same target twice: warned of, never refused; the job sends the
    // first and reports the others as repeats (people-import/job.ts settleRepeats, which also knows an email and a
    // username of one person are the same).
    const repeats =
      membership || seats
        ? repeatedRows(
            live.filter((row) => !row.problems.length),
            (row) =>
              sameCell(row.values.person) ? `${sameCell(row.values.person)}\n${sameCell(row.values.group)}` : null,
            (row) => row.line,
          )
        : new Map<ReadRow, number>();
    if (repeats.size) {
      notices.push(
        `${rowsHave(repeats.size)} the same person${seats ? '' : ` and ${membership!.groupLabel.toLowerCase()}`} as an earlier row: each is sent once, and the repeats are reported as repeated in the file.`,
      );
    }
    const counts = {
      rows: rows.length,
      valid: live.filter((row) => !row.problems.length).length,
      invalid: live.filter((row) => row.problems.length).length,
      dropped: rows.length - live.length,
      ...((membership || seats) && { repeated: repeats.size }),
    };
    const page = input.rows ?? { filter: 'all' as const, offset: 0, limit: 100 };
    const matching =
      page.filter === 'invalid'
        ? rows.filter((row) => (row.problems.length && !row.dropped) || repeats.has(row))
        : rows;
    const present = (row: ReadRow): ResourceImportRow => ({
      line: row.line,
      values: row.values,
      problems: row.problems,
      dropped: row.dropped,
      ...(repeats.has(row) && { repeatOf: repeats.get(row)! }),
    });

    let job: ResourceImportPreview['job'] = null;
    if (input.start) {
      if (!counts.valid) {
        throw new EngineError(
          'validation',
          rows.length
            ? 'No row is valid: fix or drop the rows with problems first.'
            : 'There is nothing to import: the file has no rows.',
        );
      }
      job = seats
        ? startSeatsJob(
            ctx,
            profileId,
            input.kind as SeatKind,
            input.licenseId!,
            name,
            read.sha256,
            rows,
            input.dryRun ? 'dry-run' : 'send',
          )
        : declaration.suggestion
          ? startSuggestionJob(ctx, profileId, input.kind, name, read.sha256, rows, input.dryRun ? 'dry-run' : 'send')
          : declaration.enrolment
            ? startEnrolmentJob(ctx, profileId, input.kind, name, read.sha256, rows, input.dryRun ? 'dry-run' : 'send')
            : membership
              ? startMembersJob(
                  ctx,
                  profileId,
                  input.kind,
                  name,
                  read.sha256,
                  rows,
                  input.dryRun ? 'dry-run' : 'send',
                  givenGroup,
                )
              : input.dryRun
                ? null
                : startJob(ctx, profileId, input.kind, name, read.sha256, rows);
    }

    return {
      name,
      encoding: settings.encoding,
      delimiter: settings.delimiter,
      headerRow: settings.headerRow,
      headers: settings.headers,
      mapping: settings.mapping,
      fields: columns.map((c) => ({ field: c.field, label: c.label, required: required.has(c.field) })),
      unknownColumns,
      preview: settings.preview,
      notices,
      counts,
      rows: matching.slice(page.offset, page.offset + page.limit).map(present),
      rowsTotal: matching.length,
      job,
    };
  } finally {
    if (owned) await rm(path, { force: true });
  }
}

/** Writes the job and its items (one per row, rows that will not be sent settled at once) and starts it. */
function startJob(
  ctx: ImportServices,
  profileId: string,
  kind: ResourceKind,
  fileName: string,
  sha256: string,
  rows: readonly ReadRow[],
): { id: string; resumed: boolean } {
  const { journal, runner } = ctx;
  // The same file for the same tenant and kind, not finished yet: resumed, never sent twice.
  const [unfinished] = journal.find({
    kind: 'resource-import',
    profileId,
    states: UNFINISHED_STATES,
    params: { kind, fileSha256: sha256 },
  });
  if (unfinished) {
    runner.start(unfinished.id);
    return { id: unfinished.id, resumed: true };
  }
  const declaration = declarationOf(kind);
  const counts = { invalid: 0, dropped: 0 };
  function* items(): Generator<NewItem> {
    for (const row of rows) {
      const data: ImportItemData = { line: row.line, id: row.id, values: row.typed };
      const base = { key: `line:${row.line}`, label: row.id ?? `Line ${row.line}` };
      if (row.dropped) {
        counts.dropped++;
        yield { ...base, state: 'skipped', phase: 'dropped', data: { ...data, message: 'Left out before the import' } };
      } else if (row.problems.length) {
        counts.invalid++;
        const message = row.problems.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join('; ');
        yield { ...base, state: 'skipped', phase: 'invalid', data: { ...data, message } };
      } else yield { ...base, state: 'pending', phase: '', data };
    }
  }
  const params: ResourceImportParams = { kind, fileName, fileSha256: sha256, rows: rows.length };
  const sent = rows.length - rows.filter((row) => row.dropped || row.problems.length).length;
  const id = journal.transaction(() => {
    const jobId = journal.create({
      kind: 'resource-import',
      profileId,
      title: `Import ${sent.toLocaleString('en-US')} ${sent === 1 ? declaration.singular : pluralOf(declaration)} (${fileName})`,
      params,
      items: items(),
    });
    journal.addCounts(jobId, counts);
    return jobId;
  });
  runner.start(id);
  return { id, resumed: false };
}
