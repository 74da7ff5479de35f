import type { IncomingMessage } from 'node:http';
import { readBody } from '../../http/body';
import { badRequest } from '../../http/errors';

/**
 * A small multipart/form-data reader for uploads. The body is read with the core's size checks (Content-Length
 * first, then while streaming), then split in place: a file part is a view of the body, never copied or wrapped.
 */

export interface UploadedFile {
  name: string;
  type: string;
  data: Buffer;
}

export interface Multipart {
  fields: Record<string, string>;
  files: Record<string, UploadedFile>;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

function boundaryOf(contentType: string): string {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary || boundary.length > 200) throw badRequest('Invalid request data');
  return boundary;
}

const unescapeHtmlForm = (value: string) =>
  value.replace(/%(22|0D|0A)/gi, (_, code: string) => String.fromCharCode(parseInt(code, 16)));

/** `name="…"` or `name*=UTF-8''…` from a Content-Disposition header. */
function dispositionParam(header: string, key: string): string | undefined {
  const extended = new RegExp(`;\\s*${key}\\*=(?:UTF-8|utf-8)''([^;]*)`).exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!);
    } catch {
      return extended[1];
    }
  }
  const quoted = new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`).exec(header);
  // Browsers and fetch escape `"`, CR and LF in names as %22, %0D and %0A (HTML's multipart/form-data encoding).
  if (quoted) return unescapeHtmlForm(quoted[1]!.replace(/\\(.)/g, '$1'));
  return new RegExp(`;\\s*${key}=([^;\\s]+)`).exec(header)?.[1];
}

export function parseMultipart(body: Buffer, contentType: string, invalid = 'Invalid request data'): Multipart {
  const delimiter = Buffer.from(`--${boundaryOf(contentType)}`);
  const next = Buffer.concat([CRLF, delimiter]);
  const out: Multipart = { fields: {}, files: {} };
  let at = body.indexOf(delimiter);
  if (at < 0) throw badRequest(invalid);
  at += delimiter.length;
  for (;;) {
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return out; // closing `--boundary--`
    if (body[at] !== 0x0d || body[at + 1] !== 0x0a) throw badRequest(invalid);
    const headersEnd = body.indexOf(HEADER_END, at + 2);
    if (headersEnd < 0) throw badRequest(invalid);
    const headers = body.toString('latin1', at + 2, headersEnd).split('\r\n');
    const end = body.indexOf(next, headersEnd + 4);
    if (end < 0) throw badRequest(invalid);
    const data = body.subarray(headersEnd + 4, end);
    let disposition = '';
    let type = '';
    for (const line of headers) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      if (name === 'content-disposition') disposition = line.slice(colon + 1);
      else if (name === 'content-type') type = line.slice(colon + 1).trim();
    }
    // Header bytes were read as latin1; names are UTF-8 on the wire.
    const fieldName = dispositionParam(disposition, 'name');
    if (fieldName === undefined) throw badRequest(invalid);
    const field = Buffer.from(fieldName, 'latin1').toString('utf8');
    const filename = dispositionParam(disposition, 'filename');
    if (filename !== undefined)
      out.files[field] = { name: Buffer.from(filename, 'latin1').toString('utf8'), type, data };
    else out.fields[field] = data.toString('utf8');
    at = end + next.length;
  }
}

/** Reads and parses a multipart body of at most `limit` bytes (413 `tooLargeDetail` beyond). */
export async function readMultipart(req: IncomingMessage, limit: number, tooLargeDetail: string): Promise<Multipart> {
  const contentType = req.headers['content-type'] ?? '';
  const body = await readBody(req, limit, tooLargeDetail);
  return parseMultipart(body, contentType);
}
