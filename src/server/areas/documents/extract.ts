import Papa from 'papaparse';

/** Plain text out of the document types the platform trains: txt, md, html, csv, json, pdf and docx. */

export const SUPPORTED_TYPES = ['txt', 'md', 'html', 'csv', 'json', 'pdf', 'docx'] as const;
export type SupportedType = (typeof SUPPORTED_TYPES)[number];

/** Why a document could not be trained; stored on the document and shown as its failure reason. */
export class ExtractionError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ExtractionError';
  }
}

const ALIASES: Record<string, string> = { markdown: 'md', htm: 'html', text: 'txt', xhtml: 'html' };

/** A `type` value or a file extension as a document type: lower case, no dot, common aliases folded. */
export function normalizeType(raw: string): string {
  const type = raw.trim().toLowerCase().replace(/^\./, '');
  return ALIASES[type] ?? type;
}

export function typeFromName(name: string): string | null {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(name.trim());
  return match ? normalizeType(match[1]!) : null;
}

/** The type of a file without a usable extension, from its first bytes. */
export function sniffType(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.subarray(0, 8)).toString('latin1');
  if (head.startsWith('%PDF-')) return 'pdf';
  if (head.startsWith('PK\u0003\u0004')) return 'docx';
  return bytes.subarray(0, 4096).includes(0) ? 'bin' : 'txt';
}

const MIME_TYPES: Record<string, string> = {
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/x-markdown': 'md',
  'text/csv': 'csv',
  'application/json': 'json',
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

export function typeFromMime(contentType: string | null): string | null {
  if (!contentType) return null;
  return MIME_TYPES[contentType.split(';')[0]!.trim().toLowerCase()] ?? null;
}

export const isSupported = (type: string): type is SupportedType =>
  (SUPPORTED_TYPES as readonly string[]).includes(type);

export const unsupportedReason = (type: string) =>
  `Unsupported document type: ${type || 'unknown'} (supported: ${SUPPORTED_TYPES.join(', ')})`;
export const NO_PDF_TEXT = 'No extractable text found in the PDF (is it a scanned image?)';

/** Text bytes as a string: UTF-8 (BOM dropped), or Windows-1252 when the bytes are not valid UTF-8. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes.subarray(0, 4096).includes(0))
    throw new ExtractionError('The file is not a text file (it contains binary data)');
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  copy: '©',
  reg: '®',
  rsquo: '’',
  lsquo: '‘',
  ldquo: '“',
  rdquo: '”',
  middot: '·',
  bull: '•',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, code: string) => {
    if (code[0] === '#') {
      const point = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : Number(code.slice(1));
      return point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : whole;
    }
    return ENTITIES[code.toLowerCase()] ?? whole;
  });
}

/** Collapses runs of spaces, trims lines and keeps at most one blank line between paragraphs. */
export function tidyWhitespace(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Visible text of an HTML page: scripts, styles and comments dropped, block ends kept as line breaks. */
export function htmlToText(html: string): string {
  const stripped = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|noscript|template|svg|iframe)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(
      /<\/?(br|p|div|li|ul|ol|h[1-6]|tr|table|section|article|header|footer|nav|blockquote|pre|title|dd|dt)\b[^>]*>/gi,
      '\n',
    )
    .replace(/<(td|th)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ');
  return tidyWhitespace(decodeEntities(stripped));
}

/** CSV rows as lines; with a header row each value is labelled with its column (`name: value; …`). */
export function csvToText(csv: string): string {
  const parsed = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const rows = parsed.data.filter((row) => Array.isArray(row));
  if (!rows.length) return '';
  const [first, ...rest] = rows;
  const header =
    first!.length > 1 && first!.every((cell) => cell.trim() !== '' && !/^-?\d+([.,]\d+)?$/.test(cell.trim()));
  if (!header) return rows.map((row) => row.join(', ')).join('\n');
  const labels = first!.map((cell) => cell.trim());
  return [
    labels.join(', '),
    ...rest.map((row) =>
      row
        .map((cell, i) => (cell.trim() ? `${labels[i] ?? `column ${i + 1}`}: ${cell.trim()}` : ''))
        .filter(Boolean)
        .join('; '),
    ),
  ].join('\n');
}

/** A JSON document as `path: value` lines, so keys and values are both searchable. */
export function jsonToText(source: string): string {
  let value: unknown;
  try {
    value = JSON.parse(source.replace(/^\uFEFF/, '')) as unknown;
  } catch (error) {
    throw new ExtractionError(`Invalid JSON: ${(error as Error).message}`);
  }
  const lines: string[] = [];
  const walk = (node: unknown, path: string) => {
    if (Array.isArray(node)) {
      if (node.every((item) => item === null || typeof item !== 'object')) lines.push(`${path}: ${node.join(', ')}`);
      else node.forEach((item, i) => walk(item, `${path}[${i}]`));
    } else if (node && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) walk(item, path ? `${path}.${key}` : key);
    } else lines.push(path ? `${path}: ${String(node)}` : String(node));
  };
  walk(value, '');
  return lines.join('\n');
}

async function pdfToText(bytes: Uint8Array): Promise<string> {
  const { getDocumentProxy, extractText } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js takes ownership of the buffer it is given, so it gets a copy.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false });
  } catch (error) {
    throw new ExtractionError(`Could not read the PDF: ${(error as Error).message}`);
  }
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    return text
      .map((page) => tidyWhitespace(page))
      .filter(Boolean)
      .join('\n\n');
  } catch (error) {
    throw new ExtractionError(`Could not read the PDF: ${(error as Error).message}`);
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}

async function docxToText(bytes: Uint8Array): Promise<string> {
  const mammoth = (await import('mammoth')).default;
  try {
    const { value } = await mammoth.extractRawText({
      buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    });
    return value;
  } catch (error) {
    throw new ExtractionError(`Could not read the DOCX file: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** Text formats are converted synchronously (the seed uses this); pdf and docx need `extractText`. */
export function extractTextSync(type: SupportedType, bytes: Uint8Array): string {
  switch (type) {
    case 'txt':
    case 'md':
      return tidyWhitespace(decodeText(bytes).replace(/^\uFEFF/, ''));
    case 'html':
      return htmlToText(decodeText(bytes));
    case 'csv':
      return tidyWhitespace(csvToText(decodeText(bytes)));
    case 'json':
      return jsonToText(decodeText(bytes));
    default:
      throw new Error(`${type} needs asynchronous extraction`);
  }
}

/** The document's text; an unsupported type, a corrupt file or a file without text is an `ExtractionError`. */
export async function extractText(type: string, bytes: Uint8Array): Promise<string> {
  if (!isSupported(type)) {
    throw new ExtractionError(unsupportedReason(type));
  }
  const text =
    type === 'pdf'
      ? await pdfToText(bytes)
      : type === 'docx'
        ? tidyWhitespace(await docxToText(bytes))
        : extractTextSync(type, bytes);
  if (!text.trim()) {
    throw new ExtractionError(type === 'pdf' ? NO_PDF_TEXT : 'No text could be extracted from the document');
  }
  return text;
}
