/**
 * The `person-export` job: everything the tenant holds about one person, as one zip with a CSV per dataset (the
 * app's injection-safe CSV writer) and a JSON manifest. One journal item per source read from the platform; each
 * writes its CSVs to a folder beside the target and records their hashes. Resumed after a kill, a source whose files
 * are intact is not read again, and the zip is built from those files with fixed timestamps (the job's creation
 * time) in a fixed order, so it is byte for byte what an uninterrupted run writes.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { PERSON_DATASETS, type PersonDataset } from '../../../../shared/contract';
import { csvRow, toCsv } from '../../csv';
import { JobFailed, type JobContext, type JobKindRunner } from '../../jobs';
import { ApiError } from '../../platform';
import { zipFiles } from '../../zip';
import type { ResourceServices } from '../handlers';
import { PersonPlatform } from './platform';

export const ExportParams = z.object({
  profileId: z.string(),
  tenant: z.object({ name: z.string(), org: z.string() }),
  by: z.string(),
  person: z.object({ userId: z.string(), username: z.string(), email: z.string().nullable() }),
  path: z.string(),
});
export type ExportParams = z.infer<typeof ExportParams>;

/** The sources, in reading order, and the datasets each writes. */
export const EXPORT_SOURCES: Record<string, readonly PersonDataset[]> = {
  'chat-history': ['chat-history', 'feedback'],
  memory: ['memory', 'historical-memory'],
  'profile-memory': ['profile-memory'],
  'edx-memory': ['edx-memory'],
  tickets: ['tickets'],
  invitations: ['invitations'],
  enrolments: ['enrolments'],
};
export const ZIP_ITEM = 'zip';
/** zlib's level: CSV text still shrinks about 20 times at the fastest one. */
const ZIP_LEVEL = 1;

/** A dataset's rows, or (for the chat history) its rows already written as CSV lines page by page, and how many. */
type Table = { header: string[]; rows: unknown[][] } | { header: string[]; lines: string[]; count: number };
interface FileRecord {
  dataset: PersonDataset;
  rows: number;
  sha256: string;
}
interface SourceData {
  files?: FileRecord[];
  warning?: string;
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const json = (value: unknown) => (value === undefined || value === null ? '' : JSON.stringify(value));
export const partsDir = (path: string) => `${path}.parts`;
const fileOf = (dataset: PersonDataset) => `${dataset}.csv`;

async function readSource(source: string, platform: PersonPlatform): Promise<Partial<Record<PersonDataset, Table>>> {
  switch (source) {
    case 'chat-history': {
      // Each page is written as CSV text as it comes (50,000 messages are not held as rows until the end), and a
      // conversation's own four cells are written once for its twenty-odd messages.
      const pages: string[] = [];
      let count = 0;
      const feedback: unknown[][] = [];
      for await (const page of platform.conversations()) {
        const lines: string[] = [];
        for (const c of page.results) {
          const transcript = parseTranscript(c.messages);
          if (transcript.length) {
            const conversation = `${csvRow([c.id, c.mentor, c.inserted_at, c.sentiment])},`;
            for (let i = 0; i < transcript.length; i++) {
              const m = transcript[i]!;
              lines.push(`${conversation}${i + 1},${csvRow([m.type, m.timestamp, m.content])}\r\n`);
            }
            count += transcript.length;
          }
          if (c.rating) feedback.push([c.id, c.mentor, c.inserted_at, c.rating, c.sentiment]);
        }
        // One flat string per page: a string grown line by line would be flattened again, slowly, when encoded.
        if (lines.length) pages.push(lines.join(''));
      }
      return {
        'chat-history': {
          header: ['conversation_id', 'mentor', 'started_at', 'sentiment', 'message', 'type', 'timestamp', 'content'],
          lines: pages,
          count,
        },
        feedback: { header: ['conversation_id', 'mentor', 'started_at', 'rating', 'sentiment'], rows: feedback },
      };
    }
    case 'memory': {
      const memories = await platform.memories();
      const rows = memories.flatMap((m) =>
        m.entries.map((e) => [
          m.mentor ?? '',
          m.category ?? m.name ?? '',
          e.key ?? '',
          e.value ?? '',
          e.inserted_at ?? '',
        ]),
      );
      const mentors = [...new Set(memories.map((m) => m.mentor).filter((m): m is string => !!m))].sort();
      const history: unknown[][] = [];
      for (const mentor of mentors)
        for (const snapshot of await platform.history(mentor))
          for (const item of snapshot.items) history.push([mentor, snapshot.insertedAt, item.kind, item.content]);
      return {
        memory: { header: ['mentor', 'category', 'key', 'value', 'inserted_at'], rows },
        'historical-memory': { header: ['mentor', 'inserted_at', 'kind', 'content'], rows: history },
      };
    }
    case 'profile-memory': {
      const entries = await platform.profileMemory();
      return {
        'profile-memory': {
          header: ['tag', 'detail'],
          rows: entries.map((e) => [e.tag, e.detail ?? '']),
        },
      };
    }
    case 'edx-memory': {
      const records = await platform.edxMemory();
      return {
        'edx-memory': {
          header: ['id', 'course_id', 'date_created', 'last_modified', 'data'],
          rows: records.map((r) => [r.id, r.course_id, r.date_created, r.last_modified, json(r.data)]),
        },
      };
    }
    case 'tickets': {
      const tickets = await platform.tickets();
      return {
        tickets: {
          header: ['id', 'subject', 'description', 'status', 'mentor_id', 'created_at', 'updated_at', 'resolved_at'],
          rows: tickets.map((t) => [
            t.id,
            t.subject,
            t.description,
            t.status,
            t.mentor_id,
            t.created_at,
            t.updated_at,
            t.resolved_at ?? '',
          ]),
        },
      };
    }
    case 'invitations': {
      const invitations = await platform.invitations();
      return {
        invitations: {
          header: ['id', 'email', 'username', 'active', 'source', 'created', 'expired'],
          rows: invitations.map((i) => [
            i.id,
            i.email ?? '',
            i.username ?? '',
            i.active,
            i.source ?? '',
            i.created ?? '',
            i.expired ?? '',
          ]),
        },
      };
    }
    case 'enrolments': {
      const enrolments = await platform.enrolments();
      return {
        enrolments: {
          header: ['course_id', 'active', 'created', 'record'],
          rows: enrolments.map((e) => [e.course_id ?? '', e.active ?? '', e.created ?? '', json(e)]),
        },
      };
    }
    default:
      throw new JobFailed(`Unknown source ${source}`);
  }
}

type Message = { type: string; content: string; timestamp: string };
const isMessage = (m: unknown): m is Message =>
  typeof m === 'object' &&
  m !== null &&
  typeof (m as Message).type === 'string' &&
  typeof (m as Message).content === 'string' &&
  typeof (m as Message).timestamp === 'string';

/** A conversation's messages; any other value in a field is written as its text, an unreadable transcript whole. */
function parseTranscript(text: string): Message[] {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!Array.isArray(parsed)) return [];
    if (parsed.every(isMessage)) return parsed;
    return parsed.map((m: Record<string, unknown>) => ({
      type: String(m.type ?? ''),
      content: String(m.content ?? ''),
      timestamp: String(m.timestamp ?? ''),
    }));
  } catch {
    return [{ type: '', content: text, timestamp: '' }];
  }
}

/**
 * A dataset's CSV file: byte order mark, header, rows, each line ending CRLF. The chat history's pages are encoded
 * straight into one buffer of their size (a buffer per page joined after took five times as long, most of it the
 * copy and the fresh memory's page faults).
 */
function csvFile(table: Table): Buffer {
  const head = `\uFEFF${toCsv([table.header])}\r\n`;
  if (!('lines' in table)) return Buffer.from(table.rows.length ? `${head}${toCsv(table.rows)}\r\n` : head);
  let size = Buffer.byteLength(head);
  for (const page of table.lines) size += Buffer.byteLength(page);
  const data = Buffer.allocUnsafe(size);
  let at = data.write(head);
  for (const page of table.lines) at += data.write(page, at);
  return data;
}

/** A platform that does not serve a dataset (404, 405, 501) leaves it empty with a warning; the export goes on. */
function notServed(error: unknown): string | null {
  if (error instanceof ApiError && [404, 405, 501].includes(error.status))
    return `The tenant does not serve this (${error.status} ${error.statusText})`;
  return null;
}

/**
 * The zip of a finished set of parts: fixed date, mode and order, so the same parts always give the same bytes.
 * Deflate and CRC-32 are Node's native zlib (jszip's JavaScript deflate, then yazl's JavaScript CRC-32, took much of
 * a large export's CPU).
 */
export async function buildZip(
  dir: string,
  manifest: object,
  date: Date,
  /** Parts this run wrote and still holds (the same bytes as their files): not read back. */
  held = new Map<PersonDataset, Buffer>(),
): Promise<Buffer> {
  const files = PERSON_DATASETS.map((dataset) => ({
    name: fileOf(dataset),
    data: held.get(dataset) ?? readFileSync(`${dir}/${fileOf(dataset)}`),
  }));
  files.push({ name: 'manifest.json', data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) });
  return zipFiles(files, { mtime: date, mode: 0o100644, level: ZIP_LEVEL });
}

export function personExportKind(services: ResourceServices): JobKindRunner {
  return {
    kind: 'person-export',
    async run(ctx: JobContext) {
      const parsed = ExportParams.safeParse(ctx.params);
      if (!parsed.success) throw new JobFailed('This export was written by another version of the app; start it again');
      const params = parsed.data;
      const { journal, job } = ctx;
      const dir = partsDir(params.path);
      const zipItem = journal.itemByKey(job.id, ZIP_ITEM);
      if (zipItem?.state === 'done') return;
      mkdirSync(dir, { recursive: true });
      const platform = new PersonPlatform(
        await ctx.client(),
        { org: params.tenant.org, username: params.by },
        params.profileId,
        params.person,
        services,
        ctx.signal,
      );

      const written = new Map<PersonDataset, Buffer>();
      for (const [source, datasets] of Object.entries(EXPORT_SOURCES)) {
        const item = journal.itemByKey(job.id, source)!;
        const done = JSON.parse(item.data) as SourceData;
        const intact =
          item.state === 'done' &&
          (done.files ?? []).every((f) => {
            const file = `${dir}/${fileOf(f.dataset)}`;
            return existsSync(file) && sha256(readFileSync(file)) === f.sha256;
          });
        if (intact) continue;
        ctx.progress(`Reading ${source}`);
        journal.updateItem(item.id, { state: 'active', attempt: true });
        let tables: Partial<Record<PersonDataset, Table>> = {};
        let warning: string | undefined;
        try {
          tables = await readSource(source, platform);
        } catch (error) {
          const why = notServed(error);
          if (!why) throw error;
          warning = why;
        }
        const files: FileRecord[] = [];
        let bytes = 0;
        for (const dataset of datasets) {
          const table = tables[dataset] ?? { header: ['none'], rows: [] };
          const data = csvFile(table);
          const file = `${dir}/${fileOf(dataset)}`;
          writeFileSync(`${file}.tmp`, data);
          written.set(dataset, data);
          renameSync(`${file}.tmp`, file);
          bytes += data.length;
          files.push({ dataset, rows: 'lines' in table ? table.count : table.rows.length, sha256: sha256(data) });
        }
        journal.updateItem(item.id, {
          state: 'done',
          error: null,
          bytes,
          data: { files, ...(warning && { warning }) } satisfies SourceData,
        });
      }

      ctx.progress('Writing the zip');
      const sources = Object.keys(EXPORT_SOURCES).map(
        (key) => JSON.parse(journal.itemByKey(job.id, key)!.data) as SourceData,
      );
      const records = new Map(
        sources.flatMap((s) => (s.files ?? []).map((f) => [f.dataset, { ...f, warning: s.warning }])),
      );
      const manifest = {
        format: 'mentor-admin person export 1',
        tenant: params.tenant,
        person: params.person,
        exportedAt: job.created_at,
        exportedBy: params.by,
        datasets: PERSON_DATASETS.map((dataset) => {
          const record = records.get(dataset)!;
          return {
            name: dataset,
            file: fileOf(dataset),
            rows: record.rows,
            sha256: record.sha256,
            ...(record.warning && { warning: record.warning }),
          };
        }),
      };
      const zip = await buildZip(dir, manifest, new Date(job.created_at), written);
      writeFileSync(`${params.path}.partial`, zip);
      renameSync(`${params.path}.partial`, params.path);
      const rows = manifest.datasets.reduce((sum, d) => sum + d.rows, 0);
      journal.transaction(() => {
        journal.updateItemByKey(job.id, ZIP_ITEM, { state: 'done', error: null, bytes: zip.length, data: { rows } });
        journal.setCounts(job.id, { rows, bytes: zip.length });
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
