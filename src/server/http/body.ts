import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { badRequest, HttpError } from './errors';

/** Reads the whole body, refusing more than `limit` bytes (checked on Content-Length and while streaming). */
export async function readBody(
  req: IncomingMessage,
  limit: number,
  tooLargeDetail = 'Request body too large',
): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw new HttpError(413, tooLargeDetail);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpError(413, tooLargeDetail);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function contentType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Parses multipart or urlencoded bodies with the platform's own (undici) parser. */
export async function readForm(req: IncomingMessage, limit: number, tooLargeDetail?: string): Promise<FormData> {
  const type = contentType(req);
  if (type !== 'multipart/form-data' && type !== 'application/x-www-form-urlencoded') {
    throw badRequest('Invalid request data: expected multipart/form-data');
  }
  const body = await readBody(req, limit, tooLargeDetail);
  try {
    return await new Request('http://sandbox.local/', {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type']! },
      body: Readable.toWeb(Readable.from([body])) as ReadableStream,
      duplex: 'half',
    } as RequestInit).formData();
  } catch {
    throw badRequest('Invalid request data: malformed form body');
  }
}

/** A form as a plain object: repeated fields become arrays, files stay File objects. */
export function formToObject(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key);
    out[key] = values.length > 1 ? values : values[0];
  }
  return out;
}

/** JSON bodies, or forms for operations the spec lets take any content type. */
export async function readJsonLike(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = contentType(req);
  if (type === 'multipart/form-data' || type === 'application/x-www-form-urlencoded') {
    return formToObject(await readForm(req, limit));
  }
  const text = (await readBody(req, limit)).toString('utf8');
  if (!text.trim()) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest('JSON parse error - Expected a valid JSON body');
  }
}
