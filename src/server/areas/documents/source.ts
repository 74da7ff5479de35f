import { createHash } from 'node:crypto';
import { readFile } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ExtractionError, normalizeType, typeFromMime, typeFromName } from './extract';
import type { DocumentRow } from './schema';

/** Where a document's bytes come from: its stored upload, or its URL (fetched at every (re)training). */

const readFileAsync = promisify(readFile);

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export const filesDir = (dataDir: string) => join(dataDir, 'files');

const FETCH_TIMEOUT_MS = 15_000;

/** Fetches a URL (http, https or data:) with a time limit and a size limit, and guesses its document type. */
export async function fetchUrl(url: string, limitBytes: number): Promise<{ bytes: Uint8Array; type: string }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ExtractionError(`Invalid URL: ${url}`);
  }
  if (!['http:', 'https:', 'data:'].includes(parsed.protocol))
    throw new ExtractionError(`Unsupported URL scheme: ${parsed.protocol}`);
  let response: Response;
  try {
    response = await fetch(parsed, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
  } catch (error) {
    throw new ExtractionError(`Could not fetch ${url}: ${(error as Error).message}`);
  }
  if (!response.ok) throw new ExtractionError(`Could not fetch ${url}: HTTP ${response.status}`);
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limitBytes) throw new ExtractionError('File too large');
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const part of response.body ?? []) {
    size += (part as Uint8Array).byteLength;
    if (size > limitBytes) throw new ExtractionError('File too large');
    parts.push(part as Uint8Array);
  }
  const type = typeFromMime(response.headers.get('content-type')) ?? typeFromName(parsed.pathname) ?? 'html';
  return { bytes: Buffer.concat(parts), type };
}

/** A document's bytes and type for training. */
export async function loadSource(
  row: DocumentRow,
  dataDir: string,
  limitBytes: number,
): Promise<{ bytes: Uint8Array; type: string }> {
  if (row.source_kind === 'url') {
    if (!row.url) throw new ExtractionError('The document has no URL');
    const fetched = await fetchUrl(row.url, limitBytes);
    // A URL document declared as plain `url` takes the type of what the server sent.
    return {
      bytes: fetched.bytes,
      type: row.document_type === 'url' ? fetched.type : normalizeType(row.document_type),
    };
  }
  if (!row.file_path) throw new ExtractionError('The document has no stored file');
  try {
    return {
      bytes: await readFileAsync(join(filesDir(dataDir), row.file_path)),
      type: normalizeType(row.document_type),
    };
  } catch (error) {
    throw new ExtractionError(`The stored file could not be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

/** `custom_metadata`: a flat JSON object (or its JSON text) with `\w+` keys and string, number or boolean values. */
export function parseCustomMetadata(value: unknown): Record<string, string | number | boolean> | null {
  if (value === undefined || value === null || value === '') return null;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value) as unknown;
    } catch {
      throw new Error('custom_metadata must be a JSON object');
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error('custom_metadata must be a JSON object');
  const entries = Object.entries(parsed);
  if (entries.length > 100) throw new Error('custom_metadata may have at most 100 keys');
  for (const [key, item] of entries) {
    if (!/^\w{1,100}$/.test(key))
      throw new Error(`custom_metadata key "${key}" must be letters, digits or underscores`);
    const scalar =
      typeof item === 'string' || typeof item === 'boolean' || (typeof item === 'number' && Number.isFinite(item));
    if (!scalar) throw new Error(`custom_metadata value of "${key}" must be a string, number or boolean`);
  }
  return parsed as Record<string, string | number | boolean>;
}
