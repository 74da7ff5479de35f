/**
 * kubectl-style verbs over every declared resource kind (src/shared/resources/): `kinds`, `get`, `create`, `update`,
 * `delete` and `do`, all through the engine's resources.* calls.
 */
import { isBadgeKind, runBadgeGet } from './badge-commands';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { BULK_MAX, type Job, type JobItem, type ResourceRecord } from '../../shared/contract';
import { formatBytes } from '../../shared/bytes';
import {
  RESOURCES,
  RESOURCE_AREAS,
  declarationOf,
  decodeDataUrl,
  editableBody,
  fieldSchema,
  fieldType,
  grantOf,
  grantSummary,
  imageFormat,
  toDataUrl,
  isResourceKind,
  pluralOf,
  referrerLines,
  verbsOf,
  type ResourceDeclaration,
  type ResourceKind,
} from '../../shared/resources';
import type { Engine } from '../engine';
import { toCsv, writeCsvAtomically } from '../engine/csv';
import { commandArgs, type Command } from './command';
import { UsageError, type Output } from './io';
import { profileIdOf } from './profile-commands';

const KINDS = Object.keys(RESOURCES).join(', ');

export const RESOURCE_HELP = `Resources (one set of verbs over every kind: ${KINDS}):
  kinds                                        one line per kind: kind, label, area, verbs
  get KIND [ID] [--where FIELD=VALUE]... [--search TEXT] [--csv]
      every record of the kind (from the cache when it is fresh), or one by its ID; a kind that is one record per
      tenant (${Object.values(RESOURCES)
        .filter((d: ResourceDeclaration) => d.single && !d.keyedBy)
        .map((d) => d.kind)
        .join(', ')}) takes no ID;
      one record per mentor (mentor-settings, mentor-public-settings) takes the mentor: get mentor-settings MENTOR
  create KIND (--set FIELD=VALUE)... | --file BODY.json
      a value the platform shows once (a new API token's key) is printed here, and never again;
      a credential's fields are FIELD.NAME: create credentials --set name=openai --set value.key=sk-…
  update KIND [ID...] (--set FIELD=VALUE)... | --file BODY.json
      update mentor-settings MENTOR --set FIELD=VALUE: one mentor's settings (each save is kept in its history)
      a JSON field takes JSON (--set 'metadata={"a":1}'), an image field a file (--set logo=@logo.png)
  delete KIND ID... --yes                      revoke or delete; --yes is required
  do KIND ID ACTION [--set FIELD=VALUE]...     a named action of the kind
  export KIND --out FILE.csv [--where FIELD=VALUE]... [--search TEXT] [--no-bom]
      every record's columns as CSV (UTF-8 with a BOM for Excel; cells a spreadsheet would run are made text);
      a kind named like an analytics dataset (users) is exported with export --kind KIND
  llm-access [--default-key on|off] [--free-trial on|off]
      whether mentors use the platform's default LLM key and the free trial, and the key's usage; switches them`;

/** The largest page the contract allows: `get` reads a kind in as few calls as it can. */
const PAGE = 500;

/** No terminal control sequences from the platform's text reach the terminal. */
export const printable = (text: string) => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');

function kindOf(raw: string | undefined, verb: string): ResourceDeclaration & { kind: ResourceKind } {
  if (!raw) throw new UsageError(`${verb} needs a KIND (${KINDS})`);
  if (!isResourceKind(raw)) throw new UsageError(`Unknown kind '${raw}' (kinds: ${KINDS})`);
  return declarationOf(raw) as ResourceDeclaration & { kind: ResourceKind };
}

export function pairs(items: string[] | undefined, option: string): [string, string][] {
  return (items ?? []).map((item) => {
    const at = item.indexOf('=');
    if (at <= 0) throw new UsageError(`${option} takes FIELD=VALUE (got '${item}')`);
    return [item.slice(0, at), item.slice(at + 1)];
  });
}

/**
 * `--set` values typed as the spec types the field: true/false for a boolean, a number for a number, JSON for a JSON
 * field or an object/array field, and an image field's `@FILE` read into the data: URL the engine checks and uploads.
 * `value.key=…` sets a field of an object field (a credential's described fields), kept as text.
 */
export async function typedValues(
  declaration: ResourceDeclaration,
  verb: 'create' | 'update',
  sets: [string, string][],
) {
  const operation = (verb === 'create' ? declaration.operations.create : declaration.operations.update) ?? null;
  const body = operation ? editableBody(declaration, operation) : null;
  const typed: Record<string, unknown> = {};
  for (const [field, text] of sets) {
    const dot = field.indexOf('.');
    if (dot > 0) {
      const parent = field.slice(0, dot);
      const object = typed[parent];
      typed[parent] = { ...(object && typeof object === 'object' ? object : {}), [field.slice(dot + 1)]: text };
      continue;
    }
    const declared = declaration.fields.find((f) => f.name === field);
    const schema = declared ? fieldSchema(declaration, declared, operation) : null;
    const type = schema ? fieldType({ properties: { [field]: schema } }, field) : fieldType(body, field);
    if (declared?.input === 'image') {
      if (!text.startsWith('@')) throw new UsageError(`--set ${field}=@FILE takes an image file (${field}=@logo.png)`);
      typed[field] = await imageDataUrl(text.slice(1));
    } else if (declared?.input === 'json' || type === 'object' || type === 'array') {
      try {
        typed[field] = JSON.parse(text);
      } catch (error) {
        throw new UsageError(`--set ${field}= takes JSON (${(error as Error).message}); quote text as "…"`);
      }
    } else if (type === 'boolean' && (text === 'true' || text === 'false')) typed[field] = text === 'true';
    else if ((type === 'integer' || type === 'number') && text.trim() !== '' && Number.isFinite(Number(text))) {
      typed[field] = Number(text);
    } else typed[field] = text;
  }
  return typed;
}

/** A file as a data: URL of the image type its bytes show (the engine refuses it at its field when it is none). */
async function imageDataUrl(path: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(resolve(path)));
  } catch (error) {
    throw new UsageError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  return toDataUrl(imageFormat(bytes)?.type ?? 'application/octet-stream', bytes);
}

/** What the engine did to the values (a pasted secret's spaces removed), said at each field. */
function printNotes(out: Output, notes: readonly { path: string; message: string }[] | undefined): void {
  for (const note of notes ?? []) out.error(`${note.path}: ${note.message}`);
}

async function bodyOf(
  declaration: ResourceDeclaration,
  verb: 'create' | 'update',
  values: { set?: string[] | undefined; file?: string | undefined },
): Promise<Record<string, unknown>> {
  if (values.file && values.set?.length) throw new UsageError(`${verb} takes --set or --file, not both`);
  if (values.file) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(resolve(values.file), 'utf8'));
    } catch (error) {
      throw new UsageError(`${values.file} is not a JSON file: ${(error as Error).message}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new UsageError(`${values.file} must hold one JSON object (the ${declaration.singular}'s fields)`);
    }
    return parsed as Record<string, unknown>;
  }
  if (!values.set?.length) throw new UsageError(`${verb} needs --set FIELD=VALUE (one or more) or --file BODY.json`);
  return await typedValues(declaration, verb, pairs(values.set, '--set'));
}

const cell = (value: unknown) =>
  value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** Records as a table of the kind's columns, for people. */
function printTable(out: Output, declaration: ResourceDeclaration, records: ResourceRecord[]): void {
  const header = declaration.columns.map((c) => c.label.toUpperCase());
  const rows = records.map((record) =>
    declaration.columns.map((c) =>
      // A policy's grant as the app's list says it: "Editors · 2 people, 1 group" (--json keeps every field).
      printable(c.format === 'grant' ? grantSummary(grantOf(record)) : cell(record[c.field])),
    ),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  for (const row of [header, ...rows])
    out.text(
      row
        .map((text, i) => text.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    );
}

/** An uploaded image, for people: its type and size, not pages of base64 (`--json` keeps the data: URL). */
function shown(value: unknown): string {
  if (typeof value === 'string' && value.startsWith('data:')) {
    const image = decodeDataUrl(value);
    if (image) return `${image.type} image, ${formatBytes(image.bytes.length)}`;
  }
  return printable(cell(value));
}

function printRecord(out: Output, declaration: ResourceDeclaration, record: ResourceRecord, extra = {}): void {
  out.record(
    { ...record, ...extra },
    Object.entries(record)
      .map(([field, value]) => `${field}: ${shown(value)}`)
      .join('\n'),
  );
}

/** Every record of a kind that matches `--where` and `--search`, page by page, and the last answer's freshness. */
async function readAll(
  engine: Engine,
  tenant: { profileId?: string },
  declaration: ResourceDeclaration & { kind: ResourceKind },
  values: { where?: string[] | undefined; search?: string | undefined },
) {
  const where = Object.fromEntries(pairs(values.where, '--where'));
  const records: ResourceRecord[] = [];
  for (let page = 1; ; page++) {
    const answer = await engine.invoke('resources.list', {
      ...tenant,
      kind: declaration.kind,
      where,
      ...(values.search ? { search: values.search } : {}),
      page,
      pageSize: PAGE,
      // A paged list read now is read to its end before the first page is answered: nothing is missed.
      ...(page === 1 && { whole: true }),
    });
    records.push(...answer.records);
    if (records.length >= answer.total || answer.records.length === 0) return { records, answer };
  }
}

async function getCommand(engine: Engine, args: string[], out: Output, tenant: { profileId?: string }) {
  const { values, positionals } = commandArgs(args, {
    where: { type: 'string', multiple: true },
    search: { type: 'string' },
    csv: { type: 'boolean' },
  });
  const [kindArg, id, ...more] = positionals;
  const declaration = kindOf(kindArg, 'get');
  if (more.length) throw new UsageError('get takes one KIND and at most one ID');
  if (declaration.single) {
    const keyed = declaration.keyedBy;
    if ((keyed ? !id : id) || values.where || values.search || values.csv) {
      throw new UsageError(
        keyed
          ? `${declaration.kind} is one record per ${keyed.label.toLowerCase()}: get ${declaration.kind} ${keyed.label.toUpperCase()}`
          : `${declaration.kind} is one record per tenant: get ${declaration.kind} takes no ID or options`,
      );
    }
    const { record, freshness } = await engine.invoke('resources.getSingle', {
      ...tenant,
      kind: declaration.kind,
      ...(keyed && { key: id }),
    });
    printRecord(out, declaration, record);
    if (!out.json && freshness.asOf) out.text(`(as of ${freshness.asOf})`);
    if (freshness.offline) out.error(freshness.offline);
    return 0;
  }
  if (id) {
    if (values.where || values.search) throw new UsageError('get KIND ID takes no --where or --search');
    const { record } = await engine.invoke('resources.get', { ...tenant, kind: declaration.kind, id });
    emit([record]);
    return 0;
  }
  const { records, answer } = await readAll(engine, tenant, declaration, values);
  emit(records);
  if (!values.csv) {
    const { asOf, offline } = answer.freshness;
    const scope = answer.listed
      ? ''
      : ` added or checked from this app (the platform cannot list ${pluralOf(declaration)})`;
    out.text(`${records.length} ${pluralOf(declaration)}${scope}${asOf ? `, as of ${asOf}` : ''}`);
    if (offline) out.error(offline);
  }
  return 0;

  function emit(list: ResourceRecord[]) {
    if (values.csv) {
      out.raw(
        `${toCsv([
          declaration.columns.map((c) => c.field),
          ...list.map((record) => declaration.columns.map((c) => cell(record[c.field]))),
        ])}\r\n`,
      );
    } else if (out.json) for (const record of list) out.record(record, '');
    else if (id) printRecord(out, declaration, list[0]!);
    else printTable(out, declaration, list);
  }
}

/** How long `delete` with several IDs follows a job that waits for an unreachable tenant before leaving it queued. */
const BULK_MAX_WAIT_MS = 60_000;
const SETTLED: readonly Job['state'][] = ['completed', 'failed', 'cancelled', 'paused'];

/**
 * Several IDs: one journalled 'resource-bulk' job (the screen's bulk delete or bulk change), followed here until it
 * settles, then one line per record (deleted, already gone, updated, unchanged, or why not) and the summary.
 */
async function bulkRun(
  engine: Engine,
  tenant: { profileId?: string },
  declaration: ResourceDeclaration & { kind: ResourceKind },
  ids: string[],
  out: Output,
  change?: Record<string, unknown>,
): Promise<number> {
  const word = (declaration.deleteLabel ?? 'Delete').toLowerCase();
  const started = await engine.invoke('resources.bulk', {
    ...tenant,
    kind: declaration.kind,
    ...(change ? { action: 'update', values: change } : { action: 'delete' }),
    ids,
  });
  let job = started;
  let waitingSince: number | null = null;
  while (!SETTLED.includes(job.state)) {
    if (job.state === 'waiting') {
      waitingSince ??= Date.now();
      if (Date.now() - waitingSince > BULK_MAX_WAIT_MS) break;
    } else waitingSince = null;
    await new Promise((resolve) => setTimeout(resolve, 100));
    job = await engine.invoke('jobs.get', { id: job.id });
  }
  const items: JobItem[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await engine.invoke('jobs.items', { id: job.id, limit: 1000, offset });
    items.push(...page.items);
    if (page.items.length < 1000) break;
  }
  const byId = new Map(items.map((item) => [item.key, item]));
  const counts = { done: 0, other: 0, failed: 0 };
  for (const id of ids.filter((id, index) => ids.indexOf(id) === index)) {
    const item = byId.get(id);
    const name = `${declaration.singular} "${printable(id)}"`;
    if (item?.state === 'done' && change) {
      const unchanged = item.phase === 'unchanged';
      counts[unchanged ? 'other' : 'done']++;
      out.record(
        { kind: declaration.kind, id, updated: !unchanged, ...(unchanged ? { unchanged: true } : {}) },
        unchanged ? `${capital(name)} already had those values.` : `Updated ${name}.`,
      );
    } else if (item?.state === 'done') {
      const already = item.phase === 'already gone';
      counts[already ? 'other' : 'done']++;
      out.record(
        { kind: declaration.kind, id, deleted: true, ...(already ? { already: true } : {}) },
        already ? `${capital(name)} was already gone.` : `${word === 'revoke' ? 'Revoked' : 'Deleted'} ${name}.`,
      );
    } else {
      counts.failed++;
      const error = item?.error ?? `Not done: the job is ${job.state}${job.reason ? ` (${job.reason})` : ''}`;
      if (out.json) out.record({ kind: declaration.kind, id, [change ? 'updated' : 'deleted']: false, error }, '');
      out.error(`${printable(id)}: ${printable(error)}`);
    }
  }
  const unfinished = !['completed'].includes(job.state);
  const summary = change
    ? { job: job.id, updated: counts.done, unchanged: counts.other, failed: counts.failed, state: job.state }
    : { job: job.id, deleted: counts.done, already: counts.other, failed: counts.failed, state: job.state };
  out.record(
    summary,
    (change
      ? `${counts.done} updated, ${counts.other} unchanged, ${counts.failed} failed`
      : `${counts.done} ${word}d, ${counts.other} already gone, ${counts.failed} failed`) +
      (unfinished ? ` (job ${job.id} is ${job.state}: mentor-admin jobs show ${job.id.slice(0, 8)})` : ''),
  );
  return counts.failed ? 1 : 0;
}

const capital = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`;

const SWITCH = { on: true, off: false } as const;
function switchOf(text: string | undefined, option: string): boolean | undefined {
  if (text === undefined) return undefined;
  if (text !== 'on' && text !== 'off') throw new UsageError(`${option} takes on or off (got '${text}')`);
  return SWITCH[text];
}

/** `llm-access`: the default LLM key and the free trial, read, or switched and read back. */
export const runLlmAccessCommand: Command = async (engine, args, out, _io, globals) => {
  const { values, positionals } = commandArgs(args, {
    'default-key': { type: 'string' },
    'free-trial': { type: 'string' },
  });
  if (positionals.length) throw new UsageError('llm-access takes no arguments');
  const defaultKey = switchOf(values['default-key'], '--default-key');
  const freeTrial = switchOf(values['free-trial'], '--free-trial');
  const profileId = await profileIdOf(engine, globals);
  const tenant = profileId ? { profileId } : {};
  if (defaultKey !== undefined || freeTrial !== undefined) {
    const { messages } = await engine.invoke('llmAccess.set', {
      ...tenant,
      ...(defaultKey !== undefined && { defaultKey }),
      ...(freeTrial !== undefined && { freeTrial }),
    });
    if (!out.json) for (const message of messages) out.text(printable(message));
  }
  const access = await engine.invoke('llmAccess.get', tenant);
  if (access.offline) out.error(access.offline);
  const said = (value: boolean | null) => (value === null ? 'not said by the platform' : value ? 'on' : 'off');
  const usage = Object.entries(access.usage ?? {})
    .map(([field, value]) => `  ${field}: ${printable(cell(value))}`)
    .join('\n');
  out.record(
    access,
    `Default LLM key: ${said(access.defaultKey)}\nFree trial: ${said(access.freeTrial)}\nDefault key usage:\n${usage || '  (the platform answered nothing)'}`,
  );
  return 0;
};

export const runResourceCommand =
  (verb: 'kinds' | 'get' | 'create' | 'update' | 'delete' | 'do' | 'export'): Command =>
  async (engine, args, out, _io, globals) => {
    if (verb === 'kinds') {
      const { positionals } = commandArgs(args, {});
      if (positionals.length) throw new UsageError('kinds takes no arguments');
      for (const declaration of Object.values(RESOURCES) as ResourceDeclaration[]) {
        const line = {
          kind: declaration.kind,
          label: declaration.label,
          area: RESOURCE_AREAS[declaration.area],
          verbs: verbsOf(declaration),
        };
        out.record(
          line,
          `${line.kind.padEnd(16)}${line.label.padEnd(20)}${line.area.padEnd(18)}${line.verbs.join(',')}`,
        );
      }
      return 0;
    }
    const profileId = await profileIdOf(engine, globals);
    const tenant = profileId ? { profileId } : {};

    switch (verb) {
      case 'get':
        if (isBadgeKind(args.find((arg) => !arg.startsWith('-')))) return runBadgeGet(engine, args, out, tenant);
        return getCommand(engine, args, out, tenant);

      case 'create': {
        const { values, positionals } = commandArgs(args, {
          set: { type: 'string', multiple: true },
          file: { type: 'string' },
        });
        const declaration = kindOf(positionals[0], 'create');
        if (positionals.length > 1) throw new UsageError('create takes one KIND (the id is a field: --set)');
        const body = await bodyOf(declaration, 'create', values);
        const { record, revealed, notes } = await engine.invoke('resources.create', {
          ...tenant,
          kind: declaration.kind,
          values: body,
        });
        const id = cell(record[declaration.idField]);
        printNotes(out, notes);
        if (out.json) out.record({ ...record, ...revealed, ...(notes?.length && { notes }) }, '');
        // The one place a shown-once value is printed: this answer, to this terminal.
        else {
          out.text(`Created ${declaration.singular} "${printable(id)}".`);
          for (const [field, value] of Object.entries(revealed)) {
            out.text(`${field} (shown this once; copy it now): ${value}`);
          }
        }
        return 0;
      }

      case 'update': {
        const { values, positionals } = commandArgs(args, {
          set: { type: 'string', multiple: true },
          file: { type: 'string' },
        });
        const declaration = kindOf(positionals[0], 'update');
        if (declaration.single) {
          const keyed = declaration.keyedBy;
          if (keyed ? positionals.length !== 2 : positionals.length > 1) {
            throw new UsageError(
              keyed
                ? `${declaration.kind} is one record per ${keyed.label.toLowerCase()}: update ${declaration.kind} ${keyed.label.toUpperCase()} --set FIELD=VALUE`
                : `${declaration.kind} is one record per tenant: update ${declaration.kind} takes no ID`,
            );
          }
          const body = await bodyOf(declaration, 'update', values);
          const { record } = await engine.invoke('resources.updateSingle', {
            ...tenant,
            kind: declaration.kind,
            ...(keyed && { key: positionals[1] }),
            values: body,
          });
          if (out.json) out.record(record, '');
          else out.text(`Updated ${declaration.label}.`);
          return 0;
        }
        const id = positionals[1];
        if (!id) throw new UsageError('update takes KIND ID...');
        const body = await bodyOf(declaration, 'update', values);
        // Several IDs: the same values set on each, as one journalled job (the screen's bulk change).
        if (positionals.length > 2) return bulkRun(engine, tenant, declaration, positionals.slice(1), out, body);
        const { record, notes } = await engine.invoke('resources.update', {
          ...tenant,
          kind: declaration.kind,
          id,
          values: body,
        });
        printNotes(out, notes);
        if (out.json) out.record({ ...record, ...(notes?.length && { notes }) }, '');
        else out.text(`Updated ${declaration.singular} "${printable(id)}".`);
        return 0;
      }

      case 'delete': {
        const { values, positionals } = commandArgs(args, { yes: { type: 'boolean' } });
        const declaration = kindOf(positionals[0], 'delete');
        const ids = positionals.slice(1);
        if (!ids.length) throw new UsageError('delete needs KIND and one or more IDs');
        const word = (declaration.deleteLabel ?? 'Delete').toLowerCase();
        if (!values.yes) {
          throw new UsageError(
            `delete ${declaration.kind} ${ids.join(' ')} needs --yes: it will ${word} ${ids.length} ${ids.length === 1 ? declaration.singular : pluralOf(declaration)}`,
          );
        }
        // The platform decides: what refers to these is said (on stderr), never a reason to refuse.
        const found = await engine.invoke('resources.referrers', {
          ...tenant,
          kind: declaration.kind,
          ids: ids.slice(0, BULK_MAX),
          refresh: true,
        });
        for (const line of referrerLines(declaration.kind, found, Object.values(RESOURCES) as ResourceDeclaration[]))
          out.error(`Warning: ${printable(line)}`);
        if (ids.length > 1) return bulkRun(engine, tenant, declaration, ids, out);
        const [id] = ids as [string];
        const result = await engine.call('resources.delete', { ...tenant, kind: declaration.kind, id });
        if (result.ok) {
          out.record(
            { kind: declaration.kind, id, deleted: true },
            `${word === 'revoke' ? 'Revoked' : 'Deleted'} ${declaration.singular} "${printable(id)}".`,
          );
          out.record({ deleted: 1, failed: 0 }, `1 ${word}d, 0 failed`);
          return 0;
        }
        if (out.json) out.record({ kind: declaration.kind, id, deleted: false, error: result.error.message }, '');
        out.error(`${printable(id)}: ${result.error.message}`);
        out.record({ deleted: 0, failed: 1 }, `0 ${word}d, 1 failed`);
        return 1;
      }

      case 'export': {
        const { values, positionals } = commandArgs(args, {
          out: { type: 'string' },
          where: { type: 'string', multiple: true },
          search: { type: 'string' },
          'no-bom': { type: 'boolean' },
        });
        const declaration = kindOf(positionals[0], 'export');
        if (positionals.length > 1) throw new UsageError('export takes one KIND');
        if (!values.out) throw new UsageError(`export ${declaration.kind} needs --out FILE.csv`);
        const { records } = await readAll(engine, tenant, declaration, values);
        const path = resolve(values.out);
        const written = await writeCsvAtomically(
          path,
          declaration.columns.map((c) => c.field),
          [records.map((record) => declaration.columns.map((c) => cell(record[c.field])))],
          { bom: !values['no-bom'] },
        );
        out.record(
          { kind: declaration.kind, path, rows: written.rows },
          `Wrote ${written.rows} ${written.rows === 1 ? declaration.singular : pluralOf(declaration)} to ${path}`,
        );
        return 0;
      }

      case 'do': {
        const { values, positionals } = commandArgs(args, { set: { type: 'string', multiple: true } });
        const declaration = kindOf(positionals[0], 'do');
        const [, id, action, ...more] = positionals;
        if (!id || !action || more.length) throw new UsageError('do takes KIND ID ACTION');
        const given = Object.fromEntries(pairs(values.set, '--set'));
        const { record } = await engine.invoke('resources.action', {
          ...tenant,
          kind: declaration.kind,
          id,
          action,
          ...(Object.keys(given).length ? { values: given } : {}),
        });
        out.record(
          { kind: declaration.kind, id, action, record },
          `Done: ${action} on ${declaration.singular} "${printable(id)}".`,
        );
        return 0;
      }
    }
  };
