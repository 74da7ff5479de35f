/**
 * Remote images in ticket descriptions, fetched by the engine only when the admin asks ("show images"), and handed
 * to the page as a `data:` URL. The page's CSP keeps `img-src 'self' data:` in every shell, so nothing in a
 * description can make the window contact another host: a tracking pixel stays unrequested until asked for.
 *
 * Only sources the ticket's own (sanitised) description carries are fetched, so the call is not a general-purpose
 * fetcher; no cookies or referrer go with the request; the answer must really be a raster image (checked by its
 * bytes, not its Content-Type), at most a few megabytes, within a time limit.
 */
import type { RichNode } from '../../../shared/contract';
import { EngineError } from '../errors';

export const IMAGE_LIMITS = {
  maxBytes: 5 * 1024 * 1024,
  timeoutMs: 15_000,
};

export interface FetchedImage {
  dataUrl: string;
  type: string;
  bytes: number;
}

/** Every image source in a sanitised description, in document order, without repeats. */
export function imageSources(doc: RichNode[]): string[] {
  const found = new Set<string>();
  const walk = (nodes: RichNode[]) => {
    for (const node of nodes) {
      if (node.t !== 'el') continue;
      if (node.tag === 'img' && node.src) found.add(node.src);
      walk(node.children);
    }
  };
  walk(doc);
  return [...found];
}

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The raster image type of these bytes (PNG, JPEG, GIF, WebP, AVIF, BMP, ICO), or null for anything else. */
export function sniffImageType(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, ascii('ftypavif'), 4) || startsWith(bytes, ascii('ftypavis'), 4)) return 'image/avif';
  if (startsWith(bytes, ascii('BM')) && bytes.length > 26) return 'image/bmp';
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00]) && bytes.length > 6) return 'image/x-icon';
  return null;
}

function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 512)).trimStart().toLowerCase();
  return head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'));
}

const hostOf = (src: string) => {
  try {
    return new URL(src).host;
  } catch {
    return src;
  }
};

/** GETs an image, reading at most `maxBytes`; every failure is an EngineError that says what happened. */
export async function fetchRemoteImage(
  src: string,
  options: { maxBytes?: number; timeoutMs?: number; fetch?: typeof fetch } = {},
): Promise<FetchedImage> {
  const maxBytes = options.maxBytes ?? IMAGE_LIMITS.maxBytes;
  const host = hostOf(src);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? IMAGE_LIMITS.timeoutMs);
  try {
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(src, {
        signal: controller.signal,
        redirect: 'follow',
        referrerPolicy: 'no-referrer',
        credentials: 'omit',
        headers: { Accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif,image/*;q=0.8' },
      });
    } catch {
      throw controller.signal.aborted
        ? new EngineError('unreachable', `The image from ${host} took too long to arrive.`)
        : new EngineError('unreachable', `The image could not be loaded: ${host} did not answer.`);
    }
    if (!response.ok) {
      void response.body?.cancel().catch(() => {});
      throw new EngineError(
        'api',
        `The image could not be loaded: ${host} answered ${response.status} ${response.statusText}`.trim(),
        { status: response.status },
      );
    }
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      void response.body?.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = response.body?.getReader();
    try {
      while (reader) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          void reader.cancel().catch(() => {});
          throw tooLarge(maxBytes);
        }
        chunks.push(value);
      }
    } catch (error) {
      if (error instanceof EngineError) throw error;
      throw new EngineError('unreachable', `The image from ${host} stopped arriving part-way.`);
    }
    const bytes = Buffer.concat(chunks);
    const type = sniffImageType(bytes);
    if (!type) {
      throw new EngineError(
        'validation',
        looksLikeSvg(bytes)
          ? `The image from ${host} is an SVG drawing; only photos and screenshots (PNG, JPEG, GIF, WebP) are shown.`
          : `What ${host} sent is not an image.`,
      );
    }
    return { dataUrl: `data:${type};base64,${bytes.toString('base64')}`, type, bytes: bytes.byteLength };
  } finally {
    clearTimeout(timer);
  }
}

function tooLarge(maxBytes: number): EngineError {
  return new EngineError('validation', `The image is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`);
}
